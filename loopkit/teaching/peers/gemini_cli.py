"""Gemini CLI's loop detection, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

import hashlib

from loopkit.core.language import N_

from .model import PeerModel, is_message, ordered_key

__all__ = ["GeminiCLI", "repeated_cycle"]


def repeated_cycle(keys: list[str], repetitions: int, longest: int) -> int | None:
    """The length of the shortest cycle, 1 to ``longest`` calls, that the last ``keys`` repeat ``repetitions`` times
    in a row, or ``None``. A cycle of length k repeats when each of the last k × ``repetitions`` keys equals the key k
    places before it.

    >>> repeated_cycle(list("xababababab"), repetitions=5, longest=5), repeated_cycle(list("ababababa"), 5, 5)
    (2, None)
    """
    for length in range(1, longest + 1):
        span = length * repetitions
        if len(keys) >= span and all(keys[-i] == keys[-i - length] for i in range(1, span - length + 1)):
            return length
    return None


class GeminiCLI(PeerModel):
    """Gemini CLI at 5411f113 (its main branch): the 5th repetition in a row of a cycle of 1 to 5 calls is a
    detection; the first detection in a prompt gets feedback, the second halts.

    Checked in ``loopDetectionService.ts`` at the pinned commit (``checkToolCallLoop``, since PR #28429, commit
    acae7124): the key is the SHA-256 of the name and ``JSON.stringify`` of the arguments (key order counts); the
    service keeps the last 25 keys and, after each call, looks for a cycle of length k = 1 to 5 that the last 5k keys
    repeat 5 times (k = 1 is five identical calls in a row, k = 2 an alternation A, B over ten calls). The service
    counts detections per prompt, and clearing a detection so that a recovery turn can run keeps both that count and
    the keys, so the next call that continues the cycle is the second detection. ``packages/core/src/core/client.ts``
    at the same commit sends feedback to the model at the first detection and halts at the second. A detection cuts
    the model's response short, so the rest of that batch is not fed.

    Left out: the check for repeated text chunks in the model's prose, the LLM check (after 30 turns of one prompt),
    and the reset at each new user prompt (a trace here is one prompt). Before PR #28429 the service counted only
    identical calls in a row (k = 1).

    >>> call = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> GeminiCLI().run([call] * 12)
    Outcome(detector='Gemini CLI', warn_step=5, stop_step=6)
    """

    name = "Gemini CLI"
    repo = "google-gemini/gemini-cli"
    commit = "5411f113cafae26161b4969b0237b8e1e024e2c2"
    path = "packages/core/src/services/loopDetectionService.ts"
    english_rule = N_("5 repetitions in a row of a cycle of 1 to 5 calls (SHA-256 of name + JSON args, key order "
                      "counts) are a detection: the first in a prompt gets feedback, the second halts")
    repetitions = 5    # TOOL_CALL_LOOP_THRESHOLD
    longest_cycle = 5  # the cycle lengths tried, from 1

    def _start(self):
        return {"keys": [], "detections": 0}

    def _step(self, state, batch):
        for entry in batch:
            action = self._feed(state, entry)
            if action:
                return {action}  # a detection ends the model's response: the rest of the batch never arrives
        return set()

    def _feed(self, state, entry):
        if is_message(entry):
            return None
        key = hashlib.sha256(ordered_key(entry).encode()).hexdigest()
        state["keys"] = [*state["keys"], key][-self.repetitions * self.longest_cycle:]
        if repeated_cycle(state["keys"], self.repetitions, self.longest_cycle) is None:
            return None
        state["detections"] += 1
        return "warn" if state["detections"] == 1 else "stop"
