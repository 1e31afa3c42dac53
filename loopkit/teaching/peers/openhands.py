"""OpenHands' stuck detector, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from loopkit.core.language import N_
from loopkit.core.normalize import display_json

from .model import PeerModel, is_message, sorted_key

__all__ = ["OpenHands"]


class OpenHands(PeerModel):
    """OpenHands at d6fab190 (its main branch): the legacy (V0) stuck detector; any of its conditions halts the agent.

    Checked in ``stuck.py`` at the pinned commit, four conditions modelled: the last 4 actions and the last 4
    observations each all equal; the last 3 actions equal and each answered by an error; the last 3 agent messages
    equal with no observation between; the last 6 steps alternating two (action, observation) pairs. A shell
    command's observation counts as equal when its command and exit code are (its output is not compared).

    Left out: the syntax-error variants for IPython cells, the loop of context-window condensation, the interactive
    mode that only looks after the last user message, and what the controller does when the agent is stuck (this
    model counts it as a stop). OpenHands' newer V1 agent lives in its software-agent-sdk, which this model does not
    cover. A trace without observations leaves them unknown,
    and unknown observations compare equal. Actions compare by name and key-sorted arguments.

    >>> read = {"name": "read_file", "args": {"path": "a.py"}}
    >>> OpenHands().run([[read]] * 5).stop_step
    4
    """

    name = "OpenHands"
    repo = "OpenHands/OpenHands"
    commit = "d6fab190bfb55f07cc380993b45ec4f781706a92"
    path = "openhands/controller/stuck.py"
    english_rule = N_("stuck when 4 (action, observation) pairs repeat, 3 equal actions all error, 3 equal agent "
                      "messages have no observation between, or 2 pairs alternate over 6 steps; a command's "
                      "observation is its exit code")

    def _start(self):
        return deque(maxlen=6)

    def _feed(self, events, entry):
        if is_message(entry):
            events.append(("message", str(entry.get("message")), None, False))
        else:
            events.append(("call", sorted_key(entry), _observed(entry), bool(entry.get("error"))))
        return "stop" if self._stuck(list(events)) else None

    @staticmethod
    def _stuck(events: list) -> bool:
        last4, last3, last6 = events[-4:], events[-3:], events[-6:]
        if len(last4) == 4 and all(e[0] == "call" for e in last4) and len({e[1:3] for e in last4}) == 1:
            return True
        if len(last3) == 3 and all(e[0] == "call" and e[3] for e in last3) and len({e[1] for e in last3}) == 1:
            return True
        if len(last3) == 3 and all(e[0] == "message" for e in last3) and len({e[1] for e in last3}) == 1:
            return True
        if len(last6) == 6 and all(e[0] == "call" for e in last6):
            a, b = last6[-1][1:3], last6[-2][1:3]
            if all(e[1:3] == (a if k % 2 else b) for k, e in enumerate(last6)):
                return True
        return False


def _observed(call: Mapping) -> Any:
    """What OpenHands compares of a call's result: the exit code of a command, else the observation (None if absent).

    stuck.py at d6fab190 compares two command outputs by command and exit code only, so a poll whose output changes
    but whose exit code does not still repeats.
    """
    if "exit_code" in call:
        return ("exit code", call["exit_code"])
    observation = call.get("observation", call.get("result"))
    return None if observation is None else display_json(observation, sort_keys=True)
