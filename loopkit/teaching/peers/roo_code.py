"""Roo Code's tool repetition detector, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from loopkit.core.language import N_

from .model import PeerModel, is_message, sorted_key

__all__ = ["RooCode"]


class RooCode(PeerModel):
    """Roo Code at 37479466: the 4th identical tool call in a row is blocked and the user is asked.

    Checked in ``ToolRepetitionDetector.ts`` at the pinned commit: a call is its name plus its parameters with the
    top-level keys sorted; the count of repeats starts at 0 for a new call and the limit is 3; a browser scroll is
    never counted. Blocking waits for a human, which this model counts as a stop.

    Left out: the browser-scroll exemption, the counter reset after a block (the replay ends there), and the
    ``nativeArgs`` that native tool calls add to the key.

    >>> ls = {"name": "list_files", "args": {"path": "."}}
    >>> RooCode().run([[ls]] * 6).stop_step
    4
    """

    name = "Roo Code"
    repo = "RooCodeInc/Roo-Code"
    commit = "37479466bc615057ee1865c395d00a3b5e0569a2"
    path = "src/core/tools/ToolRepetitionDetector.ts"
    english_rule = N_("blocks the 4th identical call in a row (name + key-sorted parameters) and asks the user")
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
