"""How a replay is told: locations, tool names safe to print, and the one-sentence verdict of a run."""

from __future__ import annotations

from ..checks import clip
from ..tool_maps import PRESETS, ToolMap
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
    rest = rest.lstrip(":").strip().replace("message index", "message").replace("event index", "event")
    line, sep, inner = rest.partition(": ")
    if line.isdigit():
        return f"line {line}, {inner}" if sep else f"line {line}"
    return rest


def display_name(name: str) -> str:
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
    """One sentence: would DeerFlow have warned or stopped this run, when, and why."""
    who = "DeerFlow" if upstream == "pinned" else "DeerFlow's later run-scoped contract"
    n, first = report.warnings, report.outcome.warn_step
    told = f"warned at step {first}" if n == 1 else f"warned {n} times (first at step {first})"
    stop = report.stop
    if stop is not None:
        d = stop.decision
        what = f"{d.layer} layer, '{display_name(d.tool)}' count {d.count}" if d.tool else f"{d.layer} layer, " \
                                                                                          f"count {d.count}"
        later = report.batches - stop.step
        return (f"{who} would have {told + ', then ' if n else ''}stopped the run at step {stop.step} ({what}); "
                f"{later} later batch{'es' * (later != 1)} would never have run. Why: {display_name(report.why)}.")
    if n:
        return f"{who} would have {told} and never stopped."
    return f"{who} would neither have warned nor stopped."


def _names_note(report: RunReport, tool_map: ToolMap | None) -> str:
    if tool_map is not None:
        left = ", ".join(display_name(name) for name in report.unmapped)
        return f" Tools left unmapped: {left}." if left else ""
    if report.format in PRESETS:
        return (f" Tool names were replayed as {report.format} wrote them; --tool-map {report.format} maps its read, "
                f"write, edit and shell tools to DeerFlow's.")
    return ""


def summary_line(report: RunReport, upstream: str = "pinned", tool_map: ToolMap | None = None) -> str:
    """The summary of one run: what was read, then the verdict (nothing to replay when there were no calls)."""
    if not report.calls:
        return report.description
    turns = (f" Note: {report.user_messages} user prompts; each starts a new run of the thread."
             if report.user_messages > 1 else "")
    return f"{report.description}. {_verdict(report, upstream)}{turns}{_names_note(report, tool_map)}"
