"""From a source to runs: where the records are, how many runs a file holds, and the batch stream of each.

A *run* is one agent conversation: the unit the detector replays. Most files hold one; some hold several:

- OpenHands evaluation output: JSON Lines with one run per line (``{"instance_id", "history": [events]}``);
- an Inspect AI log: ``samples[]`` in a ``.json`` log, one ``samples/<id>_epoch_<n>.json`` member of a ``.eval``
  archive per sample;
- a JSON array of LangGraph thread states (a thread's history of checkpoints);
- a zip archive of transcripts: each member is read as a file of its own.

:func:`iter_runs` yields :class:`Run` objects one at a time; each is iterated (once) for its batches and then
describes itself. A run's ``meta`` holds a few scalars that identify it (``instance_id``, a sample's ``id`` and
``epoch``, a ``thread_id``...), so a caller can pick runs by ``KEY=VALUE``. JSON Lines are read one line at a time:
a single-run stream and a one-run-per-line file both replay in steady memory.

Where a JSON document keeps its runs is :mod:`loopkit.adapters.documents`.

No silent zero: a run whose records include none that the chosen (or detected) format reads as a message is an
error that says what was found, which formats were tried and how to pick one. A run with messages but no tool
calls is fine, and says so. A run with no records at all (``[]``) is an empty conversation.
"""


from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..language import tr
from .base import Batch, TraceError, is_map
from .batching import Batcher
from .documents import CONTAINER_KEYS, META_KEYS, Plan, document_plans, indexed, run_meta
from .formats import AUTO, FORMATS, get_format
from .sources import DEFAULT_MAX_BYTES, Input, decode_document, jsonl_lines, jsonl_value, open_inputs, sniff

__all__ = ["CONTAINER_KEYS", "META_KEYS", "Run", "iter_runs", "records_run", "check_format"]


def check_format(fmt: Any) -> str:
    """``fmt`` when it is ``"auto"`` or a format's name; ``ValueError`` naming the choices otherwise."""
    if fmt != "auto":
        get_format(fmt)  # raises ValueError naming the choices
    return fmt

class Run:
    """One run's batch stream. Iterate it (once) for :class:`Batch` objects; then (or during) ``format``,
    ``messages``, ``batches``, ``calls``, ``turns``, ``skipped`` and :meth:`describe` say what was read.

    ``path`` is the file (or archive member) it came from, ``index`` its position in the source (from 1),
    ``label`` a short name (``""`` for the only run of a file) and ``meta`` its identifying scalars.
    """

    def __init__(self, path: str, plan: Plan, requested: str, *, index: int = 1, label: str = "") -> None:
        self.path, self.index, self.label = path, index, label
        self.meta = plan.meta
        self._container = plan.container, plan.container_fields  # an English template and its fields
        self.requested = requested
        chosen = requested if requested != "auto" else (plan.hint or "auto")
        self.hinted = requested == "auto" and plan.hint is not None
        self._records = plan.records
        self._batcher = Batcher(chosen)
        self._started = False

    format = property(lambda self: self._batcher.format.name if self._batcher.format else None,
                      doc="The format read (None while no record settled it).")
    picked_at = property(lambda self: self._batcher.picked_at, doc="Where auto-detection picked the format.")
    messages = property(lambda self: self._batcher.messages, doc="Messages read so far.")
    batches = property(lambda self: self._batcher.batches, doc="Batches emitted so far.")
    calls = property(lambda self: self._batcher.calls, doc="Tool calls emitted so far.")
    turns = property(lambda self: self._batcher.turn, doc="User prompts read so far (each is a new run upstream).")
    skipped = property(lambda self: dict(self._batcher.skipped), doc="Records of the format that are not messages.")
    unrecognised = property(lambda self: self._batcher.unread_total, doc="Records that no format read.")

    def __iter__(self) -> Iterator[Batch]:
        if self._started:
            raise RuntimeError("a run can be iterated only once; read the source again")
        self._started = True
        for where, record in self._records:
            yield from self._batcher.feed(where, record)
        yield from self._batcher.flush()
        self._check_usable()

    def _check_usable(self) -> None:
        """No silent zero: records were read, but none was a message of the chosen or detected format."""
        batcher = self._batcher
        if batcher.messages or not batcher.records:
            return
        found = [batcher.shapes()]
        if batcher.skipped:
            found.insert(0, f"only {batcher.format.name} records that are not messages ({batcher.skipped_text()})")
        what = "; ".join(part for part in found if part)
        where = f"{self.path} ({self.label})" if self.label else self.path
        if batcher.requested == "auto":
            tried = ", ".join(fmt.name for fmt in AUTO)
            never = ", ".join(name for name in FORMATS if name not in {fmt.name for fmt in AUTO})
            raise TraceError(f"{where}: no record was read as a message of any format: {batcher.records} records "
                             f"({what}); tried {tried} ({never} is only read when named). If the file is in one "
                             f"of these formats, pick it with --format NAME (format=NAME) to see what does not fit; "
                             f"other formats are not supported")
        others = ", ".join(name for name in FORMATS if name != batcher.requested)
        raise TraceError(f"{where}: no record was read as a {batcher.requested} message: {batcher.records} records "
                         f"({what}); pick another format with --format NAME (one of {others}) or --format auto")

    @property
    def container(self) -> str:
        """Where the messages were, in English: ``"samples[2] of an Inspect AI log"``."""
        template, fields = self._container
        return template.format(**fields)

    def describe(self) -> str:
        """One line: the format picked (and how), the container, and the counts.

        ``"t.jsonl: openai-chat (auto-detected) in JSON Lines; 42 messages, 20 batches, 20 tool calls"``
        """
        name = f"{self.path} ({self.label})" if self.label else self.path
        template, fields = self._container  # a template of documents.py or of this module
        where = " " + tr("in {container}", container=tr(template, **fields)) if template else ""
        extra = self._extra()
        if not self.calls and self.format is None:
            return (f"{name}: {tr('no tool calls in {messages} messages', messages=self.messages)}{where}; "
                    f"{tr('nothing to replay')}{extra}")
        if self.requested == "auto" and not self.hinted:
            how = tr("auto-detected")
        else:
            how = tr("named by the file") if self.hinted else tr("as requested")
        if self.calls:
            counts = tr("{messages} messages, {batches} batches, {calls} tool calls", messages=self.messages,
                        batches=self.batches, calls=self.calls)
        else:
            counts = tr("{messages} messages, no tool calls", messages=self.messages)
        return f"{name}: {self.format} ({how}){where}; {counts}{extra}"

    def _extra(self) -> str:
        batcher = self._batcher
        parts = []
        if batcher.skipped:
            n, kinds = sum(batcher.skipped.values()), batcher.skipped_text()
            if n == 1:
                parts.append(tr("skipped 1 other record ({kinds})", kinds=kinds))
            else:
                parts.append(tr("skipped {n} other records ({kinds})", n=n, kinds=kinds))
        if batcher.unread_total:
            n, shapes = batcher.unread_total, batcher.shapes()
            if self.format and n == 1:
                parts.append(tr("1 record not read as {format} ({shapes})", format=self.format, shapes=shapes))
            elif self.format:
                parts.append(tr("{n} records not read as {format} ({shapes})", n=n, format=self.format, shapes=shapes))
            elif n == 1:
                parts.append(tr("1 record not of a known format ({shapes})", shapes=shapes))
            else:
                parts.append(tr("{n} records not of a known format ({shapes})", n=n, shapes=shapes))
        return "".join(f"; {part}" for part in parts)

def _run_line(value: Any) -> str | None:
    """The key of the history of a whole run stored on one line (OpenHands evaluation output), or None."""
    if is_map(value) and "role" not in value and "type" not in value and any(k in value for k in META_KEYS):
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


def _message_lines(path: str, numbered: Iterator[tuple[int, bytes]]) -> Iterator[tuple[str, Any]]:
    for lineno, raw in numbered:
        value = jsonl_value(raw, path, lineno, "expected one message object per line")
        key = _container_line(value)
        if key:
            raise TraceError(f"{path}:{lineno}: a whole conversation under {key!r} on one line; JSON Lines "
                             f"traces hold one message per line (or one run per line, with an id such as "
                             f"'instance_id')")
        yield f"{path}:{lineno}", value


def _label(meta: dict, index: int) -> str:
    """A run's short name: the identifying values it has (``instance_id=django-11099``), else its position."""
    names = ("instance_id", "id", "epoch", "thread_id", "checkpoint_id")
    shown = [f"{key}={meta[key]}" for key in names if key in meta]
    return " ".join(shown) or f"run {index}"


def _input_runs(source: Input, requested: str, first_index: int) -> Iterator[Run]:
    """The runs of one plain stream."""
    lines = iter(source.handle)
    jsonl, head = sniff(source, lines)
    if not jsonl:
        document = decode_document(b"".join(head) + source.handle.read(), source.name)
        plans = document_plans(document, source.name)
        several = len(plans) > 1 or source.member
        for k, plan in enumerate(plans):
            label = _label(plan.meta, first_index + k) if several else ""
            yield Run(source.name, plan, requested, index=first_index + k, label=label)
        return
    numbered = jsonl_lines(head, lines)
    first = next(numbered, None)
    if first is None:
        raise TraceError(f"{source.name}: the file is empty; expected JSON or JSON Lines")
    value = jsonl_value(first[1], source.name, first[0], "expected one message object per line")
    key = _run_line(value)
    if key is None:  # one run, one message per line, streamed
        records = _message_lines(source.name, _chain_first(first, numbered))
        yield Run(source.name, Plan("JSON Lines", records), requested, index=first_index)
        return
    index = first_index
    for lineno, raw in _chain_first(first, numbered):  # one run per line, one line in memory at a time
        value = jsonl_value(raw, source.name, lineno, "expected one run object per line")
        if _run_line(value) != key:
            raise TraceError(f"{source.name}:{lineno}: expected one run per line like line {first[0]} (an object "
                             f"with an id and a {key!r} list), got {type(value).__name__}")
        noun = "event index" if key == "history" else "message index"
        plan = Plan("line {lineno} of JSON Lines runs", indexed(value[key], f"{source.name}:{lineno}", noun),
                    run_meta(value), container_fields={"lineno": lineno})
        yield Run(source.name, plan, requested, index=index, label=_label(plan.meta, index))
        index += 1


def _chain_first(first: tuple, rest: Iterator) -> Iterator:
    yield first
    yield from rest


def iter_runs(source, format: str = "auto", *, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Run]:
    """The runs in ``source`` (a path, ``"-"`` or an open binary file), one at a time, in file order.

    Read each run's batches before asking for the next run: a streamed source is read as it goes (each run keeps
    its source open until it is read). Compressed input (gzip, zip, Inspect AI ``.eval``) is decompressed as it is
    read, at most ``max_bytes`` per member.

    >>> import json, pathlib, tempfile
    >>> lines = [{"instance_id": "a", "history": []}, {"instance_id": "b", "history": []}]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "output.jsonl")
    ...     _ = path.write_text("".join(json.dumps(x) + "\\n" for x in lines))
    ...     [(run.index, run.label, run.meta) for run in iter_runs(path)]
    [(1, 'instance_id=a', {'instance_id': 'a'}), (2, 'instance_id=b', {'instance_id': 'b'})]
    """
    return _Runs(source, check_format(format), max_bytes)


class _Runs:
    """The iterator :func:`iter_runs` returns; every run it hands out holds it, so the source stays open while
    that run is read even if the caller dropped the iterator."""

    def __init__(self, source: Any, requested: str, max_bytes: int) -> None:
        self._runs = self._generate(source, requested, max_bytes)

    @staticmethod
    def _generate(source: Any, requested: str, max_bytes: int) -> Iterator[Run]:
        index = 1
        for member in open_inputs(source, max_bytes):
            for run in _input_runs(member, requested, index):
                yield run
                index = run.index + 1

    def __iter__(self) -> "_Runs":
        return self

    def __next__(self) -> Run:
        run = next(self._runs)
        run._owner = self
        return run


def records_run(records: list, format: str = "auto", *, source: str = "messages") -> Run:
    """A run over records already in memory, located as ``"<source>: message index N"``."""
    return Run(source, Plan("a list", indexed(records, source)), check_format(format))
