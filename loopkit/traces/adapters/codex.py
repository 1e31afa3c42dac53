"""Codex CLI rollouts (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``): one ``{"timestamp", "type", "payload"}``
record per line. ``response_item`` payloads are Responses items (every kind of call: ``function_call``,
``custom_tool_call``, ``local_shell_call``, ``tool_search_call``, ``web_search_call``, ``image_generation_call``;
and ``message``, ``reasoning``, the call outputs...: openai/codex ``codex-rs/protocol/src/models.rs`` at commit
515c291d) and are read as :mod:`loopkit.traces.adapters.openai_responses` reads them. A ``response_item`` of a kind this
reader does not know yet is skipped and named in the summary, never a reason to refuse the rollout (Codex adds kinds;
its own ``ResponseItem`` keeps an ``Other`` case for them). ``session_meta``, ``turn_context``, ``event_msg`` and the
other record types are skipped and counted."""

from __future__ import annotations

from collections.abc import Mapping

from .base import Format, Message, Skipped, is_map
from .openai_responses import read_item


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A ``response_item`` record as its Responses item; another rollout record as skipped.

    >>> read({"type": "turn_context", "payload": {"model": "o4-mini"}}, "r.jsonl:2")
    Skipped(kind='turn_context', unknown=False, holds_calls=False)
    >>> read({"type": "response_item", "payload": {"type": "hologram", "id": "h1"}}, "r.jsonl:3")
    Skipped(kind="response_item 'hologram'", unknown=True, holds_calls=False)
    """
    kind = record.get("type")
    if not isinstance(kind, str) or not is_map(record.get("payload")):
        return None
    if kind != "response_item":
        return Skipped(kind)
    item = record["payload"]
    message = read_item(item, where)
    if message is None:  # a kind not known yet: the envelope says it is an item, so it is named, not refused
        kind = str(item.get("type"))
        return Skipped(f"response_item {kind[:40]!r}", unknown=True, holds_calls=kind.endswith("_call"))
    if isinstance(message, Skipped):
        return Skipped(f"response_{message.kind}", unknown=message.unknown, holds_calls=message.holds_calls)
    return message


FORMAT = Format("codex", read, call_keys=("payload",), batching="consecutive", distinctive=True)
