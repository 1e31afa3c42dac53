"""The evade-the-detector challenge (chapter 08): build a trace that truly loops, yet never trips DeerFlow.

"Truly loops" is decided by :func:`check_loop`, a checker that knows nothing about fingerprints. It replays the
trace against a tiny model of the workspace and calls a step *wasted* when every call in it learns or changes
nothing new:

- a ``read_file`` whose lines were all read already since the file last changed (paths are normalized, so
  ``./src/a.py`` is ``src/a.py``; no ``end_line`` means the whole file);
- a ``write_file`` of the content the file already has; a ``str_replace`` that changes nothing or repeats an edit
  already made since the last full write (undoing and redoing an edit is going in circles);
- a ``web_search`` or fetch of a query or URL already looked up (case and spacing do not matter);
- any other command (``bash``, ``grep``, ``ls``...) run again with the same meaning (quoting and spacing do not
  matter) while no file has changed since it last ran. Re-running a test after an edit is progress.

The checker is deliberately conservative: when in doubt, a step counts as progress. A trace *loops* when at least
:data:`MIN_WASTED` of its steps, and at least half of them, are wasted. :func:`score` then replays it through
DeerFlow's detector and the peer models: you win when the trace loops and DeerFlow never warns or stops, and you
score the wasted steps.
"""

from __future__ import annotations

import math
import posixpath
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .detector import DetectorConfig
from .normalize import canonical_json, normalize_args
from .peers import PEERS, DeerFlow, PeerResult, _checked

__all__ = ["MIN_WASTED", "MAX_STEPS", "MAX_CALLS", "LoopCheck", "ChallengeScore", "check_loop", "score"]

#: A trace loops when at least this many steps (and at least half of all steps) are wasted.
MIN_WASTED = 10
#: Limits that keep the challenge about cleverness, not size.
MAX_STEPS = 200
MAX_CALLS = 10

_EXTERNAL = ("query", "url")  # lookups of the outside world: a repeat is waste whatever changed locally
_COMMANDS = ("command", "cmd")
_PATHS = ("path", "pattern", "glob")


def _path(value: Any) -> str:
    text = str(value).replace("\\", "/").strip()
    return posixpath.normpath(text) if text else ""


def _command(value: Any) -> str:
    text = str(value)
    try:
        return " ".join(shlex.split(text))
    except ValueError:  # unbalanced quotes: compare by words
        return " ".join(text.split())


def _lookup(value: Any) -> str:
    return " ".join(str(value).split()).casefold().rstrip("/")


def _line(value: Any, default: float) -> float:
    if value is None:
        return default
    try:
        return max(int(value), 1)
    except (TypeError, ValueError, OverflowError):
        return default


class _Workspace:
    """What the agent has learned and changed so far."""

    def __init__(self) -> None:
        self.version = 0  # bumps on every real change to any file
        self.read: dict[str, list[tuple[float, float]]] = {}  # path -> line ranges read since it last changed
        self.content: dict[str, str] = {}  # path -> content of its last full write
        self.edits: dict[str, set] = {}  # path -> str_replace edits made since its last full write
        self.ran: dict[str, int] = {}  # command key -> workspace version when it last ran
        self.looked_up: set[str] = set()

    def _changed(self, path: str) -> None:
        self.version += 1
        self.read.pop(path, None)

    def call(self, call: Mapping) -> tuple[bool, str]:
        """Apply one call; return ``(wasted, why)``."""
        name = str(call.get("name", ""))
        args, fallback = normalize_args(call.get("args"))
        if fallback is not None:
            args = {"raw": fallback}
        if name == "read_file":
            path = _path(args.get("path", ""))
            lo = _line(args.get("start_line"), 1)
            hi = _line(args.get("end_line"), math.inf)
            lo, hi = min(lo, hi), max(lo, hi)
            ranges = self.read.setdefault(path, [])
            if _covered(ranges, lo, hi):
                return True, f"lines {_span(lo, hi)} of {path} were already read"
            ranges.append((lo, hi))
            return False, f"new lines {_span(lo, hi)} of {path}"
        if name == "write_file":
            path, content = _path(args.get("path", "")), canonical_json(args.get("content"))
            if self.content.get(path) == content and not self.edits.get(path):
                return True, f"{path} already has this content"
            self.content[path], self.edits[path] = content, set()
            self._changed(path)
            return False, f"wrote {path}"
        if name == "str_replace":
            path = _path(args.get("path", ""))
            edit = (canonical_json(args.get("old_str")), canonical_json(args.get("new_str")))
            if edit[0] == edit[1]:
                return True, f"the edit of {path} changes nothing"
            done = self.edits.setdefault(path, set())
            if edit in done:
                return True, f"this edit of {path} was already made"
            done.add(edit)
            self._changed(path)
            return False, f"edited {path}"
        for field in _EXTERNAL:
            if args.get(field) is not None:
                key = f"{name}:{field}:{_lookup(args[field])}"
                if key in self.looked_up:
                    return True, f"{name} {args[field]!r} was already looked up"
                self.looked_up.add(key)
                return False, f"new {name} lookup"
        key = _command_key(name, args)
        before = self.ran.get(key)
        if before == self.version:
            return True, f"{name} ran with the same meaning and nothing changed since"
        self.ran[key] = self.version
        return False, f"ran {name}" + (" again after a change" if before is not None else "")


def _command_key(name: str, args: dict) -> str:
    parts = {}
    for field, value in args.items():
        if value is None:
            continue
        if field in _COMMANDS:
            parts[field] = _command(value)
        elif field in _PATHS:
            parts[field] = _path(value)
        else:
            parts[field] = value
    return f"{name}:{canonical_json(parts)}"


def _covered(ranges: list, lo: float, hi: float) -> bool:
    """Whether ``ranges`` (possibly overlapping; ``inf`` ends mean "to the end") cover every line ``lo``-``hi``."""
    reach = lo  # the first line not yet known to be covered
    for start, end in sorted(ranges):
        if start > reach:
            break
        reach = max(reach, end + 1)
    return reach > hi or reach == math.inf


def _span(lo: float, hi: float) -> str:
    return f"{lo}-{'end' if hi == math.inf else hi}"


@dataclass(frozen=True)
class LoopCheck:
    """The checker's verdict: how many steps were wasted, whether that makes a loop, and why, step by step."""

    loops: bool
    wasted: int
    steps: int
    reasons: tuple  # (step, wasted, why) per step

    def __str__(self) -> str:
        verdict = "it truly loops" if self.loops else "not a loop"
        need = max(MIN_WASTED, (self.steps + 1) // 2)
        extra = "" if self.loops else f" (a loop needs at least {need} wasted steps)"
        return f"{self.steps} steps, {self.wasted} wasted: {verdict}{extra}."


def check_loop(batches: Any) -> LoopCheck:
    """Decide whether a trace truly loops: count the steps whose every call learns or changes nothing new.

    >>> run_tests = [{"name": "bash", "args": {"command": "pytest -x"}}]
    >>> print(check_loop([run_tests] * 12))
    12 steps, 11 wasted: it truly loops.
    >>> print(check_loop([[{"name": "read_file", "args": {"path": f"f{i}.py"}}] for i in range(12)]))
    12 steps, 0 wasted: not a loop (a loop needs at least 10 wasted steps).
    """
    batches = _checked(batches)
    if not batches:
        raise ValueError("batches is empty: the challenge needs at least one step")
    if len(batches) > MAX_STEPS:
        raise ValueError(f"batches has {len(batches)} steps; the challenge allows at most {MAX_STEPS}")
    world = _Workspace()
    reasons = []
    for step, batch in enumerate(batches, 1):
        if not 1 <= len(batch) <= MAX_CALLS:
            raise ValueError(f"batch {step} has {len(batch)} calls; each step needs 1 to {MAX_CALLS} tool calls")
        for k, call in enumerate(batch):
            if not isinstance(call.get("name"), str) or not call.get("name"):
                raise ValueError(f"batch {step}, call {k} needs a non-empty string 'name'")
        results = [world.call(call) for call in batch]
        wasted = all(w for w, _ in results)
        why = "; ".join(text for w, text in results if w == wasted)
        reasons.append((step, wasted, why))
    count = sum(1 for _, w, _ in reasons if w)
    loops = count >= MIN_WASTED and 2 * count >= len(batches)
    return LoopCheck(loops, count, len(batches), tuple(reasons))


@dataclass(frozen=True)
class ChallengeScore:
    """The result of :func:`score`: the checker's verdict, DeerFlow's, and which peers would have caught it."""

    check: LoopCheck
    deerflow: PeerResult
    peers: tuple  # PeerResult per peer model

    @property
    def evaded(self) -> bool:
        """True when the trace loops and DeerFlow neither warned nor stopped."""
        return self.check.loops and self.deerflow.outcome == "none"

    @property
    def points(self) -> int:
        """The wasted steps, if the trace evaded DeerFlow; else 0."""
        return self.check.wasted if self.evaded else 0

    @property
    def caught_by(self) -> tuple:
        """Names of the peer models that warned or stopped."""
        return tuple(p.detector for p in self.peers if p.outcome != "none")

    def __str__(self) -> str:
        lines = [f"Checker: {self.check}"]
        d = self.deerflow
        if d.outcome == "none":
            lines.append("DeerFlow: never warned, never stopped.")
        else:
            acted = ", ".join(f"{k} at step {s}" for k, s in (("warned", d.warn_step), ("stopped", d.stop_step)) if s)
            lines.append(f"DeerFlow: {acted}.")
        if self.evaded:
            lines.append(f"You evaded DeerFlow's detector. Score: {self.points} wasted steps.")
        elif self.check.loops:
            lines.append("DeerFlow caught it. Score: 0.")
        else:
            lines.append("The checker does not call this a loop, so there is nothing to evade. Score: 0.")
        caught = [f"{p.detector} ({p.outcome} at step {p.stop_step or p.warn_step})"
                  for p in self.peers if p.outcome != "none"]
        lines.append("Peers that would have caught it: " + (", ".join(caught) if caught else "none") + ".")
        return "\n".join(lines)


def score(batches: Any, config: DetectorConfig | None = None) -> ChallengeScore:
    """Score a challenge entry: does it truly loop, does DeerFlow (with ``config``) miss it, who else catches it?

    >>> print(score([[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12))
    Checker: 12 steps, 11 wasted: it truly loops.
    DeerFlow: warned at step 3, stopped at step 5.
    DeerFlow caught it. Score: 0.
    Peers that would have caught it: Gemini CLI (stop at step 10), OpenHands (stop at step 4), Roo Code (stop at step 4), Cline (stop at step 5), OpenCode (stop at step 3).
    """
    batches = _checked(batches)  # read a one-shot iterable once: the checker and every detector see the same steps
    check = check_loop(batches)
    return ChallengeScore(check, DeerFlow(config).run(batches), tuple(peer.run(batches) for peer in PEERS))
