"""The command line's options: the parser of ``python -m loopkit replay`` and the detector settings it asks for."""

from __future__ import annotations

import argparse
import dataclasses
import re
from collections.abc import Callable

from loopkit.core.detector import DetectorConfig
from loopkit.core.middleware import UPSTREAMS
from loopkit.traces.adapters import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES, FORMATS
from loopkit.traces.replay import ReplayOptions
from loopkit.traces.tool_maps import DETECTED, PRESETS, ToolMap

__all__ = ["EXIT_CODES", "COUNT_FIELDS", "SHORT_FLAGS", "build_parser", "detector_config", "tool_map",
           "replay_options"]

#: The detector's counts, each a flag ``--field-name``: every field of :class:`DetectorConfig` but the per-tool
#: overrides (``--override``).
COUNT_FIELDS = tuple(f.name for f in dataclasses.fields(DetectorConfig) if f.name != "tool_freq_overrides")
#: The short spellings the thresholds have always had, beside their field names.
SHORT_FLAGS = {"warn_threshold": "--warn", "hard_limit": "--hard", "window_size": "--window",
               "tool_freq_warn": "--freq-warn", "tool_freq_hard_limit": "--freq-hard"}

EXIT_CODES = """\
exit codes:
  0  nothing stopped: no run reached a hard limit (warnings alone, or runs with no tool calls, exit 0)
  1  the detector would have stopped a run
  2  unusable input: a file that cannot be read or parsed (the error says FILE:LINE or the record), one in which
     nothing was recognised as a message of the format, one holding a tool call no reader took, or invalid options
A cut-off last line of JSON Lines (a live or crashed session) is reported, not unusable: the exit code follows the
verdict on the lines before it; so do records skipped with --skip-bad-records. With several inputs, 2 wins over 1,
and 1 over 0. If the reader of the output leaves early (| head), the replay still runs to the end and the exit code
still tells the verdict.
"""

_DESCRIPTION = """\
Replay agent transcripts through the workbook's model of DeerFlow's loop detector. One run is printed in
detail: each batch (one model turn's tool calls) that warned or stopped, and why, then a summary. A folder,
several files or a file of many runs get one row per run and an aggregate line. Formats are detected (or pick one
with --format); .gz and zip archives are read as they are. '-' reads standard input."""


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


def _positive_jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes from 1, got {text!r}")
    return int(text)


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
    replay.add_argument("--max-record-bytes", type=_size, default=DEFAULT_MAX_RECORD_BYTES, metavar="SIZE",
                        help="refuse one record (a line of JSON Lines, a message or sample of a document) longer "
                             "than SIZE, so memory stays bounded (default 64M)")
    replay.add_argument("--jobs", type=_positive_jobs, metavar="N",
                        help="replay up to N files of a folder (or of several files given) at once, in worker "
                             "processes (default: one per core, at most 4; one file is always replayed alone)")
    replay.add_argument("--skip-bad-records", action="store_true",
                        help="skip a record that cannot be read (listed on stderr and counted) instead of refusing "
                             "its run")
    runs = replay.add_argument_group("which runs")
    runs.add_argument("--select", action="append", type=_key_value, default=[], metavar="KEY=VALUE",
                      help="only runs whose metadata has KEY=VALUE, e.g. instance_id=... (repeatable: all must match)")
    runs.add_argument("--run", type=_positive, metavar="N", help="only the N-th run of each file (from 1)")
    names = replay.add_argument_group("tool names")
    names.add_argument("--tool-map", choices=(*PRESETS, "none"), metavar="PRESET",
                       help=f"map an agent's tools to DeerFlow's names: {', '.join(PRESETS)} (default: the preset "
                            f"of the detected format, when it has one), or none to replay the names as written")
    names.add_argument("--map", action="append", default=[], metavar="RULE",
                       help="a rule of your own: OLD=NEW, OLD=NEW:a>b,-c, OLD[ARG=VALUE]=NEW (repeatable)")
    defaults = DetectorConfig()
    group = replay.add_argument_group("detector thresholds (defaults are upstream's)")
    for name in COUNT_FIELDS:
        flags = ([SHORT_FLAGS[name]] if name in SHORT_FLAGS else []) + [f"--{name.replace('_', '-')}"]
        group.add_argument(*flags, dest=name, type=int, metavar="N", help=f"{name} (default {getattr(defaults, name)})")
    group.add_argument("--override", action="append", type=_override, default=[], metavar="TOOL=WARN:HARD",
                       help="per-tool frequency thresholds, e.g. bash=60:80 (repeatable)")
    output = replay.add_argument_group("output")
    output.add_argument("--json", action="store_true",
                        help="JSON Lines: for one run, an object per replayed batch, then a summary; for several, a "
                             "summary per run, then an aggregate")
    output.add_argument("--csv", metavar="PATH", help="also write one row per run to this CSV file")
    output.add_argument("--plot", metavar="OUT.png", help="also draw the timeline of one run to this image "
                        "(needs the notebook extras; keeps the run's batches in memory)")
    return parser


def detector_config(options: argparse.Namespace) -> DetectorConfig:
    """The detector settings the options give; the ones left out keep upstream's defaults."""
    fields = {name: getattr(options, name) for name in COUNT_FIELDS if getattr(options, name) is not None}
    if options.override:
        fields["tool_freq_overrides"] = dict(options.override)
    return DetectorConfig(**fields)


def tool_map(options: argparse.Namespace) -> ToolMap:
    """The tool map the options ask for (:class:`MapError` for a bad rule): ``--tool-map`` (default: the detected
    format's preset; ``none``: no preset) and every ``--map`` rule."""
    return ToolMap({None: DETECTED, "none": None}.get(options.tool_map, options.tool_map), options.map)


def replay_options(options: argparse.Namespace, config: DetectorConfig, tools: ToolMap,
                   on_bad_record: Callable[[str], None] | None) -> ReplayOptions:
    """The one :class:`ReplayOptions` of a command line: every name parsed here, once."""
    return ReplayOptions.from_names(config, upstream=options.upstream, format=options.format, tool_map=tools,
                                    max_bytes=options.max_bytes, max_record_bytes=options.max_record_bytes,
                                    skip_bad_records=options.skip_bad_records, on_bad_record=on_bad_record,
                                    select=dict(options.select), run_number=options.run)
