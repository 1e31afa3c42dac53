"""What a tool call looks like in any of the formats, wherever it sits in a record: the last check against a silent
zero. A run that read no call, though one of its records holds an object shaped like a call, is an error that says
where the object is, not a run "without tool calls".

The shapes (each as the adapters read it, with the fields a call cannot do without):

- ``{"type": "tool_use" | "server_tool_use" | "mcp_tool_use", "name", "input"}``: an Anthropic content block;
- ``{"type": "..._call", "arguments" | "input" | "action"}``: a Responses or Codex call item;
- ``{"function": {"name", "arguments"}}``: an OpenAI Chat Completions call (also OpenHands, smolagents);
- ``{"function": "<name>", "arguments"}``: an Inspect AI call;
- ``{"name", "args", "id"}``: a LangChain or Gemini CLI call;
- ``{"functionCall": {"name", "args"}}``: a Gemini API content part;
- ``{"tool_call" | "toolCall": {a tool name...}}``: one call in a shape of its own (an OpenHands V1 ``ActionEvent``);
- ``{"type": "tool_use" | "tool_call" | "tool.call" | ..., and a tool name}``: an event that says it is a call
  (Gemini CLI's ``stream-json`` ``tool_use`` line with ``tool_name``, a Kimi ``tool.call`` event);
- ``{"type": "tool", "tool", "state"}``: an OpenCode tool part;
- ``{"type": "say" | "ask", "say" | "ask": "tool" | "command" | ...}``: a Cline UI message of a tool;
- ``{"tool_calls" | "toolCalls": [{a tool name...}, ...]}``: a list of calls in a shape of its own.

Tool *definitions* (``{"name", "parameters"}``, ``{"name", "input_schema"}``) have none of these shapes: a name beside
``parameters`` is a call only when the object's ``type`` says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import is_map

__all__ = ["call_shape", "find_call_shape"]

_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
#: ``type`` values that say an event is a tool call, whatever else it holds.
_CALL_EVENTS = ("tool_use", "tool_call", "tool-call", "tool.call", "toolCall", "function_call", "tool_call_request")
#: The keys under which an event that says it is a call names its tool.
_TOOL_NAME_KEYS = ("name", "tool_name", "toolName", "tool")
#: Cline UI messages (``say`` or ``ask``) that show a tool call (cline/cline ``src/shared/ExtensionMessage.ts``).
_CLINE_CALLS = ("tool", "command", "use_mcp_server", "browser_action", "browser_action_launch")


def _names_a_tool(value: Any) -> bool:
    return is_map(value) and any(isinstance(value.get(key), str) and value[key] for key in _TOOL_NAME_KEYS)


def _typed_call(value: Any) -> str | None:
    """The shape of an object whose ``type`` (or Cline's ``say``/``ask``) says it is a tool call, or None."""
    kind = value.get("type")
    if kind in _BLOCKS and isinstance(value.get("name"), str) and "input" in value:
        return f"an Anthropic {kind} block"
    if isinstance(kind, str) and kind.endswith("_call") and any(k in value for k in ("arguments", "input", "action")):
        return f"a {kind} item"
    if kind in _CALL_EVENTS and _names_a_tool(value):
        return f"a {kind!r} event"
    if kind == "tool" and isinstance(value.get("tool"), str) and is_map(value.get("state")):
        return "an OpenCode tool part"
    if kind in ("say", "ask") and value.get(kind) in _CLINE_CALLS:
        return f"a Cline {kind} {value[kind]!r} message"
    return None


def call_shape(value: Any) -> str | None:
    """The name of the call shape ``value`` has, or None.

    >>> call_shape({"type": "tool_use", "id": "t", "name": "ls", "input": {}}), call_shape({"name": "ls"})
    ('an Anthropic tool_use block', None)
    >>> call_shape({"type": "tool_use", "tool_name": "read_file", "parameters": {}}), call_shape({"name": "ls", "parameters": {}})
    ("a 'tool_use' event", None)
    """
    if not is_map(value):
        return None
    typed = _typed_call(value)
    if typed:
        return typed
    function = value.get("function")
    if is_map(function) and isinstance(function.get("name"), str) and "arguments" in function:
        return "an OpenAI-shaped tool call"
    if isinstance(function, str) and "arguments" in value:
        return "an Inspect AI tool call"
    if isinstance(value.get("name"), str) and "args" in value and "id" in value:
        return "a LangChain or Gemini CLI tool call"
    part = value.get("functionCall")
    if is_map(part) and isinstance(part.get("name"), str) and "args" in part:
        return "a Gemini functionCall part"
    for key in ("tool_call", "toolCall"):
        if _names_a_tool(value.get(key)):
            return f"a tool call under {key!r}"
    for key in ("tool_calls", "toolCalls"):
        calls = value.get(key)
        if isinstance(calls, list) and calls and (_names_a_tool(calls[0]) or is_map(calls[0]) and "function" in calls[0]):
            return f"tool calls under {key!r}"
    return None


def find_call_shape(record: Mapping) -> tuple[str, str] | None:
    """``(where in the record, shape)`` of the first call-shaped object inside ``record`` (the record itself
    included), found without recursion, so any depth the parser accepted is walked.

    >>> find_call_shape({"meta": {"log": [{"function": {"name": "ls", "arguments": "{}"}}]}})
    ('meta.log[0]', 'an OpenAI-shaped tool call')
    """
    stack: list[tuple[str, Any]] = [("", record)]
    while stack:
        path, value = stack.pop()
        if is_map(value):
            shape = call_shape(value)
            if shape:
                return path or "the record itself", shape
            children = [(f"{path}.{key}" if path else str(key), item) for key, item in value.items()
                        if isinstance(item, (dict, list)) or is_map(item)]
        elif isinstance(value, list):
            children = [(f"{path}[{index}]", item) for index, item in enumerate(value)
                        if isinstance(item, (dict, list)) or is_map(item)]
        else:
            continue
        stack.extend(reversed(children))  # depth first, in document order
    return None
