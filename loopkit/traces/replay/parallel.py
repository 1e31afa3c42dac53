"""Replaying the files of a folder (or several files) at once: :func:`report_paths_at_once` gives the reports that
:func:`loopkit.traces.replay.report_paths` gives, in the same order, from worker processes that replay one file each.

Why this is the same replay: files are independent (each run gets its own middleware, tool map and tally), so
spreading them over processes changes the time and nothing else; ``tests/test_parallel_replay.py`` checks that the
reports are equal. :func:`report_paths` stays the definition; this module only hands its files out. Workers start
fresh (the ``spawn`` method), so a chapter's kernel is never forked. Where processes cannot be started, the files
are replayed one after another, as :func:`report_paths` does, and so are they when one of them is standard input.

Example::

    for report in report_paths_at_once(["runs/"], jobs=2):
        print(report.name, report.verdict)
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from loopkit.core.detector import DetectorConfig

from ..adapters import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES
from ..tool_maps import ToolMap
from .options import ReplayOptions
from .reports import RunReport, files_to_replay, replay_paths, report_file

__all__ = ["report_paths_at_once", "replay_paths_at_once", "default_jobs"]


def default_jobs() -> int:
    """How many files to replay at once by default: one per core, at most four."""
    return max(1, min(os.cpu_count() or 1, 4))


def _file_reports(path: str, options: ReplayOptions) -> list[RunReport]:
    """One worker's job: the reports of one file (the options cross the process boundary as they are: the tool map
    as its preset and rules, the reader of bad records by name)."""
    return list(report_file(path, options))


def report_paths_at_once(paths: Iterable[str], config: DetectorConfig | None = None, *, jobs: int,
                         upstream: str = "pinned", format: str = "auto", max_bytes: int = DEFAULT_MAX_BYTES,
                         max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES, skip_bad_records: bool = False,
                         on_bad_record: Callable[[str], None] | None = None,
                         select: Mapping[str, str] | None = None, run_number: int | None = None,
                         tool_map: ToolMap | None = None) -> Iterator[RunReport]:
    """:func:`~loopkit.traces.replay.report_paths`, with up to ``jobs`` files replayed at once, in worker processes.

    ``on_bad_record`` is called in the worker that meets the record, so it must be a module-level function (it is
    sent by name). There is no ``on_step`` or ``on_run``: a worker's steps stay in the worker.
    """
    options = ReplayOptions.from_names(config, upstream=upstream, format=format, tool_map=tool_map,
                                       max_bytes=max_bytes, max_record_bytes=max_record_bytes,
                                       skip_bad_records=skip_bad_records, on_bad_record=on_bad_record,
                                       select=select, run_number=run_number)
    yield from replay_paths_at_once(paths, options, jobs=jobs)


def replay_paths_at_once(paths: Iterable[str], options: ReplayOptions, *, jobs: int) -> Iterator[RunReport]:
    """:func:`report_paths_at_once` with its options parsed (:func:`~loopkit.traces.replay.replay_paths`, spread)."""
    items = list(files_to_replay(paths))
    files = [item for item in items if not isinstance(item, RunReport)]
    if jobs <= 1 or len(files) <= 1 or "-" in files:  # standard input belongs to this process alone
        yield from replay_paths(paths, options)
        return
    try:
        pool = ProcessPoolExecutor(max_workers=min(jobs, len(files)), mp_context=multiprocessing.get_context("spawn"))
    except (OSError, NotImplementedError):  # no processes here (a sandbox): one file after another
        yield from replay_paths(paths, options)
        return
    with pool:
        futures = {path: pool.submit(_file_reports, path, options) for path in dict.fromkeys(files)}
        for item in items:
            if isinstance(item, RunReport):
                yield item
                continue
            try:
                yield from futures[item].result()
            except BrokenProcessPool as exc:
                yield RunReport(str(item), source=str(item), error=f"{item}: its worker process ended ({exc})")
