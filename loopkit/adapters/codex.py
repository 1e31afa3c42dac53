"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``): one ``{"timestamp", "type", "payload"}``
record per line. ``response_item`` payloads are Responses items (``function_call``, ``custom_tool_call``,
``local_shell_call``, ``message``, ...: openai/codex ``codex-rs/protocol/src/models.rs``) and are read as
:mod:`loopkit.adapters.openai_responses` reads them; ``session_meta``, ``turn_context``, ``event_msg`` and the
other record types are skipped and counted."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, is_map
from .openai_responses import read_item


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A ``response_item`` record as its Responses item; another rollout record as skipped.

    >>> read({"type": "turn_context", "payload": {"model": "o4-mini"}}, "r.jsonl:2")
    Skipped(kind='turn_context')
    """
    kind = record.get("type")
    if not isinstance(kind, str) or not is_map(record.get("payload")):
        return None
    if kind != "response_item":
        return Skipped(kind)
    item = record["payload"]
    message = read_item(item, where)
    if message is None:  # ghost_snapshot and other items the harness writes: no call, no message
        return Skipped(f"response_item {item.get('type')}")
    return message


FORMAT = Format("codex", read, call_keys=("payload",), batching="consecutive", distinctive=True)
