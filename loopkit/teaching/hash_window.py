"""The hash layer's sliding window, turn by turn: which batches it holds, and how often the repeated one is among
them (chapter 05's window figure and timeline, and the window view). This module is the workbook's own aid.

At the pinned commit ``f1f4af99`` the hash layer keeps, per thread, the fingerprints of the last ``window_size``
batches, and compares one number with its thresholds: how many of them equal the batch just made. A picture that
plots each turn's *own* count zig-zags (an edit between two test runs has a count of 1), so the pictures here follow
one fingerprint, the *repeated* one, and give its count after every turn, whatever that turn did. The counts are read
from the detector's own state after each batch, not recomputed.

A real run ends at its first stop, so a snapshot holds the batches up to it; :attr:`WindowSnapshot.later` says how
many batches of the trace came after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loopkit.core.checks import require_instance, require_int
from loopkit.core.detector import DetectorConfig
from loopkit.core.middleware import PinnedMiddleware
from loopkit.traces.replay import replay_batches

from .patterns import as_batches

__all__ = ["Turn", "WindowSnapshot", "counts_in_window", "followed_fingerprints", "edit_test_cycle", "snapshot"]


def counts_in_window(fingerprints: Sequence[str | None], followed: str, window_size: int) -> list[int]:
    """After each batch, how many of the last ``window_size`` batches have the fingerprint ``followed``.

    A batch without a fingerprint (``None``: it made no call) never enters the window.

    >>> counts_in_window(["t", "e1", "t", "e2", "t"], "t", window_size=20)
    [1, 1, 2, 2, 3]
    >>> counts_in_window(["t", "e1", "e2", "t"], "t", window_size=3)
    [1, 1, 1, 1]
    """
    require_int("window_size", window_size)
    window: list[str] = []
    counts = []
    for fingerprint in fingerprints:
        if fingerprint is not None:
            window = (window + [fingerprint])[-window_size:]
        counts.append(window.count(followed))
    return counts


def followed_fingerprints(fingerprints: Sequence[str | None], hash_decisions: Sequence[str | None], *,
                          most: int = 3) -> list[str]:
    """The fingerprints a picture follows, at most ``most``: those the hash layer warned or stopped on, in the order
    of their first decision (``hash_decisions`` holds, per batch, the fingerprint the hash layer decided on, or
    ``None``); without any, the one that came back most often in the whole trace (the first seen, on a tie).

    >>> followed_fingerprints(["e1", "t", "e2", "t", "t"], [None, None, None, None, "t"])
    ['t']
    >>> followed_fingerprints(["a", "b", "b"], [None, None, None])
    ['b']
    """
    require_int("most", most)
    chosen: list[str] = []
    for fingerprint in hash_decisions:
        if fingerprint is not None and fingerprint not in chosen:
            chosen.append(fingerprint)
    if chosen:
        return chosen[:most]
    seen = [f for f in fingerprints if f is not None]
    if not seen:
        return []
    return [max(dict.fromkeys(seen), key=seen.count)]   # dict.fromkeys keeps first-seen order for the tie


def edit_test_cycle(every: int, turns: int, *, command: str = "pytest tests/test_dates.py") -> list[list[dict]]:
    """A trace of ``turns`` batches: the same test run on turn 1 and every ``every``-th turn after it, and a
    different edit on every other turn (each edit a new fingerprint, so only the test run repeats).

    >>> [batch[0]["name"] for batch in edit_test_cycle(every=3, turns=5)]
    ['bash', 'str_replace', 'str_replace', 'bash', 'str_replace']
    """
    require_int("every", every)
    require_int("turns", turns)
    test_run = [{"name": "bash", "args": {"command": command}}]
    trace = []
    for turn in range(1, turns + 1):
        if (turn - 1) % every == 0:
            trace.append(test_run)
        else:
            trace.append([{"name": "str_replace", "args": {"path": "src/dates.py", "old_str": f"attempt {turn - 1}",
                                                          "new_str": f"attempt {turn}"}}])
    return trace


@dataclass(frozen=True)
class Turn:
    """One turn of a snapshot: its batch's fingerprint and tools, whether that batch is in the hash window after the
    snapshot's turn, whether it is the repeated batch, and, for a repeat inside the window, its number among them
    (1 for the oldest), which is how the count is made."""

    turn: int
    fingerprint: str | None
    tools: str
    action: str
    in_window: bool
    repeat: bool
    occurrence: int | None


@dataclass(frozen=True)
class WindowSnapshot:
    """The hash window after one turn of a trace, as the window figure and view draw it.

    ``turns`` are the trace's batches up to its first stop (or all of them); ``window`` the first and last turn the
    window holds after ``turn``; ``count`` the repeated fingerprint's count there, as the detector keeps it; ``counts``
    that count after every turn; ``stopped_at`` the first stop (or ``None``) and ``later`` the batches of the trace
    after it, which a real run never makes.
    """

    label: str
    turn: int
    turns: tuple[Turn, ...]
    fingerprint: str | None
    tools: str
    window: tuple[int, int]
    count: int
    counts: tuple[int, ...]
    action: str
    warn_threshold: int
    hard_limit: int
    window_size: int
    stopped_at: int | None
    later: int

    @property
    def hits(self) -> list[int]:
        """Every drawn turn whose batch is the repeated one, in or out of the window."""
        return [t.turn for t in self.turns if t.repeat]

    @property
    def in_window(self) -> list[int]:
        """The turns of the repeated batch that the window holds after :attr:`turn`: :attr:`count` of them."""
        return [t.turn for t in self.turns if t.repeat and t.in_window]


def snapshot(batches, turn: int | None = None, config: DetectorConfig | None = None, *,
             label: str = "") -> WindowSnapshot:
    """Replay ``batches`` through a fresh pinned middleware, up to the first stop, and take the hash window after
    ``turn`` (the last turn replayed when ``None``).

    >>> s = snapshot(edit_test_cycle(every=5, turns=25), turn=21)
    >>> s.window, s.hits, s.in_window, s.count, s.stopped_at
    ((2, 21), [1, 6, 11, 16, 21], [6, 11, 16, 21], 4, None)
    """
    require_instance("config", config, DetectorConfig, or_none=True)
    config = config if config is not None else DetectorConfig()
    trace = as_batches(batches)
    steps = list(replay_batches(trace, PinnedMiddleware(config), with_state=True, until_stop=True))
    if not steps:
        raise ValueError("batches must hold at least one batch")
    last = len(steps)
    turn = last if turn is None else require_int("turn", turn, at_most=last)
    fingerprints = [step.decision.fingerprint for step in steps]
    decided = [step.decision.fingerprint if step.decision.layer == "hash" else None for step in steps]
    followed = followed_fingerprints(fingerprints, decided, most=1)
    repeated = followed[0] if followed else None
    counts = tuple((step.state or {}).get("hash_counts", {}).get(repeated, 0) for step in steps)
    # The window after ``turn`` holds the last ``window_size`` batches that had a fingerprint.
    keyed = [step.step for step in steps[:turn] if step.decision.fingerprint is not None]
    held = set(keyed[-config.window_size:])
    first = min(held) if held else turn
    rows, occurrence = [], 0
    for step in steps:
        digest = step.decision.fingerprint
        is_repeat = repeated is not None and digest == repeated
        in_window = step.step in held
        occurrence += is_repeat and in_window
        rows.append(Turn(step.step, digest, ", ".join(str(c.get("name", "")) for c in step.calls),
                         step.decision.action, in_window, is_repeat,
                         occurrence if is_repeat and in_window else None))
    stop = next((step.step for step in steps if step.decision.action == "stop"), None)
    repeated_tools = next((row.tools for row in rows if row.repeat), "")
    return WindowSnapshot(label, turn, tuple(rows), repeated, repeated_tools, (first, turn), counts[turn - 1], counts,
                          steps[turn - 1].decision.action, config.warn_threshold, config.hard_limit,
                          config.window_size, stop, len(trace) - last)
