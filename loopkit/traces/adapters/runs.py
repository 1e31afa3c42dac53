"""From a source to runs: where the records are, how many runs a file holds, and the batch stream of each.

A *run* is one agent conversation: the unit the detector replays. Most files hold one; some hold several:

- OpenHands evaluation and resolver output: JSON Lines with one run per line (``{"instance_id", "history": [events]}``,
  or ``{"issue": {"owner", "repo", "number", ...}, "history": [...]}``);
- an Inspect AI log: ``samples[]`` in a ``.json`` log, one ``samples/<id>_epoch_<n>.json`` member of a ``.eval``
  archive per sample;
- a JSON array of LangGraph thread states (a thread's history of checkpoints);
- a zip archive of transcripts: each member is read as a file of its own.

:func:`iter_runs` yields :class:`Run` objects one at a time; each is iterated (once) for its batches and then
describes itself. A run's ``meta`` holds a few scalars that identify it (``instance_id``, a sample's ``id`` and
``epoch``, a ``thread_id``...), so a caller can pick runs by ``KEY=VALUE``. JSON Lines are read one line at a time:
a single-run stream and a one-run-per-line file both replay in steady memory.

The flow runs one way: :mod:`.sources` opens the source (and each archive member), :mod:`.finding` sniffs each
stream and finds its runs' records (a JSON document's through :mod:`.documents`), and each :class:`Run` feeds its
records to a :class:`~.batching.Batcher`, which yields the batches and keeps one :class:`ReadCounts` of what it read.

No silent zero: a run whose records include none that the chosen (or detected) format reads as a message is an
error that says what was found, which formats were tried and how to pick one; so is a run that read no call though
one of its records holds an object shaped like a call (:mod:`loopkit.traces.adapters.call_shapes`). A run with messages but
no tool calls is fine, and says so. A run with no records at all (``[]``) is an empty conversation.

Damaged input: the last line of a JSON Lines file that stops in the middle of a value (a live or crashed session) is
reported, and the records before it are replayed. Any other record that cannot be read ends the run with its
``FILE:LINE``, unless ``skip_bad_records`` is set: then each is skipped, counted, and handed to ``on_bad_record``.
"""


from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.checks import require_int
from loopkit.core.language import N_, ntr, tr

from .base import Batch, Format, TraceError
from .batching import Batcher, ReadCounts, place
from .call_shapes import find_call_shape
from .documents import CONTAINER_KEYS, META_KEYS, Plan, indexed
from .finding import find_plans
from .formats import AUTO, FORMATS, format_named
from .sources import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES, Input, open_inputs

__all__ = ["CONTAINER_KEYS", "META_KEYS", "ReadCounts", "ReadOptions", "Run", "iter_runs", "runs_in", "records_run"]


@dataclass(frozen=True)
class ReadOptions:
    """How sources are read: the size limits, and what becomes of a record that cannot be read (``skip_bad_records``:
    skipped and counted, each handed to ``on_bad_record(message)``; otherwise an error that ends its run)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    skip_bad_records: bool = False
    on_bad_record: Callable[[str], None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        require_int("max_record_bytes", self.max_record_bytes)


class Run:
    """One run's batch stream. Iterate it (once) for :class:`Batch` objects; then (or during) ``format``,
    ``messages``, ``batches``, ``calls``, ``turns``, ``skipped`` and :meth:`describe` say what was read.

    ``path`` is the file (or archive member) it came from, ``index`` its position in the source (from 1),
    ``label`` a short name (``""`` for the only run of a file) and ``meta`` its identifying scalars.
    """

    def __init__(self, path: str, plan: Plan, chosen: Format | None, *, index: int = 1, label: str = "",
                 options: ReadOptions = ReadOptions()) -> None:
        self.path, self.index, self.label = path, index, label
        self.meta = plan.meta
        self._container = plan.container, plan.container_fields  # an English template and its fields
        self.requested = chosen.name if chosen is not None else "auto"
        self.hint = plan.hint if chosen is None else None
        self._records = plan.records
        self._outside = plan.outside
        self._batcher = Batcher(chosen, hint=self.hint, skip_bad_records=options.skip_bad_records,
                                on_bad_record=options.on_bad_record)
        self._started = False
        self.read_to_the_end = False  # every record was read (a document read piece by piece can go on after it)
        self._owner: _Runs | None = None  # the iterator that handed this run out, kept so its source stays open

    counts = property(lambda self: self._batcher.counts, doc="What was read so far, as one :class:`ReadCounts`.")
    format = property(lambda self: self.counts.format, doc="The format read (None while no record settled it).")
    picked_at = property(lambda self: self._batcher.picked_at, doc="Where auto-detection picked the format.")
    messages = property(lambda self: self.counts.messages, doc="Messages read so far.")
    batches = property(lambda self: self.counts.batches, doc="Batches emitted so far.")
    calls = property(lambda self: self.counts.calls, doc="Tool calls emitted so far.")
    turns = property(lambda self: self.counts.turns, doc="User prompts read so far (each is a new run upstream).")
    skipped = property(lambda self: self.counts.skipped, doc="Records of the format that are not messages.")
    not_known = property(lambda self: self.counts.not_known,
                         doc="Records of kinds the format's reader does not know yet (skipped, by kind).")
    bad_records = property(lambda self: self.counts.bad_records, doc="Records skipped because they could not be read.")
    cut_off = property(lambda self: self.counts.cut_off, doc="Where the cut-off last line is, if there is one.")
    hinted = property(lambda self: self.hint is not None and self._batcher.overruled is None,
                      doc="Was the format named by the file itself (and did its content agree)?")
    unread_calls_text = property(lambda self: self._batcher.unread_calls_text(),
                                 doc="Where the records with unread tool calls are (the first few), in English.")
    repeated_ids_text = property(lambda self: self._batcher.repeated_ids_text(),
                                 doc="The call ids that came back within one batch, with both tool names, in English.")

    def __iter__(self) -> Iterator[Batch]:
        if self._started:
            raise RuntimeError("a run can be iterated only once; read the source again")
        self._started = True
        for where, record in self._records:
            yield from self._batcher.feed(where, record)
        yield from self._batcher.flush()
        self.read_to_the_end = True
        self._check_usable()

    def _where(self) -> str:
        return f"{self.path} ({self.label})" if self.label else self.path

    def _check_usable(self) -> None:
        """No silent zero: records were read, but none was a message of the chosen or detected format; or no call
        was read, though a record holds one."""
        batcher = self._batcher
        if not batcher.calls:
            self._check_no_call_was_left()
        if batcher.messages or not batcher.records:
            return
        found = [batcher.shapes()]
        if batcher.skipped:
            # No format is picked when the records were only skipped by a format that is not distinctive.
            whose = f"{batcher.format.name} " if batcher.format is not None else ""
            found.insert(0, f"only {whose}records that are not messages ({batcher.skipped_text()})")
        what = "; ".join(part for part in found if part)
        if batcher.requested is None:
            tried = ", ".join(fmt.name for fmt in AUTO)
            raise TraceError(f"{self._where()}: no record was read as a message of any format: {batcher.records} "
                             f"records ({what}); tried {tried}. If the file is in one of these formats, pick it with "
                             f"--format NAME (format=NAME) to see what does not fit; other formats are not supported")
        others = ", ".join(name for name in FORMATS if name != self.requested)
        readers = batcher.readers_text()
        raise TraceError(f"{self._where()}: no record was read as a {self.requested} message: {batcher.records} "
                         f"records ({what}); pick another format with --format NAME (one of {others}) or --format "
                         f"auto{' (' + readers + ')' if readers else ''}")

    def _check_no_call_was_left(self) -> None:
        """A run that read no call must not hold one: not in a record no format reads (or its reader skipped as
        calls it does not replay), not in a message, not beside its records in its document; nor may it hold tool
        results, which only calls produce."""
        batcher = self._batcher
        reader = (f"the {batcher.format.name} reader does not take for a call" if batcher.format
                  else "no reader takes for a call")
        if batcher.unread_call_places:
            where, what = batcher.unread_call_places[0]
            more = batcher.unread_calls - 1
            others = f" (and {more} more record{'s' if more > 1 else ''} like it)" if more else ""
            raise TraceError(f"{where}: no tool call was read from this run, but this record{others} holds {what}, "
                             f"which {reader}; the replay would be a silent zero. If another format keeps its calls "
                             f"there, pick it with --format NAME")
        if batcher.hidden_call is not None:
            where, inside, shape = batcher.hidden_call
            what = f"the record at {where}"
        elif batcher.first_result is not None:
            raise TraceError(f"{batcher.first_result}: no tool call was read from this run, but this record holds "
                             f"tool results, which only tool calls produce: the calls are in a shape {reader} "
                             f"(calls written as text, such as Cline's XML tool use, are not read); the replay would "
                             f"be a silent zero")
        else:
            found = find_call_shape(self._outside) if self._outside else None
            if found is None:
                return
            (inside, shape), where, what = found, self._where(), "the document, beside the records read,"
        raise TraceError(f"{where}: no tool call was read from this run, but {what} holds {shape} at "
                         f"{inside[:80]}, which {reader}; the replay would be a silent zero. If another format "
                         f"keeps its calls there, pick it with --format NAME")

    @property
    def container(self) -> str:
        """Where the messages were, in English: ``"samples[2] of an Inspect AI log"``."""
        template, fields = self._container
        return template.format(**fields)

    def describe(self) -> str:
        """One line: the format picked (and how), the container, and the counts.

        ``"t.jsonl: openai-chat (auto-detected) in JSON Lines; 42 messages, 20 batches, 20 tool calls"``
        """
        template, fields = self._container  # a template of documents.py or of this module
        where = " " + tr("in {container}", container=tr(template, **fields)) if template else ""
        extra = self._extra()
        if not self.calls and self.format is None:
            return (f"{self._where()}: {tr('no tool calls in {messages} messages', messages=self.messages)}{where}; "
                    f"{tr('nothing to replay')}{extra}")
        if self.calls:
            counts = tr("{messages} messages, {batches} batches, {calls} tool calls", messages=self.messages,
                        batches=self.batches, calls=self.calls)
        else:
            counts = tr("{messages} messages, no tool calls", messages=self.messages)
        return f"{self._where()}: {self.format} ({self._how()}){where}; {counts}{extra}"

    def _how(self) -> str:
        if self.requested != "auto":
            return tr("as requested")
        if self._batcher.overruled is not None:
            return tr("auto-detected: the file names {hint}, its content says otherwise", hint=self._batcher.overruled)
        return tr("named by the file") if self.hint is not None else tr("auto-detected")

    def _extra(self) -> str:
        batcher = self._batcher
        parts = []
        if batcher.skipped:
            n, kinds = sum(batcher.skipped.values()), batcher.skipped_text()
            parts.append(ntr("skipped {n} other record ({kinds})", "skipped {n} other records ({kinds})", n,
                             kinds=kinds))
        if batcher.not_known:
            n, kinds = sum(batcher.not_known.values()), batcher.not_known_text()
            parts.append(ntr("skipped {n} record of a kind not known yet ({kinds})",
                             "skipped {n} records of kinds not known yet ({kinds})", n, kinds=kinds))
        if batcher.unread_total:
            parts.append(self._unread_text())
        if batcher.bad_records:
            parts.append(ntr("skipped {n} bad record (--skip-bad-records)",
                             "skipped {n} bad records (--skip-bad-records)", batcher.bad_records))
        if batcher.cut_off:
            parts.append(tr("the last line ({where}) is cut off, so it was not read", where=place(batcher.cut_off)))
        if batcher.nul_tail:
            where, nuls = batcher.nul_tail
            parts.append(ntr("the file ends in {n} NUL byte from {where} on, as a writer that stopped without "
                             "finishing leaves it; not read",
                             "the file ends in {n} NUL bytes from {where} on, as a writer that stopped without "
                             "finishing leaves them; not read", nuls, where=place(where)))
        if batcher.unread_calls:
            parts.append(ntr("{n} record holds tool calls that were not read ({places})",
                             "{n} records hold tool calls that were not read ({places})", batcher.unread_calls,
                             places=batcher.unread_calls_text()))
        if batcher.repeated_ids:
            parts.append(ntr("{n} call id came back within one batch ({places})",
                             "{n} call ids came back within one batch ({places})", batcher.repeated_ids,
                             places=batcher.repeated_ids_text()))
        if not self.calls and batcher.fenced_messages:
            parts.append(ntr("{n} assistant message holds a ```bash fence, which mini-swe-agent 1.x runs as a "
                             "command: --format mini-swe-agent reads it as a call",
                             "{n} assistant messages hold a ```bash fence, which mini-swe-agent 1.x runs as a "
                             "command: --format mini-swe-agent reads them as calls", batcher.fenced_messages))
        return "".join(f"; {part}" for part in parts)

    def _unread_text(self) -> str:
        batcher = self._batcher
        n, shapes = batcher.unread_total, batcher.shapes(with_places=True)
        if self.format:
            return ntr("skipped {n} record of a shape {format} does not read ({shapes})",
                       "skipped {n} records of a shape {format} does not read ({shapes})", n, format=self.format,
                       shapes=shapes)
        return ntr("{n} record not of a known format ({shapes})", "{n} records not of a known format ({shapes})", n,
                   shapes=shapes)


def _label(meta: dict, index: int) -> str:
    """A run's short name: the identifying values it has (``instance_id=django-11099``), else its position."""
    names = ("instance_id", "issue", "id", "epoch", "thread_id", "checkpoint_id")
    shown = [f"{key}={meta[key]}" for key in names if key in meta]
    return " ".join(shown) or f"run {index}"


def _input_runs(source: Input, requested: Format | None, first_index: int, options: ReadOptions) -> Iterator[Run]:
    """The runs of one plain stream, one per plan :func:`~.finding.find_plans` finds, numbered from ``first_index``."""
    for index, plan in enumerate(find_plans(source, options.max_record_bytes), first_index):
        label = plan.label if plan.label is not None else _label(plan.meta, index) if plan.named else ""
        run = Run(source.name, plan, requested, index=index, label=label, options=options)
        yield run
        if plan.streamed and not run.read_to_the_end:
            return  # the reader stopped inside this run's part of the document: the rest cannot be found


def iter_runs(source, format: str | Format | None = "auto", *, max_bytes: int = DEFAULT_MAX_BYTES,
              max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES, skip_bad_records: bool = False,
              on_bad_record: Callable[[str], None] | None = None) -> Iterator[Run]:
    """The runs in ``source`` (a path, ``"-"`` or an open binary file), one at a time, in file order.

    Read each run's batches before asking for the next run: a streamed source is read as it goes (each run keeps
    its source open until it is read). Compressed input (gzip, zip, Inspect AI ``.eval``) is decompressed as it is
    read, at most ``max_bytes`` per member; no JSON value larger than ``max_record_bytes`` is held in memory. With
    ``skip_bad_records``, a record that cannot be read is skipped and counted (``on_bad_record`` hears of each).

    >>> import json, pathlib, tempfile
    >>> lines = [{"instance_id": "a", "history": []}, {"instance_id": "b", "history": []}]
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "output.jsonl")
    ...     _ = path.write_text("".join(json.dumps(x) + "\\n" for x in lines))
    ...     [(run.index, run.label, run.meta) for run in iter_runs(path)]
    [(1, 'instance_id=a', {'instance_id': 'a'}), (2, 'instance_id=b', {'instance_id': 'b'})]
    """
    return runs_in(source, format_named(format), ReadOptions(max_bytes, max_record_bytes, bool(skip_bad_records),
                                                             on_bad_record))


def runs_in(source, format: Format | None, reading: ReadOptions) -> Iterator[Run]:
    """:func:`iter_runs` for a caller that parsed its options already: a :class:`Format` (``None``: detect it) and
    the :class:`ReadOptions`."""
    return _Runs(source, format, reading)


class _Runs:
    """The iterator :func:`iter_runs` returns; every run it hands out holds it, so the source stays open while
    that run is read even if the caller dropped the iterator."""

    def __init__(self, source: Any, requested: Format | None, options: ReadOptions) -> None:
        self._runs = self._generate(source, requested, options)

    @staticmethod
    def _generate(source: Any, requested: Format | None, options: ReadOptions) -> Iterator[Run]:
        index = 1
        for member in open_inputs(source, options.max_bytes):
            for run in _input_runs(member, requested, index, options):
                yield run
                index = run.index + 1

    def __iter__(self) -> _Runs:
        return self

    def __next__(self) -> Run:
        run = next(self._runs)
        run._owner = self
        return run


def records_run(records: list, format: str | Format | None = "auto", *, source: str = "messages") -> Run:
    """A run over records already in memory, located as ``"<source>: message index N"``."""
    return Run(source, Plan(N_("a list"), indexed(records, source)), format_named(format))
