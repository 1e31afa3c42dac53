"""What the command line prints: one run in detail (each batch that warned or stopped, with why), or many runs as
rows and an aggregate line; and the CSV file of those rows."""

from __future__ import annotations

import argparse
import csv
import json
import os
from typing import TextIO

from ..checks import clip
from ..detector import DetectorConfig
from ..replay import RunReport, Step, call_names, display_name, explain, short_where, summary_line
from ..tool_maps import ToolMap

__all__ = ["Output", "Printer", "write_csv"]

_CSV_COLUMNS = ("file", "run", "format", "messages", "batches", "calls", "replayed", "warnings", "first_warn_step",
                "stop_step", "stop_layer", "stop_tool", "why", "unmapped", "error", "exit_code")


class _Table:
    """Rows printed as they happen (nothing is kept), with the header before the first row."""

    def __init__(self, out: TextIO, columns: tuple, widths: tuple, right: tuple = ()) -> None:
        self.out, self.columns, self.widths, self.right = out, columns, widths, right
        self.rows = 0

    def _line(self, values) -> str:
        cells = []
        for value, width, column in zip(values, self.widths, self.columns):
            text = str(value)
            cells.append(text.rjust(width) if column in self.right else text.ljust(width))
        return "  ".join(cells).rstrip()

    def row(self, *values) -> None:
        if not self.rows:
            print(self._line(self.columns), file=self.out)
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
        try:  # so that the interpreter's last flush at exit does not fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), self.out.fileno())
        except (AttributeError, OSError, ValueError):
            pass

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

    def __init__(self, options: argparse.Namespace, config: DetectorConfig, tool_map: ToolMap | None,
                 out: TextIO, err: TextIO) -> None:
        self.options, self.config, self.tool_map, self.out, self.err = options, config, tool_map, out, err
        one_file = len(options.paths) == 1 and not os.path.isdir(options.paths[0])
        self.may_detail = one_file
        self.detailed: bool | None = None if one_file else False
        self.reports: list[dict] = []
        self.kept: list[Step] = []
        self.runs = 0
        self.detail_table = self.run_table = None

    def run_started(self, run) -> None:
        self.runs += 1
        if self.detailed is None:
            picked = bool(self.options.select or self.options.run)
            self.detailed = self.may_detail and (run.label == "" or picked)
        self.path = run.path
        self.detail_table = _Table(self.out, ("step", "at", "action", "layer", "count", "tool", "calls"),
                                   (5, 14, 6, 9, 5, 14, 0), right=("step", "count"))

    def step(self, step: Step) -> None:
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
            self.detail_table.row(step.step, short_where(step.where, self.path), d.action, d.layer, d.count,
                                  display_name(d.tool or "-"), call_names(step.calls))
            print(f"{'':7}why: {display_name(explain(d, self.config))}", file=self.out)

    def report(self, report: RunReport) -> None:
        if self.detailed is None:  # the file failed before any run was found: one file, so say it as an error
            self.detailed = self.may_detail
        summary = report.summary()
        self.reports.append(summary)
        if self.detailed:
            if report.error:
                print(f"loopkit replay: error: {report.error}", file=self.err)
            elif self.options.json:
                print(json.dumps({"summary": summary}), file=self.out)
            else:
                print(summary_line(report, self.options.upstream, self.tool_map), file=self.out)
            return
        if self.options.json:
            print(json.dumps({"summary": summary}), file=self.out)
            return
        if self.run_table is None:
            self.run_table = _Table(self.out, ("run", "format", "batches", "calls", "warn", "stop", "layer", "note"),
                                    (40, 16, 7, 5, 4, 4, 9, 0), right=("batches", "calls", "warn", "stop"))
        note = f"unusable: {report.error}" if report.error else (report.why or "")
        stop = report.stop
        self.run_table.row(clip(display_name(report.name), 40, keep_end=True), report.format or "-", report.batches,
                           report.calls, report.outcome.warn_step or "-", stop.step if stop else "-",
                           stop.decision.layer if stop else "-", display_name(note))

    def finish(self) -> None:
        if self.detailed:
            return
        files = len({summary["file"] for summary in self.reports})
        stopped = [s for s in self.reports if s["stop_step"] is not None]
        layers = {layer: sum(s["stop_layer"] == layer for s in stopped) for layer in ("hash", "frequency")}
        warned = sum(s["first_warn_step"] is not None and s["stop_step"] is None for s in self.reports)
        unusable = sum(s["error"] is not None for s in self.reports)
        quiet = len(self.reports) - len(stopped) - warned - unusable
        aggregate = {"runs": len(self.reports), "files": files, "stopped": len(stopped), "stopped_by_hash":
                     layers["hash"], "stopped_by_frequency": layers["frequency"], "warned_only": warned,
                     "quiet": quiet, "unusable": unusable}
        if self.options.json:
            print(json.dumps({"aggregate": aggregate}), file=self.out)
        else:
            print(f"{len(self.reports)} runs in {files} files: {len(stopped)} stopped ({layers['hash']} by the hash "
                  f"layer, {layers['frequency']} by the frequency layer), {warned} warned only, {quiet} quiet, "
                  f"{unusable} unusable.", file=self.out)


def write_csv(path: str, summaries: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=_CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for summary in summaries:
            writer.writerow({**summary, "unmapped": " ".join(summary["unmapped"])})
