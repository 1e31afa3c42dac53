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
turn id (Claude Code's ``message.id``, an OpenHands model response) join one, a call written again under its id and
tool (as a Gemini CLI log re-writes a message) counted once, its latest arguments kept; ``"consecutive"``: call items
in a row are one batch, closed by the next message (Responses, Codex). A user prompt closes the open batch; skipped records and
records of no format are passed over.

No silent loss: a call id that comes back within one batch is counted with both tool names
(:attr:`Batcher.repeated_ids`), and every summary says so: as a second call, kept, unless it is a turn's call written
again with other arguments (then the later is kept, as the format means).

No silent zero: a record no format reads that holds an object shaped like a call, and a record its reader skips
while saying it holds calls (:class:`~loopkit.traces.adapters.base.Skipped` ``holds_calls``), are *unread calls*,
counted with their places; a run that read no call but has unread calls, a call-shaped object in a message, or tool
results is an error (:mod:`.runs`).

Damaged records (:class:`~loopkit.traces.adapters.base.Damaged`: a line that is not JSON, a record an adapter refuses): the
cut-off last line of JSON Lines is noted; any other is an error, or, with ``skip_bad_records``, skipped and counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from . import mini_swe_agent
from .base import BadRecord, Batch, Damaged, Format, Message, Skipped, TraceError, is_map
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
    (``unread``), records skipped as unreadable (``bad_records``), where the cut-off last line is, records holding
    tool calls that were not read (``unread_calls``), call ids that came back within one batch (``repeated_ids``) and
    the NUL bytes that end the file (``nul_bytes``)."""

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
    unread_calls: int = 0
    repeated_ids: int = 0
    nul_bytes: int = 0


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
        self.nul_tail: tuple[str, int] | None = None  # where the NUL bytes that end the file start, and how many
        self.hidden_call: tuple[str, str, str] | None = None  # (where, place inside, shape) while no call was read
        self.first_result: str | None = None  # where the first tool result was, while no call was read
        self.fenced_messages = 0  # assistant messages with one ```bash fence, while no call was read
        self.unread_calls = 0  # records that hold tool calls no reader took
        self.unread_call_places: list[tuple[str, str]] = []  # (where, what) of the first few of them
        self.repeated_ids = 0  # call ids that came back within one batch
        self.repeated_id_places: list[tuple[str, str, str]] = []  # (where, id, "name, then name") of the first few
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
            elif isinstance(result, Message) and result.results and isinstance(fallback, Message) \
                    and not fallback.results:
                fallback = result  # and one that sees tool results in it beats one that does not
        return fallback

    # -- batches --

    def _emit(self, where: str, calls: list) -> Batch:
        self.batches += 1
        self.calls += len(calls)
        self._count_repeated_ids(where, calls)
        return Batch(self.batches, where, calls, self.turn)

    def _count_repeated_id(self, where: str, call_id: Any, before: Mapping, after: Mapping, kept: str) -> None:
        """Note a call id that came back within one batch, with both tool names and what was kept."""
        self.repeated_ids += 1
        if len(self.repeated_id_places) < _SHAPES_KEPT:
            names = f"{str(before['name'])[:40]}, then {str(after['name'])[:40]}: {kept}"
            self.repeated_id_places.append((where, str(call_id)[:40], names))

    def _count_repeated_ids(self, where: str, calls: list) -> None:
        """Note each call id that a batch holds more than once (both calls were kept)."""
        first: dict = {}
        for call in calls:
            call_id = call["id"]
            if call_id is None or not isinstance(call_id, (str, int)):
                continue
            if call_id in first:
                self._count_repeated_id(where, call_id, first[call_id], call, "both kept")
            else:
                first[call_id] = call

    def flush(self) -> Iterator[Batch]:
        """Close the open batch, if any."""
        if self._open:
            calls, self._open, self._open_turn = self._open, [], None
            yield self._emit(self._open_where, calls)

    def _join(self, calls: list) -> None:
        """Add calls to the open batch. In a format that writes a turn's record again as it changes (Gemini CLI's
        log re-writes each message; Claude Code writes a message a block at a time), a call whose id is already in
        the batch with the same tool is that call written again: the same call is kept once, a call with other
        arguments replaces it (and is counted, with both names). Any other repeated id is a second call, kept."""
        rewrites = self.format is not None and self.format.batching == "turn"
        for call in calls:
            held = next((i for i, old in enumerate(self._open) if call["id"] is not None and old["id"] == call["id"]
                         and old["name"] == call["name"]), None) if rewrites else None
            if held is None:
                self._open.append(call)
            elif self._open[held] != call:
                self._count_repeated_id(self._open_where, call["id"], self._open[held], call, "the later kept")
                self._open[held] = call

    def _open_batch(self, where: str, calls: list, turn: str | None) -> None:
        self._open, self._open_turn, self._open_where = [], turn, where
        self._join(calls)

    def _bad(self, error: str) -> None:
        """A record that cannot be read: skipped and counted when asked for, else the end of the run."""
        if not self.skip_bad_records:
            raise BadRecord(error)
        self.bad_records += 1
        if self.on_bad_record is not None:
            self.on_bad_record(error)

    def _note_unread_calls(self, where: str, what: str) -> None:
        self.unread_calls += 1
        if len(self.unread_call_places) < _SHAPES_KEPT:
            self.unread_call_places.append((where, what))

    def _damaged(self, where: str, record: Damaged) -> None:
        """A record that could not be parsed: the file's NUL tail or its cut-off last line is noted, any other is bad."""
        if record.nul_bytes:
            self.nul_tail = (where, record.nul_bytes)
        elif record.cut_off:
            self.cut_off = where
        else:
            self._bad(record.error)

    def _watch_for_unread_calls(self, where: str, record: Mapping, result: Any) -> None:
        """A record that gave no call: count it among the unread calls when no format reads it but it holds an
        object shaped like a call, or when its reader skipped it as a record of calls it does not replay. While no
        call was read, also remember the first call-shaped object a message holds, the first tool result, and count
        the ```bash fences mini-swe-agent 1.x would run (the summary of a run without calls names them)."""
        if isinstance(result, Skipped):
            if result.holds_calls:
                self._note_unread_calls(where, result.kind)
            return
        if result is None:
            found = find_call_shape(record)
            if found is not None:
                self._note_unread_calls(where, f"{found[1]} at {found[0][:80]}")
            return
        if self.calls:
            return  # a message its format reads without calls is trusted once calls were read (results echo them)
        if self.hidden_call is None:
            found = find_call_shape(record)
            if found is not None:
                self.hidden_call = (where, *found)
        if result.results and self.first_result is None:
            self.first_result = where
        if (record.get("role") == "assistant" and (self.format is None or self.format.name != "mini-swe-agent")
                and mini_swe_agent.v1_actions(mini_swe_agent.text_of(record.get("content")))):
            self.fenced_messages += 1

    def feed(self, where: str, record: Any) -> Iterator[Batch]:
        """Read one record and yield the batches it closes."""
        if isinstance(record, Damaged):
            self._damaged(where, record)
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
        if not _has_calls(result):
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
                          self.bad_records, self.cut_off, self.unread_calls, self.repeated_ids,
                          self.nul_tail[1] if self.nul_tail else 0)

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

    def unread_calls_text(self) -> str:
        """Where the unread calls are, for a summary: ``"line 4: a 'tool_use' event at the record itself"``."""
        places = ", ".join(f"{place(where)}: {what}" for where, what in self.unread_call_places)
        more = self.unread_calls - len(self.unread_call_places)
        return places + (f", and {more} more" if more else "")

    def repeated_ids_text(self) -> str:
        """The call ids that came back in one batch: ``"'c7' at line 40 (exec_command, then exec_command)"``."""
        places = ", ".join(f"{call_id!r} at {place(where)} ({names})" for where, call_id, names in
                           self.repeated_id_places)
        more = self.repeated_ids - len(self.repeated_id_places)
        return places + (f", and {more} more" if more else "")

    def readers_text(self) -> str:
        """Which format would read the records a named format did not: ``"--format codex reads 12 of them"``."""
        return ", ".join(f"--format {name} reads {n} of them" for name, n in self.readers.most_common())


def place(where: str) -> str:
    """``"t.jsonl:4"`` -> ``"line 4"``; a location inside a document stays as it is."""
    head, sep, tail = where.rpartition(":")
    return f"line {tail}" if sep and tail.isdigit() else where.rsplit(": ", 1)[-1]
