"""OpenAI Responses items, as the Responses API returns them and as Codex CLI saves them: ``{"type":
"function_call", "name", "arguments", "call_id"}`` and the other call items. Consecutive call items form one batch, up
to the next item that is not a call.

Every kind of item that is a tool call is a call, named and with its arguments (:data:`CALL_ITEMS`; the kinds and
their fields are Codex's ``ResponseItem`` in openai/codex ``codex-rs/protocol/src/models.rs`` at commit 515c291d):

- ``function_call``: its ``name`` and ``arguments`` (the JSON string sent);
- ``custom_tool_call``: its ``name`` and its free-text ``input``;
- ``local_shell_call``: the tool ``local_shell``, its ``action`` as the arguments;
- ``tool_search_call``: the tool ``tool_search``, its ``arguments`` (an object);
- ``web_search_call``: the tool ``web_search``, its ``action`` as the arguments (``{}`` when the item has none: Codex
  allows that);
- ``image_generation_call``: the tool ``image_generation``, with ``{"revised_prompt": ...}`` (the item keeps the
  prompt and the image, not the request; the image itself is never copied);
- and the Responses API's hosted tools (openai/openai-python ``src/openai/types/responses/``:
  ``response_output_item.py`` and ``response_code_interpreter_tool_call.py`` at commit 04448952,
  ``response_file_search_tool_call.py`` at 74eae1ed): ``mcp_call`` by its ``name`` with its ``arguments``,
  ``code_interpreter_call`` as ``code_interpreter {"code"}``, ``file_search_call`` as ``file_search {"queries"}``.

Those built-in tools have no arguments field of their own, so their names and arguments are fixed translations.

Items that are not tool calls (:data:`OTHER_ITEMS`: messages, reasoning, call outputs, compaction...) are read as
messages without calls. An item of a kind not known here is skipped and named in the summary as not known yet, never
a reason to refuse the file: in a Codex rollout any kind (the envelope says it is an item), in a plain list of items
a kind whose name ends in ``_call`` (so a record of another format is never taken for one).
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, required, tool_name

__all__ = ["FORMAT", "CALL_ITEMS", "OTHER_ITEMS", "read_item"]

#: The tool each call item without a name of its own is, and the field that holds its arguments.
ACTION_TOOLS = {"local_shell_call": ("local_shell", "action"), "tool_search_call": ("tool_search", "arguments"),
                "web_search_call": ("web_search", "action")}
#: Hosted tools whose one field says what the call did: the tool, and that field (kept under its own name).
FIELD_TOOLS = {"code_interpreter_call": ("code_interpreter", "code"), "file_search_call": ("file_search", "queries"),
               "image_generation_call": ("image_generation", "revised_prompt")}
#: Call items that name their tool, and the field of their arguments.
NAMED_CALLS = {"function_call": "arguments", "custom_tool_call": "input", "mcp_call": "arguments"}
CALL_ITEMS = (*NAMED_CALLS, *ACTION_TOOLS, *FIELD_TOOLS)
#: Item kinds that are not tool calls (Codex's ``ResponseItem``, and the Responses API's own).
OTHER_ITEMS = ("message", "reasoning", "agent_message", "additional_tools", "function_call_output",
               "custom_tool_call_output", "tool_search_output", "local_shell_call_output", "item_reference",
               "compaction", "compaction_summary", "context_compaction", "compaction_trigger", "configuration_update",
               "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "computer_call_output")
#: Item kinds Codex writes that are about the harness, not the model (no message, no call).
HARNESS_ITEMS = ("ghost_snapshot",)


def _call(item: Mapping, kind: str, where: str) -> Message:
    call_id = item.get("call_id", item.get("id"))
    if kind in ACTION_TOOLS:
        tool, field = ACTION_TOOLS[kind]
        if kind == "web_search_call":
            args = item.get("action") or {}
        else:
            args = required(item, field, where, kind, f"expected {field!r} (the call's arguments)")
        return Message([{"name": tool, "args": args, "id": call_id}])
    if kind in FIELD_TOOLS:
        tool, field = FIELD_TOOLS[kind]
        return Message([{"name": tool, "args": {field: item.get(field)}, "id": call_id}])
    name = tool_name(item.get("name"), where, f"{kind} 'name'")
    key = NAMED_CALLS[kind]  # custom tools take free text as 'input'
    return Message([{"name": name, "args": required(item, key, where, kind), "id": call_id}])


def read_item(item: Mapping, where: str) -> Message | Skipped | None:
    """One Responses item: a call, a message, a skipped item of a kind not known yet, or ``None`` (not an item).

    >>> read_item({"type": "function_call", "call_id": "c", "name": "ls", "arguments": "{}"}, "r.json").calls
    [{'name': 'ls', 'args': '{}', 'id': 'c'}]
    >>> read_item({"type": "frobnicate_call", "id": "x"}, "r.json")
    Skipped(kind="item 'frobnicate_call'", unknown=True, holds_calls=True)
    """
    kind = item.get("type")
    if kind in CALL_ITEMS:
        return _call(item, kind, where)
    if kind in OTHER_ITEMS or (isinstance(kind, str) and kind.endswith("_call_output")):
        return Message(user_prompt=kind == "message" and item.get("role") == "user",
                       results=isinstance(kind, str) and kind.endswith("_output"))
    if kind in HARNESS_ITEMS:
        return Skipped(f"item {kind!r}")
    if kind is None and item.get("role") in ("user", "assistant", "system", "developer"):
        return Message(user_prompt=item.get("role") == "user")  # an input message without a type
    if isinstance(kind, str) and kind.endswith("_call") and ("id" in item or "call_id" in item):
        return Skipped(f"item {kind!r}", unknown=True, holds_calls=True)  # a call item of a kind newer than this reader
    return None


FORMAT = Format("openai-responses", read_item, call_keys=("type",), batching="consecutive")
