"""What a tool call looks like in any of the formats, wherever it sits in a record: the last check against a silent
zero. A run that read no call, though one of its records holds an object shaped like a call, is an error that says
where the object is, not a run "without tool calls".

The shapes (each as the adapters read it, with the fields a call cannot do without):

- ``{"type": "tool_use" | "server_tool_use" | "mcp_tool_use", "name", "input"}``: an Anthropic content block;
- ``{"type": "..._call", "arguments" | "input" | "action"}``: a Responses or Codex call item;
- ``{"function": {"name", "arguments"}}``: an OpenAI Chat Completions call (also OpenHands, smolagents);
- ``{"function": "<name>", "arguments"}``: an Inspect AI call;
- ``{"name", "args", "id"}``: a LangChain or Gemini CLI call;
- ``{"functionCall": {"name", "args"}}``: a Gemini API content part.

Tool *definitions* (``{"name", "parameters"}``, ``{"name", "input_schema"}``) have none of these shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .base import is_map

__all__ = ["call_shape", "find_call_shape"]

_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")


def call_shape(value: Any) -> str | None:
    """The name of the call shape ``value`` has, or None.

    >>> call_shape({"type": "tool_use", "id": "t", "name": "ls", "input": {}}), call_shape({"name": "ls"})
    ('an Anthropic tool_use block', None)
    """
    if not is_map(value):
        return None
    kind = value.get("type")
    if kind in _BLOCKS and isinstance(value.get("name"), str) and "input" in value:
        return f"an Anthropic {kind} block"
    if isinstance(kind, str) and kind.endswith("_call") and any(k in value for k in ("arguments", "input", "action")):
        return f"a {kind} item"
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
