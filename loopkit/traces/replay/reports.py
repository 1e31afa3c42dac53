"""Replaying transcripts run by run: a :class:`RunReport` per run (the row a folder replay prints), for every run of
every file and folder given, one at a time.

Tool names: unless told otherwise, each run applies the tool-map preset of the format it is read as
(:func:`loopkit.traces.tool_maps.preset_for`), and its report names the preset it used and the tools left unmapped."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from loopkit.core.detector import DetectorConfig, Outcome

from ..adapters import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_RECORD_BYTES,
    TRANSCRIPT_SUFFIXES,
    BadRecord,
    Batch,
    LimitReached,
    Run,
    TraceError,
    runs_in,
)
from ..adapters.batching import place
from ..tool_maps import ToolMap
from .options import ReplayOptions
from .steps import ReplayedBatch, Tally, explain, replay_batches

__all__ = ["TRANSCRIPT_SUFFIXES", "RunReport", "report_run", "replay_run", "transcript_files", "report_paths",
           "report_bytes", "replay_paths", "files_to_replay", "report_file"]


@dataclass
class RunReport:
    """One run of one transcript, replayed: the row a directory replay prints, and the ``--json`` summary.

    ``error`` is set (and the counts are what was read before it) when the run was unusable input. ``tool_map`` is
    the preset the run's tool names were mapped with (None: none), ``mapped`` what its map renamed
    (``"Read -> read_file"``: n) and ``map_problems`` what it could not (a ``--map`` rule that never applied, calls
    left as they were), ``only_tool`` the one tool every call used (None when there were several, or none),
    ``frequency_decisions`` how often the frequency layer warned or stopped, ``upstream`` the version replayed.
    ``unread_calls`` counts the records that hold tool calls no reader took (``unread_call_places`` says where) and
    ``repeated_ids`` the call ids that came back within one batch (``repeated_id_places``, with both tool names and
    which call was kept): a run with unread calls is never ``quiet``. The ``--json`` summary holds ``mapped`` and
    ``map_problems`` only when they are not empty.
    """

    path: str
    label: str = ""
    source: str = ""  # the file the run came from, as given (a zip archive, where ``path`` names its member)
    format: str | None = None
    messages: int = 0
    batches: int = 0
    calls: int = 0
    user_messages: int = 0
    skipped: dict = field(default_factory=dict)
    not_known: dict = field(default_factory=dict)
    bad_records: int = 0
    cut_off: str | None = None
    outcome: Outcome = field(default_factory=lambda: Outcome("DeerFlow"))
    replayed: int = 0
    warnings: int = 0
    stop: ReplayedBatch | None = None
    why: str | None = None
    tool_map: str | None = None
    unmapped: tuple = ()
    mapped: dict = field(default_factory=dict)
    map_problems: dict = field(default_factory=dict)
    only_tool: str | None = None
    frequency_decisions: int = 0
    description: str = ""
    error: str | None = None
    upstream: str = "pinned"
    advice: str = "command line"  # where the verdict tells a reader to raise a call budget (steps.ADVICE_AT)
    unread_calls: int = 0
    unread_call_places: str = ""
    repeated_ids: int = 0
    repeated_id_places: str = ""
    nul_bytes: int = 0
    bad_record: bool = False  # the error is a record that cannot be read, which skipping bad records would skip
    partial: str | None = None  # refused at a size limit: what the records read before it showed, in English

    @property
    def exit_code(self) -> int:
        """2 unusable input, 1 the detector would have stopped the run, 0 otherwise."""
        return 2 if self.error else 1 if self.stop else 0

    @property
    def name(self) -> str:
        return f"{self.path} ({self.label})" if self.label else self.path

    @property
    def verdict(self) -> str:
        """One word for the aggregate: ``unusable``, ``stopped_repeat`` (hash layer), ``stopped_budget``
        (frequency layer), ``incomplete`` (not stopped, and records with tool calls were not read: the calls read
        cannot say it was quiet), ``warned`` (and never stopped) or ``quiet``."""
        if self.error:
            return "unusable"
        if self.stop is not None:
            return "stopped_repeat" if self.stop.decision.layer == "hash" else "stopped_budget"
        if self.unread_calls:
            return "incomplete"
        return "warned" if self.warnings else "quiet"

    def reading_notes(self) -> list[str]:
        """What was read around the calls that a reader of any output must see, in English: calls not read, call ids
        that came back in one batch. ``[]`` when there is nothing to say."""
        notes = []
        if self.cut_off:
            notes.append(f"the last line ({place(self.cut_off)}) is cut off, not read")
        if self.nul_bytes:
            notes.append(f"{self.nul_bytes} NUL bytes end the file, not read")
        if self.unread_calls:
            notes.append(f"{self.unread_calls} record{'s' if self.unread_calls > 1 else ''} with tool calls not read "
                         f"({self.unread_call_places})")
        if self.repeated_ids:
            notes.append(f"{self.repeated_ids} call id{'s' if self.repeated_ids > 1 else ''} repeated within a "
                         f"batch ({self.repeated_id_places})")
        return notes

    def summary(self) -> dict:
        """The ``--json`` summary object."""
        stop = self.stop
        return {"file": self.path, "source": self.source or self.path, "run": self.label or None,
                "format": self.format, "messages": self.messages,
                "batches": self.batches, "calls": self.calls, "replayed": self.replayed,
                "warnings": self.warnings, "first_warn_step": self.outcome.warn_step,
                "stop_step": stop.step if stop else None, "stop_layer": stop.decision.layer if stop else None,
                "stop_tool": stop.decision.tool if stop else None, "why": self.why, "verdict": self.verdict,
                "user_messages": self.user_messages, "skipped": self.skipped, "not_known": self.not_known,
                "bad_records": self.bad_records, "cut_off": self.cut_off, "tool_map": self.tool_map,
                "unmapped": list(self.unmapped), "only_tool": self.only_tool, "error": self.error,
                "exit_code": self.exit_code, "unread_calls": self.unread_calls, "repeated_ids": self.repeated_ids,
                "nul_bytes": self.nul_bytes, "partial": self.partial, "notes": self.reading_notes(),
                **self._map_counts()}

    def _map_counts(self) -> dict:
        """The tool map's counts, for the summary: only those that are not empty (a run with nothing to map keeps
        the summary it always had)."""
        return {key: value for key, value in (("mapped", self.mapped), ("map_problems", self.map_problems)) if value}


def report_run(run: Run, config: DetectorConfig | None = None, *, upstream: str = "pinned",
               tool_map: ToolMap | None = None, on_step=None, with_state: bool = False) -> RunReport:
    """Replay one run to the end of its records and report it; unusable input becomes the report's ``error``.

    ``tool_map`` None applies the preset of the run's format (``ToolMap(None)``: no preset); the run gets a fresh
    copy, settled once its format is known, so the counts are its own. ``on_step(step)``, if given, is called for
    every replayed step as it happens (the command line prints or keeps them there); ``with_state`` keeps the
    detector's state in each step (for a plot).
    """
    options = ReplayOptions.from_names(config, upstream=upstream, tool_map=tool_map)
    return replay_run(run, options, on_step=on_step, with_state=with_state)


def replay_run(run: Run, options: ReplayOptions, *, on_step=None, with_state: bool = False) -> RunReport:
    """:func:`report_run` with its options parsed: the run's own tool map is made from ``options.tool_map`` once
    the run's format is known (by its first batch), and its counts and problems go into the report."""
    middleware = options.upstream(options.config)
    tally = Tally()
    mapper: ToolMap | None = None

    def mapped() -> Iterator[Batch]:
        nonlocal mapper
        for batch in run:
            if mapper is None:
                mapper = options.tool_map.for_run(run.format, run.path)
            yield Batch(batch.step, batch.where, mapper.map_batch(batch.calls), batch.turn)

    report = RunReport(run.path, run.label, upstream=options.upstream_name, advice=options.advice)
    try:
        for step in replay_batches(mapped(), middleware, tally=tally, with_state=with_state):
            if on_step is not None:
                on_step(step)
    except TraceError as exc:
        report.error = str(exc)
        report.bad_record = isinstance(exc, BadRecord)
        if report.bad_record and options.advice == "command line":
            report.error += "; --skip-bad-records (skip_bad_records=True) skips such a record and counts it"
        if isinstance(exc, LimitReached):
            report.partial = _partial(tally, run, middleware.config)
            report.error += f"; {report.partial}"
    mapper = mapper or options.tool_map.for_run(run.format, run.path)
    _fill(report, run, tally, mapper, middleware.config)
    return report


def _partial(tally: Tally, run: Run, config: DetectorConfig) -> str:
    """What the whole records read before a refusal at a size limit showed, in English (the error's language): the
    replay of those stands, as far as it went."""
    read = run.counts
    if tally.stop is not None:
        found = (f"DeerFlow would have stopped the run at step {tally.stop.step} "
                 f"({explain(tally.stop.decision, config)})")
    elif tally.warnings:
        found = f"DeerFlow would have warned at step {tally.first_warn.step if tally.first_warn else '?'} so far"
    else:
        found = "DeerFlow would neither have warned nor stopped so far"
    return (f"up to the refusal, {read.records} records were read whole ({read.batches} batches, {read.calls} tool "
            f"calls): {found}")


def _fill(report: RunReport, run: Run, tally: Tally, mapper: ToolMap, config: DetectorConfig) -> None:
    """What the run read, what the replay found and what the tool map did, into the report."""
    read = run.counts
    report.format, report.messages, report.batches, report.calls = read.format, read.messages, read.batches, read.calls
    report.user_messages, report.skipped, report.not_known = read.turns, read.skipped, read.not_known
    report.bad_records, report.cut_off = read.bad_records, read.cut_off
    report.replayed, report.warnings, report.stop = tally.replayed, tally.warnings, tally.stop
    report.outcome = tally.outcome()
    report.why = explain(tally.stop.decision, config, advice=report.advice) if tally.stop else None
    report.tool_map, report.unmapped = mapper.preset, tuple(sorted(map(str, mapper.unmapped)))
    report.mapped = dict(mapper.mapped.most_common())
    problems = {f"--map {rule}: never applied": 1 for rule in mapper.never_applied()}
    report.map_problems = {**problems, **dict(mapper.problems.most_common())}
    report.only_tool, report.frequency_decisions = tally.only_tool, tally.frequency_decisions
    report.unread_calls, report.unread_call_places = read.unread_calls, run.unread_calls_text
    report.repeated_ids, report.repeated_id_places = read.repeated_ids, run.repeated_ids_text
    report.nul_bytes = read.nul_bytes
    if report.error is None:
        report.description = run.describe()


def transcript_files(folder: str | os.PathLike[str]) -> list[str]:
    """The transcript files below ``folder`` (by :data:`TRANSCRIPT_SUFFIXES`), sorted, hidden ones left out."""
    found: list[str] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in files
                     if not f.startswith(".") and f.lower().endswith(TRANSCRIPT_SUFFIXES))
    return sorted(found)


def _matches(run: Run, select: Mapping[str, str]) -> bool:
    return all(key in run.meta and str(run.meta[key]) == value for key, value in select.items())


def report_paths(paths: Iterable[str], config: DetectorConfig | None = None, *, upstream: str = "pinned",
                 format: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES,
                 max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES, skip_bad_records: bool = False,
                 on_bad_record: Callable[[str], None] | None = None, select: Mapping[str, str] | None = None,
                 run_number: int | None = None, tool_map: ToolMap | None = None, on_step=None,
                 on_run=None, with_state: bool = False) -> Iterator[RunReport]:
    """Replay every run of every file given (folders are searched for transcripts) and yield a report per run.

    ``select`` keeps the runs whose metadata has every ``KEY=VALUE`` given; ``run_number`` keeps the N-th run of
    each file (from 1). A file that cannot be read at all, or in which no run was selected, is one report with
    its ``error``; the other files go on. ``on_run(run)`` is called before a run is replayed; ``"-"`` is
    standard input. The reading options are :func:`loopkit.traces.adapters.iter_runs`'s. The names are parsed
    once, into :class:`ReplayOptions`, and the replay is :func:`replay_paths`.
    """
    options = ReplayOptions.from_names(config, upstream=upstream, format=format, tool_map=tool_map,
                                       max_bytes=max_bytes, max_record_bytes=max_record_bytes,
                                       skip_bad_records=skip_bad_records, on_bad_record=on_bad_record,
                                       select=select, run_number=run_number)
    yield from replay_paths(paths, options, on_step=on_step, on_run=on_run, with_state=with_state)


def replay_paths(paths: Iterable[str], options: ReplayOptions, *, on_step=None, on_run=None,
                 with_state: bool = False) -> Iterator[RunReport]:
    """:func:`report_paths` with its options parsed: a report per run of every file ``paths`` name."""
    for item in files_to_replay(paths):
        if isinstance(item, RunReport):
            yield item
        else:
            yield from report_file(item, options, on_step=on_step, on_run=on_run, with_state=with_state)


def report_bytes(data: bytes, name: str, config: DetectorConfig | None = None, *, upstream: str = "pinned",
                 max_bytes: int = DEFAULT_MAX_BYTES, tool_map: ToolMap | None = None, on_step=None,
                 with_state: bool = False, skip_bad_records: bool = False,
                 advice: str = "view") -> Iterator[RunReport]:
    """:func:`report_paths` for one file held in memory (a browser upload), read as if it were called ``name``: the
    name says JSON Lines or not and locates every error, and nothing is written to disk. Its verdicts tell the reader
    to raise a budget in the upload view (``advice``), not with a flag of the command line.

    >>> [report.verdict for report in report_bytes(b'{"role": "user", "content": "hi"}\\n', "chat.jsonl")]
    ['quiet']
    """
    stream = io.BytesIO(data)
    stream.name = name  # what the readers call the file (sources.open_inputs reads a stream's name)
    options = ReplayOptions.from_names(config, upstream=upstream, max_bytes=max_bytes, tool_map=tool_map,
                                       skip_bad_records=skip_bad_records, advice=advice)
    yield from report_file(stream, options, on_step=on_step, with_state=with_state)


def files_to_replay(paths: Iterable[str]) -> Iterator[str | RunReport]:
    """The files ``paths`` name, folders searched, in order; a folder without transcripts is an error report."""
    for given in paths:
        files = transcript_files(given) if os.path.isdir(given) else [given]
        if not files:
            yield RunReport(str(given), error=f"{given}: a folder with no transcripts "
                                              f"({', '.join(TRANSCRIPT_SUFFIXES)})")
        yield from files


def report_file(path: str | os.PathLike | BinaryIO, options: ReplayOptions, *, on_step=None, on_run=None,
                with_state: bool = False) -> Iterator[RunReport]:
    """The reports of one file's runs: the runs ``options`` pick, each replayed (see :func:`report_paths`).
    ``path`` may also be an open binary stream (a transcript held in memory): its ``name`` names it."""
    chosen = 0
    name = str(path) if isinstance(path, (str, os.PathLike)) else _stream_name(path)
    select, run_number = dict(options.select), options.run_number
    try:
        for run in runs_in(path, options.format, options.reading):
            if (run_number is not None and run.index != run_number) or (select and not _matches(run, select)):
                _drain(run)
                continue
            chosen += 1
            if on_run is not None:
                on_run(run)
            report = replay_run(run, options, on_step=on_step, with_state=with_state)
            report.source = name
            yield report
    except TraceError as exc:
        yield RunReport(name, source=name, error=str(exc))
        return
    if chosen == 0 and (select or run_number is not None):
        wanted = " ".join(f"{k}={v}" for k, v in select.items()) or f"run {run_number}"
        yield RunReport(name, source=name, error=f"{name}: no run matches {wanted}")


def _stream_name(stream) -> str:
    """What a stream is called in reports: its ``name``, as the adapters name it (``"<stream>"`` without one)."""
    name = getattr(stream, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _drain(run: Run) -> None:
    """Read a run that is not replayed, so a streamed source can move on to the next one."""
    try:
        for _ in run:
            pass
    except TraceError:
        pass  # an unselected run's errors are not the user's question
