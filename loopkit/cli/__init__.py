"""``python -m loopkit replay FILE_OR_DIR...``: would DeerFlow's loop detector have warned or stopped these runs?

This module only reads the command line and prints. The replay itself is :mod:`loopkit.traces.replay`, the transcript
formats are :mod:`loopkit.traces.adapters`, the tool names :mod:`loopkit.traces.tool_maps`, the image :mod:`loopkit.views.plots`.

One run (a file that holds one conversation, or the run picked by ``--select``/``--run``) is printed in detail:
every batch that warned or stopped, with why, then a one-line summary. Several runs (a folder, several files, or
a file of many runs) get one row each, a line above the rows of each file that holds several, and an aggregate line
that counts repeat stops and budget stops apart; the files of a folder are replayed several at once (``--jobs``,
:mod:`loopkit.traces.replay.parallel`), the rows still in file order. Exit codes: 2 if any input was unusable, else 1 if
any run would have been stopped, else 0. ``-`` reads standard input; a reader that leaves early (``| head``) does
not change the exit code. Tool names from transcripts are escaped before they are printed.

The command speaks English in every track, also when a Spanish chapter calls :func:`main`: it is the same report a
terminal prints (where no chapter chose a language), and one that scripts, issues and searches quote word for word.
"""


from __future__ import annotations

import argparse
import io
import os
import sys
from typing import TextIO

from loopkit.core.detector import DetectorConfig
from loopkit.core.language import DEFAULT_LANGUAGE, current_language, set_language
from loopkit.traces.replay import replay_paths
from loopkit.traces.replay.parallel import default_jobs, replay_paths_at_once
from loopkit.traces.tool_maps import MapError

from .options import build_parser, detector_config, replay_options, tool_map
from .printing import Output, Printer, print_bad_record, write_csv

__all__ = ["main", "build_parser", "replay_command", "EXIT_OK", "EXIT_STOPPED", "EXIT_UNUSABLE"]

EXIT_OK, EXIT_STOPPED, EXIT_UNUSABLE = 0, 1, 2


def _problem(options: argparse.Namespace) -> str | None:
    """What is wrong with the options before anything is read, or None."""
    if options.plot:
        if len(options.paths) != 1 or os.path.isdir(options.paths[0]):
            return f"--plot {options.plot}: draws one run; give one file (and --select or --run for a file of runs)"
        from loopkit.views.plots import image_path_problem

        problem = image_path_problem(options.plot)
        if problem:
            return f"--plot {options.plot}: {problem}"
    if options.csv and not os.path.isdir(os.path.dirname(options.csv) or "."):
        return f"--csv {options.csv}: no such directory {os.path.dirname(options.csv)!r}"
    return None


def replay_command(options: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``replay`` for parsed ``options``, print as it goes (in English), and return the exit code."""
    spoken = current_language()
    set_language(DEFAULT_LANGUAGE)  # the report a terminal prints, word for word, whatever the chapter speaks
    try:
        return _replay(options, out, err)
    finally:
        set_language(spoken)


def _replay(options: argparse.Namespace, out: TextIO | None, err: TextIO | None) -> int:
    output = Output(out if out is not None else sys.stdout)
    errors = err if err is not None else sys.stderr
    try:
        config = detector_config(options)
    except ValueError as exc:
        print(f"loopkit replay: error: bad detector settings: {exc}", file=errors)
        return EXIT_UNUSABLE
    try:
        tools = tool_map(options)
    except MapError as exc:
        print(f"loopkit replay: error: bad tool map: {exc}", file=errors)
        return EXIT_UNUSABLE
    problem = _problem(options)
    if problem:
        print(f"loopkit replay: error: {problem}", file=errors)
        return EXIT_UNUSABLE
    jobs = options.jobs if options.jobs is not None else default_jobs()
    at_once = jobs > 1 and not Printer.details(options) and not options.plot  # rows only: files may go at once
    printer = Printer(options, config, output, errors)
    # a worker process lists a bad record itself, by a function it can import; this process lists it in order
    replay = replay_options(options, config, tools, print_bad_record if at_once else printer.bad_record)
    if at_once:
        reports = replay_paths_at_once(options.paths, replay, jobs=jobs)
    else:
        reports = replay_paths(options.paths, replay, with_state=bool(options.plot), on_step=printer.step,
                               on_run=printer.run_started)
    for report in reports:
        printer.report(report)
    printer.finish()
    if options.csv:
        write_csv(options.csv, printer.reports)
    code = max((summary["exit_code"] for summary in printer.reports), default=EXIT_OK)
    if options.plot and not _plot(printer, config, options.plot, errors):
        code = EXIT_UNUSABLE
    output.flush()
    return code


def _plot(printer: Printer, config: DetectorConfig, path: str, err: TextIO) -> bool:
    """Draw the one replayed run to ``path``; say so on ``err`` when there is nothing to draw. False on failure."""
    if printer.runs > 1 or not printer.detailed:
        print(f"loopkit replay: the file holds several runs; pick one with --select or --run to plot it, so no "
              f"plot was written to {path}", file=err)
    elif not printer.kept:
        print(f"loopkit replay: no tool calls, so no plot was written to {path}", file=err)
    else:
        from loopkit.views.plots import save_timeline

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
    return replay_command(options)  # a reader that leaves early is handled inside: the code is still the verdict
