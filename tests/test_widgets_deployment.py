"""Chapter 09's deployment advisor: the rows it shows, the panel that shows them, then the live view driven through
its controls. The decision itself is loopkit.teaching.boundaries.recommend_deployment (tests/test_boundaries.py)."""

import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.teaching.boundaries import DEPLOYMENTS, recommend_deployment
from loopkit.views import widgets
from loopkit.views.widgets.deployment import QUESTIONS, deployment_rows, render_advice


def test_the_rows_are_the_chosen_deployment_one_facet_a_line():
    rows = deployment_rows("isolated")
    assert [row[""] for row in rows] == ["who is trusted", "where state persists", "what you must configure"]
    assert [row["isolated deployment"] for row in rows] == list(DEPLOYMENTS["isolated"][1:])


def test_the_panel_shows_the_choice_its_reasons_and_its_rows():
    panel = render_advice("only me", False, True, True, False)
    advice = recommend_deployment("only me", False, True, True, False)
    assert advice.choice == "isolated" and tables(panel) == [as_text(deployment_rows("isolated"))]
    assert text(panel).startswith("Recommended: isolated deployment " + " ".join(advice.reasons))


def advice(view):
    """The recommendation for the view's current answers; the panel must show exactly that."""
    return read_view(view, render_advice, recommend_deployment)


def test_the_view_starts_local_and_follows_its_controls():
    view = widgets.deployment_advisor()
    assert list(view.controls) == list(QUESTIONS)
    assert view.controls["users"].description == "Who uses one running instance?"
    assert advice(view).choice == "local"
    view.controls["untrusted_content"].value = True
    assert advice(view).choice == "isolated" and any("untrusted content" in r for r in advice(view).reasons)
    view.controls["users"].value = "several people"
    assert advice(view).choice == "shared"
    view.controls["users"].value = "only me"
    view.controls["untrusted_content"].value = False
    assert advice(view).choice == "local"
    view.controls["reachable"].value = True
    assert advice(view).choice == "shared"
    assert any("others can reach it over the network" in r for r in advice(view).reasons)


def test_the_view_offers_exactly_the_two_user_answers():
    view = widgets.deployment_advisor()
    # (label, value) pairs: the label may be translated, the value is recommend_deployment's own word
    assert list(view.controls["users"].options) == [("only me", "only me"), ("several people", "several people")]



def test_in_spanish_the_view_asks_and_advises_in_spanish_while_its_values_stay_english(spanish):
    view = widgets.deployment_advisor()
    assert view.children[0].value == "<b>¿Qué despliegue encaja?</b>"
    assert view.controls["users"].description == "¿Quién usa una misma instancia en ejecución?"
    assert view.controls["persistent_state"].description == "¿Deben la memoria o los hilos sobrevivir al proceso?"
    assert list(view.controls["users"].options) == [("solo yo", "only me"), ("varias personas", "several people")]
    view.controls["users"].value = "several people"
    panel = view.panel.value
    assert 'data-choice="shared"' in panel
    assert text(panel).startswith("Recomendado: despliegue compartido varias personas usan una instancia: cada una "
                                  "necesita una identidad que asigne el servidor")
    rows = tables(panel)[0]
    assert [row[""] for row in rows] == ["en quién se confía", "dónde persiste el estado", "qué debes configurar"]
    assert rows[0]["despliegue compartido"] == "ningún cliente: la identidad solo sale de la autenticación"
