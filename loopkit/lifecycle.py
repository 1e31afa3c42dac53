"""A simulated agent loop around the detector: where warnings and stops land in the conversation (chapter 06).

There is no language model here. A *script* (a list of batches, like a :mod:`loopkit.patterns` trace) plays
the model: each model call emits the next batch of tool calls, and an exhausted script gives the final answer.
Simulated tools answer every call. After each model turn the detector decides, and the loop does what the
middleware does:

* **warn**: the warning is queued for the ``(thread_id, run_id)``; at the *next* model call it is appended as a
  user message, after the tool results, and the queue is drained;
* **stop**: the tool calls are stripped from that assistant message, the stop text is appended to its content,
  the tools never run, and the detector records the run's stop reason; the run is over;
* **end of run**: whatever is still queued for that run, and only that run, is dropped.

Messages use the OpenAI chat shape (``role``, ``content``, ``tool_calls``, ``tool_call_id``), so
:func:`check_pairing` can show why a warning placed *between* a tool call and its result breaks the request.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .detector import Decision, LoopDetector
from .normalize import display_json, normalize_args
from .patterns import as_batches

__all__ = ["PLACEMENTS", "AgentLoop", "Run", "Step", "check_pairing", "format_messages", "default_tool"]

#: Where a warning goes: ``"after_results"`` (queued, appended at the next model call: correct) or
#: ``"before_results"`` (inserted right after the assistant message, before its tool results: breaks pairing).
PLACEMENTS = ("after_results", "before_results")

#: What the scripted model says when its script is exhausted.
FINAL_ANSWER = "Here is my answer, based on what the tools returned."


def default_tool(name: str, args: Mapping[str, Any]) -> str:
    """The simulated tool: a short, deterministic result naming the call (values JSON cannot hold as ``str()``).

    >>> default_tool("bash", {"command": "pytest", "env": {1}})
    'bash done: {"command": "pytest", "env": "{1}"}'
    """
    return f"{name} done: {display_json(dict(args), sort_keys=True)}"


def _arguments(args: Any) -> str:
    """The ``arguments`` string of an OpenAI-style tool call: a string is already that (as a provider sent it)."""
    return args if isinstance(args, str) else display_json(args)


def _checked_script(script: Any) -> list:
    """The script as a list of batches, every call a mapping with a string ``name``; errors name turn and call."""
    batches = as_batches(script)
    for turn, batch in enumerate(batches, 1):
        for index, call in enumerate(batch):
            if not isinstance(call, Mapping):
                raise TypeError(f"script turn {turn}, call {index} must be a mapping with 'name' and 'args', "
                                f"got {type(call).__name__}")
            if not isinstance(call.get("name", ""), str):
                raise TypeError(f"script turn {turn}, call {index} needs a string 'name', "
                                f"got {type(call.get('name')).__name__}")
    return batches


@dataclass(frozen=True)
class Step:
    """One model call of a run: what was delivered to it, what it emitted, what the detector decided.

    ``messages_after`` is the length of the thread's message list after the step, so
    ``run.messages[:step.messages_after]`` is the conversation as it stood then.
    """

    turn: int
    calls: tuple
    decision: Decision | None
    delivered: tuple[str, ...]
    outcome: str
    messages_after: int
    pending_after: tuple[str, ...]


@dataclass
class Run:
    """One run of the agent in a thread. ``messages`` is the whole thread's list, shared by its runs."""

    thread_id: Hashable
    run_id: Hashable
    messages: list[dict]
    first_message: int
    script: list = field(repr=False)
    steps: list[Step] = field(default_factory=list)
    status: str = "running"  # running, answered, stopped, turn_limit, ended
    _next: int = field(default=0, repr=False)

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def actions(self) -> list[str]:
        """The detector's action for each model turn that emitted tool calls."""
        return [s.decision.action for s in self.steps if s.decision is not None]

    @property
    def own_messages(self) -> list[dict]:
        """The messages this run added to the thread."""
        return self.messages[self.first_message:]


class AgentLoop:
    """Run scripted "models" against simulated tools, with a :class:`LoopDetector` deciding after each turn.

    >>> loop = AgentLoop(LoopDetector(warn_threshold=2, hard_limit=3))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> run = loop.run([pytest] * 4, run_id="r1")
    >>> run.actions, run.status, [m["role"] for m in run.messages]
    (['ok', 'warn', 'stop'], 'stopped', ['user', 'assistant', 'tool', 'assistant', 'tool', 'user', 'assistant'])
    >>> check_pairing(run.messages) is None, loop.detector.consume_stop_reason("r1")
    (True, 'loop_capped')
    """

    def __init__(self, detector: LoopDetector | None = None, *,
                 tools: Mapping[str, Callable[[Mapping[str, Any]], str]] | None = None,
                 placement: str = "after_results") -> None:
        if detector is not None and not isinstance(detector, LoopDetector):
            raise TypeError(f"detector must be a LoopDetector or None, got {type(detector).__name__}")
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
        if tools is not None and not (isinstance(tools, Mapping) and all(callable(f) for f in tools.values())):
            raise TypeError("tools must map a tool name to a function of the call's args that returns a string")
        self.detector = detector if detector is not None else LoopDetector()
        self.placement = placement
        self._tools = dict(tools or {})
        self._threads: dict[Hashable, list[dict]] = {}
        self._pending: dict[tuple[Hashable, Hashable], list[str]] = {}
        self._calls = 0

    # -- what a learner inspects ---------------------------------------------------------------------------------
    @property
    def pending(self) -> dict[tuple[Hashable, Hashable], list[str]]:
        """A copy of the queued warnings, by ``(thread_id, run_id)``."""
        return {key: list(texts) for key, texts in self._pending.items() if texts}

    def messages(self, thread_id: Hashable = "default") -> list[dict]:
        """The thread's message list (the live list: runs of the thread append to it)."""
        return self._threads.setdefault(thread_id, [])

    # -- the loop ------------------------------------------------------------------------------------------------
    def start(self, script: Any, *, thread_id: Hashable = "default", run_id: Hashable = "default",
              task: str = "Please fix the failing test.") -> Run:
        """Begin a run: the user's ``task`` joins the thread, and ``script`` will play the model."""
        if not isinstance(task, str):
            raise TypeError(f"task must be a string, got {type(task).__name__}")
        batches = _checked_script(script)  # before anything changes: a bad call is named, no state is touched
        messages = self.messages(thread_id)
        first = len(messages)
        messages.append({"role": "user", "content": task})
        return Run(thread_id, run_id, messages, first, batches)

    def step(self, run: Run) -> Step:
        """One model call of ``run``: deliver queued warnings, take the model's turn, let the detector decide."""
        if not isinstance(run, Run):
            raise TypeError(f"run must be a Run from AgentLoop.start(), got {type(run).__name__}")
        if run.done:
            raise ValueError(f"run {run.run_id!r} is over ({run.status}); start a new run")
        key = (run.thread_id, run.run_id)
        messages = run.messages
        delivered = tuple(self._pending.pop(key, ()))  # the next model call: drain the queue, after the results
        for text in delivered:
            messages.append({"role": "user", "content": text})
        turn = len(run.steps) + 1

        calls = run.script[run._next] if run._next < len(run.script) else []
        run._next += 1
        if not calls:
            messages.append({"role": "assistant", "content": FINAL_ANSWER})
            run.status = "answered"
            return self._record(run, turn, (), None, delivered, "final answer")

        tool_calls = []
        for call in calls:
            self._calls += 1
            tool_calls.append({"id": f"call_{self._calls}", "type": "function",
                               "function": {"name": call.get("name", ""),
                                            "arguments": _arguments(call.get("args", {}))}})
        assistant = {"role": "assistant", "content": "", "tool_calls": tool_calls}
        messages.append(assistant)
        decision = self.detector.observe(calls, thread_id=run.thread_id, run_id=run.run_id)

        if decision.action == "stop":
            del assistant["tool_calls"]  # the calls never run, so no results are owed
            assistant["content"] = f"{assistant['content']}\n\n{decision.message}".strip()
            run.status = "stopped"
            return self._record(run, turn, calls, decision, delivered, f"stopped: {len(calls)} call(s) stripped")

        if decision.action == "warn" and self.placement == "before_results":
            messages.append({"role": "user", "content": decision.message})
        for call, request in zip(calls, tool_calls):
            messages.append({"role": "tool", "tool_call_id": request["id"], "content": self._answer(call)})
        if decision.action == "warn" and self.placement == "after_results":
            self._pending.setdefault((run.thread_id, run.run_id), []).append(decision.message)
        outcome = "warned" if decision.action == "warn" else "tools ran"
        return self._record(run, turn, calls, decision, delivered, outcome)

    def finish(self, run: Run) -> list[str]:
        """End ``run``: drop its own queued warnings (no other run's) and return what was dropped."""
        if not isinstance(run, Run):
            raise TypeError(f"run must be a Run from AgentLoop.start(), got {type(run).__name__}")
        if run.status == "running":
            run.status = "ended"
        return self._pending.pop((run.thread_id, run.run_id), [])

    def run(self, script: Any, *, thread_id: Hashable = "default", run_id: Hashable = "default",
            task: str = "Please fix the failing test.", max_turns: int | None = None) -> Run:
        """Start a run, step it until the model answers, the detector stops it or ``max_turns`` model calls have
        been made (a recursion limit), then finish it."""
        if max_turns is not None and (isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1):
            raise ValueError(f"max_turns must be an int >= 1 or None, got {max_turns!r}")
        run = self.start(script, thread_id=thread_id, run_id=run_id, task=task)
        while not run.done:
            if max_turns is not None and len(run.steps) >= max_turns:
                run.status = "turn_limit"
                break
            self.step(run)
        self.finish(run)
        return run

    # -- helpers -------------------------------------------------------------------------------------------------
    def _answer(self, call: Mapping[str, Any]) -> str:
        """Run the call's tool on its arguments, parsed as the detector reads them (a JSON string becomes a dict;
        other text is passed as sent)."""
        name = call.get("name", "")
        raw = call.get("args", {})
        args, fallback = normalize_args(raw)
        tool = self._tools.get(name)
        if tool is None:
            return default_tool(name, args) if fallback is None else f"{name} done: {fallback}"
        return str(tool(args if fallback is None else raw))

    def _record(self, run: Run, turn: int, calls: Iterable, decision: Decision | None, delivered: tuple,
                outcome: str) -> Step:
        step = Step(turn, tuple(calls), decision, delivered, outcome, len(run.messages),
                    tuple(self._pending.get((run.thread_id, run.run_id), ())))
        run.steps.append(step)
        return step


def check_pairing(messages: Iterable[Mapping[str, Any]]) -> str | None:
    """The first violation of OpenAI-style call/result pairing in ``messages``, or ``None`` if there is none.

    The rule: an assistant message with ``tool_calls`` must be followed at once by one ``tool`` message per call
    id, before any other message; every ``tool`` message must answer an open call. A call without a non-empty
    string ``id`` can never be answered, so it is a violation too.

    >>> call = {"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]}
    >>> check_pairing([call, {"role": "tool", "tool_call_id": "c1", "content": "ok"}]) is None
    True
    >>> print(check_pairing([call, {"role": "user", "content": "warning"}, {"role": "tool", "tool_call_id": "c1"}]))
    message 1 (user) comes before the result of c1, requested by message 0
    """
    try:
        items = list(messages)
    except TypeError:
        raise TypeError(f"messages must be a list of message dicts, got {type(messages).__name__}") from None
    open_ids: list[str] = []
    opened_by = -1
    for index, message in enumerate(items):
        if not isinstance(message, Mapping) or "role" not in message:
            raise TypeError(f"messages[{index}] must be a mapping with a 'role', got {message!r:.60}")
        role = message["role"]
        if role == "tool":
            answered = message.get("tool_call_id")
            if answered not in open_ids:
                return f"message {index} (tool) answers {answered}, which no open assistant message requested"
            open_ids.remove(answered)
            continue
        if open_ids:
            waiting = ", ".join(open_ids)
            return (f"message {index} ({role}) comes before the result{'s' if len(open_ids) > 1 else ''} of "
                    f"{waiting}, requested by message {opened_by}")
        if role == "assistant" and message.get("tool_calls"):
            for k, request in enumerate(message["tool_calls"]):
                if not isinstance(request, Mapping):
                    return (f"message {index} (assistant): tool call {k} is a {type(request).__name__}; "
                            "expected a mapping with an 'id'")
                if not isinstance(request.get("id"), str) or not request.get("id"):
                    return (f"message {index} (assistant): tool call {k} has id {request.get('id')!r}; "
                            "expected a non-empty string id")
            open_ids = [request["id"] for request in message["tool_calls"]]
            opened_by = index
    if open_ids:
        return f"{', '.join(open_ids)} of message {opened_by} never got a result"
    return None


def _clip(text: str, width: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def format_messages(messages: Iterable[Mapping[str, Any]], *, start: int = 0, width: int = 90) -> str:
    """A compact listing of a message list, one line per message (per tool call), numbered from ``start``.

    >>> print(format_messages([{"role": "user", "content": "hi"},
    ...     {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"name": "bash",
    ...      "arguments": '{"command": "ls"}'}}]}, {"role": "tool", "tool_call_id": "c1", "content": "a.py"}]))
     0 user       hi
     1 assistant  -> c1 bash {"command": "ls"}
     2 tool       c1: a.py
    """
    lines = []
    for index, message in enumerate(list(messages)[start:], start=start):
        role = message.get("role", "?")
        head = f"{index:2d} {role:<10} "
        if role == "tool":
            lines.append(head + _clip(f"{message.get('tool_call_id')}: {message.get('content', '')}", width))
            continue
        requests = message.get("tool_calls") or []
        if message.get("content") or not requests:
            lines.append(head + _clip(message.get("content", ""), width))
            head = " " * len(head)
        for request in requests:
            function = request.get("function", {})
            lines.append(head + _clip(f"-> {request.get('id')} {function.get('name')} {function.get('arguments')}",
                                      width))
            head = " " * len(head)
    return "\n".join(lines)
