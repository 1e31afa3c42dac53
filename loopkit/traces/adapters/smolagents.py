"""smolagents memory steps (``agent.memory.get_full_steps()``, huggingface/smolagents ``src/smolagents/memory.py``):
step dicts with no ``role``. An action step carries OpenAI-shaped ``tool_calls`` (``{"id", "type": "function",
"function": {"name", "arguments"}}``; a CodeAgent's call is ``python_interpreter`` with the code as its
arguments); a task step (``{"task"}``) is the human's prompt; planning, system-prompt and final-answer steps are
messages without calls."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, as_list, openai_calls

#: The keys that tell a smolagents step, one per step kind.
STEP_KEYS = ("step_number", "task", "system_prompt", "plan")


def read(record: Mapping, where: str) -> Message | None:
    """A step and, for an action step, its calls.

    >>> read({"step_number": 1, "tool_calls": [{"id": "c1", "type": "function",
    ...       "function": {"name": "web_search", "arguments": {"query": "loops"}}}]}, "steps.json").calls
    [{'name': 'web_search', 'args': {'query': 'loops'}, 'id': 'c1'}]
    """
    if "role" in record or "type" in record:
        return None
    if not any(key in record for key in STEP_KEYS) and set(record) != {"output"}:
        return None
    calls = openai_calls(as_list(record.get("tool_calls"), where, "'tool_calls'"), where, "tool_calls")
    return Message(calls, user_prompt="task" in record)


FORMAT = Format("smolagents", read, call_keys=("tool_calls",), distinctive=True)
