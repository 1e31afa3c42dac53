"""From records to batches: which format reads a record, and which calls form one batch.

A :class:`Batcher` is fed one record at a time (with its location) and yields :class:`Batch` objects as they
close. It keeps the counts a summary needs and, when asked for ``"auto"``, picks the format:

- the first record that a *distinctive* format reads (a Claude Code line, a Codex rollout line...) settles it,
  and so does the first record that carries calls of any format;
- after that, a record the chosen format reads without calls is still checked against the formats whose call
  fields it holds, so a call in another shape is an error at its location, never a silently empty turn.

Batching rules (each format names its own): ``"turn"``: a message's calls are one batch, and records that share a
turn id (Claude Code's ``message.id``, an OpenHands model response) join one, a repeated call id replacing the
earlier call; ``"consecutive"``: call items in a row are one batch, closed by the next message (Responses, Codex).
A user prompt closes the open batch; skipped records and records of no format are passed over.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

from .base import Batch, Format, Message, Skipped, TraceError, is_map
from .formats import AUTO, CALL_KEY_OWNERS, get_format

__all__ = ["Batcher", "record_shape"]

#: How many distinct shapes of unrecognised records are remembered for the error message.
_SHAPES_KEPT = 5


def record_shape(record: Mapping) -> str:
    """A short description of a record nobody read: its ``type`` or ``role`` if it has one, else its keys.

    >>> record_shape({"kind": "note", "text": "x"}), record_shape({"type": "summary"})
    ("keys 'kind', 'text'", "type 'summary'")
    """
    for key in ("type", "role"):
        if isinstance(record.get(key), str):
            return f"{key} {record[key][:40]!r}"
    keys = ", ".join(repr(str(k)[:30]) for k in list(record)[:6]) or "no keys"
    return f"keys {keys}"


class Batcher:
    """Feeds records one at a time and emits batches; remembers the format it picked, where, and the counts."""

    def __init__(self, fmt: str = "auto") -> None:
        self.requested = fmt
        self.format: Format | None = None if fmt == "auto" else get_format(fmt)
        self.picked_at: str | None = None
        self.records = 0
        self.messages = 0
        self.batches = 0
        self.calls = 0
        self.turn = 0
        self.skipped: Counter = Counter()  # kind -> count, for records of the format that are not messages
        self.unread: Counter = Counter()  # shape -> count, for records no format read (a few shapes kept)
        self.unread_total = 0
        self._open: list = []  # the calls of the batch still open
        self._open_turn: str | None = None
        self._open_where = ""

    # -- which format reads a record --

    def _pick(self, fmt: Format, where: str) -> None:
        self.format, self.picked_at = fmt, where

    def _refuse_hidden_calls(self, record: Mapping, where: str) -> None:
        """A record the chosen format read without calls must not hold calls another format reads: each format
        that keeps its calls under one of the record's keys reads it too."""
        for key in record:
            for fmt in CALL_KEY_OWNERS.get(key, ()):
                if fmt is not self.format:
                    self._refuse_calls_of(fmt, record, where)

    def _refuse_calls_of(self, fmt: Format, record: Mapping, where: str) -> None:
        other = fmt.read(record, where)
        if isinstance(other, Message) and other.calls:
            since = f" (picked at {self.picked_at})" if self.picked_at else ""
            raise TraceError(f"{where}: {fmt.name} tool calls in a trace read as {self.format.name}{since}")

    def read(self, record: Mapping, where: str) -> Message | Skipped | None:
        """What the chosen format (or, before one is chosen, the first format that can) makes of ``record``."""
        if self.format is not None:
            result = self.format.read(record, where)
            if result is None or (isinstance(result, Message) and not result.calls):
                self._refuse_hidden_calls(record, where)
            return result
        fallback = None
        for fmt in AUTO:
            result = fmt.read(record, where)
            if result is None:
                continue
            if fmt.distinctive or (isinstance(result, Message) and result.calls):
                self._pick(fmt, where)
                return result
            fallback = fallback or result
        return fallback

    # -- batches --

    def _emit(self, where: str, calls: list) -> Batch:
        self.batches += 1
        self.calls += len(calls)
        return Batch(self.batches, where, calls, self.turn)

    def flush(self) -> Iterator[Batch]:
        """Close the open batch, if any."""
        if self._open:
            calls, self._open, self._open_turn = self._open, [], None
            yield self._emit(self._open_where, calls)

    def _join(self, calls: list) -> None:
        for call in calls:
            same = [i for i, held in enumerate(self._open) if call["id"] is not None and held["id"] == call["id"]]
            if same:
                self._open[same[0]] = call  # the record re-written with the call updated, not a second call
            else:
                self._open.append(call)

    def _open_batch(self, where: str, calls: list, turn: str | None) -> None:
        self._open, self._open_turn, self._open_where = [], turn, where
        self._join(calls)

    def feed(self, where: str, record: Any) -> Iterator[Batch]:
        """Read one record and yield the batches it closes."""
        if not is_map(record):
            raise TraceError(f"{where}: expected a message object, got {type(record).__name__}: {record!r:.60}")
        self.records += 1
        result = self.read(record, where)
        if result is None:
            self.unread_total += 1
            shape = record_shape(record)
            if shape in self.unread or len(self.unread) < _SHAPES_KEPT:
                self.unread[shape] += 1
            return
        if isinstance(result, Skipped):
            self.skipped[result.kind] += 1
            return
        self.messages += 1
        if not result.calls:
            if result.user_prompt or self.format is None or self.format.batching == "consecutive":
                yield from self.flush()
            if result.user_prompt:
                self.turn += 1
            return
        if self.format.batching == "consecutive":
            if not self._open:
                self._open_where = where
            self._join(result.calls)
        elif result.turn is not None and self._open and result.turn == self._open_turn:
            self._join(result.calls)
        else:
            yield from self.flush()
            if result.turn is None:
                yield self._emit(where, list(result.calls))
            else:
                self._open_batch(where, result.calls, result.turn)

    # -- what was read --

    def shapes(self) -> str:
        """The unrecognised records, for a message: ``"3 with type 'note', 1 with keys 'a'"``."""
        parts = [f"{n} with {shape}" for shape, n in self.unread.most_common()]
        rest = self.unread_total - sum(self.unread.values())
        if rest:
            parts.append(f"{rest} of other shapes")
        return ", ".join(parts)

    def skipped_text(self) -> str:
        """The skipped records, for a summary: ``"2 summary, 1 file-history-snapshot"``."""
        return ", ".join(f"{n} {kind}" for kind, n in self.skipped.most_common())
