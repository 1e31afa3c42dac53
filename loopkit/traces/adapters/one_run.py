"""The one-run API: a transcript file that holds one conversation, streamed (:func:`iter_trace`) or read whole
(:func:`load_trace`), and in-memory records (:func:`batches_from_messages`). The capstone chapter uses these; files
that hold several runs are read with :func:`loopkit.traces.adapters.runs.iter_runs`."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from loopkit.core.language import tr

from .base import Batch, TraceError
from .formats import format_named
from .runs import Run, iter_runs, records_run
from .sources import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES

__all__ = ["TraceStream", "iter_trace", "Trace", "load_trace", "batches_from_messages"]


class TraceStream:
    """A transcript that holds one run, read lazily: iterating yields :class:`Batch` objects as they are parsed.

    ``source`` is a path, ``"-"`` or an open binary file (a pipe works: nothing is rewound). The counts and
    :meth:`describe` are the run's. A source with more than one run is an error once the second run is reached:
    use :func:`iter_runs` for those. A stream can be iterated once.
    """

    def __init__(self, source, format: str = "auto", *, max_bytes: int = DEFAULT_MAX_BYTES,
                 max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES) -> None:
        if hasattr(source, "read"):
            name = getattr(source, "name", None)
            self._path = name if isinstance(name, str) else "<stream>"
        else:
            self._path = "<stdin>" if source == "-" else os.fspath(source)
        self._source = source
        self._format = format_named(format)
        self.requested = self._format.name if self._format is not None else "auto"
        self.max_bytes, self.max_record_bytes = max_bytes, max_record_bytes
        self._run: Run | None = None
        self._started = False

    def _get(self, name: str, default: Any = None) -> Any:
        return getattr(self._run, name) if self._run is not None else default

    path = property(lambda self: self._get("path", self._path), doc="The file (or archive member) read.")
    format = property(lambda self: self._get("format"), doc="The format read (None while none was settled).")
    picked_at = property(lambda self: self._get("picked_at"), doc="Where auto-detection picked the format.")
    container = property(lambda self: self._get("container"), doc="Where the messages were found.")
    messages = property(lambda self: self._get("messages", 0), doc="Messages read so far.")
    batches = property(lambda self: self._get("batches", 0), doc="Batches emitted so far.")
    calls = property(lambda self: self._get("calls", 0), doc="Tool calls emitted so far.")
    turns = property(lambda self: self._get("turns", 0), doc="User prompts read so far (each is a new run upstream).")

    def __iter__(self) -> Iterator[Batch]:
        if self._started:
            raise RuntimeError("a TraceStream can be iterated only once; call iter_trace() again")
        self._started = True
        runs = iter_runs(self._source, self._format, max_bytes=self.max_bytes,
                         max_record_bytes=self.max_record_bytes)
        self._run = next(runs)
        yield from self._run
        second = next(runs, None)
        if second is not None:
            raise TraceError(f"{self._path}: holds more than one run ({self._run.label}, then {second.label}, ...); "
                             f"replay them with iter_runs(), or pick one with --select KEY=VALUE or --run N")

    def describe(self) -> str:
        """One line: the format picked (and whether it was detected), the container, and the counts."""
        if self._run is None:
            return f"{self._path}: {tr('not read yet')}"
        return self._run.describe()


def iter_trace(path, format: str = "auto", *, max_bytes: int = DEFAULT_MAX_BYTES,
               max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES) -> TraceStream:
    """Stream a one-run transcript's batches without loading it whole (JSON Lines are read line by line). ``path``
    may also be an open binary file, such as ``sys.stdin.buffer``; it need not be seekable.

    >>> import json, pathlib, tempfile
    >>> line = {"role": "assistant", "tool_calls": [
    ...     {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "t.jsonl")
    ...     _ = path.write_text(json.dumps(line) + "\\n")
    ...     stream = iter_trace(path)
    ...     [(b.step, b.calls) for b in stream], stream.format
    ([(1, [{'name': 'bash', 'args': '{"command": "ls"}', 'id': 'c1'}])], 'openai-chat')
    """
    return TraceStream(path, format, max_bytes=max_bytes, max_record_bytes=max_record_bytes)


@dataclass
class Trace:
    """A whole one-run transcript read into batches: what :func:`load_trace` returns.

    ``batches`` is the list the detector replays; ``where[i]`` and ``turns[i]`` belong to ``batches[i]``.
    """

    path: str
    format: str | None
    requested: str
    container: str | None
    messages: int
    batches: list
    where: list
    turns: list
    summary: str

    @property
    def calls(self) -> int:
        """How many tool calls the batches hold."""
        return sum(len(b) for b in self.batches)

    def describe(self) -> str:
        """One line saying which format was picked, where the messages were, and the counts."""
        return self.summary

    def __len__(self) -> int:
        return len(self.batches)


def load_trace(path: str | os.PathLike, format: str = "auto", *, max_bytes: int = DEFAULT_MAX_BYTES,
               max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES) -> Trace:
    """Read a one-run transcript file into batches, detecting its format unless ``format`` names one.

    >>> import json, pathlib, tempfile
    >>> msgs = {"messages": [{"role": "user", "content": "fix it"},
    ...         {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "read_file",
    ...                                            "input": {"path": "a.py"}}]}]}
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = pathlib.Path(d, "t.json")
    ...     _ = path.write_text(json.dumps(msgs))
    ...     trace = load_trace(path)
    >>> trace.format, trace.batches
    ('anthropic', [[{'name': 'read_file', 'args': {'path': 'a.py'}, 'id': 't1'}]])
    """
    stream = TraceStream(path, format, max_bytes=max_bytes, max_record_bytes=max_record_bytes)
    batches, where, turns = [], [], []
    for batch in stream:
        batches.append(batch.calls)
        where.append(batch.where)
        turns.append(batch.turn)
    return Trace(stream.path, stream.format, stream.requested, stream.container, stream.messages,
                 batches, where, turns, stream.describe())


def batches_from_messages(messages: Iterable[Any], format: str = "auto", *, source: str = "messages") -> list:
    """The batches of an in-memory list of records (messages, Responses items, events...), in any format.

    >>> batches_from_messages([{"type": "ai", "tool_calls": [{"name": "ls", "args": {}, "id": "1"}]}])
    [[{'name': 'ls', 'args': {}, 'id': '1'}]]
    """
    if isinstance(messages, (str, bytes, Mapping)):
        raise TypeError(f"messages must be a list of message objects, got {type(messages).__name__}")
    return [batch.calls for batch in records_run(list(messages), format, source=source)]
