"""SWE-agent trajectories (``*.traj``: ``{"trajectory": [{"action", "observation", "thought", "response", ...}],
"history", "info"}``, SWE-agent/SWE-agent ``sweagent/types.py``), whose calls are shell commands rather than structured
tool calls: each step's ``action`` is the command SWE-agent ran in its shell, so it becomes one call ``bash`` with
``{"command": action}``, action text as recorded (a fixed translation: the format records no arguments of its own).

A step always records both its ``action`` and its ``observation``; an object with an ``action`` but no
``observation`` is not a SWE-agent step (an OpenHands event has one or the other). mini-swe-agent, SWE-agent's small
sibling, is :mod:`loopkit.traces.adapters.mini_swe_agent`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, TraceError

__all__ = ["SWE_AGENT", "read_step"]


def read_step(record: Mapping, where: str) -> Message | None:
    """A SWE-agent trajectory step; its ``action`` is one ``bash`` call.

    >>> read_step({"action": "ls -la\\n", "observation": "a.py", "thought": "look"}, "x.traj").calls
    [{'name': 'bash', 'args': {'command': 'ls -la\\n'}, 'id': None}]
    """
    if "action" not in record or "observation" not in record or "source" in record:
        return None
    action = record["action"]
    if action is None or action == "":
        return Message()
    if not isinstance(action, str):
        raise TraceError(f"{where}: a SWE-agent step's 'action' must be the command string, got "
                         f"{type(action).__name__}")
    return Message([{"name": "bash", "args": {"command": action}, "id": None}])


SWE_AGENT = Format("swe-agent", read_step, call_keys=("action",), distinctive=True)
