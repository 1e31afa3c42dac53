"""Replay transcripts through the detector: the streaming replay, its tally, and why each verdict was given.

This is the one home of replay. :func:`replay_batches` feeds batches, as they are read, to a middleware model of
the chosen upstream version and yields one :class:`Step` per batch; :class:`Tally` keeps what a summary needs and
nothing else, so a transcript of any size replays in steady memory. :func:`explain` says in words why a decision
was made. :func:`report_run` replays one run of a transcript to a :class:`RunReport` (the row a directory replay
prints), and :func:`report_paths` does that for every run of every file and folder given, one at a time.

A replay ends at the first stop, as the real run would have ended there; the rest of a transcript is still read,
so its errors are reported and its batches counted. Each user prompt in a transcript starts a new run id in one
thread: the pinned version keeps one budget per thread anyway, the run-scoped version starts a fresh one.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .adapters import DEFAULT_MAX_BYTES, Batch, Run, TraceError, iter_runs
from .checks import clip
from .detector import Decision, DetectorConfig, Outcome
from .middleware import LoopMiddleware, middleware_for
from .tool_maps import PRESETS, ToolMap

__all__ = ["Step", "Tally", "RunReport", "explain", "replay_batches", "report_run", "report_paths",
           "transcript_files", "summary_line", "short_where", "call_names", "display_name", "TRANSCRIPT_SUFFIXES",
           "REPLAY_THREAD"]

#: The thread id every replayed batch is counted in.
REPLAY_THREAD = "replay"

#: The file endings a folder is searched for.
TRANSCRIPT_SUFFIXES = (".json", ".jsonl", ".ndjson", ".traj", ".gz", ".zip", ".eval")


@dataclass(frozen=True)
class Step:
    """One replayed batch: its position, its calls as replayed (after any tool map), the decision, and the
    detector state right after it (only when asked for, for tables and plots)."""

    step: int
    where: str
    calls: list = field(hash=False)
    decision: Decision
    state: dict | None = field(default=None, hash=False)


class Tally:
    """What a replay found so far: batches replayed, warnings, the first warning and the stop."""

    def __init__(self) -> None:
        self.replayed = 0
        self.warnings = 0
        self.first_warn: Step | None = None
        self.stop: Step | None = None

    def add(self, step: Step) -> None:
        self.replayed += 1
        if step.decision.action == "warn":
            self.warnings += 1
            if self.first_warn is None:
                self.first_warn = step
        elif step.decision.action == "stop" and self.stop is None:
            self.stop = step

    def outcome(self, detector: str = "DeerFlow") -> Outcome:
        return Outcome(detector, self.first_warn.step if self.first_warn else None,
                       self.stop.step if self.stop else None)


def explain(decision: Decision, config: DetectorConfig) -> str | None:
    """Why the detector warned or stopped, in words a user can act on (``None`` for ``ok``).

    >>> cfg = DetectorConfig()
    >>> print(explain(Decision("stop", "hash", None, 5), cfg))
    hash layer: the same batch 5 times in the last 20 turns (stops at 5)
    >>> print(explain(Decision("stop", "frequency", "bash", 50), cfg))
    frequency layer: 'bash' called 50 times in the last 50 calls (stops at 50); this is a call budget, not a repeat. Raise it with --override bash=WARN:HARD
    """
    if decision.action == "ok":
        return None
    verb = "warns" if decision.action == "warn" else "stops"
    if decision.layer == "hash":
        limit = config.warn_threshold if decision.action == "warn" else config.hard_limit
        return f"hash layer: the same batch {decision.count} times in the last {config.window_size} turns " \
               f"({verb} at {limit})"
    warn, hard = config.thresholds_for(decision.tool)
    limit = warn if decision.action == "warn" else hard
    return (f"frequency layer: {decision.tool!r} called {decision.count} times in the last {config.freq_window} "
            f"calls ({verb} at {limit}); this is a call budget, not a repeat. Raise it with "
            f"--override {decision.tool}=WARN:HARD")


def _batch_at(item: Any, index: int) -> Batch:
    """A :class:`Batch` as it is, or a plain list of calls as the ``index``-th batch of an in-memory trace."""
    if isinstance(item, Batch):
        return item
    return Batch(index, f"batch {index}", item)


def replay_batches(batches: Iterable, middleware: LoopMiddleware, *, tool_map: ToolMap | None = None,
                   tally: Tally | None = None, with_state: bool = False, until_stop: bool = True) -> Iterator[Step]:
    """Feed ``batches`` (:class:`Batch` objects, or plain lists of calls) to ``middleware`` one at a time and
    yield a :class:`Step` for each one replayed.

    Each batch is mapped by ``tool_map`` first, if one is given. With ``until_stop`` (the default) nothing is
    replayed after the first stop, but the rest of ``batches`` is still read. A batch read from a transcript that
    the detector cannot key is a :class:`~loopkit.adapters.TraceError` that names where it came from.
    """
    tally = tally if tally is not None else Tally()
    for index, item in enumerate(batches, start=1):
        batch = _batch_at(item, index)
        if until_stop and tally.stop is not None:
            continue
        calls = tool_map.map_batch(batch.calls) if tool_map is not None else batch.calls
        run_id = f"turn-{batch.turn}"
        try:
            decision = middleware.after_model(calls, REPLAY_THREAD, run_id)
        except (TypeError, ValueError, RecursionError) as exc:
            if batch is item:  # read from a transcript: arguments no adapter check caught, named by location
                raise TraceError(f"{batch.where}: the detector cannot key this batch ({exc})") from None
            raise  # an in-memory trace: the detector's own error already says which call
        state = middleware.snapshot(REPLAY_THREAD, run_id) if with_state else None
        step = Step(batch.step, batch.where, list(calls), decision, state)
        tally.add(step)
        yield step


@dataclass
class RunReport:
    """One run of one transcript, replayed: the row a directory replay prints, and the ``--json`` summary.

    ``error`` is set (and the counts are what was read before it) when the run was unusable input.
    """

    path: str
    label: str = ""
    format: str | None = None
    messages: int = 0
    batches: int = 0
    calls: int = 0
    user_messages: int = 0
    skipped: dict = field(default_factory=dict)
    outcome: Outcome = field(default_factory=lambda: Outcome("DeerFlow"))
    replayed: int = 0
    warnings: int = 0
    stop: Step | None = None
    why: str | None = None
    unmapped: tuple = ()
    description: str = ""
    error: str | None = None

    @property
    def exit_code(self) -> int:
        """2 unusable input, 1 the detector would have stopped the run, 0 otherwise."""
        return 2 if self.error else 1 if self.stop else 0

    @property
    def name(self) -> str:
        return f"{self.path} ({self.label})" if self.label else self.path

    def summary(self) -> dict:
        """The ``--json`` summary object."""
        stop = self.stop
        return {"file": self.path, "run": self.label or None, "format": self.format, "messages": self.messages,
                "batches": self.batches, "calls": self.calls, "replayed": self.replayed,
                "warnings": self.warnings, "first_warn_step": self.outcome.warn_step,
                "stop_step": stop.step if stop else None, "stop_layer": stop.decision.layer if stop else None,
                "stop_tool": stop.decision.tool if stop else None, "why": self.why,
                "user_messages": self.user_messages, "skipped": self.skipped, "unmapped": list(self.unmapped),
                "error": self.error, "exit_code": self.exit_code}


def report_run(run: Run, config: DetectorConfig | None = None, *, upstream: str = "pinned",
               tool_map: ToolMap | None = None, on_step=None, with_state: bool = False) -> RunReport:
    """Replay one run to the end of its records and report it; unusable input becomes the report's ``error``.

    ``on_step(step)``, if given, is called for every replayed step as it happens (the command line prints or
    keeps them there); ``with_state`` keeps the detector's state in each step (for a plot). A fresh copy of
    ``tool_map`` is used, so its counts are this run's.
    """
    middleware = middleware_for(upstream, config)
    tally = Tally()
    mapper = ToolMap(tool_map.preset, tool_map.rules) if tool_map is not None else None
    report = RunReport(run.path, run.label)
    try:
        for step in replay_batches(run, middleware, tool_map=mapper, tally=tally, with_state=with_state):
            if on_step is not None:
                on_step(step)
    except TraceError as exc:
        report.error = str(exc)
    report.format, report.messages, report.batches, report.calls = run.format, run.messages, run.batches, run.calls
    report.user_messages, report.skipped = run.turns, run.skipped
    report.replayed, report.warnings, report.stop = tally.replayed, tally.warnings, tally.stop
    report.outcome = tally.outcome()
    report.why = explain(tally.stop.decision, middleware.config) if tally.stop else None
    report.unmapped = tuple(sorted(mapper.unmapped)) if mapper is not None else ()
    if report.error is None:
        report.description = run.describe()
    return report


def transcript_files(folder: str | os.PathLike) -> list[str]:
    """The transcript files below ``folder`` (by :data:`TRANSCRIPT_SUFFIXES`), sorted, hidden ones left out."""
    found = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in files
                     if not f.startswith(".") and f.lower().endswith(TRANSCRIPT_SUFFIXES))
    return sorted(found)


def _matches(run: Run, select: Mapping[str, str]) -> bool:
    return all(key in run.meta and str(run.meta[key]) == value for key, value in select.items())


def report_paths(paths: Iterable[str], config: DetectorConfig | None = None, *, upstream: str = "pinned",
                 format: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES, select: Mapping[str, str] | None = None,
                 run_number: int | None = None, tool_map: ToolMap | None = None, on_step=None,
                 on_run=None, with_state: bool = False) -> Iterator[RunReport]:
    """Replay every run of every file given (folders are searched for transcripts) and yield a report per run.

    ``select`` keeps the runs whose metadata has every ``KEY=VALUE`` given; ``run_number`` keeps the N-th run of
    each file (from 1). A file that cannot be read at all, or in which no run was selected, is one report with
    its ``error``; the other files go on. ``on_run(run)`` is called before a run is replayed; ``"-"`` is
    standard input.
    """
    select = dict(select or {})
    options = (config, upstream, format, max_bytes, select, run_number, tool_map, on_step, on_run, with_state)
    for given in paths:
        files = transcript_files(given) if os.path.isdir(given) else [given]
        if not files:
            yield RunReport(str(given), error=f"{given}: a folder with no transcripts "
                                              f"({', '.join(TRANSCRIPT_SUFFIXES)})")
        for path in files:
            yield from _report_file(path, *options)


def _report_file(path, config, upstream, format, max_bytes, select, run_number, tool_map, on_step, on_run,
                 with_state):
    chosen = 0
    try:
        for run in iter_runs(path, format, max_bytes=max_bytes):
            if (run_number is not None and run.index != run_number) or (select and not _matches(run, select)):
                _drain(run)
                continue
            chosen += 1
            if on_run is not None:
                on_run(run)
            yield report_run(run, config, upstream=upstream, tool_map=tool_map, on_step=on_step,
                             with_state=with_state)
    except TraceError as exc:
        yield RunReport(str(path), error=str(exc))
        return
    if chosen == 0 and (select or run_number is not None):
        wanted = " ".join(f"{k}={v}" for k, v in select.items()) or f"run {run_number}"
        yield RunReport(str(path), error=f"{path}: no run matches {wanted}")


def _drain(run: Run) -> None:
    """Read a run that is not replayed, so a streamed source can move on to the next one."""
    try:
        for _ in run:
            pass
    except TraceError:
        pass  # an unselected run's errors are not the user's question


# -- how a replay is told ---------------------------------------------------------------------------------------
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
