"""Chapter 06's step-through: the agent loop's message list, one model call at a time."""

from __future__ import annotations

import html

from loopkit.core.checks import require_int
from loopkit.core.detector import Decision, DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.core.middleware import PinnedMiddleware
from loopkit.teaching.agent_loop import PLACEMENTS, AgentLoop
from loopkit.teaching.conversation import check_pairing, format_messages
from loopkit.teaching.patterns import PATTERNS, get

from ._base import View, table_html

__all__ = ["lifecycle_state", "lifecycle_facts", "message_lines", "render_lifecycle", "lifecycle_stepper"]

#: How many message lines the panel shows (the most recent ones).
SHOWN_LINES = 18


def lifecycle_state(pattern: str, placement: str, step: int, config: DetectorConfig | None = None) -> dict:
    """Run ``pattern`` as a scripted agent and describe the conversation right after model call ``step``.

    ``step`` is clamped to the run's last model call; ``step=0`` is the conversation before the first call.

    >>> s = lifecycle_state("exact_repeat", "after_results", 4)
    >>> s["step"], s["action"], s["delivered"], s["pairing"]
    (4, 'ok', 1, None)
    >>> lifecycle_state("exact_repeat", "before_results", 3)["pairing"]
    'message 6 (human) comes before the result of call_3, requested by message 5'
    """
    require_int("step", step, at_least=0)
    p = get(pattern)
    loop = AgentLoop(PinnedMiddleware(config), placement=placement)
    run = loop.start(p.batches, run_id="run-1", task=tr("Task for the {name} script.", name=p.name))
    pending_at: list[tuple[Decision, ...]] = [()]
    while not run.done:
        pending_at.append(loop.step(run).pending_after)
    last = len(run.steps)
    step = min(step, last)
    current = run.steps[step - 1] if step else None
    shown = run.messages[: current.messages_after] if current else run.messages[:1]
    return {
        "pattern": p.name, "placement": placement, "step": step, "steps": last, "status": run.status,
        "messages": shown,
        "action": current.decision.action if current and current.decision else None,
        "outcome": current.outcome if current else tr("not started"),
        "delivered": len(current.delivered) if current else 0,
        "pending": len(pending_at[step]),
        N_("pairing"): check_pairing(shown),
    }


def lifecycle_facts(state: dict) -> list[dict]:
    """The panel's one row for a :func:`lifecycle_state`: the model call, the decision, the warnings, the pairing.

    The headings are translated where the table is drawn (``table_html``); the prose values here.

    >>> lifecycle_facts(lifecycle_state("exact_repeat", "after_results", 3))[0]["warnings queued"]
    1
    """
    return [{
        "model call": tr("{step} of {steps}", step=state["step"], steps=state["steps"]),
        N_("detector"): state["action"] or "-",
        N_("what happened"): state["outcome"],
        N_("warnings delivered"): state["delivered"],
        N_("warnings queued"): state["pending"],
        "pairing": "ok" if state["pairing"] is None else tr("BROKEN"),
    }]


def message_lines(state: dict, shown: int = SHOWN_LINES) -> list[str]:
    """The last ``shown`` lines of the conversation of a :func:`lifecycle_state`, with a line counting the rest."""
    lines = format_messages(state["messages"], width=100).splitlines()
    if len(lines) > shown:
        lines = [tr("... {count} earlier line(s)", count=len(lines) - shown)] + lines[-shown:]
    return lines


def render_lifecycle(pattern: str, placement: str, step: int) -> str:
    """The panel: :func:`lifecycle_facts`, the broken pairing if any, and :func:`message_lines`."""
    s = lifecycle_state(pattern, placement, step)
    problem = "" if s["pairing"] is None else (
        f"<p style='color:#b00'>{html.escape(tr('Pairing broken: {problem}', problem=s['pairing']))}</p>")
    return table_html(lifecycle_facts(s)) + problem + f"<pre>{html.escape(chr(10).join(message_lines(s)))}</pre>"


def lifecycle_stepper(pattern: str = "exact_repeat", placement: str = "after_results") -> View:
    """A pattern picker, a placement switch and a step slider over the simulated agent's message list."""
    import ipywidgets as W

    get(pattern)
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
    style = {"description_width": "140px"}  # room for the Spanish "llamada al modelo"
    picker = W.Dropdown(options=list(PATTERNS), value=pattern, description=tr("pattern"), style=style)
    steps = lifecycle_state(pattern, placement, 0)["steps"]
    slider = W.IntSlider(value=min(3, steps), min=0, max=steps, description=tr("model call"), style=style)
    controls = {
        "pattern": picker,
        "placement": W.ToggleButtons(options=list(PLACEMENTS), value=placement, description=tr("warning goes"),
                                     style=style),
        "step": slider,
    }

    def resize(change) -> None:  # a new pattern has its own number of model calls
        slider.max = lifecycle_state(change["new"], controls["placement"].value, 0)["steps"]

    picker.observe(resize, names="value")
    return View(controls, render_lifecycle, title=tr("Lifecycle step-through"))
