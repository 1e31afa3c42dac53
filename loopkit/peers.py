"""How other open-source agents notice loops: small teaching models of their detectors (chapter 09).

Every model here is a **simplified model from public behaviour, not the real implementation**. Each keeps only
what its system compares and when it acts, as the table in chapter 09 states it; prompts, UI, configuration and
recovery are left out. They all take the same batches the DeerFlow detector takes, look at the calls one at a
time in model order, and report the first step (batch, counted from 1) at which they would *warn* (tell the model)
and at which they would *stop* (halt the run, or block it until a human decides). A stop ends the replay.

======================  ==============================================  ==============================================
model                   compares                                        acts
======================  ==============================================  ==============================================
Gemini CLI              SHA-256 of name + JSON args (key order counts)  a cycle of 1-5 calls repeated 5 times in the
                                                                        last 25: first time feedback, second halts
OpenHands               (action, observation) pairs                     4 identical pairs; 3 identical erroring
                                                                        actions; 3 identical agent messages with no
                                                                        observation between; A,B alternation x 6
Roo Code                each call against the previous one only         blocks the 4th consecutive identical call
Cline                   name + key-sorted input, consecutive            notice at 3, hard stop at 5
OpenCode                the last 3 calls                                same tool with the same JSON input (key order
                                                                        counts): asks a human
======================  ==============================================  ==============================================

A call may carry ``observation`` (what the tool returned) and ``error`` (truthy when it failed); only the OpenHands
model reads them. An entry ``{"message": text}`` without a ``name`` is an agent message with no tool call (also
OpenHands only); the other models skip it.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .batches import check_batches
from .detector import DetectorConfig, Outcome
from .middleware import PinnedMiddleware
from .normalize import display_json, normalize_args

__all__ = [
    "PeerModel",
    "DeerFlow",
    "GeminiCLI",
    "OpenHands",
    "RooCode",
    "Cline",
    "OpenCode",
    "PEERS",
    "DETECTORS",
    "SIMPLIFIED",
    "compare",
]

#: The label every peer model carries.
SIMPLIFIED = "simplified model from public behaviour, not the real implementation"


# -- keys: what each system compares --------------------------------------------------------------------------


def _args_value(raw: Any) -> Any:
    """Arguments as the JSON value they stand for: a dict as sent (its key order kept), else the fallback text."""
    args, fallback = normalize_args(raw)
    return args if fallback is None else fallback


def ordered_key(call: Mapping) -> str:
    """Name plus JSON arguments in the order they were sent: ``{"a":1,"b":2}`` and ``{"b":2,"a":1}`` differ."""
    return f"{call.get('name', '')}:{display_json(_args_value(call.get('args')), sort_keys=False)}"


def sorted_key(call: Mapping) -> str:
    """Name plus JSON arguments with sorted keys: key order does not matter."""
    return f"{call.get('name', '')}:{display_json(_args_value(call.get('args')), sort_keys=True)}"


def _is_message(entry: Mapping) -> bool:
    return "message" in entry and not entry.get("name")


# -- the models -------------------------------------------------------------------------------------------------


class PeerModel:
    """A detector model: fresh state per trace, fed one call at a time.

    Subclasses set ``name``, ``compares``, ``acts`` and ``repo`` and implement ``_start()`` (fresh state) and
    ``_feed(state, entry)`` returning ``None``, ``"warn"`` or ``"stop"``.
    """

    name = "?"
    compares = ""
    acts = ""
    repo = ""
    note = SIMPLIFIED

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


class GeminiCLI(PeerModel):
    """Gemini CLI: a cycle of 1-5 calls repeated 5 times within the last 25 calls; feedback first, then a halt.

    Calls are keyed by the SHA-256 of name and JSON arguments (key order counts). After the first detection the
    model clears its history (the feedback gives the agent a fresh chance), so the halt needs a second full cycle.

    >>> call = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> GeminiCLI().run([call] * 12)
    Outcome(detector='Gemini CLI', warn_step=5, stop_step=10)
    """

    name = "Gemini CLI"
    compares = "SHA-256 of tool name + JSON args (key order counts)"
    acts = "cycle of length 1-5 repeated 5x within the last 25 calls: 1st time feedback, 2nd time halt"
    repo = "google-gemini/gemini-cli (packages/core/src/services/loopDetectionService.ts)"
    history = 25
    repeats = 5
    max_cycle = 5

    def _start(self):
        return {"calls": deque(maxlen=self.history), "detections": 0}

    def _feed(self, state, entry):
        if _is_message(entry):
            return None
        calls = state["calls"]
        calls.append(hashlib.sha256(ordered_key(entry).encode()).hexdigest())
        if not self._cycle(list(calls)):
            return None
        state["detections"] += 1
        calls.clear()
        return "warn" if state["detections"] == 1 else "stop"

    def _cycle(self, calls: list) -> bool:
        for length in range(1, self.max_cycle + 1):
            span = length * self.repeats
            if len(calls) >= span and all(calls[-i] == calls[-i - length] for i in range(1, span - length + 1)):
                return True
        return False


class OpenHands(PeerModel):
    """OpenHands: four stuck conditions over (action, observation) pairs; any one halts the agent.

    Actions compare by name and key-sorted arguments; observations by the call's ``observation`` (absent means
    unknown, so they compare equal) and ``error``. A pattern without observations is judged on actions alone.

    >>> read = {"name": "read_file", "args": {"path": "a.py"}}
    >>> OpenHands().run([[read]] * 5).stop_step
    4
    """

    name = "OpenHands"
    compares = "(action, observation) pairs"
    acts = ("4 identical pairs; 3 identical actions that each errored; 3 identical agent messages with no "
            "observation between; an A,B alternation over 6 pairs")
    repo = "All-Hands-AI/OpenHands (openhands/controller/stuck.py)"

    def _start(self):
        return deque(maxlen=6)

    def _feed(self, events, entry):
        if _is_message(entry):
            events.append(("message", str(entry.get("message")), None, False))
        else:
            observation = entry.get("observation", entry.get("result"))
            seen = None if observation is None else display_json(observation, sort_keys=True)
            events.append(("call", sorted_key(entry), seen, bool(entry.get("error"))))
        return "stop" if self._stuck(list(events)) else None

    @staticmethod
    def _stuck(events: list) -> bool:
        last4, last3, last6 = events[-4:], events[-3:], events[-6:]
        if len(last4) == 4 and all(e[0] == "call" for e in last4) and len({e[1:3] for e in last4}) == 1:
            return True
        if len(last3) == 3 and all(e[0] == "call" and e[3] for e in last3) and len({e[1] for e in last3}) == 1:
            return True
        if len(last3) == 3 and all(e[0] == "message" for e in last3) and len({e[1] for e in last3}) == 1:
            return True
        if len(last6) == 6 and all(e[0] == "call" for e in last6):
            a, b = last6[-1][1:3], last6[-2][1:3]
            if a != b and all(e[1:3] == (a if k % 2 else b) for k, e in enumerate(last6)):
                return True
        return False


class RooCode(PeerModel):
    """Roo Code: each call is compared with the previous one only; the 4th consecutive identical call is blocked.

    Blocking waits for a human, which this model counts as a stop. Any different call resets the count.

    >>> ls = {"name": "list_files", "args": {"path": "."}}
    >>> RooCode().run([[ls]] * 6).stop_step
    4
    """

    name = "Roo Code"
    compares = "each call against the previous one only"
    acts = "blocks the 4th consecutive identical call (limit 3)"
    repo = "RooCodeInc/Roo-Code (src/core/tools/ToolRepetitionDetector.ts)"
    limit = 3

    def _start(self):
        return {"previous": None, "repeats": 0}

    def _feed(self, state, entry):
        if _is_message(entry):
            return None
        key = sorted_key(entry)
        if key == state["previous"]:
            state["repeats"] += 1
        else:
            state["previous"], state["repeats"] = key, 0
        return "stop" if state["repeats"] >= self.limit else None


class Cline(PeerModel):
    """Cline: consecutive identical calls (name plus key-sorted input); a soft notice at 3, a hard stop at 5.

    >>> grep = {"name": "search_files", "args": {"regex": "TODO"}}
    >>> Cline().run([[grep]] * 6)
    Outcome(detector='Cline', warn_step=3, stop_step=5)
    """

    name = "Cline"
    compares = "consecutive identical name + key-sorted input"
    acts = "soft notice at 3, hard stop at 5"
    repo = "cline/cline"
    soft, hard = 3, 5

    def _start(self):
        return {"previous": None, "run": 0}

    def _feed(self, state, entry):
        if _is_message(entry):
            return None
        key = sorted_key(entry)
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] >= self.hard:
            return "stop"
        return "warn" if state["run"] == self.soft else None


class OpenCode(PeerModel):
    """OpenCode: the last 3 calls are the same tool with the same JSON input (key order counts); it asks a human.

    Asking for permission pauses the run, which this model counts as a stop.

    >>> a = {"name": "bash", "args": '{"command": "make", "cwd": "."}'}
    >>> b = {"name": "bash", "args": '{"cwd": ".", "command": "make"}'}
    >>> OpenCode().run([[a], [a], [a]]).stop_step, OpenCode().run([[a], [b], [a]]).stop_step
    (3, None)
    """

    name = "OpenCode"
    compares = "the last 3 calls"
    acts = "all 3 the same tool with the same JSON input: asks a human"
    repo = "sst/opencode"
    threshold = 3

    def _start(self):
        return deque(maxlen=self.threshold)

    def _feed(self, last, entry):
        if _is_message(entry):
            return None
        last.append(ordered_key(entry))
        return "stop" if len(last) == self.threshold and len(set(last)) == 1 else None


class DeerFlow(PeerModel):
    """DeerFlow's own detector at the pinned commit (:class:`loopkit.middleware.PinnedMiddleware`), judged per
    batch like the peers.

    Not a simplification: this runs the workbook's conformance-checked model of the middleware with ``config``.

    >>> batch = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> DeerFlow().run([batch] * 6)
    Outcome(detector='DeerFlow', warn_step=3, stop_step=5)
    """

    name = "DeerFlow"
    compares = "order-free fingerprint of the whole batch; tool-name counts"
    acts = "hash count 3 in 20 batches warns, 5 stops; a tool 30 times in 50 calls warns, 50 stops"
    repo = "bytedance/deer-flow (loop_detection_middleware.py at f1f4af99)"
    note = "the workbook's model of DeerFlow's LoopDetectionMiddleware"

    def __init__(self, config: DetectorConfig | None = None) -> None:
        if config is not None and not isinstance(config, DetectorConfig):
            raise TypeError(f"config must be a DetectorConfig or None, got {type(config).__name__}")
        self.config = config or DetectorConfig()

    def _start(self):
        return PinnedMiddleware(self.config)

    def _step(self, middleware, batch):
        return {middleware.after_model([c for c in batch if not _is_message(c)], "default", "default").action} - {"ok"}


#: One instance of every peer model, in the order of the chapter's table.
PEERS = (GeminiCLI(), OpenHands(), RooCode(), Cline(), OpenCode())
#: DeerFlow first, then the peers: the default columns of :func:`compare`.
DETECTORS = (DeerFlow(), *PEERS)


# -- comparing detectors over a pattern library ------------------------------------------------------------------


def _pattern_items(patterns: Any) -> list[tuple[str, list, str | None]]:
    """``(name, batches, label)`` from a mapping of name to batches (or to an object with ``batches``) or from an
    iterable of objects with ``name`` and ``batches``; the label comes from a ``label`` attribute if present.
    Each pattern's batches are validated and read into a list once, so a generator works like a list."""

    def unpack(name, value):
        if hasattr(value, "batches"):
            batches, label = value.batches, getattr(value, "label", None)
        elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], (str, type(None))):
            batches, label = value
        else:
            batches, label = value, None
        return str(name), check_batches(batches), label  # read once, here: every detector replays the same list

    if isinstance(patterns, Mapping):
        return [unpack(name, value) for name, value in patterns.items()]
    if isinstance(patterns, (str, bytes)) or not isinstance(patterns, Iterable):
        raise TypeError(f"patterns must be a mapping of name to batches or a list of patterns, "
                        f"got {type(patterns).__name__}")
    items = []
    for index, value in enumerate(patterns):
        if not hasattr(value, "batches") or not hasattr(value, "name"):
            raise TypeError(f"patterns[{index}] must have 'name' and 'batches', got {type(value).__name__}")
        items.append(unpack(value.name, value))
    return items


def _verdict(label: str | None, action: str) -> str:
    if label not in ("loop", "progress"):
        return ""
    acted = action != "ok"
    if label == "loop":
        return "caught" if acted else "missed (false negative)"
    return "false alarm (false positive)" if acted else "quiet"


def _cell(result: Outcome) -> str:
    parts = []
    if result.warn_step is not None:
        parts.append(f"warn {result.warn_step}")
    if result.stop_step is not None:
        parts.append(f"stop {result.stop_step}")
    return ", ".join(parts) or "-"


def compare(patterns: Any, detectors: Iterable[PeerModel] | None = None):
    """A pandas table, one row per (pattern, detector): first warn and stop steps, the action, and whether it
    agrees with the pattern's human label (``loop`` or ``progress``).

    Columns: ``pattern``, ``label``, ``detector``, ``warn_step``, ``stop_step`` (nullable ints), ``action``,
    ``verdict`` and ``cell`` (a short text such as ``"warn 3, stop 5"`` for pivoting).

    >>> loop = [[{"name": "bash", "args": {"command": "pytest"}}]] * 6
    >>> df = compare({"rerun": (loop, "loop")}, [DeerFlow(), RooCode()])
    >>> df[["detector", "cell", "verdict"]].to_string(index=False)
    'detector           cell verdict\\nDeerFlow warn 3, stop 5  caught\\nRoo Code         stop 4  caught'
    """
    import pandas as pd

    models = list(DETECTORS if detectors is None else detectors)
    for model in models:
        if not isinstance(model, PeerModel):
            raise TypeError(f"detectors must be PeerModel instances (see loopkit.peers.PEERS), got {model!r:.60}")
    rows = []
    for name, batches, label in _pattern_items(patterns):
        for model in models:
            result = model.run(batches)
            rows.append({"pattern": name, "label": label, "detector": model.name, "warn_step": result.warn_step,
                         "stop_step": result.stop_step, "action": result.action,
                         "verdict": _verdict(label, result.action), "cell": _cell(result)})
    df = pd.DataFrame(rows, columns=["pattern", "label", "detector", "warn_step", "stop_step", "action",
                                     "verdict", "cell"])
    return df.astype({"warn_step": "Int64", "stop_step": "Int64"})
