"""The evade-the-detector challenge (chapter 10): build a trace that truly loops, yet never trips DeerFlow.

Whether a trace truly loops is decided by :func:`~loopkit.teaching.loop_checker.check_loop`, a checker that knows nothing
about fingerprints (:mod:`loopkit.teaching.loop_checker`). :func:`score` then replays the trace through DeerFlow's detector
and the peer models: you win when the trace loops and DeerFlow never warns or stops, and you score the wasted
steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.detector import DetectorConfig, Outcome
from loopkit.core.language import tr

from .loop_checker import MAX_CALLS, MAX_STEPS, MIN_WASTED, LoopCheck, check_loop
from .peers import PEERS, DeerFlow

__all__ = ["MIN_WASTED", "MAX_STEPS", "MAX_CALLS", "LoopCheck", "ChallengeScore", "check_loop", "score"]


@dataclass(frozen=True)
class ChallengeScore:
    """The result of :func:`score`: the checker's verdict, DeerFlow's, and which peers would have caught it."""

    check: LoopCheck
    deerflow: Outcome
    peers: tuple  # an Outcome per peer model

    @property
    def evaded(self) -> bool:
        """True when the trace loops and DeerFlow neither warned nor stopped."""
        return self.check.loops and self.deerflow.action == "ok"

    @property
    def points(self) -> int:
        """The wasted steps, if the trace evaded DeerFlow; else 0."""
        return self.check.wasted if self.evaded else 0

    def __str__(self) -> str:
        lines = [tr("Checker: {check}", check=self.check)]
        d = self.deerflow
        if d.action == "ok":
            lines.append(tr("DeerFlow: never warned, never stopped."))
        else:
            acted = []
            if d.warn_step:
                acted.append(tr("warned at step {step}", step=d.warn_step))
            if d.stop_step:
                acted.append(tr("stopped at step {step}", step=d.stop_step))
            lines.append(tr("DeerFlow: {acted}.", acted=", ".join(acted)))
        if self.evaded:
            lines.append(tr("You evaded DeerFlow's detector. Score: {points} wasted steps.", points=self.points))
        elif self.check.loops:
            lines.append(tr("DeerFlow caught it. Score: 0."))
        else:
            lines.append(tr("The checker does not call this a loop, so there is nothing to evade. Score: 0."))
        caught = [tr("{detector} ({action} at step {step})", detector=p.detector, action=p.action,
                     step=p.stop_step or p.warn_step) for p in self.peers if p.action != "ok"]
        if caught:
            lines.append(tr("Peers that would have caught it: {peers}.", peers=", ".join(caught)))
        else:
            lines.append(tr("Peers that would have caught it: none."))
        return "\n".join(lines)


def score(batches: Any, config: DetectorConfig | None = None) -> ChallengeScore:
    """Score a challenge entry: does it truly loop, does DeerFlow (with ``config``) miss it, who else catches it?

    >>> print(score([[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12))
    Checker: 12 steps, 11 wasted: it truly loops.
    DeerFlow: warned at step 3, stopped at step 5.
    DeerFlow caught it. Score: 0.
    Peers that would have caught it: Gemini CLI (stop at step 6), OpenHands (stop at step 4), Roo Code (stop at step 4), Cline (stop at step 5).
    """
    batches = check_batches(batches)  # read a one-shot iterable once: the checker and every detector see the same steps
    check = check_loop(batches)
    return ChallengeScore(check, DeerFlow(config).run(batches), tuple(peer.run(batches) for peer in PEERS))
