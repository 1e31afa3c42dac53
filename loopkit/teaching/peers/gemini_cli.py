"""Gemini CLI's loop detection, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

import hashlib

from loopkit.core.language import N_

from .model import PeerModel, is_message, ordered_key

__all__ = ["GeminiCLI"]


class GeminiCLI(PeerModel):
    """Gemini CLI at 022f913d: the 5th identical tool call in a row is a detection; the first detection in a prompt
    gets feedback, the second halts.

    Checked in ``loopDetectionService.ts`` at the pinned commit: the key is the SHA-256 of the name and
    ``JSON.stringify`` of the arguments (key order counts); a different call restarts the count at 1. The service
    counts detections per prompt and clearing a detection (so a recovery turn can run) keeps both that count and the
    repeat count, so the next identical call is the second detection. What the client does with the first and the
    second detection (feedback, then a halt) lives in ``packages/core/src/core/client.ts``, which the index does not
    hold at this commit; this model follows the service's count. A detection cuts the model's response short, so
    the rest of that batch is not fed.

    Left out: the check for repeated text chunks in the model's prose, the LLM check (after 30 turns of one prompt),
    and the reset at each new user prompt (a trace here is one prompt). The older stored version, 6f72e5b6, has the
    same repeat count but no detection count: its first detection halts. No stored version of the official
    repository has a search for cycles of several calls.

    >>> call = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> GeminiCLI().run([call] * 12)
    Outcome(detector='Gemini CLI', warn_step=5, stop_step=6)
    """

    name = "Gemini CLI"
    repo = "google-gemini/gemini-cli"
    commit = "022f913dc748df9dbc4d88c6555fe475606cb379"
    path = "packages/core/src/services/loopDetectionService.ts"
    english_rule = N_("the 5th identical call in a row (SHA-256 of name + JSON args, key order counts) is a detection: "
                      "the first in a prompt gets feedback, the second halts")
    threshold = 5

    def _start(self):
        return {"previous": None, "run": 0, "detections": 0}

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
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] < self.threshold:
            return None
        state["detections"] += 1
        return "warn" if state["detections"] == 1 else "stop"
