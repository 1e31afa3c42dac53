"""The registry of formats: every ``--format`` name, in the order auto-detection tries them.

Formats whose records carry an envelope of their own (Kimi Code, Claude Code, Codex, OpenHands, Gemini CLI's sessions
and its stream-json lines, OpenCode, Cline's UI export, smolagents, SWE-agent) come first: their first record settles
the question. Kimi Code comes before Claude Code, which would otherwise take Kimi's ``context.append_message`` (a
``type`` and a ``message``) for a record of its own. The message formats come after, in the order that
keeps each call with the format that owns it: a Responses item is told by its ``type``, LangChain's calls have
``args`` where OpenAI's have ``function``, Inspect names the tool in a string ``function``, Anthropic's calls are
``tool_use`` blocks in ``content``, and mini-swe-agent's are code fences in text, detected only by the fence named
for it (``mswea_bash_command``).
"""

from __future__ import annotations

from . import (
    anthropic,
    claude_code,
    cline_ui,
    codex,
    gemini_cli,
    gemini_stream,
    inspect_ai,
    kimi_code,
    langchain,
    mini_swe_agent,
    openai_chat,
    openai_responses,
    opencode,
    openhands,
    smolagents,
    swe_agent,
)
from .base import Format

__all__ = ["REGISTRY", "FORMATS", "AUTO", "CALL_KEY_OWNERS", "get_format", "format_named"]

#: Every format, in detection order.
REGISTRY: tuple[Format, ...] = (
    kimi_code.FORMAT,
    claude_code.FORMAT,
    codex.FORMAT,
    openhands.FORMAT,
    gemini_cli.FORMAT,
    gemini_stream.FORMAT,
    opencode.FORMAT,
    cline_ui.FORMAT,
    smolagents.FORMAT,
    swe_agent.SWE_AGENT,
    openai_responses.FORMAT,
    langchain.FORMAT,
    inspect_ai.FORMAT,
    openai_chat.FORMAT,
    anthropic.FORMAT,
    mini_swe_agent.FORMAT,
)

#: The names ``format=`` (and ``--format``) takes, besides ``"auto"``: the four message formats first.
FORMATS: tuple[str, ...] = ("openai-chat", "openai-responses", "anthropic", "langchain", "claude-code", "codex",
                            "openhands", "gemini-cli", "inspect-ai", "swe-agent", "mini-swe-agent", "smolagents",
                            "gemini-cli-stream", "kimi-code", "opencode", "cline")

#: The formats auto-detection tries, record by record.
AUTO: tuple[Format, ...] = tuple(fmt for fmt in REGISTRY if fmt.auto)

#: For each top-level key, the auto-detected formats that keep calls under it (see ``Format.call_keys``).
CALL_KEY_OWNERS: dict[str, tuple[Format, ...]] = {
    key: tuple(fmt for fmt in AUTO if key in fmt.call_keys) for fmt in AUTO for key in fmt.call_keys
}

_BY_NAME = {fmt.name: fmt for fmt in REGISTRY}


def get_format(name: str) -> Format:
    """The format called ``name``; ``ValueError`` naming the choices otherwise.

    >>> get_format("codex").batching
    'consecutive'
    """
    if name not in _BY_NAME:
        raise ValueError(f"format must be 'auto' or one of {', '.join(FORMATS)}; got {name!r}")
    return _BY_NAME[name]


def format_named(name: str | Format | None) -> Format | None:
    """What a ``format=`` argument asks for, parsed once at the door: ``None`` for ``"auto"`` (detect it), else the
    format called ``name`` (a :class:`Format` passes as it is); ``ValueError`` naming the choices otherwise.

    >>> format_named("auto") is None, format_named("codex") is format_named(get_format("codex"))
    (True, True)
    """
    if name is None or isinstance(name, Format):
        return name
    return None if name == "auto" else get_format(name)
