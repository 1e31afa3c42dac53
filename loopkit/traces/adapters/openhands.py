"""OpenHands (V0) events, in the three ways OpenHands saves them (OpenHands/OpenHands at commit 156d0686):

- ``event_to_dict`` (``openhands/events/serialization/event.py``), the event stream and evaluation output:
  ``{"id", "source", "action": "run", "args": {...}, "tool_call_metadata": {"function_name", "tool_call_id",
  "model_response": {...}, "total_calls_in_response"}}``, and ``{"source", "observation": "run", "content",
  "extras"}``;
- ``dataclasses.asdict`` of each event, which the resolver writes (``openhands/resolver/issue_resolver.py``, the
  ``history`` of ``ResolverOutput`` in ``resolver_output.py``): the action's own fields at the top level
  (``{"action": "run_ipython", "code", "thought", ...}``), without ``source`` or ``tool_call_metadata``;
- the same events as ``[action, observation]`` pairs (``compatibility_for_eval_history_pairs`` in
  ``evaluation/utils/shared.py``), which :mod:`loopkit.traces.adapters.documents` flattens.

An action with ``tool_call_metadata`` gives the call the model sent: the entry of ``model_response.choices[0].message
.tool_calls`` whose ``id`` is ``tool_call_id``, its ``arguments`` as sent; the events of one model response are one
turn (one batch), even with observations between them. An action without it (an older run, or the resolver's
``asdict`` form) is a call named for its action type, whose arguments are the action's own fields that say what it
did (:data:`CALL_FIELDS`: the command, path or code), never its bookkeeping (``thought``, ``security_risk``...). The
actions that are not tool calls (:data:`NOT_CALLS`: messages, state changes, recalls...) are messages or are skipped
and counted; an action type that is neither is skipped and named as not known yet. The action types are
``ActionType`` in ``openhands/core/schema/action.py``; the fields, the action classes in
``openhands/events/action/``.

Evaluation and resolver output (``output.jsonl``: one run per line, ``{"instance_id" | "issue", "history": [...]}``)
is split into runs by :mod:`loopkit.traces.adapters.runs`.

Today's OpenHands (V1, the software agent SDK) writes events of another shape, ``{"kind": "ActionEvent", ...}``:
:mod:`loopkit.traces.adapters.openhands_sdk` reads them, and this format hands each such event to it, so one
``--format openhands`` (and one tool-map preset) takes both.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import openhands_sdk
from .base import Format, Message, Skipped, TraceError, as_list, entry, is_map, openai_calls

__all__ = ["FORMAT", "read", "CALL_FIELDS", "NOT_CALLS"]

#: The action types that come from a tool call, and the fields that are the call's arguments.
CALL_FIELDS: dict[str, tuple[str, ...]] = {
    "run": ("command", "is_input"),
    "run_ipython": ("code",),
    "read": ("path", "start", "end", "view_range"),
    "write": ("path", "content", "start", "end"),
    "edit": ("path", "command", "file_text", "old_str", "new_str", "insert_line", "content", "start", "end"),
    "browse": ("url",),
    "browse_interactive": ("browser_actions",),
    "call_tool_mcp": ("arguments",),  # the call is named by the action's 'name': the MCP tool
    "delegate": ("agent", "inputs"),
    "finish": ("final_thought", "outputs"),
    "think": ("thought",),
    "task_tracking": ("command", "task_list"),
    "condensation_request": (),
}
#: The action types that are not tool calls; ``message`` and ``system`` are messages, the others are skipped.
NOT_CALLS = ("message", "system", "start", "null", "pause", "resume", "stop", "change_agent_state", "push",
             "send_pr", "recall", "condensation", "reject", "loop_recovery")
MESSAGE_ACTIONS = ("message", "system")
#: ``ObservationType`` in ``openhands/core/schema/observation.py``: an ``asdict`` observation is told by these.
OBSERVATIONS = ("read", "write", "edit", "browse", "run", "run_ipython", "chat", "delegate", "message", "error",
                "success", "null", "think", "agent_state_changed", "user_rejected", "condense", "recall", "mcp",
                "download", "task_tracking", "loop_detection")


def _response_calls(metadata: Mapping, where: str) -> list:
    response = entry(metadata.get("model_response"), where, "tool_call_metadata.model_response", "'choices'")
    choices = as_list(response.get("choices"), where, "model_response.choices")
    if not choices:
        raise TraceError(f"{where}: tool_call_metadata.model_response has no choices; expected choices[0].message")
    message = entry(entry(choices[0], where, "model_response.choices[0]", "'message'").get("message"), where,
                    "model_response.choices[0].message", "'tool_calls'")
    return openai_calls(as_list(message.get("tool_calls"), where, "choices[0].message.tool_calls"), where,
                        "choices[0].message.tool_calls")


def _metadata_call(metadata: Mapping, where: str) -> Message:
    metadata = entry(metadata, where, "'tool_call_metadata'", "'tool_call_id' and 'model_response'")
    wanted = metadata.get("tool_call_id")
    calls = _response_calls(metadata, where)
    mine = [call for call in calls if call["id"] == wanted]
    if not mine:
        ids = ", ".join(repr(call["id"]) for call in calls) or "none"
        raise TraceError(f"{where}: tool_call_metadata.tool_call_id {wanted!r} is not among the model response's "
                         f"tool calls (ids {ids}); expected the call this action came from")
    response_id = metadata["model_response"].get("id")
    return Message(mine[:1], turn=str(response_id) if response_id is not None else None)


def _action_call(action: str, fields: Mapping, where: str) -> Message:
    """The call of an action recorded without its model response: named for its type, its fields as arguments."""
    args = {key: fields[key] for key in CALL_FIELDS[action] if key in fields}
    name = action
    if action == "call_tool_mcp":
        mcp_name = fields.get("name")
        if not isinstance(mcp_name, str) or not mcp_name:
            raise TraceError(f"{where}: a 'call_tool_mcp' action without the MCP tool's 'name'")
        name = mcp_name
    return Message([{"name": name, "args": args, "id": None}])


def _is_event(record: Mapping) -> bool:
    """An OpenHands event in either form: ``event_to_dict``'s carries ``source``; ``asdict``'s is told by an action
    or observation type OpenHands defines (and has no ``observation`` beside its ``action``, as SWE-agent's steps do)."""
    action, observation = record.get("action"), record.get("observation")
    if "source" in record:
        return isinstance(action, str) or isinstance(observation, str)
    if isinstance(action, str):
        return "observation" not in record and (action in CALL_FIELDS or action in NOT_CALLS)
    return isinstance(observation, str) and "action" not in record and observation in OBSERVATIONS


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """An event: an action gives its call (the turn is the model response's id, when there is one).

    >>> response = {"id": "r1", "choices": [{"message": {"tool_calls": [
    ...     {"id": "t1", "type": "function", "function": {"name": "execute_bash", "arguments": '{"command": "ls"}'}}]}}]}
    >>> event = {"id": 4, "source": "agent", "action": "run", "args": {"command": "ls"},
    ...          "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1", "model_response": response}}
    >>> read(event, "h.json").calls
    [{'name': 'execute_bash', 'args': '{"command": "ls"}', 'id': 't1'}]
    >>> read({"action": "run_ipython", "code": "print(1)", "thought": "check"}, "out.jsonl:1").calls
    [{'name': 'run_ipython', 'args': {'code': 'print(1)'}, 'id': None}]
    """
    if openhands_sdk.is_event(record):
        return openhands_sdk.read(record, where)
    if not _is_event(record):
        return None
    action = record.get("action")
    if action is None:
        return Message(results=True)  # an observation
    metadata = record.get("tool_call_metadata")
    if metadata is not None:
        return _metadata_call(metadata, where)
    source = record.get("source")
    if action in MESSAGE_ACTIONS:
        return Message(user_prompt=action == "message" and source == "user")
    if source not in (None, "agent"):
        return Message()  # an action of the user or the environment, not a call of the model
    if action in NOT_CALLS:
        return Skipped(f"action {action!r}")
    if action not in CALL_FIELDS:
        return Skipped(f"action {action!r}", unknown=True)
    fields = record.get("args") if "source" in record else record
    return _action_call(action, fields if is_map(fields) else {}, where)


FORMAT = Format("openhands", read, call_keys=("tool_call_metadata", "tool_call"), distinctive=True)
