"""``python -m loopkit replay FILE``: would DeerFlow's loop detector have warned or stopped this agent, and when?

The command reads a transcript with :mod:`loopkit.providers` (JSON Lines are streamed one line at a time, so a
transcript of any size replays in steady memory), feeds each assistant turn's batch of tool calls to
:class:`loopkit.detector.LoopDetector` as it is parsed, and prints every batch that warned or stopped, then a
one-line summary. The whole file is one run, as if one request produced it; the replay ends at the first stop,
because the real run would have ended there (the rest of the file is still read and checked).

Exit codes: 0 nothing stopped (warnings, or no tool calls at all, are fine), 1 the detector would have stopped
the run, 2 unusable input (a file that cannot be read or parsed, an empty file, or bad options). ``-`` reads
standard input; a reader that leaves early (``| head``) does not change the exit code: the replay finishes
quietly and still reports its verdict. Tool names from the transcript are escaped before they are printed.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from typing import TextIO

from .detector import DetectorConfig
from .middleware import UPSTREAMS, middleware_for
from .providers import FORMATS, TraceError, iter_trace

__all__ = ["main", "build_parser", "replay_file", "stream_replay", "summary_line", "ReplayTally", "short_where",
           "call_names", "display_name", "EXIT_OK", "EXIT_STOPPED", "EXIT_UNUSABLE"]

EXIT_OK, EXIT_STOPPED, EXIT_UNUSABLE = 0, 1, 2

EXIT_CODES = """\
exit codes:
  0  nothing stopped: no batch reached a hard limit (warnings alone, or a file with no tool calls, exit 0)
  1  the detector would have stopped the run
  2  unusable input: the file cannot be read or parsed (the error says FILE:LINE or the message index), it is
     empty, or the options are invalid
If the reader of the output leaves early (| head), the replay still runs to the end and the exit code still
tells the verdict.
"""

_DESCRIPTION = """\
Replay an agent transcript through the workbook's model of DeerFlow's loop detector. Prints each batch (one
assistant turn's tool calls) that warned or stopped, then a one-line summary. Formats: OpenAI Chat Completions,
OpenAI Responses, Anthropic Messages, LangChain/LangGraph dumps; containers: a JSON array, a JSON object with
the list under messages/history/output/input, or JSON Lines (streamed, steady memory). The whole file is
replayed as one run, up to the first stop. FILE may be a pipe: '-' reads standard input."""


def _override(text: str) -> tuple[str, tuple[int, int]]:
    tool, sep, pair = text.rpartition("=")
    warn, colon, hard = pair.partition(":")
    if not (sep and tool and colon and warn.strip().isdigit() and hard.strip().isdigit()):
        raise argparse.ArgumentTypeError(f"expected TOOL=WARN:HARD such as bash=60:80, got {text!r}")
    return tool, (int(warn), int(hard))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m loopkit`` (its ``--help`` documents the exit codes)."""
    parser = argparse.ArgumentParser(prog="python -m loopkit", description="loopkit command line tools.",
                                     epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay = commands.add_parser("replay", help="would the detector have warned or stopped this transcript?",
                                 description=_DESCRIPTION, epilog=EXIT_CODES,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("file", metavar="FILE", help="the transcript: .json or .jsonl, or - for standard input")
    replay.add_argument("--upstream", choices=tuple(UPSTREAMS), default="pinned",
                        help="which DeerFlow to model: the pinned commit f1f4af99 (default) or the later run-scoped "
                             "contract of PRs #5245 and #5344")
    replay.add_argument("--format", choices=("auto", *FORMATS), default="auto",
                        help="transport shape of the messages (default: auto-detect and say which)")
    defaults = DetectorConfig()
    group = replay.add_argument_group("detector thresholds (defaults are upstream's)")
    for flag, field in (("--warn", "warn_threshold"), ("--hard", "hard_limit"), ("--window", "window_size"),
                        ("--freq-warn", "tool_freq_warn"), ("--freq-hard", "tool_freq_hard_limit")):
        group.add_argument(flag, dest=field, type=int, metavar="N",
                           help=f"{field} (default {getattr(defaults, field)})")
    group.add_argument("--override", action="append", type=_override, default=[], metavar="TOOL=WARN:HARD",
                       help="per-tool frequency thresholds, e.g. bash=60:80 (repeatable)")
    replay.add_argument("--plot", metavar="OUT.png", help="also draw the timeline to this image "
                        "(needs the notebook extras; holds the replayed batches in memory)")
    replay.add_argument("--json", action="store_true",
                        help="print one JSON object per replayed batch, then a summary object (JSON Lines)")
    replay.set_defaults(run=replay_file)
    return parser


def _config(options: argparse.Namespace) -> DetectorConfig:
    fields = {name: getattr(options, name) for name in ("warn_threshold", "hard_limit", "window_size",
                                                        "tool_freq_warn", "tool_freq_hard_limit")}
    fields = {name: value for name, value in fields.items() if value is not None}
    if options.override:
        fields["tool_freq_overrides"] = dict(options.override)
    return DetectorConfig(**fields)


def short_where(where: str, path: str) -> str:
    """``"line 14"`` or ``"message 3"``: a batch's location without the file name."""
    rest = where[len(path):] if where.startswith(path) else where
    rest = rest.lstrip(":").strip()
    return f"line {rest}" if rest.isdigit() else rest.replace("message index", "message")


def display_name(name: str) -> str:
    """A tool name safe to print: control, format (bidi), surrogate and other non-printable characters are
    escaped as ``repr`` would escape them; printable text, non-ASCII too, is kept.

    >>> print(display_name("read_file"), display_name("\x1b[31mred"))
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
    text = ", ".join(name if n == 1 else f"{name} x{n}" for name, n in names.items())
    return text if len(text) <= 48 else text[:45] + "..."


class _Table:
    """Rows printed as they happen (nothing is kept), with the header before the first row."""

    COLUMNS = ("step", "at", "action", "layer", "count", "tool", "calls")
    WIDTHS = (5, 14, 6, 9, 5, 14, 0)

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.rows = 0

    def _line(self, values) -> str:
        cells = []
        for value, width, column in zip(values, self.WIDTHS, self.COLUMNS):
            text = str(value)
            cells.append(text.rjust(width) if column in ("step", "count") else text.ljust(width))
        return "  ".join(cells).rstrip()

    def row(self, *values) -> None:
        if not self.rows:
            print(self._line(self.COLUMNS), file=self.out)
        self.rows += 1
        print(self._line(values), file=self.out)


class ReplayTally:
    """What a replay found so far: batches replayed, warnings, the first warning and the stop."""

    def __init__(self) -> None:
        self.replayed = 0
        self.warnings = 0
        self.first_warn: int | None = None
        self.stop: tuple | None = None  # (step, layer, count, tool)

    def add(self, step: int, decision) -> None:
        self.replayed += 1
        if decision.action == "warn":
            self.warnings += 1
            self.first_warn = self.first_warn or step
        elif decision.action == "stop" and self.stop is None:
            self.stop = (step, decision.layer, decision.count, decision.tool)

    def verdict(self, batches: int) -> str:
        """One sentence: would DeerFlow have warned or stopped, and when (``batches`` counts the whole trace)."""
        n = self.warnings
        told = f"warned at step {self.first_warn}" if n == 1 else f"warned {n} times (first at step {self.first_warn})"
        if self.stop:
            step, layer, count, tool = self.stop
            what = f"{layer} layer, '{display_name(tool)}' count {count}" if tool else f"{layer} layer, count {count}"
            later = batches - step
            return (f"DeerFlow would have {told + ', then ' if n else ''}stopped the run at step {step} ({what}); "
                    f"{later} later batch{'es' * (later != 1)} would never have run.")
        if n:
            return f"DeerFlow would have {told} and never stopped."
        return "DeerFlow would neither have warned nor stopped."


def stream_replay(stream, config: DetectorConfig | None = None, tally: ReplayTally | None = None, *,
                  upstream: str = "pinned"):
    """Feed each batch of ``stream`` (a :class:`loopkit.providers.TraceStream`) to a fresh middleware model of the
    ``upstream`` version as it is parsed; yield ``(batch, decision)``. Each user message starts a new run id in
    one thread (the pinned version keeps one budget per thread anyway; the run-scoped one starts afresh). The replay ends at the first stop, as the real run would have; the rest of the
    stream is still read, so its errors are reported and its batches counted. Nothing is kept. A batch the
    detector cannot key raises :class:`~loopkit.providers.TraceError` naming the batch's location."""
    middleware = middleware_for(upstream, config)
    tally = tally if tally is not None else ReplayTally()
    for batch in stream:
        if tally.stop:
            continue
        try:
            decision = middleware.after_model(batch.calls, "replay", f"turn-{batch.turn}")
        except (TypeError, ValueError, RecursionError) as exc:  # args no adapter check caught: name the batch
            raise TraceError(f"{batch.where}: the detector cannot key this batch ({exc})") from None
        tally.add(batch.step, decision)
        yield batch, decision


def summary_line(stream, tally: ReplayTally) -> str:
    """The one-line summary the command prints after the table."""
    if not stream.calls:
        return stream.describe()
    turns = f" Note: {stream.turns} user messages; DeerFlow would start a new run for each." \
        if stream.turns > 1 else ""
    return f"{stream.describe()}. {tally.verdict(stream.batches)}{turns}"


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


def _plot_problem(path: str) -> str | None:
    """Why ``--plot path`` cannot be written (checked before replaying), or None."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as exc:
        return f"needs matplotlib (the notebook extras): {exc}"
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = os.path.splitext(path)[1].lower()
    if suffix.lstrip(".") not in formats:
        what = f"unsupported image format {suffix!r}" if suffix else "no file extension to tell the image format"
        return f"{what}; expected one of {', '.join('.' + f for f in sorted(formats))}"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"no such directory {folder!r}"
    return None


def replay_file(options: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``replay`` for parsed ``options``; print the table (or JSON Lines) and the summary; return the exit code."""
    out = _Output(out if out is not None else sys.stdout)
    err = err if err is not None else sys.stderr
    try:
        config = _config(options)
    except ValueError as exc:
        print(f"loopkit replay: error: bad detector settings: {exc}", file=err)
        return EXIT_UNUSABLE
    if options.plot:
        problem = _plot_problem(options.plot)
        if problem:
            print(f"loopkit replay: error: --plot {options.plot}: {problem}", file=err)
            return EXIT_UNUSABLE
    source = sys.stdin.buffer if options.file == "-" else options.file
    stream = iter_trace(source, options.format)
    table = _Table(out)
    tally = ReplayTally()
    kept = [] if options.plot else None
    try:
        for batch, decision in stream_replay(stream, config, tally, upstream=options.upstream):
            if kept is not None:
                kept.append(batch.calls)
            if options.json:
                record = {"step": batch.step, "where": batch.where, "action": decision.action,
                          "layer": decision.layer, "count": decision.count, "tool": decision.tool,
                          "fingerprint": decision.fingerprint, "calls": [c["name"] for c in batch.calls],
                          "message": decision.message}
                print(json.dumps(record), file=out)
            elif decision.action != "ok":
                table.row(batch.step, short_where(batch.where, stream.path), decision.action, decision.layer,
                          decision.count, display_name(decision.tool or "-"), call_names(batch.calls))
    except TraceError as exc:
        print(f"loopkit replay: error: {exc}", file=err)
        return EXIT_UNUSABLE
    stop = tally.stop
    code = EXIT_STOPPED if stop else EXIT_OK
    if options.json:
        summary = {"file": stream.path, "format": stream.format, "container": stream.container,
                   "messages": stream.messages, "batches": stream.batches, "calls": stream.calls,
                   "replayed": tally.replayed, "warnings": tally.warnings, "first_warn_step": tally.first_warn,
                   "stop_step": stop[0] if stop else None, "stop_layer": stop[1] if stop else None,
                   "user_messages": stream.turns, "exit_code": code}
        print(json.dumps({"summary": summary}), file=out)
    else:
        print(summary_line(stream, tally), file=out)
    if options.plot:
        if not kept:
            print(f"loopkit replay: no tool calls, so no plot was written to {options.plot}", file=err)
        else:
            try:
                _plot(kept, config, options.plot)
            except (ImportError, OSError, ValueError) as exc:
                print(f"loopkit replay: error: --plot {options.plot}: {exc}", file=err)
                return EXIT_UNUSABLE
    out.flush()
    return code


def _plot(batches: list, config: DetectorConfig, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # the command line has no display
    import matplotlib.pyplot as plt

    from . import trace
    from .plots import timeline

    drawn = timeline(trace.replay(batches, config), config)
    first = drawn[0] if isinstance(drawn, (tuple, list)) else drawn  # an Axes, a tuple of Axes, or a Figure
    figure = getattr(first, "figure", first)
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)


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
    return options.run(options)  # a reader that leaves early is handled inside: the code is still the verdict
