"""Chapter 10's view: pick a transcript and thresholds; see what DeerFlow's detector and the peer models would do.

The replay is :func:`loopkit.traces.replay.report_paths`, the same one ``python -m loopkit replay`` runs, so the panel
and the command can never disagree. Each option the panel's text may name is a control here: the command's
``--warn``, ``--hard`` and ``--window`` are sliders, ``--tool-map PRESET`` is the tool map menu, and
``--override TOOL=WARN:HARD`` is the override box, which takes the same text. A warn above its hard limit, or an
override the box cannot read, is explained in the learner's language instead of an error.
"""

from __future__ import annotations

import html
import pathlib
from dataclasses import dataclass, field

import ipywidgets as W

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import N_, tr
from loopkit.teaching.peers import PEERS
from loopkit.traces.adapters import load_trace
from loopkit.traces.replay import call_names, report_paths, short_where, summary_line
from loopkit.traces.tool_maps import DETECTED, PRESETS, ToolMap

from ._base import View, limits_conflict, table_html

__all__ = ["TranscriptReading", "TOOL_MAP_CHOICES", "transcript_files", "parse_overrides", "read_transcript",
           "render_transcript", "transcript_replay"]

#: The tool map menu, as the command's ``--tool-map``: the format's own preset (the command's default), none, or one.
TOOL_MAP_CHOICES = (DETECTED, "none", *PRESETS)


def transcript_files(folder: str | pathlib.Path) -> list[str]:
    """The ``.json`` and ``.jsonl`` files in ``folder``, sorted, as paths the view can load."""
    root = pathlib.Path(folder)
    if not root.is_dir():
        raise ValueError(f"folder must be a directory of transcripts, got {str(folder)!r}")
    return [str(p) for p in sorted(root.iterdir()) if p.suffix in (".json", ".jsonl")]


@dataclass(frozen=True)
class TranscriptReading:
    """What the panel shows for one transcript: the command's ``summary`` line (or its ``error``), the batches that
    warned or stopped (``decisions``), and each peer model's first warn and stop step (``peers``)."""

    summary: str = ""
    error: str | None = None
    decisions: list[dict] = field(default_factory=list)
    peers: list[dict] = field(default_factory=list)


def parse_overrides(text: str) -> dict[str, tuple[int, int]]:
    """The override box's text, as the command's ``--override``: ``TOOL=WARN:HARD`` entries, separated by commas
    or spaces; an empty box is no override. Text of another shape raises ``ValueError`` naming the entry.

    >>> parse_overrides("bash=80:120, ls=5:9"), parse_overrides("  ")
    ({'bash': (80, 120), 'ls': (5, 9)}, {})
    """
    overrides = {}
    for entry in text.replace(",", " ").split():
        tool, equals, limits = entry.partition("=")
        warn, colon, hard = limits.partition(":")
        if not (tool and equals and colon and warn.isdigit() and hard.isdigit()):
            raise ValueError(f"override: expected TOOL=WARN:HARD (such as bash=80:120), got {entry!r}")
        overrides[tool] = (int(warn), int(hard))
    return overrides


def tool_map_for(choice: str) -> ToolMap:
    """The :class:`~loopkit.traces.tool_maps.ToolMap` of a tool map menu choice, as the command builds it."""
    if choice not in TOOL_MAP_CHOICES:
        raise ValueError(f"tool_map must be one of {list(TOOL_MAP_CHOICES)}, got {choice!r}")
    return ToolMap(None if choice == "none" else choice)


def read_transcript(path: str, warn: int, hard: int, window: int, tool_map: str = DETECTED,
                    override: str = "") -> TranscriptReading:
    """Replay ``path`` as the command line does (``tool_map`` and ``override`` as its ``--tool-map`` and
    ``--override``), and run the peer models on the whole trace.

    Bad thresholds raise ``ValueError`` (the view explains them).
    """
    config = DetectorConfig(warn_threshold=warn, hard_limit=hard, window_size=window,
                            tool_freq_overrides=parse_overrides(override))
    decisions = []

    def keep(step) -> None:
        if step.decision.action != "ok":
            d = step.decision
            decisions.append({"step": step.step, N_("at"): short_where(step.where, path), "action": d.action,
                              "layer": d.layer, "count": d.count, N_("calls"): call_names(step.calls)})

    report = next(report_paths([path], config, on_step=keep, tool_map=tool_map_for(tool_map)))
    if report.error:
        return TranscriptReading(error=report.error)
    if not report.calls:
        return TranscriptReading(summary_line(report))
    batches = load_trace(path).batches  # the peers judge the whole trace, past DeerFlow's stop
    peers = []
    for model in PEERS:
        result = model.run(batches)
        peers.append({N_("peer model"): model.name, N_("warn step"): result.warn_step or "-",
                      N_("stop step"): result.stop_step or "-"})
    return TranscriptReading(summary_line(report), None, decisions, peers)


def render_transcript(path: str, warn: int, hard: int, window: int, tool_map: str = DETECTED,
                      override: str = "") -> str:
    """The panel of :func:`read_transcript`: the summary line, the decisions, and the peer models' verdicts; or,
    for settings the detector refuses, why, in the learner's language."""
    try:
        overrides = parse_overrides(override)
    except ValueError:
        return "<p data-conflict=\"override\" role=\"status\">" + tr(
            "The override box takes what the command's --override takes: TOOL=WARN:HARD, such as {example}, several "
            "separated by commas. It cannot read {entry}.", example="<code>bash=80:120</code>",
            entry=f"<code>{html.escape(override)}</code>") + "</p>"
    conflict = limits_conflict((tr("warn"), warn, tr("hard"), hard),
                               *((tr("{tool} warn", tool=tool), w, tr("{tool} hard", tool=tool), h)
                                 for tool, (w, h) in overrides.items()))
    if conflict:
        return conflict
    reading = read_transcript(path, warn, hard, window, tool_map, override)
    if reading.error:
        return f"<pre style='color:#b00'>{html.escape(reading.error)}</pre>"
    parts = [f"<p>{html.escape(reading.summary)}</p>"]
    if "--override" in reading.summary or "--tool-map" in reading.summary:
        parts.append("<p><i>" + html.escape(tr("In this view, the command's --override is the override box and "
                                               "its --tool-map the tool map menu.")) + "</i></p>")
    if reading.peers:
        parts.append(f"<b>{html.escape(tr('Batches that warned or stopped'))}</b>" + table_html(reading.decisions))
        parts.append(f"<b>{html.escape(tr('The peer models on the same trace'))}</b> "
                     f"{html.escape(tr('(simplified models, not the real implementations)'))}")
        parts.append(table_html(reading.peers))
    return "".join(parts)


def transcript_replay(folder: str | pathlib.Path = "data", warn: int = 3, hard: int = 5, window: int = 20) -> View:
    """A transcript picker, three threshold sliders, the tool map menu and the override box; the panel replays the
    chosen transcript."""
    files = transcript_files(folder)
    if not files:
        raise ValueError(f"no .json or .jsonl transcripts in {str(folder)!r}")
    style = {"description_width": "160px"}  # wide enough for each label in Spanish too ("mapa de herramientas")
    controls = {
        "path": W.Dropdown(options=[(pathlib.Path(f).name, f) for f in files], value=files[0],
                           description=tr("transcript"), style=style, layout=W.Layout(width="36em")),
        "warn": W.IntSlider(value=warn, min=1, max=10, description=tr("warn"), style=style),
        "hard": W.IntSlider(value=hard, min=1, max=15, description=tr("hard"), style=style),
        "window": W.IntSlider(value=window, min=2, max=40, description=tr("window"), style=style),
        "tool_map": W.Dropdown(options=[(tr("the format's own (the command's default)"), DETECTED),
                                        (tr("none: names as written"), "none"), *((p, p) for p in PRESETS)],
                               value=DETECTED, description=tr("tool map"), style=style, layout=W.Layout(width="36em")),
        "override": W.Text(value="", placeholder="bash=80:120", description=tr("override"), style=style,
                           continuous_update=False),
    }
    view = View(controls, render_transcript, title=tr("Would DeerFlow have stopped this agent?"))
    view.add_class("loopkit-transcript-replay")
    view.panel.add_class("loopkit-panel")
    return view
