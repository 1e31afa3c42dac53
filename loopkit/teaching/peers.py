"""How other open-source agents notice loops: small teaching models of their detectors, each pinned to a commit.

Every peer model here is a **simplified model, not the real implementation**. Each names the repository, the full
commit and the file it models (``repo``, ``commit``, ``path``) and states its rule in one sentence (``rule``); the
rule was read in that file at that commit. Its docstring says what the model leaves out. All models take the same
batches the DeerFlow detector takes, look at the calls one at a time in model order, and report the first step
(batch, counted from 1) at which they would *warn* (tell the model) and at which they would *stop* (halt the run,
or block it until a human decides). A stop ends the replay.

A call may carry ``observation`` (what the tool returned), ``exit_code`` (for a shell command) and ``error``
(truthy when it failed); only the OpenHands model reads them. An entry ``{"message": text}`` without a ``name`` is an
agent message with no tool call (also OpenHands only); the other models skip it.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.detector import DetectorConfig, Outcome
from loopkit.core.language import N_, tr
from loopkit.core.middleware import PinnedMiddleware
from loopkit.core.normalize import display_json, normalize_args

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
    "disagrees",
]

#: The label every peer model carries.
SIMPLIFIED = "simplified model of the pinned source, not the real implementation"


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


class GeminiCLI(PeerModel):
    """Gemini CLI at 022f913d: the 5th identical tool call in a row is a detection; the first detection in a prompt
    gets feedback, the second halts.

    Checked in ``loopDetectionService.ts`` at the pinned commit: the key is the SHA-256 of the name and
    ``JSON.stringify`` of the arguments (key order counts); a different call restarts the count at 1. The service
    counts detections per prompt and clearing a detection (so a recovery turn can run) keeps both that count and the
    repeat count, so the next identical call is the second detection. What the client does with the first and the
    second detection (feedback, then a halt) lives in ``packages/core/src/core/client.ts``, which the index does not
    hold at this commit; this model follows the service's count. A detection cuts the model's response short, so
    the rest of that batch is not fed.

    Left out: the check for repeated text chunks in the model's prose, the LLM check (after 30 turns of one prompt),
    and the reset at each new user prompt (a trace here is one prompt). The older stored version, 6f72e5b6, has the
    same repeat count but no detection count: its first detection halts. No stored version of the official
    repository has a search for cycles of several calls.

    >>> call = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> GeminiCLI().run([call] * 12)
    Outcome(detector='Gemini CLI', warn_step=5, stop_step=6)
    """

    name = "Gemini CLI"
    repo = "google-gemini/gemini-cli"
    commit = "022f913dc748df9dbc4d88c6555fe475606cb379"
    path = "packages/core/src/services/loopDetectionService.ts"
    english_rule = (N_("the 5th identical call in a row (SHA-256 of name + JSON args, key order counts) is a "
                       "detection: "
                    "the first in a prompt gets feedback, the second halts"))
    threshold = 5

    def _start(self):
        return {"previous": None, "run": 0, "detections": 0}

    def _step(self, state, batch):
        for entry in batch:
            action = self._feed(state, entry)
            if action:
                return {action}  # a detection ends the model's response: the rest of the batch never arrives
        return set()

    def _feed(self, state, entry):
        if _is_message(entry):
            return None
        key = hashlib.sha256(ordered_key(entry).encode()).hexdigest()
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] < self.threshold:
            return None
        state["detections"] += 1
        return "warn" if state["detections"] == 1 else "stop"


class OpenHands(PeerModel):
    """OpenHands at 331a1a43: the legacy (V0) stuck detector; any of its conditions halts the agent.

    Checked in ``stuck.py`` at the pinned commit, four conditions modelled: the last 4 actions and the last 4
    observations each all equal; the last 3 actions equal and each answered by an error; the last 3 agent messages
    equal with no observation between; the last 6 steps alternating two (action, observation) pairs. A shell
    command's observation counts as equal when its command and exit code are (its output is not compared).

    Left out: the syntax-error variants for IPython cells, the loops of context-window condensation and of empty
    responses, the interactive mode that only looks after the last user message, and what the controller does
    when the agent is stuck (this model counts it as a stop). A trace without observations leaves them unknown,
    and unknown observations compare equal. Actions compare by name and key-sorted arguments.

    >>> read = {"name": "read_file", "args": {"path": "a.py"}}
    >>> OpenHands().run([[read]] * 5).stop_step
    4
    """

    name = "OpenHands"
    repo = "OpenHands/OpenHands"
    commit = "331a1a43145f185f7596431e2a19668a0e0a6daa"
    path = "openhands/controller/stuck.py"
    english_rule = (N_("stuck when 4 (action, observation) pairs repeat, 3 equal actions all error, 3 equal agent "
                    "messages have no observation between, or 2 pairs alternate over 6 steps; a command's "
                    "observation is its exit code"))

    def _start(self):
        return deque(maxlen=6)

    def _feed(self, events, entry):
        if _is_message(entry):
            events.append(("message", str(entry.get("message")), None, False))
        else:
            events.append(("call", sorted_key(entry), _observed(entry), bool(entry.get("error"))))
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
            if all(e[1:3] == (a if k % 2 else b) for k, e in enumerate(last6)):
                return True
        return False


def _observed(call: Mapping) -> Any:
    """What OpenHands compares of a call's result: the exit code of a command, else the observation (None if absent).

    stuck.py at 331a1a43 compares two command outputs by command and exit code only, so a poll whose output changes
    but whose exit code does not still repeats.
    """
    if "exit_code" in call:
        return ("exit code", call["exit_code"])
    observation = call.get("observation", call.get("result"))
    return None if observation is None else display_json(observation, sort_keys=True)


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
        if _is_message(entry):
            return None
        key = sorted_key(entry)
        if key == state["previous"]:
            state["repeats"] += 1
        else:
            state["previous"], state["repeats"] = key, 0
        return "stop" if state["repeats"] >= self.limit else None


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
    english_rule = (N_("identical calls in a row (name + key-sorted parameters, task_progress ignored): a warning at "
                    "the 3rd, an escalation at the 5th"))
    soft, hard = 3, 5
    ignored = ("task_progress",)

    def _start(self):
        return {"previous": None, "run": 0}

    def _feed(self, state, entry):
        if _is_message(entry):
            return None
        args = _args_value(entry.get("args"))
        if isinstance(args, Mapping):
            args = {k: v for k, v in args.items() if k not in self.ignored}
        key = sorted_key({"name": entry.get("name"), "args": args})
        state["run"] = state["run"] + 1 if key == state["previous"] else 1
        state["previous"] = key
        if state["run"] >= self.hard:
            return "stop"
        return "warn" if state["run"] == self.soft else None


class OpenCode(PeerModel):
    """OpenCode at 9c094ad5: three identical calls in a row *within one model response* ask a human (doom loop).

    Checked in ``packages/opencode/src/session/processor.ts`` at the pinned commit: at each tool call it looks at
    the last 3 parts of the current assistant message; all 3 must be calls of the same tool with the same
    ``JSON.stringify`` input (key order counts). Each model step adds a step-start and a step-finish part to the
    message, so calls from different responses are never 3 parts in a row: a repeat across turns is not seen.

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
    english_rule = (N_("3 identical calls in a row within one model response (same tool, same JSON input, key order "
                    "counts) ask a human"))
    threshold = 3

    def _start(self):
        return None  # nothing outlives a response

    def _step(self, state, batch):
        last = deque(maxlen=self.threshold)  # the parts of this response only
        for entry in batch:
            if _is_message(entry):
                continue
            last.append(ordered_key(entry))
            if len(last) == self.threshold and len(set(last)) == 1:
                return {"stop"}
        return set()


class DeerFlow(PeerModel):
    """DeerFlow's own detector at the pinned commit (:class:`loopkit.core.middleware.PinnedMiddleware`), judged per
    batch like the peers.

    Not a simplification: this runs the workbook's conformance-checked model of the middleware with ``config``.

    >>> batch = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> DeerFlow().run([batch] * 6)
    Outcome(detector='DeerFlow', warn_step=3, stop_step=5)
    """

    name = "DeerFlow"
    repo = "bytedance/deer-flow"
    commit = "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
    path = "backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py"
    english_rule = (N_("the same order-free batch fingerprint 3 times in 20 batches warns, 5 stops; one tool 30 times "
                    "in 50 calls warns, 50 stops"))
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


def disagrees(label: str | None, action: str) -> bool:
    """Whether a detector's ``action`` contradicts a pattern's human ``label``: a missed loop or an alarm on progress.

    >>> disagrees("loop", "ok"), disagrees("progress", "warn"), disagrees("loop", "stop"), disagrees(None, "ok")
    (True, True, False, False)
    """
    return (label == "loop" and action == "ok") or (label == "progress" and action != "ok")


def _verdict(label: str | None, action: str) -> str:
    """The verdict column's text, in the learner's language; empty for a pattern with no human label."""
    if label not in ("loop", "progress"):
        return ""
    if label == "loop":
        return tr("missed (false negative)") if disagrees(label, action) else tr("caught")
    return tr("false alarm (false positive)") if disagrees(label, action) else tr("quiet")


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
            raise TypeError(f"detectors must be PeerModel instances (see loopkit.teaching.peers.PEERS), got {model!r:.60}")
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
