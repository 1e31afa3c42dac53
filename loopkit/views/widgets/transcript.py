"""Chapter 10's view: pick a transcript and thresholds; see what DeerFlow's detector and the peer models would do.

The replay is :func:`loopkit.traces.replay.report_paths`, the same one ``python -m loopkit replay`` runs, so the panel
and the command can never disagree.
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

from ._base import View, table_html

__all__ = ["TranscriptReading", "transcript_files", "read_transcript", "render_transcript", "transcript_replay"]


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


def read_transcript(path: str, warn: int, hard: int, window: int) -> TranscriptReading:
    """Replay ``path`` as the command line does, and run the peer models on the whole trace.

    Bad thresholds raise ``ValueError`` (the view shows its message).
    """
    config = DetectorConfig(warn_threshold=warn, hard_limit=hard, window_size=window)
    decisions = []

    def keep(step) -> None:
        if step.decision.action != "ok":
            d = step.decision
            decisions.append({"step": step.step, N_("at"): short_where(step.where, path), "action": d.action,
                              "layer": d.layer, "count": d.count, N_("calls"): call_names(step.calls)})

    report = next(report_paths([path], config, on_step=keep))
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


def render_transcript(path: str, warn: int, hard: int, window: int) -> str:
    """The panel of :func:`read_transcript`: the summary line, the decisions, and the peer models' verdicts."""
    reading = read_transcript(path, warn, hard, window)
    if reading.error:
        return f"<pre style='color:#b00'>{html.escape(reading.error)}</pre>"
    parts = [f"<p>{html.escape(reading.summary)}</p>"]
    if reading.peers:
        parts.append(f"<b>{html.escape(tr('Batches that warned or stopped'))}</b>" + table_html(reading.decisions))
        parts.append(f"<b>{html.escape(tr('The peer models on the same trace'))}</b> "
                     f"{html.escape(tr('(simplified models, not the real implementations)'))}")
        parts.append(table_html(reading.peers))
    return "".join(parts)


def transcript_replay(folder: str | pathlib.Path = "data", warn: int = 3, hard: int = 5, window: int = 20) -> View:
    """A transcript picker and three threshold sliders; the panel replays the chosen transcript."""
    files = transcript_files(folder)
    if not files:
        raise ValueError(f"no .json or .jsonl transcripts in {str(folder)!r}")
    controls = {
        "path": W.Dropdown(options=[(pathlib.Path(f).name, f) for f in files], value=files[0],
                           description=tr("transcript"), layout=W.Layout(width="36em")),
        "warn": W.IntSlider(value=warn, min=1, max=10, description=tr("warn")),
        "hard": W.IntSlider(value=hard, min=1, max=15, description=tr("hard")),
        "window": W.IntSlider(value=window, min=2, max=40, description=tr("window")),
    }
    view = View(controls, render_transcript, title=tr("Would DeerFlow have stopped this agent?"))
    view.add_class("loopkit-transcript-replay")
    view.panel.add_class("loopkit-panel")
    return view
