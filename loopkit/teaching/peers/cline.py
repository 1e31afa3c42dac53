"""Cline's repeated tool call check, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from loopkit.core.language import N_

from .model import PeerModel, is_message, sorted_key

__all__ = ["Cline"]


class Cline(PeerModel):
    """Cline at 21cb8d25 (its main branch): identical tool calls in a row; a warning at the 3rd, an escalation at the
    5th.

    Checked in ``sdk/packages/core/src/runtime/safety/loop-detection.ts`` at the pinned commit, where the VS Code
    extension's tasks run since Cline moved onto its SDK (``apps/vscode/src/sdk/cline-session-factory.ts``): a call
    is its tool name plus its input as JSON with the keys sorted at every level; the soft threshold 3 appends a
    notice to the conversation, and from the hard threshold 5 on a call forces the consecutive-mistake limit, whose
    decision ends the run or asks the user (a stop here; ``session-runtime-orchestrator.ts``,
    ``inspectLoopForToolCall``). Every parameter counts: the older extension code (``src/core/task/loop-detection.ts``,
    PR #9933, removed from main in 94f5a47a) left out ``task_progress``, and the SDK's check does not.

    Left out: the wording of the notice, what the limit's decision asks, and ``execution.loopDetection``, which can
    set other thresholds or turn the check off.

    >>> grep = {"name": "search_files", "args": {"regex": "TODO"}}
    >>> Cline().run([[grep]] * 6)
    Outcome(detector='Cline', warn_step=3, stop_step=5)
    """

    name = "Cline"
    repo = "cline/cline"
    commit = "21cb8d2525bcedf1f4b6890b27a74a14fe7451e4"
    path = "sdk/packages/core/src/runtime/safety/loop-detection.ts"
    english_rule = N_("identical calls in a row (name + input with its keys sorted): a warning at the 3rd, an "
                      "escalation at the 5th")
    soft, hard = 3, 5

    def _start(self):
        return {"previous": None, "run": 0}

    def _feed(self, state, entry):
        if is_message(entry):
            return None
        key = sorted_key(entry)
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] >= self.hard:
            return "stop"
        return "warn" if state["run"] == self.soft else None
