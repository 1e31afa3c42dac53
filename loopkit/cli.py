"""``python -m loopkit replay FILE_OR_DIR...``: would DeerFlow's loop detector have warned or stopped these runs?

This module only reads the command line and prints. The replay itself is :mod:`loopkit.replay`, the transcript
formats are :mod:`loopkit.adapters`, the tool names :mod:`loopkit.tool_maps`, the image :mod:`loopkit.plots`.

One run (a file that holds one conversation, or the run picked by ``--select``/``--run``) is printed in detail:
every batch that warned or stopped, with why, then a one-line summary. Several runs (a folder, several files, or
a file of many runs) get one row each and an aggregate line. Exit codes: 2 if any input was unusable, else 1 if
any run would have been stopped, else 0. ``-`` reads standard input; a reader that leaves early (``| head``) does
not change the exit code. Tool names from transcripts are escaped before they are printed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import sys
from typing import TextIO

from .adapters import DEFAULT_MAX_BYTES, FORMATS
from .checks import clip
from .detector import DetectorConfig
from .middleware import UPSTREAMS
from .replay import RunReport, Step, call_names, display_name, explain, report_paths, short_where, summary_line
from .tool_maps import PRESETS, MapError, ToolMap

__all__ = ["main", "build_parser", "replay_command", "EXIT_OK", "EXIT_STOPPED", "EXIT_UNUSABLE"]

EXIT_OK, EXIT_STOPPED, EXIT_UNUSABLE = 0, 1, 2

EXIT_CODES = """\
exit codes:
  0  nothing stopped: no run reached a hard limit (warnings alone, or runs with no tool calls, exit 0)
  1  the detector would have stopped a run
  2  unusable input: a file that cannot be read or parsed (the error says FILE:LINE or the record), one in which
     nothing was recognised as a message of the format, or invalid options
With several inputs, 2 wins over 1, and 1 over 0. If the reader of the output leaves early (| head), the replay
still runs to the end and the exit code still tells the verdict.
"""

_DESCRIPTION = """\
Replay agent transcripts through the workbook's model of DeerFlow's loop detector. One run is printed in
detail: each batch (one model turn's tool calls) that warned or stopped, and why, then a summary. A folder,
several files or a file of many runs get one row per run and an aggregate line. Formats are detected (or pick one
with --format); .gz and zip archives are read as they are. '-' reads standard input."""

_CSV_COLUMNS = ("file", "run", "format", "messages", "batches", "calls", "replayed", "warnings", "first_warn_step",
                "stop_step", "stop_layer", "stop_tool", "why", "unmapped", "error", "exit_code")


# -- options -----------------------------------------------------------------------------------------------------
def _override(text: str) -> tuple[str, tuple[int, int]]:
    tool, sep, pair = text.rpartition("=")
    warn, colon, hard = pair.partition(":")
    if not (sep and tool and colon and warn.strip().isdigit() and hard.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"expected TOOL=WARN:HARD such as bash=60:80, got {text!r}")
    return tool, (int(warn), int(hard))


def _key_value(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not (sep and key):
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE such as instance_id=django__django-11099, got {text!r}")
    return key, value


def _size(text: str) -> int:
    """A byte count: digits with an optional K, M or G (powers of 1024)."""
    found = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.I)
    if not found or int(found.group(1)) < 1:
        raise argparse.ArgumentTypeError(f"expected a size such as 1G, 512M or 1048576, got {text!r}")
    return int(found.group(1)) * 1024 ** " KMG".index(found.group(2).upper() or " ")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a run number from 1, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m loopkit`` (its ``--help`` documents the exit codes)."""
    parser = argparse.ArgumentParser(prog="python -m loopkit", description="loopkit command line tools.",
                                     epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay = commands.add_parser("replay", help="would the detector have warned or stopped these transcripts?",
                                 description=_DESCRIPTION, epilog=EXIT_CODES,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("paths", nargs="+", metavar="FILE_OR_DIR",
                        help="transcripts, folders of transcripts, or - for standard input")
    replay.add_argument("--upstream", choices=tuple(UPSTREAMS), default="pinned",
                        help="which DeerFlow to model: the pinned commit f1f4af99 (default) or the later run-scoped "
                             "contract of PRs #5245, #5344 and #5486")
    replay.add_argument("--format", choices=("auto", *FORMATS), default="auto",
                        help="the transcript format (default: detect it and say which)")
    replay.add_argument("--max-bytes", type=_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                        help="refuse a compressed member that expands past SIZE (default 1G)")
    runs = replay.add_argument_group("which runs")
    runs.add_argument("--select", action="append", type=_key_value, default=[], metavar="KEY=VALUE",
                      help="only runs whose metadata has KEY=VALUE, e.g. instance_id=... (repeatable: all must match)")
    runs.add_argument("--run", type=_positive, metavar="N", help="only the N-th run of each file (from 1)")
    names = replay.add_argument_group("tool names")
    names.add_argument("--tool-map", choices=tuple(PRESETS), metavar="PRESET",
                       help=f"map an agent's tools to DeerFlow's names: {', '.join(PRESETS)}")
    names.add_argument("--map", action="append", default=[], metavar="RULE",
                       help="a rule of your own: OLD=NEW, OLD=NEW:a>b,-c, OLD[ARG=VALUE]=NEW (repeatable)")
    defaults = DetectorConfig()
    group = replay.add_argument_group("detector thresholds (defaults are upstream's)")
    for flag, field in (("--warn", "warn_threshold"), ("--hard", "hard_limit"), ("--window", "window_size"),
                        ("--freq-warn", "tool_freq_warn"), ("--freq-hard", "tool_freq_hard_limit")):
        group.add_argument(flag, dest=field, type=int, metavar="N",
                           help=f"{field} (default {getattr(defaults, field)})")
    group.add_argument("--override", action="append", type=_override, default=[], metavar="TOOL=WARN:HARD",
                       help="per-tool frequency thresholds, e.g. bash=60:80 (repeatable)")
    output = replay.add_argument_group("output")
    output.add_argument("--json", action="store_true",
                        help="JSON Lines: for one run, an object per replayed batch, then a summary; for several, a "
                             "summary per run, then an aggregate")
    output.add_argument("--csv", metavar="PATH", help="also write one row per run to this CSV file")
    output.add_argument("--plot", metavar="OUT.png", help="also draw the timeline of one run to this image "
                        "(needs the notebook extras; keeps the run's batches in memory)")
    replay.set_defaults(handler=replay_command)
    return parser


def _config(options: argparse.Namespace) -> DetectorConfig:
    fields = {name: getattr(options, name) for name in ("warn_threshold", "hard_limit", "window_size",
                                                        "tool_freq_warn", "tool_freq_hard_limit")}
    fields = {name: value for name, value in fields.items() if value is not None}
    if options.override:
        fields["tool_freq_overrides"] = dict(options.override)
    return DetectorConfig(**fields)


# -- what is printed -----------------------------------------------------------------------------------------------
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


class _Output:
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


class _Printer:
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


def _write_csv(path: str, summaries: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=_CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for summary in summaries:
            writer.writerow({**summary, "unmapped": " ".join(summary["unmapped"])})


def _problem(options: argparse.Namespace) -> str | None:
    """What is wrong with the options before anything is read, or None."""
    if options.plot:
        if len(options.paths) != 1 or os.path.isdir(options.paths[0]):
            return f"--plot {options.plot}: draws one run; give one file (and --select or --run for a file of runs)"
        from .plots import image_path_problem

        problem = image_path_problem(options.plot)
        if problem:
            return f"--plot {options.plot}: {problem}"
    if options.csv and not os.path.isdir(os.path.dirname(options.csv) or "."):
        return f"--csv {options.csv}: no such directory {os.path.dirname(options.csv)!r}"
    return None


def replay_command(options: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``replay`` for parsed ``options``, print as it goes, and return the exit code."""
    out = _Output(out if out is not None else sys.stdout)
    err = err if err is not None else sys.stderr
    try:
        config = _config(options)
    except ValueError as exc:
        print(f"loopkit replay: error: bad detector settings: {exc}", file=err)
        return EXIT_UNUSABLE
    try:
        tool_map = ToolMap(options.tool_map, options.map) if (options.tool_map or options.map) else None
    except MapError as exc:
        print(f"loopkit replay: error: bad tool map: {exc}", file=err)
        return EXIT_UNUSABLE
    problem = _problem(options)
    if problem:
        print(f"loopkit replay: error: {problem}", file=err)
        return EXIT_UNUSABLE
    printer = _Printer(options, config, tool_map, out, err)
    for report in report_paths(options.paths, config, upstream=options.upstream, format=options.format,
                               max_bytes=options.max_bytes, select=dict(options.select), run_number=options.run,
                               tool_map=tool_map, with_state=bool(options.plot), on_step=printer.step,
                               on_run=printer.run_started):
        printer.report(report)
    printer.finish()
    if options.csv:
        _write_csv(options.csv, printer.reports)
    code = max((summary["exit_code"] for summary in printer.reports), default=EXIT_OK)
    if options.plot and not _plot(printer, config, options.plot, err):
        code = EXIT_UNUSABLE
    out.flush()
    return code


def _plot(printer: _Printer, config: DetectorConfig, path: str, err: TextIO) -> bool:
    """Draw the one replayed run to ``path``; say so on ``err`` when there is nothing to draw. False on failure."""
    if printer.runs > 1 or not printer.detailed:
        print(f"loopkit replay: the file holds several runs; pick one with --select or --run to plot it, so no "
              f"plot was written to {path}", file=err)
    elif not printer.kept:
        print(f"loopkit replay: no tool calls, so no plot was written to {path}", file=err)
    else:
        from .plots import save_timeline

        try:
            save_timeline(printer.kept, config, path)
        except (ImportError, OSError, ValueError) as exc:
            print(f"loopkit replay: error: --plot {path}: {exc}", file=err)
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m loopkit``; returns the exit code."""
    parser = build_parser()
    options = parser.parse_args(argv)
    if options.command is None:
        parser.print_help(sys.stderr)
        return EXIT_UNUSABLE
    for channel in (sys.stdout, sys.stderr):  # a terminal that cannot encode a name gets an escape, not a crash
        if isinstance(channel, io.TextIOWrapper):
            channel.reconfigure(errors="backslashreplace")
    return options.handler(options)  # a reader that leaves early is handled inside: the code is still the verdict
