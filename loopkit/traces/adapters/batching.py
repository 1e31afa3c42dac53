"""From records to batches: which format reads a record, and which calls form one batch.

A :class:`Batcher` is fed one record at a time (with its location) and yields :class:`Batch` objects as they
close. It keeps the counts a summary needs and, when asked for ``"auto"``, picks the format:

- the first record that a *distinctive* format reads (a Claude Code line, a Codex rollout line...) settles it,
  and so does the first record that carries calls of any format;
- a format the file names itself (a ``hint``: mini-swe-agent's ``trajectory_format``, a SWE-agent ``trajectory``)
  is tried first, but its content decides: if the first record with calls holds them in another format's shape,
  that format is read, and the summary says the file's name for itself was overruled;
- after that, a record the chosen format reads without calls is still checked against the formats whose call
  fields it holds, so a call in another shape is an error at its location that names the ``--format`` reading it,
  never a silently empty turn.

Batching rules (each format names its own): ``"turn"``: a message's calls are one batch, and records that share a
turn id (Claude Code's ``message.id``, an OpenHands model response) join one, a repeated call id replacing the
earlier call; ``"consecutive"``: call items in a row are one batch, closed by the next message (Responses, Codex).
A user prompt closes the open batch; skipped records and records of no format are passed over.

Damaged records (:class:`~loopkit.traces.adapters.base.Damaged`: a line that is not JSON, a record an adapter refuses): the
cut-off last line of JSON Lines is noted; any other is an error, or, with ``skip_bad_records``, skipped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from . import mini_swe_agent
from .base import Batch, Damaged, Format, Message, Skipped, TraceError, is_map
from .call_shapes import find_call_shape
from .formats import AUTO, CALL_KEY_OWNERS, get_format

__all__ = ["Batcher", "ReadCounts", "record_shape", "place"]

#: How many distinct shapes (and places) of unrecognised records are remembered for the summary.
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


@dataclass(frozen=True)
class ReadCounts:
    """What reading one run's records found so far, in one record: the format settled (None while none was),
    records read, messages, batches and calls emitted, user prompts (``turns``), records of the format that are not
    messages (``skipped``, by kind) and of kinds its reader does not know yet (``not_known``), records no format read
    (``unread``), records skipped as unreadable (``bad_records``), and where the cut-off last line is."""

    format: str | None = None
    records: int = 0
    messages: int = 0
    batches: int = 0
    calls: int = 0
    turns: int = 0
    skipped: dict = field(default_factory=dict, hash=False)
    not_known: dict = field(default_factory=dict, hash=False)
    unread: int = 0
    bad_records: int = 0
    cut_off: str | None = None


def _has_calls(result: Any) -> TypeGuard[Message]:
    return isinstance(result, Message) and bool(result.calls)


class Batcher:
    """Feeds records one at a time and emits batches; remembers the format it picked, where, and the counts."""

    def __init__(self, fmt: Format | None = None, *, hint: str | None = None, skip_bad_records: bool = False,
                 on_bad_record: Callable[[str], None] | None = None) -> None:
        self.requested = fmt  # None: detect it
        self.format: Format | None = fmt
        self.tentative = False  # the format is only the file's name for itself, until a call says otherwise
        if fmt is None and hint is not None:
            self.format, self.tentative = get_format(hint), True
        self.overruled: str | None = None  # the format the file named, when its content said another
        self.picked_at: str | None = None
        self.skip_bad_records, self.on_bad_record = skip_bad_records, on_bad_record
        self.records = 0
        self.messages = 0
        self.batches = 0
        self.calls = 0
        self.turn = 0
        self.skipped: Counter = Counter()  # kind -> count, for records of the format that are not messages
        self.not_known: Counter = Counter()  # kind -> count, for records of kinds the reader does not know yet
        self.unread: Counter = Counter()  # shape -> count, for records no format read (a few shapes kept)
        self.unread_places: list[tuple[str, str]] = []  # (where, shape) of the first few of them
        self.unread_total = 0
        self.readers: Counter = Counter()  # format -> how many unread records it would read (named formats only)
        self.bad_records = 0
        self.cut_off: str | None = None
        self.hidden_call: tuple[str, str, str] | None = None  # (where, place inside, shape) while no call was read
        self.fenced_messages = 0  # assistant messages with one ```bash fence, while no call was read
        self._open: list = []  # the calls of the batch still open
        self._open_turn: str | None = None
        self._open_where = ""

    # -- which format reads a record --

    def _pick(self, fmt: Format, where: str) -> None:
        self.format, self.picked_at, self.tentative = fmt, where, False

    def _first_with_calls(self, record: Mapping, where: str) -> tuple[Format, Message] | None:
        for fmt in AUTO:
            if fmt is not self.format:
                result = fmt.read_to_detect(record, where)
                if _has_calls(result):
                    return fmt, result
        return None

    def _refuse_hidden_calls(self, chosen: Format, record: Mapping, where: str) -> None:
        """A record the chosen format read without calls must not hold calls another format reads: each format
        that keeps its calls under one of the record's keys reads it too."""
        for key in record:
            for fmt in CALL_KEY_OWNERS.get(key, ()):
                if fmt is not chosen and _has_calls(fmt.read_to_detect(record, where)):
                    since = f" (picked at {self.picked_at})" if self.picked_at else ""
                    raise TraceError(f"{where}: {fmt.name} tool calls in a trace read as {chosen.name}{since}; "
                                     f"--format {fmt.name} reads them")

    def read(self, record: Mapping, where: str) -> Message | Skipped | None:
        """What the chosen format (or, before one is chosen, the first format that can) makes of ``record``."""
        if self.tentative:
            assert self.format is not None  # a tentative format is the one the file's name gave
            result = self.format.read(record, where)
            if _has_calls(result):
                self.tentative = False
                return result
            other = self._first_with_calls(record, where)
            if other is not None:  # the content decides: the calls are another format's
                self.overruled = self.format.name
                self._pick(other[0], where)
                return other[1]
            return result
        if self.format is not None:
            result = self.format.read(record, where)
            if result is None or (isinstance(result, Message) and not result.calls):
                self._refuse_hidden_calls(self.format, record, where)
            return result
        fallback = None
        for fmt in AUTO:
            result = fmt.read_to_detect(record, where)
            if result is None:
                continue
            if fmt.distinctive or _has_calls(result):
                self._pick(fmt, where)
                return fmt.read(record, where) if fmt.detect is not None else result
            if fallback is None or (isinstance(result, Message) and not isinstance(fallback, Message)):
                fallback = result  # a format that reads it as a message beats one that only skips it
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

    def _bad(self, error: str) -> None:
        """A record that cannot be read: skipped and counted when asked for, else the end of the run."""
        if not self.skip_bad_records:
            raise TraceError(error)
        self.bad_records += 1
        if self.on_bad_record is not None:
            self.on_bad_record(error)

    def _watch_for_unread_calls(self, where: str, record: Mapping, result: Any) -> None:
        """While no call was read: remember the first call-shaped object a record holds that no call came from, and
        count the ```bash fences mini-swe-agent 1.x would run (the summary of a run without calls names both)."""
        if self.hidden_call is None:
            found = find_call_shape(record)
            if found is not None:
                self.hidden_call = (where, *found)
        if (isinstance(result, Message) and record.get("role") == "assistant"
                and (self.format is None or self.format.name != "mini-swe-agent")
                and mini_swe_agent.v1_actions(mini_swe_agent.text_of(record.get("content")))):
            self.fenced_messages += 1

    def feed(self, where: str, record: Any) -> Iterator[Batch]:
        """Read one record and yield the batches it closes."""
        if isinstance(record, Damaged):
            if record.cut_off:
                self.cut_off = where
            else:
                self._bad(record.error)
            return
        if not is_map(record):
            self._bad(f"{where}: expected a message object, got {type(record).__name__}: {record!r:.60}")
            return
        try:
            result = self.read(record, where)
        except TraceError as exc:
            self._bad(str(exc))
            return
        self.records += 1
        if not self.calls and not _has_calls(result):
            self._watch_for_unread_calls(where, record, result)
        if result is None:
            self._count_unread(where, record)
            return
        if isinstance(result, Skipped):
            (self.not_known if result.unknown else self.skipped)[result.kind] += 1
            return
        self.messages += 1
        if not result.calls:
            if result.user_prompt or self.format is None or self.format.batching == "consecutive":
                yield from self.flush()
            if result.user_prompt:
                self.turn += 1
            return
        assert self.format is not None  # a message with calls was read by a chosen format
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

    def _count_unread(self, where: str, record: Mapping) -> None:
        self.unread_total += 1
        shape = record_shape(record)
        if shape in self.unread or len(self.unread) < _SHAPES_KEPT:
            self.unread[shape] += 1
        if len(self.unread_places) < _SHAPES_KEPT:
            self.unread_places.append((where, shape))
        if self.requested is not None and len(self.readers) < _SHAPES_KEPT:
            for fmt in AUTO:  # a named format read nothing here: which format would detection have picked?
                try:
                    result = fmt.read_to_detect(record, where)
                except TraceError:
                    continue
                if result is not None and (fmt.distinctive or _has_calls(result)):
                    self.readers[fmt.name] += 1
                    break

    # -- what was read --

    @property
    def counts(self) -> ReadCounts:
        """What was read so far, as one frozen record."""
        return ReadCounts(self.format.name if self.format else None, self.records, self.messages, self.batches,
                          self.calls, self.turn, dict(self.skipped), dict(self.not_known), self.unread_total,
                          self.bad_records, self.cut_off)

    def shapes(self, with_places: bool = False) -> str:
        """The unrecognised records, for a message: ``"3 with type 'note', 1 with keys 'a'"``; with their places,
        for a summary: ``"line 4: type 'note', line 9: keys 'a'"`` (the first few)."""
        if with_places:
            places = ", ".join(f"{place(where)}: {shape}" for where, shape in self.unread_places)
            more = self.unread_total - len(self.unread_places)
            return places + (f", and {more} more" if more else "")
        parts = [f"{n} with {shape}" for shape, n in self.unread.most_common()]
        rest = self.unread_total - sum(self.unread.values())
        if rest:
            parts.append(f"{rest} of other shapes")
        return ", ".join(parts)

    def skipped_text(self) -> str:
        """The skipped records, for a summary: ``"2 summary, 1 file-history-snapshot"``."""
        return ", ".join(f"{n} {kind}" for kind, n in self.skipped.most_common())

    def not_known_text(self) -> str:
        """The records of kinds not known yet, for a summary: ``"1 response_item 'frobnicate_call'"``."""
        return ", ".join(f"{n} {kind}" for kind, n in self.not_known.most_common())

    def readers_text(self) -> str:
        """Which format would read the records a named format did not: ``"--format codex reads 12 of them"``."""
        return ", ".join(f"--format {name} reads {n} of them" for name, n in self.readers.most_common())


def place(where: str) -> str:
    """``"t.jsonl:4"`` -> ``"line 4"``; a location inside a document stays as it is."""
    head, sep, tail = where.rpartition(":")
    return f"line {tail}" if sep and tail.isdigit() else where.rsplit(": ", 1)[-1]
