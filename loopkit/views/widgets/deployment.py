"""Chapter 09's view: answer five questions about how you will run the agent, see which deployment fits.

The decision is :func:`loopkit.teaching.boundaries.recommend_deployment`; this module only lays it out as HTML.
"""

from __future__ import annotations

import html

from loopkit.core.language import N_, tr
from loopkit.teaching.boundaries import DEPLOYMENTS, USER_CHOICES, recommend_deployment

from ._base import View, table_html

__all__ = ["QUESTIONS", "deployment_rows", "render_advice", "deployment_advisor"]

#: control name -> the question the learner sees (in English; shown through tr)
QUESTIONS = {
    "users": N_("Who uses one running instance?"),
    "reachable": N_("Can others reach it over the network?"),
    "real_credentials": N_("Will tools use real credentials (API keys, tokens)?"),
    "untrusted_content": N_("Will it read untrusted content (web pages, MCP tools, uploads)?"),
    "persistent_state": N_("Must memory or threads outlive the process?"),
}


def deployment_rows(choice: str) -> list[dict]:
    """The table row of deployment ``choice`` (a key of :data:`~loopkit.teaching.boundaries.DEPLOYMENTS`), one line a facet.

    The cells are in the learner's language; the headings stay English, for :func:`table_html` translates them.

    >>> [row[""] for row in deployment_rows("local")]
    ['who is trusted', 'where state persists', 'what you must configure']
    """
    row = DEPLOYMENTS[choice]
    return [
        {"": tr("who is trusted"), row.option: tr(row.trusted)},
        {"": tr("where state persists"), row.option: tr(row.state)},
        {"": tr("what you must configure"), row.option: tr(row.configure)},
    ]


def render_advice(
    users: str, reachable: bool, real_credentials: bool, untrusted_content: bool, persistent_state: bool
) -> str:
    """The panel of :func:`deployment_advisor`: the recommendation, the answers behind it, and its table row."""
    advice = recommend_deployment(users, reachable, real_credentials, untrusted_content, persistent_state)
    reasons = "".join(f"<li>{html.escape(reason)}</li>" for reason in advice.reasons)
    return (
        f'<p data-choice="{advice.choice}">{html.escape(tr("Recommended:"))} '
        f"<b>{html.escape(tr(DEPLOYMENTS[advice.choice].option))}</b></p>"
        f"<ul>{reasons}</ul>" + table_html(deployment_rows(advice.choice))
    )


def deployment_advisor() -> View:
    """Five questions, one recommendation. Change an answer and the advice updates.

    The buttons show each answer in the learner's language; their values stay :data:`USER_CHOICES`' English words.
    """
    import ipywidgets as W

    layout = {"description_width": "initial"}
    controls = {
        "users": W.ToggleButtons(options=[(tr(choice), choice) for choice in USER_CHOICES], value=USER_CHOICES[0],
                                 description=tr(QUESTIONS["users"]), style=layout),
    }
    for name in ("reachable", "real_credentials", "untrusted_content", "persistent_state"):
        # width auto: a checkbox is 300 px wide by default, too narrow for a question (most of all in Spanish)
        controls[name] = W.Checkbox(value=False, description=tr(QUESTIONS[name]), style=layout, indent=False,
                                    layout=W.Layout(width="auto"))
    return View(controls, render_advice, title=tr("Which deployment fits?"))
