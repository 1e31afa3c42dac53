"""Finding the runs in one plain stream: sniff its shape, then say where each run's records are (a
:class:`~.documents.Plan` per run), in the order the stream holds them.

The stage between opening a source (:mod:`.sources`) and reading a run's records into batches (:mod:`.batching`):

- JSON Lines (:func:`~.sources.sniff` says so): one run of one message per line, or one run per line (OpenHands
  evaluation and resolver output: ``{"instance_id", "history": [...]}``), as the first line shows; a line that cannot
  be read becomes a :class:`~.base.Damaged` record, for the batcher to refuse, skip or note;
- a JSON document: parsed whole when it is small, else read piece by piece, its runs found by :mod:`.documents`.

Each plan is found only when asked for, so a streamed source is read as its runs are replayed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from loopkit.core.language import N_

from .base import Damaged, TraceError, is_map
from .documents import CONTAINER_KEYS, META_KEYS, Plan, document_plans, indexed, run_meta, streamed_plans
from .sources import Input, json_lines, read_document, sniff

__all__ = ["find_plans"]


def find_plans(source: Input, max_record_bytes: int) -> Iterator[Plan]:
    """The plans of ``source``'s runs: a document's, or those of JSON Lines (no value above ``max_record_bytes`` is
    held in memory)."""
    jsonl, head = sniff(source, max_record_bytes)
    if jsonl:
        yield from _jsonl_plans(source, head, max_record_bytes)
        return
    document, pieces = read_document(source, head, max_record_bytes)
    plans = document_plans(document, source.name) if pieces is None else streamed_plans(pieces, source.name)
    for plan in plans:
        plan.named = plan.of_many or source.member
        plan.streamed = pieces is not None
        yield plan


def _jsonl_plans(source: Input, head: list, max_record_bytes: int) -> Iterator[Plan]:
    expected = "expected one message object per line"
    lines = json_lines(source, head, max_record_bytes, lambda: expected)  # reads `expected` when a line fails
    first = next(lines, None)
    if first is None:
        raise TraceError(f"{source.name}: the file is empty; expected JSON or JSON Lines")
    key = _run_line(first[1])
    if key is None:  # one run, one message per line, streamed
        yield Plan(N_("JSON Lines"), _message_lines(itertools.chain([first], lines)))
        return
    expected = "expected one run object per line"
    first_line = first[0].rsplit(":", 1)[1]
    for where, value in itertools.chain([first], lines):
        lineno = int(where.rsplit(":", 1)[1])
        if not isinstance(value, Damaged) and _run_line(value) != key:
            value = Damaged(f"{where}: expected one run per line like line {first_line} (an object with an id and "
                            f"a {key!r} list), got {type(value).__name__}")
        if isinstance(value, Damaged):  # the run of this line: one record that the batcher refuses, skips or notes
            yield Plan(N_("line {lineno} of JSON Lines runs"), [(where, value)], container_fields={"lineno": lineno},
                       label=f"line {lineno}")
            continue
        noun = "event index" if key == "history" else "message index"  # one run per line, one line in memory
        yield Plan("line {lineno} of JSON Lines runs", indexed(value[key], where, noun), run_meta(value),
                   container_fields={"lineno": lineno}, named=True)


def _run_line(value: Any) -> str | None:
    """The key of the history of a whole run stored on one line (OpenHands evaluation or resolver output), or None."""
    if not is_map(value) or "role" in value or "type" in value:
        return None
    if any(k in value for k in META_KEYS) or is_map(value.get("issue")):
        for key in ("history", "messages"):
            if isinstance(value.get(key), list):
                return key
    return None


def _container_line(value: Any) -> str | None:
    """The container key of an object that holds a whole conversation rather than being one message."""
    if is_map(value) and "role" not in value and "type" not in value:
        for key in CONTAINER_KEYS:
            if isinstance(value.get(key), (list, str)):
                return key
    return None


def _message_lines(lines: Iterator[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    for where, value in lines:
        key = None if isinstance(value, Damaged) else _container_line(value)
        if key:
            value = Damaged(f"{where}: a whole conversation under {key!r} on one line; JSON Lines traces hold one "
                            f"message per line (or one run per line, with an id such as 'instance_id')")
        yield where, value
