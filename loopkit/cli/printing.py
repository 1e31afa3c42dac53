"""What the command line prints: one run in detail (each batch that warned or stopped, with why), or many runs as
rows (under a line naming each file that holds several) and an aggregate line; and the CSV file of those rows."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import os
import sys
from collections import Counter
from typing import Protocol, TextIO

from loopkit.core.checks import clip
from loopkit.core.detector import DetectorConfig
from loopkit.traces.replay import ReplayedBatch, RunReport, call_names, display_name, explain, short_where, summary_line

__all__ = ["Output", "Printer", "write_csv", "VERDICTS", "bad_record_line", "print_bad_record"]

_CSV_COLUMNS = ("file", "run", "format", "messages", "batches", "calls", "replayed", "warnings", "first_warn_step",
                "stop_step", "stop_layer", "stop_tool", "why", "verdict", "tool_map", "unmapped", "bad_records",
                "cut_off", "unread_calls", "repeated_ids", "error", "exit_code")
#: The aggregate's counts, one per :attr:`RunReport.verdict`.
VERDICTS = ("stopped_repeat", "stopped_budget", "warned", "quiet", "incomplete", "unusable")


def bad_record_line(message: str) -> str:
    """How a record skipped under --skip-bad-records is listed."""
    return f"loopkit replay: skipped a bad record: {display_name(message)}"


def print_bad_record(message: str) -> None:
    """List a skipped record on this process's stderr, as it happens (a worker of a parallel replay calls it)."""
    if isinstance(sys.stderr, io.TextIOWrapper):
        sys.stderr.reconfigure(errors="backslashreplace")
    print(bad_record_line(message), file=sys.stderr, flush=True)


class Writer(Protocol):
    """Where the report is printed: a text stream, or :class:`Output` around one."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class _Table:
    """Rows printed as they happen (nothing is kept), with the header before the first row."""

    def __init__(self, out: Writer, columns: tuple, widths: tuple, right: tuple = ()) -> None:
        self.out, self.columns, self.widths, self.right = out, columns, widths, right
        self.rows = 0
        self.headed = False

    def _line(self, values) -> str:
        cells = []
        for value, width, column in zip(values, self.widths, self.columns, strict=True):
            text = str(value)
            cells.append(text.rjust(width) if column in self.right else text.ljust(width))
        return "  ".join(cells).rstrip()

    def header(self) -> None:
        """The column names, once, before whatever the table prints first."""
        if not self.headed:
            self.headed = True
            print(self._line(self.columns), file=self.out)

    def row(self, *values) -> None:
        self.header()
        self.rows += 1
        print(self._line(values), file=self.out)


class Output:
    """Writes to ``out`` until its reader goes away (a closed pipe), then drops the rest quietly, so the replay
    still runs to the end and the exit code still tells the verdict."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.gone = False

    def _left(self) -> None:
        self.gone = True
        with contextlib.suppress(AttributeError, OSError, ValueError):  # so the last flush at exit cannot fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.out.fileno())

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.out.write(text)
            except BrokenPipeError:
                self._left()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.out.flush()
            except BrokenPipeError:
                self._left()


class Printer:
    """Prints one run in detail, or many runs as rows; decides which at the first run it sees."""

    def __init__(self, options: argparse.Namespace, config: DetectorConfig, out: Writer, err: TextIO) -> None:
        self.options, self.config, self.out, self.err = options, config, out, err
        one_file = self.details(options)
        self.may_detail = one_file
        self.detailed: bool | None = None if one_file else False
        self.reports: list[dict] = []
        self.tool_maps = _ToolMapTotals()
        self.kept: list[ReplayedBatch] = []
        self.runs = 0
        self.detail_table: _Table | None = None  # the batches of the run being read, made when it starts
        self.run_table: _Table | None = None  # one row a run, made at the first row
        self.path: str | None = None  # the run being read
        self.file_of_runs: str | None = None  # the file of several runs whose rows are being printed

    @staticmethod
    def details(options: argparse.Namespace) -> bool:
        """May the output be one run in detail? Only when one file is given (a folder is always rows)."""
        return len(options.paths) == 1 and not os.path.isdir(options.paths[0])

    def bad_record(self, message: str) -> None:
        """A record skipped under --skip-bad-records: listed as it happens, on stderr."""
        print(bad_record_line(message), file=self.err)

    def run_started(self, run) -> None:
        self.runs += 1
        if self.detailed is None:
            picked = bool(self.options.select or self.options.run)
            self.detailed = self.may_detail and (run.label == "" or picked)
        self.path = run.path
        self.detail_table = _Table(self.out, ("step", "at", "action", "layer", "count", "tool", "calls"),
                                   (5, 14, 6, 9, 5, 14, 0), right=("step", "count"))

    def step(self, step: ReplayedBatch) -> None:
        if not self.detailed:
            return
        if self.options.plot:
            self.kept.append(step)
        d = step.decision
        if self.options.json:
            record = {"step": step.step, "where": step.where, "action": d.action, "layer": d.layer,
                      "count": d.count, "tool": d.tool, "fingerprint": d.fingerprint,
                      "calls": [c["name"] for c in step.calls], "why": explain(d, self.config), "message": d.message}
            print(json.dumps(record), file=self.out)
        elif d.action != "ok":
            assert self.detail_table is not None and self.path is not None  # a run starts before its steps
            self.detail_table.row(step.step, short_where(step.where, self.path), d.action, d.layer, d.count,
                                  display_name(d.tool or "-"), call_names(step.calls))
            print(f"{'':7}why: {display_name(explain(d, self.config))}", file=self.out)

    def report(self, report: RunReport) -> None:
        if self.detailed is None:  # the file failed before any run was found: one file, so say it as an error
            self.detailed = self.may_detail
        summary = report.summary()
        self.reports.append(summary)
        self.tool_maps.add(report)
        if self.detailed:
            if report.error:
                print(f"loopkit replay: error: {report.error}", file=self.err)
                if self.options.json:  # the summary still says what was read, and that it is unusable
                    print(json.dumps({"summary": summary}), file=self.out)
            elif self.options.json:
                print(json.dumps({"summary": summary}), file=self.out)
            else:
                if report.mapped or report.map_problems:
                    print(tool_map_line(report), file=self.out)
                print(summary_line(report), file=self.out)
            return
        if self.options.json:
            print(json.dumps({"summary": summary}), file=self.out)
            return
        if self.run_table is None:
            self.run_table = _Table(self.out, ("run", "format", "batches", "calls", "warn", "stop", "layer", "note"),
                                    (40, 16, 7, 5, 4, 4, 9, 0), right=("batches", "calls", "warn", "stop"))
        self._row(self.run_table, report)

    def _row(self, table: _Table, report: RunReport) -> None:
        """One run's row; a run of a file that holds several (or of an archive) goes under a line naming the file."""
        source = report.source or report.path
        if report.label and source != self.file_of_runs:
            self.file_of_runs = source
            table.header()
            print(f"{display_name(source)}: several runs, one row each", file=self.out)
        elif not report.label:
            self.file_of_runs = None
        member = report.path[len(source):].strip("[]") if report.path != source else ""
        name = report.label if not (member and report.label.startswith("run ")) else member
        name = f"  {name}" if report.label else report.name
        name = clip(display_name(name), 40, keep_end=True)
        if report.error:  # nothing counted up to an error is a result: the row shows none of it
            table.row(name, "-", "-", "-", "-", "-", "-", display_name(f"unusable: {report.error}"))
            return
        note = report.why or ""
        if report.only_tool is not None and report.frequency_decisions:
            note += f" ({report.only_tool} is the only tool this agent used)"
        note = "; ".join(part for part in (note, *report.reading_notes()) if part)
        if report.verdict == "incomplete":
            note = f"incomplete: {note}"
        stop = report.stop
        table.row(name, report.format or "-", report.batches, report.calls, report.outcome.warn_step or "-",
                  stop.step if stop else "-", stop.decision.layer if stop else "-", display_name(note))

    def finish(self) -> None:
        """The aggregate of several runs: repeat stops (hash layer) and budget stops (frequency layer) apart."""
        if self.detailed:
            return
        files = len({summary["source"] for summary in self.reports})
        counts = {verdict: sum(s["verdict"] == verdict for s in self.reports) for verdict in VERDICTS}
        aggregate = {"runs": len(self.reports), "files": files, **counts}
        if self.options.json:
            print(json.dumps({"aggregate": {**aggregate, **self.tool_maps.counts()}}), file=self.out)
        else:
            if self.tool_maps:  # above the aggregate, which stays the last line
                print(self.tool_maps.line(len(self.reports)), file=self.out)
            incomplete = (f"{counts['incomplete']} incomplete (tool calls not read), " if counts["incomplete"]
                          else "")
            print(f"{len(self.reports)} runs in {files} files: {counts['stopped_repeat']} stopped for a repeat (hash "
                  f"layer), {counts['stopped_budget']} stopped by a call budget (frequency layer), "
                  f"{counts['warned']} warned only, {counts['quiet']} quiet, {incomplete}{counts['unusable']} "
                  f"unusable.", file=self.out)


def _counted(counts: dict) -> list[str]:
    """``["Read -> read_file (3)", "Bash -> bash (1)"]``; a rule that never applied carries no count."""
    return [what if what.endswith(": never applied") else f"{what} ({n})" for what, n in counts.items()]


def tool_map_line(report: RunReport) -> str:
    """What one run's tool map did, for the one-run output: what it renamed, then what it could not.

    ``"tool map claude-code: mapped Read -> read_file (2); --map Nope=bash: never applied"``
    """
    mapped = ", ".join(_counted(report.mapped)) or "nothing"
    return "; ".join([f"tool map {report.tool_map or 'rules only'}: mapped {mapped}", *_counted(report.map_problems)])


class _ToolMapTotals:
    """The tool maps of many runs, summed: what was mapped, the problems met, and the ``--map`` rules that applied
    in no run (a rule counts as applied once any run that was read applied it)."""

    def __init__(self) -> None:
        self.mapped: Counter = Counter()
        self.problems: Counter = Counter()
        self.never: dict[str, None] | None = None  # the never-applied rules of every run read so far, in order

    def add(self, report: RunReport) -> None:
        if report.error is not None and report.format is None:
            return  # nothing was read, so no rule had a chance
        self.mapped.update(report.mapped)
        never = {what: None for what in report.map_problems if what.endswith(": never applied")}
        self.problems.update({what: n for what, n in report.map_problems.items() if what not in never})
        self.never = never if self.never is None else {what: None for what in self.never if what in never}

    def __bool__(self) -> bool:
        return bool(self.mapped or self.problems or self.never)

    def counts(self) -> dict:
        """For the ``--json`` aggregate: ``mapped`` and ``map_problems``, each only when it is not empty."""
        problems = {**{what: 1 for what in self.never or ()}, **dict(self.problems.most_common())}
        found = {"mapped": dict(self.mapped.most_common()), "map_problems": problems}
        return {key: value for key, value in found.items() if value}

    def line(self, runs: int) -> str:
        """``"tool maps over 2 runs: mapped Read -> read_file (2); --map Never=bash: never applied in any run"``"""
        parts = [f"mapped {', '.join(_counted(dict(self.mapped.most_common()))) or 'nothing'}"]
        parts += [f"{what} in any run" for what in self.never or ()]
        parts += [f"{what} ({n})" for what, n in self.problems.most_common()]
        return f"tool maps over {runs} runs: " + "; ".join(parts)


def write_csv(path: str, summaries: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=_CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for summary in summaries:
            writer.writerow({**summary, "unmapped": " ".join(summary["unmapped"])})
