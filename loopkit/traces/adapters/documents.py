"""Where a JSON document keeps its runs' records: the message list of each run, what names the run, and the format
the document itself names.

Where the messages are in a JSON document:

- a JSON array of records, or an object holding the list under ``messages``, ``history``, ``output`` or ``input``
  (an object with both ``input`` and ``output`` lists is read as input then output);
- ``{"values": {"messages": [...]}}``: a LangGraph thread state (DeerFlow's threads, checkpoint dumps);
- ``{"trajectory": [...]}``: a SWE-agent trajectory (read as ``swe-agent``);
- ``{"trajectory_format": "mini-swe-agent-1", "messages": [...]}``: read as ``mini-swe-agent``;
- ``{"lc": 1, "type": "constructor", ...}``: one LangChain ``dumpd`` message.

A document larger than :data:`~loopkit.traces.adapters.sources.WHOLE_DOCUMENT_BYTES` is read piece by piece
(:func:`streamed_plans`): its list of messages, events, steps or samples one element at a time, so memory stays
bounded by the largest element. The same shapes are found, with one difference: only what comes before the list in
the file can name the run or the format (a ``trajectory_format`` or an id written after the messages, as
mini-swe-agent writes its marker, is read but too late to matter; the content still decides the format).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.language import N_

from .base import TraceError, as_list, is_map
from .json_pieces import JsonPieces

__all__ = ["CONTAINER_KEYS", "META_KEYS", "Plan", "run_meta", "indexed", "document_plans", "streamed_plans"]

#: The keys under which a JSON object may hold its list of messages, in the order they are looked for.
CONTAINER_KEYS = ("messages", "history", "output", "input")

#: Scalars that identify a run, copied into :attr:`Run.meta` when a run's object holds them.
META_KEYS = ("instance_id", "id", "epoch", "sample_id", "thread_id", "run_id", "checkpoint_id", "sessionId",
             "session_id")

_OTHER_SHAPES = ("a LangGraph thread state ('values'), an Inspect AI log ('samples'), a SWE-agent trajectory "
                 "('trajectory') or a LangChain dumpd message ('lc')")

def run_meta(obj: Mapping, *more: Mapping) -> dict:
    """The identifying scalars of a run's object (and of nested ones, such as a thread state's ``metadata``); an
    OpenHands resolver's ``issue`` object is named ``owner/repo#number``.

    >>> run_meta({"issue": {"owner": "acme", "repo": "notes", "number": 7, "title": "x"}, "history": []})
    {'issue': 'acme/notes#7'}
    """
    found: dict = {}
    for source in (obj, *more):
        for key in META_KEYS:
            value = source.get(key) if is_map(source) else None
            if key not in found and isinstance(value, (str, int, float, bool)):
                found[key] = value
    issue = obj.get("issue") if is_map(obj) else None
    if is_map(issue) and all(isinstance(issue.get(k), (str, int)) for k in ("owner", "repo", "number")):
        found.setdefault("issue", f"{issue['owner']}/{issue['repo']}#{issue['number']}")
    return found


@dataclass
class Plan:
    """Where one run's records are: a description, the records with their locations, and what names the run.

    ``container`` describes where the messages were, in English, as a template filled from ``container_fields``
    (``"samples[{k}] of an Inspect AI log"``, k=2), so a run can say it in the learner's language too. ``outside``
    is the rest of the run's object, without its records (a sample without its messages): a run that read no call
    checks there too that no call was left unread.
    """

    container: str
    records: Iterable  # of (where, record)
    meta: dict = field(default_factory=dict)
    hint: str | None = None  # a format the document itself names (mini-swe-agent, swe-agent)
    container_fields: dict = field(default_factory=dict)
    of_many: bool = False  # one of several runs in its document (an Inspect sample, a thread state of a history)
    outside: Any = None
    label: str | None = None  # the run's short name when its place gives it one (``"line 4"``); None: from meta
    named: bool = False  # does the run get a short name (from its meta, else its position)? else it is ``""``
    streamed: bool = False  # read piece by piece: the next run can be found only once this one was read


def _without(document: Mapping, *keys: str) -> dict:
    return {key: value for key, value in document.items() if key not in keys}


def indexed(records: Iterable, prefix: str, noun: str = "message index") -> Iterator[tuple[str, Any]]:
    """``(where, record)`` for each record; an OpenHands history of ``[action, observation]`` pairs (the older
    evaluation output) is read as the events it pairs, each numbered in order."""
    index = 0
    for record in records:
        if noun == "event index" and isinstance(record, list) and record and all(is_map(e) for e in record):
            for event in record:
                yield f"{prefix}: {noun} {index}", event
                index += 1
            continue
        yield f"{prefix}: {noun} {index}", record
        index += 1


def _container_list(document: Mapping, where: str) -> tuple[str, dict, list]:
    """The message list of an object under one of :data:`CONTAINER_KEYS`, and a description (a template and its
    fields)."""
    both = not any(k in document for k in CONTAINER_KEYS[:2]) and "output" in document and "input" in document
    earlier = document.get("input")
    if both and (isinstance(earlier, list) or (isinstance(earlier, str) and earlier.lstrip().startswith("["))):
        # a Responses request and its response saved together: the input items come first
        items = as_list(earlier, where, "'input'")
        later = document["output"]
        if not isinstance(later, (list, str)):
            raise TraceError(f"{where}: 'output' must be a list of messages, got {type(later).__name__}")
        return N_("a JSON object under 'input' then 'output'"), {}, items + as_list(later, where, "'output'")
    for key in CONTAINER_KEYS:
        if key in document:
            value = document[key]
            if isinstance(value, (list, str)):
                return N_("a JSON object under '{key}'"), {"key": key}, as_list(value, where, f"{key!r}")
            raise TraceError(f"{where}: {key!r} must be a list of messages, got {type(value).__name__}")
    keys = ", ".join(repr(k) for k in list(document)[:8]) or "none"
    raise TraceError(f"{where}: a JSON object without a message list; expected one of the keys "
                     f"{', '.join(CONTAINER_KEYS)} (found {keys}), or {_OTHER_SHAPES}")


def _thread_state(state: Any) -> bool:
    return is_map(state) and is_map(state.get("values")) and "messages" in state["values"]


def _object_plans(document: Mapping, where: str) -> list[Plan]:
    """The runs inside one JSON object."""
    if document.get("lc") == 1 and "kwargs" in document:
        return [Plan(N_("a LangChain dumpd message"), [(f"{where}: message index 0", document)])]
    if _thread_state(document):
        messages = as_list(document["values"]["messages"], where, "'values.messages'")
        meta = run_meta(document, document.get("metadata") or {}, document.get("checkpoint") or {})
        outside = {**document, "values": _without(document["values"], "messages")}
        return [Plan(N_("a LangGraph thread state under 'values'"), indexed(messages, where), meta, outside=outside)]
    if "samples" in document and isinstance(document["samples"], list):  # an Inspect AI log
        if not document["samples"]:
            raise TraceError(f"{where}: an Inspect AI log with no samples (a header-only log?); expected samples[]")
        plans = []
        for k, sample in enumerate(document["samples"]):
            if not is_map(sample) or not isinstance(sample.get("messages"), list):
                raise TraceError(f"{where}: samples[{k}] has no 'messages' list; expected an Inspect AI sample")
            records = indexed(sample["messages"], f"{where}: samples[{k}]")
            plans.append(Plan(N_("samples[{k}] of an Inspect AI log"), records, run_meta(sample),
                              container_fields={"k": k}, outside=_without(sample, "messages")))
        return plans
    if isinstance(document.get("trajectory"), list):
        return [Plan(N_("a SWE-agent trajectory under 'trajectory'"),
                      indexed(document["trajectory"], where, "step index"), run_meta(document), hint="swe-agent",
                      outside=_without(document, "trajectory"))]
    container, fields, messages = _container_list(document, where)
    noun = "event index" if fields.get("key") == "history" else "message index"
    outside = _without(document, fields["key"]) if "key" in fields else _without(document, "input", "output")
    return [Plan(container, indexed(messages, where, noun), run_meta(document), _marker_hint(document), fields,
                 outside=outside)]


def _marker_hint(document: Mapping) -> str | None:
    """The format a document names itself: mini-swe-agent's ``trajectory_format`` (any version)."""
    marker = document.get("trajectory_format")
    return "mini-swe-agent" if isinstance(marker, str) and marker.startswith("mini-swe-agent") else None


def document_plans(document: Any, where: str) -> list[Plan]:
    """The runs inside a parsed JSON document."""
    plans = _plans(document, where)
    for plan in plans:
        plan.of_many = len(plans) > 1
    return plans


def _plans(document: Any, where: str) -> list[Plan]:
    if isinstance(document, list):
        if document and _thread_state(document[0]):  # a thread's history: one state per checkpoint
            plans = []
            for k, state in enumerate(document):
                if not _thread_state(state):
                    raise TraceError(f"{where}: item {k} is not a thread state like item 0; expected "
                                     f"{{'values': {{'messages': [...]}}}}")
                plans.extend(_object_plans(state, f"{where}: item {k}"))
            return plans
        return [Plan(N_("a JSON array"), indexed(document, where))]
    if is_map(document):
        return _object_plans(document, where)
    raise TraceError(f"{where}: expected a JSON array of messages or an object holding one, "
                     f"got {type(document).__name__}")


# -- a document read piece by piece -----------------------------------------------------------------------------------

#: The lists that are read one element at a time: an Inspect log's samples, a SWE-agent trajectory, a message list.
_STREAMED_LISTS = ("samples", "trajectory", *CONTAINER_KEYS)
#: Members kept whole besides scalars (each at most ``max_record_bytes``): what names a run or a dumpd message.
_KEPT_OBJECTS = ("metadata", "checkpoint", "kwargs", "issue")
_NOT_KEPT = "(not kept: read piece by piece)"


def _with_next(items: Iterator) -> Iterator[tuple[Any, bool]]:
    """Each item with whether another follows (one item read ahead)."""
    current = next(items, _NOT_KEPT)
    while current is not _NOT_KEPT:
        following = next(items, _NOT_KEPT)
        yield current, following is not _NOT_KEPT
        current = following


def _skip(pieces: JsonPieces) -> None:
    """Read past the next value, a list or an object one member at a time (each at most ``max_record_bytes``)."""
    if pieces.peek() == "[":
        for _ in pieces.items():
            pass
    elif pieces.peek() == "{":
        for _ in pieces.members():
            pieces.value()
    else:
        pieces.value()


def _kept(key: str, pieces: JsonPieces) -> Any:
    """The value of member ``key``: kept if it is a scalar or names the run; skipped (and marked) otherwise."""
    if key in _KEPT_OBJECTS or pieces.peek() not in ("[", "{"):
        return pieces.value()
    _skip(pieces)
    return _NOT_KEPT


def streamed_plans(pieces: JsonPieces, where: str) -> Iterator[Plan]:
    """The runs of a document read piece by piece, in the shapes :func:`document_plans` finds; each run's records
    are read from the document as the run is replayed, so read each run before asking for the next."""
    first = pieces.peek()
    if first == "[":
        yield from _streamed_array(pieces, where)
    elif first == "{":
        yield from _streamed_object(pieces, where)
    else:
        raise TraceError(f"{where}: expected a JSON array of messages or an object holding one, got "
                         f"{first[:1]!r}")
    pieces.end()


def _streamed_array(pieces: JsonPieces, where: str) -> Iterator[Plan]:
    items = pieces.items()
    first = next(items, _NOT_KEPT)
    if first is _NOT_KEPT:
        yield Plan("a JSON array", iter(()))
        return
    rest = itertools.chain([first], items)
    if not _thread_state(first):
        yield Plan("a JSON array", indexed(rest, where))
        return
    for k, (state, more) in enumerate(_with_next(rest)):  # a thread's history: one state per checkpoint
        if not _thread_state(state):
            raise TraceError(f"{where}: item {k} is not a thread state like item 0; expected "
                             f"{{'values': {{'messages': [...]}}}}")
        for plan in _object_plans(state, f"{where}: item {k}"):
            plan.of_many = more or k > 0
            yield plan


def _streamed_object(pieces: JsonPieces, where: str) -> Iterator[Plan]:
    head: dict = {}
    members = pieces.members()
    found = False
    for key in members:
        if found or pieces.peek() not in ("[", "{"):
            head.setdefault(key, _kept(key, pieces))
        elif key == "values" and pieces.peek() == "{":  # a LangGraph thread state
            found = True
            for inner in pieces.members():
                if inner == "messages" and pieces.peek() == "[":
                    yield Plan("a LangGraph thread state under 'values'", indexed(pieces.items(), where),
                               run_meta(head, head.get("metadata") or {}, head.get("checkpoint") or {}),
                               outside=head)
                else:
                    _skip(pieces)
        elif key in _STREAMED_LISTS and pieces.peek() == "[":
            found = True
            yield from _streamed_list(key, head, pieces, members, where)
        else:
            head[key] = _kept(key, pieces)
    if not found:  # no list to read piece by piece: what was kept says what the object is
        yield from _object_plans(head, where)


def _streamed_list(key: str, head: dict, pieces: JsonPieces, members: Iterator[str], where: str) -> Iterator[Plan]:
    meta = run_meta(head)
    if key == "samples":
        yield from _streamed_samples(pieces.items(), where)
    elif key == "trajectory":
        yield Plan("a SWE-agent trajectory under 'trajectory'", indexed(pieces.items(), where, "step index"), meta,
                   hint="swe-agent", outside=head)
    elif key == "input":  # a Responses request and, later in the object, its response: one run, in order
        yield Plan("a JSON object under '{key}'", indexed(_input_then_output(pieces, members), where), meta,
                   _marker_hint(head), {"key": key}, outside=head)
    else:
        noun = "event index" if key == "history" else "message index"
        yield Plan("a JSON object under '{key}'", indexed(pieces.items(), where, noun), meta, _marker_hint(head),
                   {"key": key}, outside=head)


def _input_then_output(pieces: JsonPieces, members: Iterator[str]) -> Iterator[Any]:
    yield from pieces.items()
    for key in members:
        if key == "output" and pieces.peek() == "[":
            yield from pieces.items()
        else:
            _skip(pieces)


def _streamed_samples(samples: Iterator[Any], where: str) -> Iterator[Plan]:
    empty = True
    for k, (sample, more) in enumerate(_with_next(samples)):
        empty = False
        if not is_map(sample) or not isinstance(sample.get("messages"), list):
            raise TraceError(f"{where}: samples[{k}] has no 'messages' list; expected an Inspect AI sample")
        yield Plan("samples[{k}] of an Inspect AI log", indexed(sample["messages"], f"{where}: samples[{k}]"),
                   run_meta(sample), container_fields={"k": k}, of_many=more or k > 0,
                   outside=_without(sample, "messages"))
    if empty:
        raise TraceError(f"{where}: an Inspect AI log with no samples (a header-only log?); expected samples[]")
