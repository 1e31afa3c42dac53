"""Cline's repeated tool call check, modelled (a simplified teaching model, not the real implementation)."""

from __future__ import annotations

from collections.abc import Mapping

from loopkit.core.language import N_

from .model import PeerModel, args_value, is_message, sorted_key

__all__ = ["Cline"]


class Cline(PeerModel):
    """Cline at 60c5f9f2: identical tool calls in a row; a warning at the 3rd, an escalation at the 5th.

    Checked in ``src/core/task/loop-detection.ts`` at the pinned commit: a call is its tool name plus its parameters
    with sorted keys, leaving out ``task_progress`` (a checklist that changes every turn); the soft threshold 3
    warns the model, the hard threshold 5 escalates to the user or fails the task (a stop here).

    Left out: how the tool executor words the warning and the escalation.

    >>> grep = {"name": "search_files", "args": {"regex": "TODO"}}
    >>> Cline().run([[grep]] * 6)
    Outcome(detector='Cline', warn_step=3, stop_step=5)
    """

    name = "Cline"
    repo = "cline/cline"
    commit = "60c5f9f299fe3a2eca7d4b8e46643dd26361f1d8"
    path = "src/core/task/loop-detection.ts"
    english_rule = N_("identical calls in a row (name + key-sorted parameters, task_progress ignored): a warning at "
                      "the 3rd, an escalation at the 5th")
    soft, hard = 3, 5
    ignored = ("task_progress",)

    def _start(self):
        return {"previous": None, "run": 0}

    def _feed(self, state, entry):
        if is_message(entry):
            return None
        args = args_value(entry.get("args"))
        if isinstance(args, Mapping):
            args = {k: v for k, v in args.items() if k not in self.ignored}
        key = sorted_key({"name": entry.get("name"), "args": args})
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] >= self.hard:
            return "stop"
        return "warn" if state["run"] == self.soft else None
