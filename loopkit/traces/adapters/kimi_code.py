"""Kimi Code CLI wire logs (``wire.jsonl``, in a session's ``agents/<agent>/`` folder): one record per line, each
``{"type": "<scope>.<event>", ..., "time"}`` (MoonshotAI/kimi-code at commit d723cc47,
``packages/agent-core-v2/src/agent/contextMemory/contextEvents.ts`` and ``loopEventFold.ts``, ``loop/turnOps.ts``;
the layout of ``apps/vis/server/test/fixtures/sessions/sample-main/``).

- ``context.append_loop_event`` holds one event of the agent loop under ``event``: ``tool.call`` (``{"toolCallId",
  "name", "args", "stepUuid", ...}``) is one call of the model; the calls of one step (one model response) share their
  ``stepUuid``, so they form one batch. ``tool.result`` is a call's result; ``step.begin``, ``step.end`` and
  ``content.part`` are skipped and counted.
- ``turn.prompt`` starts a turn: its ``origin`` says who asked (``contextMemory/types.ts``, ``PromptOrigin``). A
  person typed it when the origin is ``user``, or a slash command they typed (``skill_activation`` and
  ``plugin_command`` with ``trigger: "user-slash"``); a turn the harness starts itself (a cron job, a finished task,
  a hook, a retry, an injection, a system trigger) is not a prompt. ``context.append_message`` repeats the prompt as a
  message, and is read as one message that is not a prompt, so a prompt counts once.
- Every other record (``metadata``, ``config.update``, ``usage.record``, ``context.apply_compaction``...) is skipped
  and counted.
"""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, TraceError, entry, is_map, tool_name

__all__ = ["FORMAT", "read", "TYPED_ORIGINS"]

#: Prompt origins that are a person's own words: typed, or a slash command they typed.
TYPED_ORIGINS = ("user",)
SLASH_ORIGINS = ("skill_activation", "plugin_command")


def typed_by_a_person(origin: object) -> bool:
    """Is a turn's ``origin`` a person, rather than the harness starting a turn of its own?

    >>> typed_by_a_person({"kind": "user"}), typed_by_a_person({"kind": "cron_job", "jobId": "j1"})
    (True, False)
    """
    if not is_map(origin):
        return False
    kind = origin.get("kind")
    return kind in TYPED_ORIGINS or (kind in SLASH_ORIGINS and origin.get("trigger") == "user-slash")


def _loop_event(event: Mapping, where: str) -> Message | Skipped:
    kind = event.get("type")
    if kind == "tool.call":
        name = tool_name(event.get("name"), where, "the tool.call event's 'name'")
        if "args" not in event:
            raise TraceError(f"{where}: a tool.call event without 'args'; expected the call's arguments")
        step = event.get("stepUuid")
        return Message([{"name": name, "args": event["args"], "id": event.get("toolCallId")}],
                       turn=str(step) if step is not None else None)
    if kind == "tool.result":
        return Message(results=True)
    return Skipped(f"loop event {str(kind)[:40]!r}")


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A wire record: a ``tool.call`` loop event as its call (the turn is its step), a turn's prompt, or a skipped
    record; ``None`` for a record of another format.

    >>> read({"type": "context.append_loop_event", "event": {"type": "tool.call", "toolCallId": "t1",
    ...       "name": "Read", "args": {"path": "a.py"}, "stepUuid": "s1"}, "time": 1}, "wire.jsonl:7").calls
    [{'name': 'Read', 'args': {'path': 'a.py'}, 'id': 't1'}]
    """
    kind = record.get("type")
    if not isinstance(kind, str) or "." not in kind or "role" in record:
        if kind == "metadata" and "protocol_version" in record:
            return Skipped("metadata")
        return None
    if kind == "context.append_loop_event":
        event = entry(record.get("event"), where, "'event'", "'type'")
        return _loop_event(event, where)
    if kind == "turn.prompt":
        return Message(user_prompt=typed_by_a_person(record.get("origin")))
    if kind == "context.append_message" and is_map(record.get("message")):
        return Message()
    if kind.split(".", 1)[0] in ("context", "turn", "config", "tools", "permission", "usage", "session", "step"):
        return Skipped(kind[:40])
    return None


FORMAT = Format("kimi-code", read, call_keys=("event",), distinctive=True)
