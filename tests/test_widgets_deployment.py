"""Chapter 09's deployment advisor: the plain render function, then the live view driven through its controls."""

import re

from loopkit import widgets
from loopkit.widgets.deployment import QUESTIONS, render_advice


def choice(panel_html):
    return re.search(r'data-choice="(\w+)"', panel_html).group(1)


def test_render_advice_shows_the_choice_its_reasons_and_its_row():
    panel = render_advice("only me", False, True, True, False)
    assert choice(panel) == "isolated" and "Recommended: <b>isolated deployment</b>" in panel
    assert "<li>real credentials: they need scrubbing and request-scoped injection</li>" in panel
    assert "<li>untrusted content: a prompt injection must not reach your own machine</li>" in panel
    for label in ("who is trusted", "where state persists", "what you must configure"):
        assert f"<td>{label}</td>" in panel
    assert "a sandbox for tools" in panel


def test_render_advice_escapes_its_text():
    panel = render_advice("several people", True, False, False, False)
    assert choice(panel) == "shared" and "<script" not in panel


def test_the_view_starts_local_and_follows_its_controls():
    view = widgets.deployment_advisor()
    assert list(view.controls) == list(QUESTIONS)
    assert view.controls["users"].description == "Who uses one running instance?"
    assert choice(view.panel.value) == "local"
    view.controls["untrusted_content"].value = True
    assert choice(view.panel.value) == "isolated"
    assert "untrusted content" in view.panel.value
    view.controls["users"].value = "several people"
    assert choice(view.panel.value) == "shared"
    view.controls["users"].value = "only me"
    view.controls["untrusted_content"].value = False
    assert choice(view.panel.value) == "local"
    view.controls["reachable"].value = True
    assert choice(view.panel.value) == "shared"
    assert "others can reach it over the network" in view.panel.value


def test_the_view_offers_exactly_the_two_user_answers():
    view = widgets.deployment_advisor()
    assert list(view.controls["users"].options) == ["only me", "several people"]
