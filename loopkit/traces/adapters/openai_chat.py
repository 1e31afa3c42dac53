"""OpenAI Chat Completions messages: ``{"role": "assistant", "tool_calls": [{"id", "type": "function", "function":
{"name", "arguments"}}]}``, and the legacy single ``function_call``. ``arguments`` stay the JSON string sent."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, as_list, assistant_only, entry, is_map, openai_calls, required, tool_name

ROLES = ("system", "developer", "user", "assistant", "tool", "function")


def read(record: Mapping, where: str) -> Message | None:
    """A chat message and its calls; ``None`` when ``record`` has no chat ``role``.

    >>> read({"role": "assistant", "function_call": {"name": "ls", "arguments": "{}"}}, "t.json").calls
    [{'name': 'ls', 'args': '{}', 'id': None}]
    """
    if record.get("role") not in ROLES:
        return None
    entries = as_list(record.get("tool_calls"), where, "'tool_calls'")
    if entries and is_map(entries[0]) and is_map(entries[0].get("function")):
        assistant_only(record, where)
        return Message(openai_calls(entries, where, "tool_calls"))
    legacy = record.get("function_call")
    if legacy is not None and not entries:
        assistant_only(record, where)
        function = entry(legacy, where, "'function_call'", "'name' and 'arguments'")
        name = tool_name(function.get("name"), where, "function_call.name")
        args = required(function, "arguments", where, "function_call", "expected 'arguments' (a JSON string)")
        return Message([{"name": name, "args": args, "id": None}])
    return Message(user_prompt=record.get("role") == "user", results=record.get("role") in ("tool", "function"))


FORMAT = Format("openai-chat", read, call_keys=("tool_calls", "function_call"))
