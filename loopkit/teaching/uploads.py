"""A transcript a learner uploads from the page (chapter 10): checked at the door, then replayed in memory by the
replay ``python -m loopkit replay FILE`` runs, with the same format detection, tool map and "why" lines.

The file is never written to disk: its bytes go from the browser to this kernel's memory, are read from there
(:func:`loopkit.traces.replay.report_bytes`), and are gone when the kernel stops or the view forgets them.

The view has no terminal, so every setting the command line takes as a flag it takes as a control, and its advice
names the control: a tool's call budget (``--override TOOL=WARN:HARD``) in its tool budgets box (:func:`tool_budgets`
reads it), records that cannot be read (``--skip-bad-records``) with its skip box.

The size limit is :data:`UPLOAD_LIMIT`, 8 MiB, not the adapters' ``DEFAULT_MAX_BYTES`` (1 GiB). An upload reaches the
kernel as one websocket message, and the Tornado server under Jupyter refuses a message larger than its
``websocket_max_message_size``, 10 MiB by default (``tornado/websocket.py``; jupyter-widgets/ipywidgets issue
#2522): the connection drops and the kernel never sees the file, so no message could say why. 8 MiB leaves room for
the message's envelope. A larger transcript can be compressed with gzip first (the replay reads ``.gz``), or
replayed from a terminal. What a compressed upload expands to is limited by :data:`EXPANDED_LIMIT`, so that the
replay keeps to a few tens of MiB on a shared hub.

Example::

    reading = read_upload(pathlib.Path("data/coding_loop.openai_chat.jsonl").read_bytes(), "coding_loop.jsonl")
    print(reading.runs[0].summary)
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import Literal

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import tr
from loopkit.traces.adapters import human_size
from loopkit.traces.replay import (
    ReplayedBatch,
    call_names,
    display_name,
    explain,
    report_bytes,
    short_where,
    summary_line,
)
from loopkit.traces.tool_maps import DETECTED, PRESETS, ToolMap

__all__ = ["UPLOAD_LIMIT", "EXPANDED_LIMIT", "PLOT_STEPS", "SAMPLES", "TOOL_MAP_CHOICES", "Problem", "WhyLine",
           "RunReading", "UploadReading", "upload_problem", "read_upload", "sample_files", "tool_budgets"]

#: The largest upload read, in bytes (8 MiB): below the 10 MiB websocket message a Jupyter server accepts by default.
UPLOAD_LIMIT = 8 << 20
#: The most bytes a compressed upload may expand to (64 MiB), the replay's guard against a decompression bomb here.
EXPANDED_LIMIT = 64 << 20
#: The most steps of a run kept for its timeline plot (a longer run is drawn up to there).
PLOT_STEPS = 2000
#: The sample transcripts a learner without one can pick (in ``notebooks/data``), each a different verdict: a
#: repeat stop, a Claude Code session that needs its tool map, and a call budget.
SAMPLES = ("coding_loop.openai_chat.jsonl", "reread_loop.claude_code.jsonl", "long_refactor.mini_swe_agent.traj.json")
#: What the tool-map choice may be, as ``--tool-map`` takes it: the detected format's preset, a preset, or none.
TOOL_MAP_CHOICES = (DETECTED, *PRESETS, "none")

Problem = Literal["too_large", "empty", "encoding", "not_transcript", "bad_budgets"]

_GZIP, _ZIP = b"\x1f\x8b", b"PK"
_UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class WhyLine:
    """One batch that warned or stopped, as the command line prints it: the row, then its ``why``."""

    step: int
    at: str
    action: str
    layer: str
    count: int
    tool: str
    calls: str
    why: str


@dataclass(frozen=True)
class RunReading:
    """One run of the upload: the command line's summary line, its why lines, and the steps kept for the plot
    (``steps``, at most :data:`PLOT_STEPS`; ``plot_cut`` says the run was longer)."""

    summary: str
    why: tuple[WhyLine, ...] = ()
    steps: tuple[ReplayedBatch, ...] = field(default=(), repr=False)
    plot_cut: bool = False


@dataclass(frozen=True)
class UploadReading:
    """What the view shows for one file: its runs, or the ``problem`` and a message in the learner's language."""

    name: str
    size: int
    config: DetectorConfig
    runs: tuple[RunReading, ...] = ()
    problem: Problem | None = None
    message: str | None = None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def upload_problem(data: bytes, name: str, skip_bad_records: bool = False) -> tuple[Problem, str] | None:
    """What makes ``data`` unreadable before any replay (too large, empty, not UTF-8), with the message; or None.
    With ``skip_bad_records`` the text is not checked here: the replay skips each line that cannot be read.

    >>> upload_problem(b"", "run.jsonl")[0], upload_problem(b'{"role": "user"}', "run.jsonl")
    ('empty', None)
    """
    size = len(data)
    if size > UPLOAD_LIMIT:
        return "too_large", tr("{name} is {size}, more than the {limit} this page reads. Compress it with gzip and "
                               "upload the .gz, or replay it from a terminal: python -m loopkit replay {name}",
                               name=name, size=human_size(size), limit=human_size(UPLOAD_LIMIT))
    if not data.strip():
        return "empty", tr("{name} is empty: there is nothing to replay. Upload the transcript file itself.",
                           name=name)
    if data.startswith((_GZIP, _ZIP)):
        return None  # compressed: the replay decompresses it and checks its text
    if data.startswith(_UTF16_MARKS):
        return "encoding", tr("{name} is UTF-16 text (Windows PowerShell's > writes it), and the replay reads "
                              "UTF-8. Save it as UTF-8, or upload the agent's own file unchanged.", name=name)
    if skip_bad_records:
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return "encoding", tr("{name} is not UTF-8 text (line {line}: byte {byte} cannot be read). Save it as "
                              "UTF-8, or upload the agent's own file unchanged; if only some lines of JSON Lines are "
                              "damaged, tick the skip box above to replay the others.", name=name,
                              line=_line_of(data, exc.start), byte=f"0x{data[exc.start]:02x}")
    return None


def tool_budgets(text: str) -> dict[str, tuple[int, int]]:
    """The per-tool call budgets of the view's tool budgets box: ``TOOL=WARN:HARD`` pairs, separated by commas or
    spaces, as ``--override`` takes each one; ``ValueError`` with a message in the learner's language otherwise.

    >>> tool_budgets("bash=60:80, read_file=40:60"), tool_budgets("  ")
    ({'bash': (60, 80), 'read_file': (40, 60)}, {})
    """
    budgets: dict[str, tuple[int, int]] = {}
    for item in text.replace(",", " ").split():
        tool, sep, pair = item.rpartition("=")
        warn, colon, hard = pair.partition(":")
        if not (sep and tool and colon and warn.isdigit() and hard.isdigit()):
            raise ValueError(tr("'{item}' is not a budget: write TOOL=WARN:HARD, such as bash=60:80", item=item))
        if int(warn) > int(hard):
            raise ValueError(tr("'{item}': the warning count must not be above the hard limit", item=item))
        budgets[tool] = (int(warn), int(hard))
    return budgets


def _tool_map(choice: str) -> ToolMap:
    """The map the command line's ``--tool-map`` gives: its absence (the detected format's preset), a preset, or
    ``none``."""
    if choice not in TOOL_MAP_CHOICES:
        raise ValueError(f"tool_map must be one of {', '.join(TOOL_MAP_CHOICES)}, got {choice!r}")
    return ToolMap(None if choice == "none" else choice)


def _why_line(step: ReplayedBatch, name: str, config: DetectorConfig) -> WhyLine:
    d = step.decision
    assert d.layer is not None and d.count is not None  # the detector sets both on every warn and stop
    return WhyLine(step.step, short_where(step.where, name), d.action, d.layer, d.count, display_name(d.tool or "-"),
                   call_names(step.calls), display_name(explain(d, config, advice="view")))


def _not_read(name: str, report) -> str:
    """The message of a replay error, quoted in English as the command line prints it, and what to do about it here."""
    message = tr("{name} is not a transcript the replay can read: {error}", name=name, error=report.error)
    if report.bad_record:
        message += " " + tr("Tick the skip box above to skip each record that cannot be read (they are counted).")
    return message


def read_upload(data: bytes, name: str, tool_map: str = DETECTED, config: DetectorConfig | None = None,
                upstream: str = "pinned", skip_bad_records: bool = False) -> UploadReading:
    """Replay an uploaded file held in memory, as ``python -m loopkit replay NAME --tool-map TOOL_MAP`` would (with
    ``--skip-bad-records`` when ``skip_bad_records``).

    ``tool_map`` is ``"detected"`` (the default: the detected format's preset), a preset name, or ``"none"``. An
    unreadable file is a reading with its ``problem`` and ``message``, never an exception: too large, empty, not
    UTF-8, or not a transcript the replay reads (the message then quotes the replay's error, in English, as the
    command line prints it). The verdicts say to raise a call budget in the view's tool budgets box.
    """
    data = bytes(data)
    name = pathlib.PurePath(str(name)).name or "upload"  # a browser sends the name only; never a path to trust
    config = config if config is not None else DetectorConfig()
    found = upload_problem(data, name, skip_bad_records)
    if found:
        return UploadReading(name, len(data), config, problem=found[0], message=found[1])
    runs = []
    why: list[WhyLine] = []
    plotted: list[ReplayedBatch] = []
    seen = 0

    def keep(step: ReplayedBatch) -> None:  # called for each replayed step of the run being read
        nonlocal seen
        seen += 1
        if step.decision.action != "ok":
            why.append(_why_line(step, name, config))
        if len(plotted) < PLOT_STEPS:
            plotted.append(step)

    for report in report_bytes(data, name, config, upstream=upstream, max_bytes=EXPANDED_LIMIT,
                               tool_map=_tool_map(tool_map), on_step=keep, with_state=True,
                               skip_bad_records=skip_bad_records, advice="view"):
        if report.error:
            return UploadReading(name, len(data), config, problem="not_transcript", message=_not_read(name, report))
        runs.append(RunReading(summary_line(report, upstream), tuple(why), tuple(plotted), seen > PLOT_STEPS))
        why, plotted, seen = [], [], 0
    return UploadReading(name, len(data), config, tuple(runs))


def sample_files(folder: str | pathlib.Path = "data") -> list[pathlib.Path]:
    """The :data:`SAMPLES` found in ``folder`` (the chapters' ``data`` folder), in that order."""
    root = pathlib.Path(folder)
    if not root.is_dir():
        raise ValueError(f"folder must be the chapters' data folder, got {str(folder)!r}")
    return [root / name for name in SAMPLES if (root / name).is_file()]
