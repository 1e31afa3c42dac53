"""OpenAI Responses items: ``{"type": "function_call", "name", "arguments", "call_id"}``; ``custom_tool_call``
items give their ``input``, ``local_shell_call`` items are the tool ``local_shell`` and ``web_search_call`` items
the tool ``web_search``, each with its ``action`` as the arguments (a fixed translation: those items have no
arguments field of their own). Consecutive call items form one batch, up to the next item that is not a call."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, TraceError, required, tool_name

CALL_ITEMS = ("function_call", "custom_tool_call", "local_shell_call", "web_search_call")
#: Built-in tools whose item carries an ``action`` instead of a name and arguments.
ACTION_TOOLS = {"local_shell_call": "local_shell", "web_search_call": "web_search"}
OTHER_ITEMS = ("message", "reasoning", "function_call_output", "custom_tool_call_output", "local_shell_call_output",
               "item_reference", "compaction", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response")


def read_item(item: Mapping, where: str) -> Message | None:
    """One Responses item; ``None`` when it is not one. A ``*_call`` item of another kind is an error: a call the
    replay cannot read must not vanish.

    >>> read_item({"type": "function_call", "call_id": "c", "name": "ls", "arguments": "{}"}, "r.json").calls
    [{'name': 'ls', 'args': '{}', 'id': 'c'}]
    """
    kind = item.get("type")
    if kind in CALL_ITEMS:
        call_id = item.get("call_id", item.get("id"))
        if kind in ACTION_TOOLS:
            action = required(item, "action", where, kind, "expected 'action': {'type': ...}")
            return Message([{"name": ACTION_TOOLS[kind], "args": action, "id": call_id}])
        name = tool_name(item.get("name"), where, f"{kind} 'name'")
        key = "arguments" if kind == "function_call" else "input"  # custom tools take free text as 'input'
        return Message([{"name": name, "args": required(item, key, where, kind), "id": call_id}])
    if isinstance(kind, str) and kind.endswith("_call"):
        raise TraceError(f"{where}: a {kind!r} item is a tool call of a kind not supported; expected one of "
                         f"{', '.join(CALL_ITEMS)}")
    if kind in OTHER_ITEMS or (isinstance(kind, str) and kind.endswith("_call_output")):
        return Message(user_prompt=kind == "message" and item.get("role") == "user")
    if kind is None and item.get("role") in ("user", "assistant", "system", "developer"):
        return Message(user_prompt=item.get("role") == "user")  # an input message without a type
    return None


FORMAT = Format("openai-responses", read_item, call_keys=("type",), batching="consecutive")
