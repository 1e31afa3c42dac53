"""OpenCode's doom-loop check, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from collections import deque

from loopkit.core.language import N_

from .model import PeerModel, is_message, ordered_key

__all__ = ["OpenCode"]


class OpenCode(PeerModel):
    """OpenCode at 9c094ad5: three identical calls in a row *within one model response* ask a human (doom loop).

    Checked in ``packages/opencode/src/session/processor.ts`` at the pinned commit: at each tool call it looks at
    the last 3 parts of the current assistant message; all 3 must be calls of the same tool with the same
    ``JSON.stringify`` input (key order counts). Each model step adds a step-start and a step-finish part to the
    message, so calls from different responses are never 3 parts in a row: a repeat across turns is not seen.

    Unlike the other peers, this commit could not be checked against the project's default branch: no snapshot of
    the repository could be read for it (``tests/data/peer-pins.json`` says why).

    Left out: the ``doom_loop`` permission rules (an agent may allow or deny instead of asking; this model counts
    the question as a stop) and text parts between calls of one response.

    >>> a = {"name": "bash", "args": '{"command": "make", "cwd": "."}'}
    >>> b = {"name": "bash", "args": '{"cwd": ".", "command": "make"}'}
    >>> OpenCode().run([[a, a, a]]).stop_step, OpenCode().run([[a, b, a]]).stop_step, OpenCode().run([[a]] * 9)
    (1, None, Outcome(detector='OpenCode', warn_step=None, stop_step=None))
    """

    name = "OpenCode"
    repo = "sst/opencode"
    commit = "9c094ad5581ded82524853d0b1f0881ab8964a21"
    path = "packages/opencode/src/session/processor.ts"
    english_rule = N_("3 identical calls in a row within one model response (same tool, same JSON input, key order "
                      "counts) ask a human")
    threshold = 3

    def _start(self):
        return None  # nothing outlives a response

    def _step(self, state, batch):
        last = deque(maxlen=self.threshold)  # the parts of this response only
        for entry in batch:
            if is_message(entry):
                continue
            last.append(ordered_key(entry))
            if len(last) == self.threshold and len(set(last)) == 1:
                return {"stop"}
        return set()
