"""Roo Code's tool repetition detector, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from loopkit.core.language import N_

from .model import PeerModel, is_message, sorted_key

__all__ = ["RooCode"]


class RooCode(PeerModel):
    """Roo Code at cb836567 (its main branch): the 4th identical tool call in a row is blocked and the user is asked.

    Checked in ``ToolRepetitionDetector.ts`` at the pinned commit: a call is its name plus its parameters, serialized
    with ``safe-stable-stringify`` (keys sorted at every level); the count of repeats starts at 0 for a new call and
    the limit is the consecutive-mistake limit, 3 by default (``src/core/task/Task.ts``). Blocking waits for a human,
    which this model counts as a stop. The browser-scroll exemption of older versions went with the browser tool
    (commit 04ffb64b, PR #11475).

    Left out: the counter reset after a block (the replay ends there), and the ``nativeArgs`` that native tool calls
    add to the key.

    >>> ls = {"name": "list_files", "args": {"path": "."}}
    >>> RooCode().run([[ls]] * 6).stop_step
    4
    """

    name = "Roo Code"
    repo = "RooCodeInc/Roo-Code"
    commit = "cb836567180a3ff1da6d082f3178b90c3bd22a70"
    path = "src/core/tools/ToolRepetitionDetector.ts"
    english_rule = N_("blocks the 4th identical call in a row (name + parameters with their keys sorted) and asks the "
                      "user")
    limit = 3

    def _start(self):
        return {"previous": None, "repeats": 0}

    def _feed(self, state, entry):
        if is_message(entry):
            return None
        key = sorted_key(entry)
        if key == state["previous"]:
            state["repeats"] += 1
        else:
            state["previous"], state["repeats"] = key, 0
        return "stop" if state["repeats"] >= self.limit else None
