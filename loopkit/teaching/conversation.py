"""A conversation as a list of LangChain or OpenAI message dicts: the rule that pairs tool calls with their results,
and a short readable text of the messages (chapter 06)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from loopkit.core.checks import clip
from loopkit.core.language import tr
from loopkit.core.normalize import display_json

__all__ = ["check_pairing", "format_messages"]

#: LangChain message types and the OpenAI roles they correspond to.
_ROLES = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}


def _role(message: Mapping[str, Any]) -> str | None:
    """``user``/``assistant``/``tool``/``system`` for an OpenAI ``role`` or a LangChain ``type``."""
    if "role" in message:
        return message["role"]
    kind = message.get("type")
    return _ROLES.get(kind, kind) if isinstance(kind, str) else kind


def _request_ids(message: Mapping[str, Any]) -> list | None:
    """The ids of the tool calls a message asks for (``None`` when it asks for none)."""
    requests = message.get("tool_calls")
    return list(requests) if requests else None


def check_pairing(messages: Iterable[Mapping[str, Any]]) -> str | None:
    """The first violation of tool-call/result pairing in ``messages``, or ``None`` if there is none.

    The rule OpenAI-style APIs enforce: an assistant message with tool calls must be followed at once by one
    ``tool`` message per call id, before any other message; every ``tool`` message must answer an open call. A
    call without a non-empty string ``id`` can never be answered, so it is a violation too. Messages may use
    OpenAI's ``role`` or LangChain's ``type``. The report is for a reader, in the learner's language
    (:mod:`loopkit.core.language`); a malformed list is a ``TypeError``, in English.

    >>> ai = {"type": "ai", "content": "", "tool_calls": [{"id": "c1"}]}
    >>> check_pairing([ai, {"type": "tool", "tool_call_id": "c1", "content": "ok"}]) is None
    True
    >>> print(check_pairing([ai, {"type": "human", "content": "warning"}, {"type": "tool", "tool_call_id": "c1"}]))
    message 1 (human) comes before the result of c1, requested by message 0
    """
    try:
        items = list(messages)
    except TypeError:
        raise TypeError(f"messages must be a list of message dicts, got {type(messages).__name__}") from None
    open_ids: list[str] = []
    opened_by = -1
    for index, message in enumerate(items):
        if not isinstance(message, Mapping) or _role(message) is None:
            raise TypeError(f"messages[{index}] must be a mapping with a 'role' or 'type', got {message!r:.60}")
        role, shown = _role(message), message.get("role", message.get("type"))
        if role == "tool":
            answered = message.get("tool_call_id")
            if answered not in open_ids:
                return tr("message {index} (tool) answers {call}, which no open assistant message requested",
                          index=index, call=answered)
            open_ids.remove(answered)
            continue
        if open_ids:
            waiting = {"index": index, "kind": shown, "calls": ", ".join(open_ids), "opener": opened_by}
            if len(open_ids) == 1:
                return tr("message {index} ({kind}) comes before the result of {calls}, requested by message {opener}",
                          **waiting)
            return tr("message {index} ({kind}) comes before the results of {calls}, requested by message {opener}",
                      **waiting)
        requests = _request_ids(message) if role == "assistant" else None
        if requests:
            for k, request in enumerate(requests):
                if not isinstance(request, Mapping):
                    return tr("message {index} ({kind}): tool call {k} is a {type}; expected a mapping with an 'id'",
                              index=index, kind=shown, k=k, type=type(request).__name__)
                if not isinstance(request.get("id"), str) or not request.get("id"):
                    return tr("message {index} ({kind}): tool call {k} has id {id}; expected a non-empty string id",
                              index=index, kind=shown, k=k, id=repr(request.get("id")))
            open_ids = [request["id"] for request in requests]
            opened_by = index
    if open_ids:
        return tr("{calls} of message {opener} never got a result", calls=", ".join(open_ids), opener=opened_by)
    return None


def _one_line(text: Any, width: int) -> str:
    """``text`` on one line (runs of white space folded to one space), cut to ``width``."""
    return clip(" ".join(str(text).split()), width)


def _call_text(request: Mapping[str, Any]) -> str:
    """``"-> c1 bash {"command": "ls"}"`` for a LangChain or an OpenAI-shaped call."""
    if "function" in request:
        function = request.get("function", {})
        return f"-> {request.get('id')} {function.get('name')} {function.get('arguments')}"
    args = request.get("args")
    return f"-> {request.get('id')} {request.get('name')} {args if isinstance(args, str) else display_json(args)}"


def format_messages(messages: Iterable[Mapping[str, Any]], *, start: int = 0, width: int = 90) -> str:
    """A compact listing of a message list, one line per message (per tool call), numbered from ``start``.

    A named message shows its name (``human:loop_warning``).

    >>> print(format_messages([{"type": "human", "content": "hi"},
    ...     {"type": "ai", "content": "", "tool_calls": [{"id": "c1", "name": "bash", "args": {"command": "ls"}}]},
    ...     {"type": "tool", "tool_call_id": "c1", "content": "a.py"}]))
     0 human      hi
     1 ai         -> c1 bash {"command": "ls"}
     2 tool       c1: a.py
    """
    lines = []
    for index, message in enumerate(list(messages)[start:], start=start):
        kind = message.get("type", message.get("role", "?"))
        label = f"{kind}:{message['name']}" if message.get("name") and kind != "tool" else kind
        head = f"{index:2d} {label:<10} "
        if _role(message) == "tool":
            lines.append(head + _one_line(f"{message.get('tool_call_id')}: {message.get('content', '')}", width))
            continue
        requests = message.get("tool_calls") or []
        if message.get("content") or not requests:
            lines.append(head + _one_line(message.get("content", ""), width))
            head = " " * len(head)
        for request in requests:
            lines.append(head + _one_line(_call_text(request), width))
            head = " " * len(head)
    return "\n".join(lines)
