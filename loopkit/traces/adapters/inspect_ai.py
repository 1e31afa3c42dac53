"""Inspect AI messages: ``{"role": "assistant", "tool_calls": [{"id", "function": "bash", "arguments": {...}}]}``
(``function`` is the tool's name, ``arguments`` a dict), as in ``samples[].messages[]`` of a ``.json`` log and in
each ``samples/<id>_epoch_<n>.json`` member of a ``.eval`` zip archive (UKGovernmentBEIS/inspect_ai,
``src/inspect_ai/log/_recorders/eval.py`` and ``src/inspect_ai/tool/_tool_call.py``)."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, as_list, assistant_only, entry, is_map, required, tool_name

ROLES = ("system", "user", "assistant", "tool")


def read(record: Mapping, where: str) -> Message | None:
    """A message; its calls when ``tool_calls`` entries name their tool in a string ``function``.

    >>> read({"role": "assistant", "tool_calls": [{"id": "1", "function": "bash",
    ...                                            "arguments": {"cmd": "ls"}}]}, "m").calls
    [{'name': 'bash', 'args': {'cmd': 'ls'}, 'id': '1'}]
    """
    if record.get("role") not in ROLES:
        return None
    entries = as_list(record.get("tool_calls"), where, "'tool_calls'")
    if not (entries and is_map(entries[0]) and isinstance(entries[0].get("function"), str)):
        return Message(user_prompt=record.get("role") == "user")
    assistant_only(record, where)
    calls = []
    for i, item in enumerate(entries):
        what = f"tool_calls[{i}]"
        item = entry(item, where, what, "'function' (the tool name) and 'arguments'")
        name = tool_name(item.get("function"), where, f"{what}.function")
        args = required(item, "arguments", where, what, "expected Inspect's {'id', 'function', 'arguments'}")
        calls.append({"name": name, "args": args, "id": item.get("id")})
    return Message(calls)


FORMAT = Format("inspect-ai", read, call_keys=("tool_calls",))
