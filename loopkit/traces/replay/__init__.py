"""Replay transcripts through the detector: the streaming replay, its tally, and why each verdict was given.

This is the one home of replay, in four modules: ``steps`` (the streaming replay), ``reports`` (run by run, file
by file), ``wording`` (how a replay is told) and ``parallel`` (the files of a folder several at once, the same
reports). :func:`replay_batches` feeds batches, as they are read, to a
middleware model of the chosen upstream version and yields one :class:`ReplayedBatch` per batch; :class:`Tally` keeps what a summary needs and
nothing else, so a transcript of any size replays in steady memory. :func:`explain` says in words why a decision
was made. :func:`report_run` replays one run of a transcript to a :class:`RunReport` (the row a directory replay
prints), and :func:`report_paths` does that for every run of every file and folder given, one at a time.

Each run's tool names are mapped by the tool-map preset of the format it is read as, unless the caller says otherwise
(:mod:`loopkit.traces.tool_maps`). A replay ends at the first stop, as the real run would have ended there; the rest of a transcript is still read,
so its errors are reported and its batches counted. Each user prompt in a transcript starts a new run id in one
thread: the pinned version keeps one budget per thread anyway, the run-scoped version starts a fresh one.
"""

from __future__ import annotations

from .options import ReplayOptions
from .reports import (
    TRANSCRIPT_SUFFIXES,
    RunReport,
    replay_paths,
    replay_run,
    report_bytes,
    report_paths,
    report_run,
    transcript_files,
)
from .steps import REPLAY_THREAD, ReplayedBatch, Tally, explain, replay_batches
from .wording import call_names, display_name, short_where, summary_line

__all__ = ["ReplayedBatch", "Tally", "RunReport", "ReplayOptions", "explain", "replay_batches", "report_run",
           "report_paths", "report_bytes", "replay_run", "replay_paths",
           "transcript_files", "summary_line", "short_where", "call_names", "display_name", "TRANSCRIPT_SUFFIXES",
           "REPLAY_THREAD"]
