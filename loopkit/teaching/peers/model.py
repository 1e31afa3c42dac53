"""What every peer model shares: the base class :class:`PeerModel`, fed one call at a time, and the keys the peers
compare calls by (name plus JSON arguments, in the order sent or with sorted keys)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.detector import Outcome
from loopkit.core.language import tr
from loopkit.core.normalize import display_json, normalize_args

__all__ = ["PeerModel", "SIMPLIFIED", "ordered_key", "sorted_key", "args_value", "is_message"]

#: The label every peer model carries.
SIMPLIFIED = "simplified model of the pinned source, not the real implementation"


# -- keys: what each system compares --------------------------------------------------------------------------


def args_value(raw: Any) -> Any:
    """Arguments as the JSON value they stand for: a dict as sent (its key order kept), else the fallback text."""
    args, fallback = normalize_args(raw)
    return args if fallback is None else fallback


def ordered_key(call: Mapping) -> str:
    """Name plus JSON arguments in the order they were sent: ``{"a":1,"b":2}`` and ``{"b":2,"a":1}`` differ."""
    return f"{call.get('name', '')}:{display_json(args_value(call.get('args')), sort_keys=False)}"


def sorted_key(call: Mapping) -> str:
    """Name plus JSON arguments with sorted keys: key order does not matter."""
    return f"{call.get('name', '')}:{display_json(args_value(call.get('args')), sort_keys=True)}"


def is_message(entry: Mapping) -> bool:
    """An agent message with no tool call (``{"message": text}``), which only the OpenHands model reads."""
    return "message" in entry and not entry.get("name")


# -- the models -------------------------------------------------------------------------------------------------


class PeerModel:
    """A detector model: fresh state per trace, fed one call at a time.

    Subclasses set ``name``, ``repo``, ``commit`` (all 40 hex digits), ``path`` and ``english_rule`` (one sentence,
    read in ``path`` at ``commit``; :attr:`rule` says it in the learner's language) and implement ``_start()``
    (fresh state) and ``_feed(state, entry)`` returning ``None``, ``"warn"`` or ``"stop"``.
    """

    name = "?"
    repo = ""
    commit = ""
    path = ""
    english_rule = ""
    note = SIMPLIFIED

    @property
    def rule(self) -> str:
        """The rule in one sentence, in the language loopkit speaks (:mod:`loopkit.core.language`)."""
        return tr(self.english_rule)

    @property
    def source(self) -> str:
        """Where a reader checks the rule: ``repo@commit:path`` with the commit cut to 8 digits for printing."""
        return f"{self.repo}@{self.commit[:8]}:{self.path}"

    def run(self, batches: Sequence[Sequence[Mapping]]) -> Outcome:
        """Replay ``batches`` and return the first warn and stop steps (steps count batches from 1)."""
        state = self._start()
        warn = None
        for step, batch in enumerate(check_batches(batches), 1):
            actions = self._step(state, batch)
            if "warn" in actions and warn is None:
                warn = step
            if "stop" in actions:
                return Outcome(self.name, warn, step)
        return Outcome(self.name, warn, None)

    def _step(self, state: Any, batch: list) -> set:
        """What the model did over one batch, its calls fed one at a time in model order; a stop ends the batch."""
        acted = set()
        for entry in batch:
            action = self._feed(state, entry)
            if action:
                acted.add(action)
            if action == "stop":
                break
        return acted

    def _start(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _feed(self, state: Any, entry: Mapping) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{self.name}: {self.note}>"
