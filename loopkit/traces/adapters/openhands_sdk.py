"""OpenHands V1 events: today's OpenHands, built on the software agent SDK (OpenHands/software-agent-sdk at commit
611629e6). Each event is one JSON object whose ``kind`` names its class (``openhands-sdk/openhands/sdk/utils/models.py``
writes it); a conversation keeps them as JSON Lines, or one file per event under ``events/``
(``conversation/persistence_const.py``), which, joined in order, are the same lines.

- ``ActionEvent`` (``event/llm_convertible/action.py``): one tool call of the model, as it sent it: ``tool_call: {"id",
  "name", "arguments", "origin"}``, its ``arguments`` a JSON string. The actions of one model response share their
  ``llm_response_id``: that is the turn, so parallel calls form one batch, even with observations between them.
- ``ObservationEvent``, ``UserRejectObservation``, ``AgentErrorEvent``: what came back from a call (tool results).
- ``MessageEvent`` (``llm_convertible/message.py``): a message; ``source: "user"`` is a prompt a person sent.
- ``ACPToolCallEvent`` (``event/acp_tool_call.py``): a call made by an agent that OpenHands runs over the Agent Client
  Protocol, not by this conversation's model: skipped, and named among the calls not read.
- Every other kind (``SystemPromptEvent``, ``ConversationStateUpdateEvent``, condensation, pause, token and log events,
  hooks...) is skipped and counted; a kind this reader has not met is skipped and named as not known yet.

The older V0 events (``action``/``observation``) are :mod:`loopkit.traces.adapters.openhands`'s; that module reads these
too, through :func:`read`, so ``--format openhands`` takes both.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Message, Skipped, TraceError, entry, required, tool_name

__all__ = ["read", "is_event", "KINDS"]

#: The event classes the SDK defines (``openhands-sdk/openhands/sdk/event/__init__.py``) that this reader skips.
SKIPPED_KINDS = ("SystemPromptEvent", "ConversationStateUpdateEvent", "Condensation", "CondensationRequest",
                 "CondensationSummaryEvent", "PauseEvent", "InterruptEvent", "TokenEvent", "LLMCompletionLogEvent",
                 "HookExecutionEvent", "StreamingDeltaEvent")
#: Events that carry a call's result.
RESULT_KINDS = ("ObservationEvent", "UserRejectObservation", "AgentErrorEvent")
KINDS = ("ActionEvent", "MessageEvent", "ACPToolCallEvent", *RESULT_KINDS, *SKIPPED_KINDS)
#: ``SourceType`` in ``event/types.py``.
SOURCES = ("agent", "user", "environment", "hook")


def is_event(record: Mapping) -> bool:
    """An SDK event: a ``kind`` string and a ``source`` the SDK defines."""
    return isinstance(record.get("kind"), str) and record.get("source") in SOURCES


def _action_call(record: Mapping, where: str) -> Message:
    call = entry(required(record, "tool_call", where, "an ActionEvent", "expected the call the model sent"), where,
                 "the ActionEvent's 'tool_call'", "'id', 'name' and 'arguments'")
    name = tool_name(call.get("name"), where, "tool_call.name")
    args = required(call, "arguments", where, "tool_call", "expected 'arguments' (a JSON string)")
    turn = record.get("llm_response_id")
    return Message([{"name": name, "args": args, "id": call.get("id")}], turn=str(turn) if turn is not None else None)


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """An SDK event: an ``ActionEvent`` as its call (the turn is its ``llm_response_id``), a message, a result, or a
    skipped kind; ``None`` when ``record`` is no SDK event.

    >>> event = {"kind": "ActionEvent", "source": "agent", "llm_response_id": "r1", "tool_name": "terminal",
    ...          "tool_call": {"id": "c1", "name": "terminal", "arguments": '{"command": "ls"}', "origin": "completion"}}
    >>> read(event, "events.jsonl:4")
    Message(calls=[{'name': 'terminal', 'args': '{"command": "ls"}', 'id': 'c1'}], turn='r1', user_prompt=False, results=False)
    """
    if not is_event(record):
        return None
    kind = record["kind"]
    if kind == "ActionEvent":
        if record.get("source") != "agent":
            raise TraceError(f"{where}: an ActionEvent from {record.get('source')!r}; expected the agent's")
        return _action_call(record, where)
    if kind == "MessageEvent":
        return Message(user_prompt=record.get("source") == "user")
    if kind in RESULT_KINDS:
        return Message(results=True)
    if kind == "ACPToolCallEvent":
        return Skipped("ACPToolCallEvent (a call of an agent run over ACP)", holds_calls=True)
    if kind in SKIPPED_KINDS:
        return Skipped(kind)
    return Skipped(f"event {kind[:40]!r}", unknown=True)
