"""OpenHands (V0) event streams: a list of events serialized by ``event_to_dict`` (OpenHands/OpenHands,
``openhands/events/serialization/event.py``): ``{"id", "source", "action": "run", "args": {...},
"tool_call_metadata": {"function_name", "tool_call_id", "model_response": {...}, "total_calls_in_response"}}``.

``model_response`` is the model's OpenAI-shaped reply; the event's call is the entry of
``choices[0].message.tool_calls`` whose ``id`` is ``tool_call_id``, with its ``arguments`` as sent. The events of one
model response are one turn (one batch), even with observations between them. An agent action without
``tool_call_metadata`` (``change_agent_state``, or a run from before function calling) is skipped and counted, not
guessed into a call. Evaluation output (``output.jsonl``: one run per line, ``{"instance_id", "history": [events]}``)
is split into runs by :mod:`loopkit.adapters.runs`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, TraceError, as_list, entry, openai_calls

#: Actions that are messages, not tool calls, when they carry no ``tool_call_metadata``.
MESSAGE_ACTIONS = ("message", "system")


def _response_calls(metadata: Mapping, where: str) -> list:
    response = entry(metadata.get("model_response"), where, "tool_call_metadata.model_response", "'choices'")
    choices = as_list(response.get("choices"), where, "model_response.choices")
    if not choices:
        raise TraceError(f"{where}: tool_call_metadata.model_response has no choices; expected choices[0].message")
    message = entry(entry(choices[0], where, "model_response.choices[0]", "'message'").get("message"), where,
                    "model_response.choices[0].message", "'tool_calls'")
    return openai_calls(as_list(message.get("tool_calls"), where, "choices[0].message.tool_calls"), where,
                        "choices[0].message.tool_calls")


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """An event: an action with ``tool_call_metadata`` gives its call (the turn is the model response's id).

    >>> response = {"id": "r1", "choices": [{"message": {"tool_calls": [
    ...     {"id": "t1", "type": "function", "function": {"name": "execute_bash", "arguments": '{"command": "ls"}'}}]}}]}
    >>> event = {"id": 4, "source": "agent", "action": "run", "args": {"command": "ls"},
    ...          "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "t1", "model_response": response}}
    >>> read(event, "h.json").calls
    [{'name': 'execute_bash', 'args': '{"command": "ls"}', 'id': 't1'}]
    """
    if "source" not in record or not (isinstance(record.get("action"), str)
                                      or isinstance(record.get("observation"), str)):
        return None
    action = record.get("action")
    if action is None:
        return Message()  # an observation
    metadata = record.get("tool_call_metadata")
    if metadata is None:
        if action in MESSAGE_ACTIONS or record.get("source") != "agent":
            return Message(user_prompt=action == "message" and record.get("source") == "user")
        return Skipped(f"action {action!r} without tool_call_metadata")
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


FORMAT = Format("openhands", read, call_keys=("tool_call_metadata",), distinctive=True)
