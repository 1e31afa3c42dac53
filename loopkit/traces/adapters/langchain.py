"""LangChain / LangGraph messages, in the three ways they are saved.

- message dicts: ``{"type": "ai", "content": ..., "tool_calls": [{"name", "args", "id"}]}`` (what a LangGraph
  thread state holds under ``values.messages``, DeerFlow's threads included); older dumps keep OpenAI-shaped calls
  under ``additional_kwargs.tool_calls`` only;
- ``messages_to_dict``: ``{"type": "ai", "data": {...}}``, unwrapped;
- ``dumpd``: ``{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}``, whose class name
  gives the message type.

``invalid_tool_calls`` (calls LangChain could not parse) are an error: DeerFlow's detector never sees them, so the
replay could not say what the run did.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, TraceError, as_list, assistant_only, entry, is_map, openai_calls, required, tool_name

TYPES = ("ai", "human", "system", "tool", "function", "chat", "remove",
         "AIMessage", "AIMessageChunk", "HumanMessage", "HumanMessageChunk", "SystemMessage", "ToolMessage",
         "FunctionMessage", "ChatMessage")
HUMAN_TYPES = ("human", "HumanMessage", "HumanMessageChunk")
ROLES = ("user", "assistant", "system", "tool")
#: ``dumpd`` names the class; the message dict names the type.
DUMPD_TYPES = {"AIMessage": "ai", "AIMessageChunk": "ai", "HumanMessage": "human", "HumanMessageChunk": "human",
               "SystemMessage": "system", "ToolMessage": "tool", "FunctionMessage": "function",
               "ChatMessage": "chat"}
_EXPECTED = ("expected LangChain's {'name', 'args', 'id'} or OpenAI's "
             "{'id', 'type', 'function': {'name', 'arguments'}}")


def unwrap(record: Mapping) -> Mapping | None:
    """The message dict inside a ``messages_to_dict`` or ``dumpd`` wrapper; the record itself otherwise; ``None``
    for a ``dumpd`` object that is not a message.

    >>> unwrap({"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"],
    ...         "kwargs": {"content": "hi"}})
    {'content': 'hi', 'type': 'ai'}
    """
    data = record.get("data")
    if is_map(data) and set(record) <= {"type", "data"}:
        merged = dict(data)
        merged.setdefault("type", record.get("type"))
        return merged
    if record.get("lc") == 1 and "kwargs" in record:
        path = record.get("id")
        kind = DUMPD_TYPES.get(path[-1]) if isinstance(path, list) and path and isinstance(path[-1], str) else None
        if record.get("type") != "constructor" or kind is None or not is_map(record["kwargs"]):
            return None
        merged = dict(record["kwargs"])
        merged.setdefault("type", kind)
        return merged
    return record


def _calls(message: Mapping, where: str) -> list:
    """The calls under ``tool_calls`` (LangChain-shaped) or ``additional_kwargs.tool_calls`` (OpenAI-shaped)."""
    invalid = message.get("invalid_tool_calls")
    if invalid:
        found = as_list(invalid, where, "'invalid_tool_calls'")[:3]
        names = ", ".join(repr(c.get("name")) if is_map(c) else "?" for c in found)
        raise TraceError(f"{where}: the message carries invalid_tool_calls ({names}): calls LangChain could not "
                         f"parse, which DeerFlow's detector never sees; not supported, so the replay cannot say what "
                         f"the run did (expected only 'tool_calls')")
    entries = as_list(message.get("tool_calls"), where, "'tool_calls'")
    calls = []
    for i, item in enumerate(entries):
        what = f"tool_calls[{i}]"
        item = entry(item, where, what, "'name', 'args' and 'id'")
        if "function" in item:
            raise TraceError(f"{where}: {what} is OpenAI-shaped but tool_calls[0] is not; expected one shape")
        name = tool_name(item.get("name"), where, f"{what}.name")
        calls.append({"name": name, "args": required(item, "args", where, what, _EXPECTED), "id": item.get("id")})
    if calls:
        return calls
    extra = message.get("additional_kwargs")
    if is_map(extra) and extra.get("tool_calls"):  # older dumps: OpenAI-shaped calls kept here only
        what = "additional_kwargs.tool_calls"
        return openai_calls(as_list(extra["tool_calls"], where, f"'{what}'"), where, what)
    return []


def _is_langchain(message: Mapping, where: str) -> bool:
    if message.get("type") in TYPES:
        return True
    if message.get("role") not in ROLES:
        return False
    entries = as_list(message.get("tool_calls"), where, "'tool_calls'")
    return not entries or not (is_map(entries[0]) and "function" in entries[0])  # OpenAI-shaped: openai-chat's


def read(record: Mapping, where: str) -> Message | None:
    """A LangChain message (unwrapped) and its calls; ``None`` when ``record`` is not one.

    >>> read({"type": "ai", "tool_calls": [{"name": "ls", "args": {}, "id": "1"}]}, "m").calls
    [{'name': 'ls', 'args': {}, 'id': '1'}]
    """
    message = unwrap(record)
    if message is None or not _is_langchain(message, where):
        return None
    calls = _calls(message, where)
    if calls:
        assistant_only(message, where)
    return Message(calls, user_prompt=message.get("type") in HUMAN_TYPES or message.get("role") == "user",
                   results=message.get("type") in ("tool", "ToolMessage", "function") or message.get("role") == "tool")


FORMAT = Format("langchain", read, call_keys=("tool_calls", "additional_kwargs", "invalid_tool_calls", "data",
                                              "kwargs"))
