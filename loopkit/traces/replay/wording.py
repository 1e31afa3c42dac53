"""How a replay is told: locations, tool names safe to print, and the one-sentence verdict of a run."""

from __future__ import annotations

from loopkit.core.checks import clip
from loopkit.core.language import ntr, tr

from ..tool_maps import FORMAT_PRESETS, is_poll, presets_naming
from .reports import RunReport

__all__ = ["short_where", "display_name", "call_names", "summary_line"]


def short_where(where: str, path: str) -> str:
    """A batch's location without the file name: ``"line 14"``, ``"message 3"``, ``"line 2, event 7"``.

    >>> short_where("t.jsonl:14", "t.jsonl"), short_where("t.json: message index 3", "t.json")
    ('line 14', 'message 3')
    >>> short_where("out.jsonl:2: event index 7", "out.jsonl")
    'line 2, event 7'
    """
    rest = where[len(path):] if where.startswith(path) else where
    rest = rest.lstrip(":").strip().replace("message index", tr("message")).replace("event index", tr("event"))
    line, sep, inner = rest.partition(": ")
    if line.isdigit():
        return tr("line {line}, {inner}", line=line, inner=inner) if sep else tr("line {line}", line=line)
    return rest


def display_name(name: object) -> str:
    """A tool name safe to print: control, format (bidi), surrogate and other non-printable characters are
    escaped as ``repr`` would escape them; printable text, non-ASCII too, is kept.

    >>> print(display_name("read_file"), display_name("\\x1b[31mred"))
    read_file \\x1b[31mred
    """
    text = str(name)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def call_names(calls: list) -> str:
    """The tool names of a batch, ``"read_file x2, bash"``, escaped for display and cut to 48 characters."""
    names: dict[str, int] = {}
    for call in calls:
        name = display_name(call["name"])
        names[name] = names.get(name, 0) + 1
    return clip(", ".join(name if n == 1 else f"{name} x{n}" for name, n in names.items()), 48)


def _verdict(report: RunReport, upstream: str) -> str:
    """Would DeerFlow have warned or stopped this run, when, and why: whole sentences, one message for each case,
    so that a language with another word order, case or agreement translates each one as it reads (never words
    glued together)."""
    stop = report.stop
    if stop is None:
        return _never_stopped(upstream, report.warnings, report.outcome.warn_step)
    later = report.batches - stop.step
    never = ntr("{n} later batch would never have run.", "{n} later batches would never have run.", later)
    why = tr("Why: {why}.", why=display_name(report.why))
    return f"{_stopped(upstream, report.warnings, report.outcome.warn_step, stop)} {never} {why}"


def _never_stopped(upstream: str, warnings: int, first: int | None) -> str:
    """The verdict of a run that DeerFlow would never have stopped."""
    if upstream == "pinned":
        if not warnings:
            return tr("DeerFlow would neither have warned nor stopped.")
        return ntr("DeerFlow would have warned at step {step} and never stopped.",
                   "DeerFlow would have warned {n} times (first at step {step}) and never stopped.", warnings,
                   step=first)
    if not warnings:
        return tr("DeerFlow's later run-scoped contract would neither have warned nor stopped.")
    return ntr("DeerFlow's later run-scoped contract would have warned at step {step} and never stopped.",
               "DeerFlow's later run-scoped contract would have warned {n} times (first at step {step}) and never "
               "stopped.", warnings, step=first)


def _stopped(upstream: str, warnings: int, first: int | None, stop) -> str:
    """The first sentence of a stopped run's verdict: the warnings before the stop, the stop's step and the layer
    that stopped it (the frequency layer names its tool)."""
    d = stop.decision
    fields = {"step": first, "stop": stop.step, "count": d.count, "tool": display_name(d.tool) if d.tool else ""}
    if upstream == "pinned":
        if not warnings:
            return (tr("DeerFlow would have stopped the run at step {stop} (frequency layer, '{tool}' count {count});",
                       **fields) if d.tool else
                    tr("DeerFlow would have stopped the run at step {stop} (hash layer, count {count});", **fields))
        if d.tool:
            return ntr("DeerFlow would have warned at step {step}, then stopped the run at step {stop} (frequency "
                       "layer, '{tool}' count {count});",
                       "DeerFlow would have warned {n} times (first at step {step}), then stopped the run at step "
                       "{stop} (frequency layer, '{tool}' count {count});", warnings, **fields)
        return ntr("DeerFlow would have warned at step {step}, then stopped the run at step {stop} (hash layer, "
                   "count {count});",
                   "DeerFlow would have warned {n} times (first at step {step}), then stopped the run at step {stop} "
                   "(hash layer, count {count});", warnings, **fields)
    if not warnings:
        return (tr("DeerFlow's later run-scoped contract would have stopped the run at step {stop} (frequency layer, "
                   "'{tool}' count {count});", **fields) if d.tool else
                tr("DeerFlow's later run-scoped contract would have stopped the run at step {stop} (hash layer, "
                   "count {count});", **fields))
    if d.tool:
        return ntr("DeerFlow's later run-scoped contract would have warned at step {step}, then stopped the run at "
                   "step {stop} (frequency layer, '{tool}' count {count});",
                   "DeerFlow's later run-scoped contract would have warned {n} times (first at step {step}), then "
                   "stopped the run at step {stop} (frequency layer, '{tool}' count {count});", warnings, **fields)
    return ntr("DeerFlow's later run-scoped contract would have warned at step {step}, then stopped the run at step "
               "{stop} (hash layer, count {count});",
               "DeerFlow's later run-scoped contract would have warned {n} times (first at step {step}), then stopped "
               "the run at step {stop} (hash layer, count {count});", warnings, **fields)


def _names_note(report: RunReport) -> str:
    """Which names were replayed: the preset used and the tools it left, or why none was used."""
    left = ", ".join(display_name(name) for name in report.unmapped)
    if report.tool_map is not None:
        used = tr("Tool names mapped to DeerFlow's by the {preset} preset.", preset=report.tool_map)
        return f" {used}" + (" " + tr("Tools left unmapped: {tools}.", tools=left) if left else "")
    if report.format in FORMAT_PRESETS:
        return " " + tr("Tool names were replayed as {format} wrote them; --tool-map {format} maps its read, "
                        "write, edit and shell tools to DeerFlow's.", format=FORMAT_PRESETS[report.format])
    if not left:
        return ""
    note = " " + tr("Tools left unmapped: {tools}.", tools=left)
    for preset in presets_naming(report.unmapped):
        note += " " + tr("Those are {preset}'s tool names: --tool-map {preset} maps them to DeerFlow's.",
                         preset=preset)
    return note


def _one_tool_note(report: RunReport) -> str:
    """An agent with a single tool: every call it makes counts toward one frequency budget. Where to raise it is said
    once: not again when the stop's own "why" already said it."""
    if report.only_tool is None or not report.frequency_decisions:
        return ""
    tool = display_name(report.only_tool)
    note = " " + tr("This agent used one tool only ({tool}), so the frequency layer counts every call it made: a "
                    "budget for the whole run, not a sign of repeats.", tool=tool)
    if report.stop is not None and report.stop.decision.layer == "frequency":
        return note  # the verdict's "Why:" already says where to raise it
    if report.advice == "view":
        return note + " " + tr("Raise it in this view's tool budgets box, as {tool}=WARN:HARD.", tool=tool)
    return note + " " + tr("Raise it with --override {tool}=WARN:HARD.", tool=tool)


def _waiting_note(report: RunReport) -> str:
    """A stop on polls of a running process: the agent was waiting for a command's output, not looping."""
    if report.stop is None or not report.stop.calls or not all(is_poll(call) for call in report.stop.calls):
        return ""
    tools = ", ".join(dict.fromkeys(display_name(call["name"]) for call in report.stop.calls))
    return " " + tr("The repeated calls are polls of a running process ({tools} with nothing to write): the agent "
                    "was waiting for a command to finish, not looping. DeerFlow's detector counts them as repeats "
                    "all the same.", tools=tools)


def _incomplete_note(report: RunReport) -> str:
    """A run with tool calls that were not read: its verdict covers only the calls that were."""
    if report.verdict != "incomplete":
        return ""
    return " " + tr("This verdict covers only the calls that were read: the records named above hold tool calls "
                    "that were not.")


def summary_line(report: RunReport, upstream: str | None = None) -> str:
    """The summary of one run: what was read, then the verdict (nothing to replay when there were no calls).
    ``upstream`` (a name) defaults to the version the report was replayed with."""
    upstream = upstream if upstream is not None else report.upstream
    if not report.calls:
        return report.description
    turns = (" " + tr("Note: {count} user prompts; each starts a new run of the thread.", count=report.user_messages)
             if report.user_messages > 1 else "")
    return (f"{report.description}. {_verdict(report, upstream)}{_waiting_note(report)}{_incomplete_note(report)}"
            f"{_one_tool_note(report)}{turns}{_names_note(report)}")
