"""Where a JSON document keeps its runs' records: the message list of each run, what names the run, and the format
the document itself names.

Where the messages are in a JSON document:

- a JSON array of records, or an object holding the list under ``messages``, ``history``, ``output`` or ``input``
  (an object with both ``input`` and ``output`` lists is read as input then output);
- ``{"values": {"messages": [...]}}``: a LangGraph thread state (DeerFlow's threads, checkpoint dumps);
- ``{"trajectory": [...]}``: a SWE-agent trajectory (read as ``swe-agent``);
- ``{"trajectory_format": "mini-swe-agent-1", "messages": [...]}``: read as ``mini-swe-agent``;
- ``{"lc": 1, "type": "constructor", ...}``: one LangChain ``dumpd`` message.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .base import TraceError, as_list, is_map

__all__ = ["CONTAINER_KEYS", "META_KEYS", "Plan", "run_meta", "indexed", "document_plans"]

#: The keys under which a JSON object may hold its list of messages, in the order they are looked for.
CONTAINER_KEYS = ("messages", "history", "output", "input")

#: Scalars that identify a run, copied into :attr:`Run.meta` when a run's object holds them.
META_KEYS = ("instance_id", "id", "epoch", "sample_id", "thread_id", "run_id", "checkpoint_id", "sessionId",
             "session_id")

_OTHER_SHAPES = ("a LangGraph thread state ('values'), an Inspect AI log ('samples'), a SWE-agent trajectory "
                 "('trajectory') or a LangChain dumpd message ('lc')")

def run_meta(obj: Mapping, *more: Mapping) -> dict:
    """The identifying scalars of a run's object (and of nested ones, such as a thread state's ``metadata``)."""
    found: dict = {}
    for source in (obj, *more):
        for key in META_KEYS:
            value = source.get(key) if is_map(source) else None
            if key not in found and isinstance(value, (str, int, float, bool)):
                found[key] = value
    return found


@dataclass
class Plan:
    """Where one run's records are: a description, the records with their locations, and what names the run.

    ``container`` describes where the messages were, in English, as a template filled from ``container_fields``
    (``"samples[{k}] of an Inspect AI log"``, k=2), so a run can say it in the learner's language too.
    """

    container: str
    records: Iterable  # of (where, record)
    meta: dict = field(default_factory=dict)
    hint: str | None = None  # a format the document itself names (mini-swe-agent, swe-agent)
    container_fields: dict = field(default_factory=dict)


def indexed(records: list, prefix: str, noun: str = "message index") -> Iterator[tuple[str, Any]]:
    for index, record in enumerate(records):
        yield f"{prefix}: {noun} {index}", record


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
        return "a JSON object under 'input' then 'output'", {}, items + as_list(later, where, "'output'")
    for key in CONTAINER_KEYS:
        if key in document:
            value = document[key]
            if isinstance(value, (list, str)):
                return "a JSON object under '{key}'", {"key": key}, as_list(value, where, f"{key!r}")
            raise TraceError(f"{where}: {key!r} must be a list of messages, got {type(value).__name__}")
    keys = ", ".join(repr(k) for k in list(document)[:8]) or "none"
    raise TraceError(f"{where}: a JSON object without a message list; expected one of the keys "
                     f"{', '.join(CONTAINER_KEYS)} (found {keys}), or {_OTHER_SHAPES}")


def _thread_state(state: Any) -> bool:
    return is_map(state) and is_map(state.get("values")) and "messages" in state["values"]


def _object_plans(document: Mapping, where: str) -> list[Plan]:
    """The runs inside one JSON object."""
    if document.get("lc") == 1 and "kwargs" in document:
        return [Plan("a LangChain dumpd message", [(f"{where}: message index 0", document)])]
    if _thread_state(document):
        messages = as_list(document["values"]["messages"], where, "'values.messages'")
        meta = run_meta(document, document.get("metadata") or {}, document.get("checkpoint") or {})
        return [Plan("a LangGraph thread state under 'values'", indexed(messages, where), meta)]
    if "samples" in document and isinstance(document["samples"], list):  # an Inspect AI log
        if not document["samples"]:
            raise TraceError(f"{where}: an Inspect AI log with no samples (a header-only log?); expected samples[]")
        plans = []
        for k, sample in enumerate(document["samples"]):
            if not is_map(sample) or not isinstance(sample.get("messages"), list):
                raise TraceError(f"{where}: samples[{k}] has no 'messages' list; expected an Inspect AI sample")
            records = indexed(sample["messages"], f"{where}: samples[{k}]")
            plans.append(Plan("samples[{k}] of an Inspect AI log", records, run_meta(sample),
                              container_fields={"k": k}))
        return plans
    if isinstance(document.get("trajectory"), list):
        return [Plan("a SWE-agent trajectory under 'trajectory'",
                      indexed(document["trajectory"], where, "step index"), run_meta(document), hint="swe-agent")]
    marker = document.get("trajectory_format")
    hint = "mini-swe-agent" if isinstance(marker, str) and marker.startswith("mini-swe-agent") else None
    container, fields, messages = _container_list(document, where)
    return [Plan(container, indexed(messages, where), run_meta(document), hint, fields)]


def document_plans(document: Any, where: str) -> list[Plan]:
    """The runs inside a parsed JSON document."""
    if isinstance(document, list):
        if document and _thread_state(document[0]):  # a thread's history: one state per checkpoint
            plans = []
            for k, state in enumerate(document):
                if not _thread_state(state):
                    raise TraceError(f"{where}: item {k} is not a thread state like item 0; expected "
                                     f"{{'values': {{'messages': [...]}}}}")
                plans.extend(_object_plans(state, f"{where}: item {k}"))
            return plans
        return [Plan("a JSON array", indexed(document, where))]
    if is_map(document):
        return _object_plans(document, where)
    raise TraceError(f"{where}: expected a JSON array of messages or an object holding one, "
                     f"got {type(document).__name__}")
