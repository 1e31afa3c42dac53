"""A simulated agent loop that calls the middleware's hooks where the framework would (chapter 06).

There is no language model here. A *script* (a list of batches, like a :mod:`loopkit.teaching.patterns` trace) plays the
model: each model call emits the next batch of tool calls, and an exhausted script gives the final answer.
Simulated tools answer every call. The loop calls the hooks of a :mod:`loopkit.core.middleware` model in the order a
LangChain agent calls DeerFlow's middleware:

1. ``before_agent`` when a run starts;
2. before every model call, ``wrap_model_call``: the run's queued warnings, merged, become **one** human message
   named ``loop_warning``, appended after every tool result (upstream PR #2752);
3. after every model call, ``after_model``; on a **stop** the assistant message loses its tool calls (and the
   copies in ``additional_kwargs``), ``finish_reason`` ``tool_calls`` becomes ``stop``, the stop text is appended
   to the content, the tools never run, and the run's context records ``stop_reason = "loop_capped"``;
4. ``after_agent`` when the run ends.

Messages are LangChain message dicts (``type`` ``human``/``ai``/``tool``, as ``messages_to_dict`` stores their
data), with OpenAI-shaped copies of the calls in ``additional_kwargs``, as LangChain's OpenAI integration keeps
them. This loop is this workbook's own simulation; the hook order and the stop's effects are upstream's at
``f1f4af99`` (``backend/packages/harness/deerflow/agents/middlewares/loop_detection_middleware.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.checks import require_int
from loopkit.core.detector import Decision
from loopkit.core.language import N_, tr
from loopkit.core.middleware import STOP_REASON, LoopMiddleware, PinnedMiddleware, thread_key
from loopkit.core.normalize import display_json, normalize_args

from .patterns import Pattern

__all__ = ["PLACEMENTS", "AgentLoop", "AgentRun", "ModelTurn", "append_text", "default_tool", "WARNING_NAME"]

#: Where a warning goes: ``"after_results"`` (queued, appended at the next model call, as upstream does) or
#: ``"before_results"`` (inserted right after the assistant message, before its tool results: breaks pairing).
PLACEMENTS = ("after_results", "before_results")

#: The ``name`` of the human message that carries loop warnings.
WARNING_NAME = "loop_warning"

#: What the scripted model says when its script is exhausted (in the learner's language, like the outcomes of a
#: step; the warning and stop texts are the middleware's and stay as it writes them).
FINAL_ANSWER = N_("Here is my answer, based on what the tools returned.")

#: The user's message that opens a run when the caller gives no ``task``.
DEFAULT_TASK = N_("Please fix the failing test.")


def default_tool(name: str, args: Mapping[str, Any]) -> str:
    """The simulated tool: a short, deterministic result naming the call (values JSON cannot hold as ``str()``).

    >>> default_tool("bash", {"command": "pytest", "env": {1}})
    'bash done: {"command": "pytest", "env": "{1}"}'
    """
    return f"{name} done: {display_json(dict(args), sort_keys=True)}"


def append_text(content: Any, text: str) -> Any:
    """Append ``text`` to a message's content as upstream's stop does: ``None`` becomes the text, a list of
    content blocks gets a text block, a string gets a blank line and the text.

    >>> append_text("", "STOP"), append_text(None, "STOP"), append_text([{"type": "text", "text": "hi"}], "STOP")
    ('\\n\\nSTOP', 'STOP', [{'type': 'text', 'text': 'hi'}, {'type': 'text', 'text': '\\n\\nSTOP'}])
    """
    if content is None:
        return text
    if isinstance(content, list):
        return [*content, {"type": "text", "text": f"\n\n{text}"}]
    return f"{content}\n\n{text}"


@dataclass(frozen=True)
class ModelTurn:
    """One model call of a run: the warnings delivered to it, what it emitted, what the middleware decided.

    ``messages_after`` is the length of the thread's message list after the step, so
    ``run.messages[:step.messages_after]`` is the conversation as it stood then; ``pending_after`` is what is
    queued for the run's next model call. ``outcome`` says what happened in a few words, in the learner's language
    (for display only: code reads ``decision`` and the run's ``status``).
    """

    turn: int
    calls: tuple
    decision: Decision | None
    delivered: tuple[Decision, ...]
    outcome: str
    messages_after: int
    pending_after: tuple[Decision, ...]


@dataclass
class AgentRun:
    """One run of the agent in a thread. ``messages`` is the whole thread's list, shared by its runs;
    ``context`` is the run's runtime context (``thread_id``, ``run_id``, and ``stop_reason`` after a stop)."""

    thread_id: Hashable
    run_id: Hashable
    messages: list[dict]
    script: list = field(repr=False)
    context: dict = field(default_factory=dict)
    steps: list[ModelTurn] = field(default_factory=list)
    status: str = "running"  # running, answered, stopped, turn_limit, ended
    next_batch: int = field(default=0, repr=False)

    @property
    def done(self) -> bool:
        return self.status != "running"

    @property
    def actions(self) -> list[str]:
        """The middleware's action for each model turn that emitted tool calls."""
        return [s.decision.action for s in self.steps if s.decision is not None]


class AgentLoop:
    """Run scripted "models" against simulated tools, calling a middleware's hooks around each model call.

    >>> from loopkit import DetectorConfig, PinnedMiddleware
    >>> loop = AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3)))
    >>> pytest = [{"name": "bash", "args": {"command": "pytest"}}]
    >>> run = loop.run([pytest] * 4, run_id="r1")
    >>> run.actions, run.status, [m["type"] for m in run.messages]
    (['ok', 'warn', 'stop'], 'stopped', ['human', 'ai', 'tool', 'ai', 'tool', 'human', 'ai'])
    >>> run.context["stop_reason"], loop.middleware.consume_stop_reason("r1")
    ('loop_capped', 'loop_capped')
    """

    def __init__(self, middleware: LoopMiddleware | None = None, *,
                 tools: Mapping[str, Callable[[Mapping[str, Any]], str]] | None = None,
                 placement: str = "after_results") -> None:
        if middleware is not None and not isinstance(middleware, LoopMiddleware):
            raise TypeError(f"middleware must be a PinnedMiddleware or RunScopedMiddleware, "
                            f"got {type(middleware).__name__}")
        if placement not in PLACEMENTS:
            raise ValueError(f"placement must be one of {PLACEMENTS}, got {placement!r}")
        if tools is not None and not (isinstance(tools, Mapping) and all(callable(f) for f in tools.values())):
            raise TypeError("tools must map a tool name to a function of the call's args that returns a string")
        self.middleware = middleware if middleware is not None else PinnedMiddleware()
        self.placement = placement
        self._tools = dict(tools or {})
        self._threads: dict[Hashable, list[dict]] = {}
        self._calls = 0

    def messages(self, thread_id: Hashable = "default") -> list[dict]:
        """The thread's message list (the live list: runs of the thread append to it)."""
        return self._threads.setdefault(thread_id, [])

    # -- the loop ------------------------------------------------------------------------------------------------
    def start(self, script: Any, *, thread_id: Hashable = "default", run_id: Hashable = "default",
              task: str = DEFAULT_TASK) -> AgentRun:
        """Begin a run (``before_agent``): the user's ``task`` joins the thread (the default one in the learner's
        language), and ``script`` plays the model."""
        if not isinstance(task, str):
            raise TypeError(f"task must be a string, got {type(task).__name__}")
        if task == DEFAULT_TASK:
            task = tr(DEFAULT_TASK)
        # checked before anything changes: a bad call is named, and no state is touched
        batches = check_batches(script.batches if isinstance(script, Pattern) else script, name="script")
        messages = self.messages(thread_id)
        messages.append({"type": "human", "content": task})
        self.middleware.before_agent(thread_id, run_id)
        return AgentRun(thread_id, run_id, messages, batches, {"thread_id": thread_id, "run_id": run_id})

    def step(self, run: AgentRun) -> ModelTurn:
        """One model call of ``run``: ``wrap_model_call`` delivers the queued warnings, the model takes its turn,
        and ``after_model`` decides."""
        if not isinstance(run, AgentRun):
            raise TypeError(f"run must be an AgentRun from AgentLoop.start(), got {type(run).__name__}")
        if run.done:
            raise ValueError(f"run {run.run_id!r} is over ({run.status}); start a new run")
        delivered = tuple(self.middleware.wrap_model_call(run.thread_id, run.run_id))
        if delivered:
            run.messages.append(_warning_message(delivered))
        turn = len(run.steps) + 1
        calls = run.script[run.next_batch] if run.next_batch < len(run.script) else []
        run.next_batch += 1
        if not calls:
            run.messages.append({"type": "ai", "content": tr(FINAL_ANSWER), "tool_calls": [],
                                 "response_metadata": {"finish_reason": "stop"}})
            run.status = "answered"
            return self._record(run, turn, (), None, delivered, tr("final answer"))

        assistant = self._assistant_message(calls)
        run.messages.append(assistant)
        decision = self.middleware.after_model(calls, run.thread_id, run.run_id)
        if decision.action == "stop":
            _strip_for_stop(assistant, decision.message or "")
            run.context["stop_reason"] = STOP_REASON
            run.status = "stopped"
            return self._record(run, turn, calls, decision, delivered,
                                tr("stopped: {count} call(s) stripped", count=len(calls)))

        if decision.action == "warn" and self.placement == "before_results":
            self.middleware.wrap_model_call(run.thread_id, run.run_id)  # the mistake: deliver it at once
            run.messages.append(_warning_message((decision,)))
        for call, request in zip(calls, assistant["tool_calls"], strict=True):
            run.messages.append({"type": "tool", "tool_call_id": request["id"], "name": request["name"],
                                 "content": self._answer(call)})
        outcome = tr("warned") if decision.action == "warn" else tr("tools ran")
        return self._record(run, turn, calls, decision, delivered, outcome)

    def finish(self, run: AgentRun) -> list[Decision]:
        """End ``run`` (``after_agent``) and return the warnings it queued but never delivered, now dropped."""
        if not isinstance(run, AgentRun):
            raise TypeError(f"run must be an AgentRun from AgentLoop.start(), got {type(run).__name__}")
        if run.status == "running":
            run.status = "ended"
        dropped = self.middleware.pending.get((thread_key(run.thread_id), run.run_id), [])
        self.middleware.after_agent(run.thread_id, run.run_id)
        return dropped

    def run(self, script: Any, *, thread_id: Hashable = "default", run_id: Hashable = "default",
            task: str = DEFAULT_TASK, max_turns: int | None = None) -> AgentRun:
        """Start a run, step it until the model answers, the middleware stops it or ``max_turns`` model calls
        have been made (a recursion limit), then finish it."""
        if max_turns is not None:
            require_int("max_turns", max_turns)
        run = self.start(script, thread_id=thread_id, run_id=run_id, task=task)
        while not run.done:
            if max_turns is not None and len(run.steps) >= max_turns:
                run.status = "turn_limit"
                break
            self.step(run)
        self.finish(run)
        return run

    # -- helpers -------------------------------------------------------------------------------------------------
    def _assistant_message(self, calls: list) -> dict:
        """The model's message: LangChain ``tool_calls`` plus the OpenAI-shaped copies a provider integration keeps
        in ``additional_kwargs``."""
        requests, openai = [], []
        for call in calls:
            self._calls += 1
            call_id, name, args = f"call_{self._calls}", call.get("name", ""), call.get("args", {})
            requests.append({"name": name, "args": args, "id": call_id, "type": "tool_call"})
            arguments = args if isinstance(args, str) else display_json(args)
            openai.append({"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}})
        return {"type": "ai", "content": "", "tool_calls": requests, "additional_kwargs": {"tool_calls": openai},
                "response_metadata": {"finish_reason": "tool_calls"}}

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

    def _record(self, run: AgentRun, turn: int, calls: Iterable, decision: Decision | None, delivered: tuple,
                outcome: str) -> ModelTurn:
        pending = self.middleware.pending.get((thread_key(run.thread_id), run.run_id), [])
        step = ModelTurn(turn, tuple(calls), decision, delivered, outcome, len(run.messages), tuple(pending))
        run.steps.append(step)
        return step


def _warning_message(warnings: Iterable[Decision]) -> dict:
    """The one human message that carries the merged warnings of a model call."""
    return {"type": "human", "name": WARNING_NAME, "content": "\n\n".join(w.message or "" for w in warnings)}


def _strip_for_stop(assistant: dict, stop_text: str) -> None:
    """What a hard stop does to the assistant message: no calls left anywhere, a plain final answer."""
    assistant["tool_calls"] = []
    kept = assistant.get("additional_kwargs", {}).items()
    assistant["additional_kwargs"] = {k: v for k, v in kept if k not in ("tool_calls", "function_call")}
    metadata = dict(assistant.get("response_metadata", {}))
    if metadata.get("finish_reason") == "tool_calls":
        metadata["finish_reason"] = "stop"
    assistant["response_metadata"] = metadata
    assistant["content"] = append_text(assistant.get("content"), stop_text)
