"""How DeerFlow's Gateway builds a run's config from a client request at the pinned commit, and which message
metadata it refuses from an untrusted caller.

DeerFlow's ``backend/app/gateway/services.py`` at ``f1f4af99``: ``start_run`` (line 1055) calls
``build_run_config``, ``merge_run_context_overrides``, ``strip_internal_context_keys`` (for callers that are not
internally authenticated) and ``inject_authenticated_user_context``, in that order; ``normalize_input`` strips
server-owned metadata from an untrusted caller's messages. This is this workbook's code for those steps, one
function per step, checked against 40 results recorded from the pinned functions. Left out, because they do not
touch ``context`` or ``configurable``: the recursion-limit clamp, ``run_name``, run metadata, and the checkpoint
settings ``start_run`` applies between the first two steps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["CONFIGURABLE_CONTEXT_KEYS", "INTERNAL_CALLER_KEYS", "SERVER_OWNED_AUTHZ_KEYS", "RUNTIME_ONLY_KEYS",
           "SERVER_OWNED_MESSAGE_KEYS", "gateway_run_config", "strip_message_metadata"]

#: ``body.context`` keys copied into both ``context`` and ``configurable`` (``services.py`` at ``f1f4af99``,
#: lines 296-309).
CONFIGURABLE_CONTEXT_KEYS = frozenset({"model_name", "mode", "thinking_enabled", "reasoning_effort", "is_plan_mode",
                                       "subagent_enabled", "max_concurrent_subagents", "max_total_subagents",
                                       "agent_name", "is_bootstrap"})
#: Honoured only for internally authenticated callers (the scheduler), removed for everyone else (line 314).
INTERNAL_CALLER_KEYS = frozenset({"non_interactive"})
#: Identity and authorization keys no client may supply; removed from ``context`` and ``configurable`` before the
#: server writes its own (lines 324-332).
SERVER_OWNED_AUTHZ_KEYS = frozenset({"is_internal", "authz_attributes", "channel_user_id", "langgraph_auth_user",
                                     "langgraph_auth_user_id"})
#: ``body.context`` keys copied into ``context`` only, never into ``configurable``, which checkpoints persist
#: (line 349).
RUNTIME_ONLY_KEYS = frozenset({"github_token", "disable_clarification"})
#: A run's private checkpoint setting, removed from both sections (``runtime/checkpoint_mode.py``, line 18).
CHECKPOINT_MODE_KEY = "__deerflow_checkpoint_channel_mode"
#: Message metadata only the server may set: the user's original text and two reminder markers
#: (``utils/messages.py`` line 9, ``dynamic_context_middleware.py`` lines 58 and 62) and the view-image marker
#: (``view_image_middleware.py`` line 23); ``services.py`` lines 108-114 and 231-241.
SERVER_OWNED_MESSAGE_KEYS = frozenset({"original_user_content", "dynamic_context_reminder", "reminder_date",
                                       "deerflow_view_image_context"})
#: The default assistant: no agent name is derived from it (line 287).
DEFAULT_ASSISTANT = "lead_agent"
#: The system role of DeerFlow's internal callers (``app/gateway/internal_auth.py`` at ``f1f4af99``, line 16).
INTERNAL_SYSTEM_ROLE = "internal"


def _build_run_config(thread_id: str, request_config: Mapping | None, assistant_id: str | None) -> dict:
    """``build_run_config`` (line 541), its ``context`` and ``configurable`` only. A request ``context`` is copied
    without its ``__`` keys, gets the path's ``thread_id``, and replaces ``configurable`` by ``{thread_id}``; with
    no request ``context``, the request ``configurable`` is copied whole and ``thread_id`` overwritten. A custom
    assistant adds its agent name to both, unless either section already names one."""
    config: dict[str, Any] = {}
    if not request_config:
        config["configurable"] = {"thread_id": thread_id}
    elif "context" in request_config:
        given = request_config["context"]
        if given is not None and not isinstance(given, Mapping):
            raise ValueError("request config 'context' must be a mapping or null.")
        context = {key: value for key, value in (given or {}).items()
                   if not (isinstance(key, str) and key.startswith("__"))}  # the harness's private channels
        context["thread_id"] = thread_id
        config["context"] = context
        config["configurable"] = {"thread_id": thread_id}
    else:
        configurable = {"thread_id": thread_id}
        configurable.update(request_config.get("configurable") or {})
        configurable["thread_id"] = thread_id  # the path's thread id, whatever the client sent
        config["configurable"] = configurable
    if assistant_id and assistant_id != DEFAULT_ASSISTANT:
        normalized = assistant_id.strip().lower().replace("_", "-")
        if not re.fullmatch(r"[a-z0-9-]+", normalized):
            raise ValueError(f"Invalid assistant_id {assistant_id!r}: must contain only letters, digits, and "
                             "hyphens after normalization.")
        configurable = config.setdefault("configurable", {})
        context = config.setdefault("context", {})
        named = [section["agent_name"] for section in (configurable, context)
                 if isinstance(section, dict) and isinstance(section.get("agent_name"), str)]
        agent_name = (named[0] if named else "") or normalized
        configurable["agent_name"] = context["agent_name"] = agent_name
    for section in ("configurable", "context"):
        if isinstance(config.get(section), dict):
            config[section].pop(CHECKPOINT_MODE_KEY, None)
    return config


def _merge_body_context(config: dict, body_context: Mapping | None, *, internal: bool) -> None:
    """``merge_run_context_overrides`` (line 367): listed ``body.context`` keys fill gaps (``setdefault``) in both
    sections, the runtime-only ones and ``user_id`` in ``context`` only. A key already set by the request config
    wins."""
    if not body_context:
        return
    configurable = config.setdefault("configurable", {})
    context = config.setdefault("context", {})
    both = CONFIGURABLE_CONTEXT_KEYS | (INTERNAL_CALLER_KEYS if internal else frozenset())
    for key in sorted(both & set(body_context)):
        configurable.setdefault(key, body_context[key])
        context.setdefault(key, body_context[key])
    for key in sorted((RUNTIME_ONLY_KEYS | {"user_id"}) & set(body_context)):
        context.setdefault(key, body_context[key])


def _strip_internal_caller_keys(config: dict) -> None:
    """``strip_internal_context_keys`` (line 352): a caller that is not internally authenticated loses the
    internal-only keys it put anywhere in the config."""
    for section in ("context", "configurable"):
        if isinstance(config.get(section), dict):
            for key in INTERNAL_CALLER_KEYS:
                config[section].pop(key, None)


def _stamp_identity(config: dict, body_context: Mapping | None, *, internal: bool, user: Mapping | None,
                    internal_owner: Mapping | None) -> None:
    """``inject_authenticated_user_context`` (line 424): every server-owned authorization key is removed from both
    sections and ``is_internal`` is written from the auth source; an internal caller's ``body.context`` may name
    the ``channel_user_id``. Then the authenticated user's id, role and OAuth fields are written over the client's.
    With no user id there is nothing to write, so a client-supplied ``user_id`` survives; the internal system user
    writes its resolved owner's fields, or, with no owner, only drops the role and OAuth fields."""
    context = config.setdefault("context", {})
    for section in (context, config.get("configurable")):
        if isinstance(section, dict):
            for key in SERVER_OWNED_AUTHZ_KEYS:
                section.pop(key, None)
    context["is_internal"] = internal
    if internal and body_context is not None and body_context.get("channel_user_id") is not None:
        context["channel_user_id"] = body_context["channel_user_id"]
    if user is None or user.get("id") is None:
        return
    if user.get("system_role") == INTERNAL_SYSTEM_ROLE:
        if internal_owner is None:
            for key in ("user_role", "oauth_provider", "oauth_id"):
                context.pop(key, None)
            return
        if internal_owner.get("id") is not None:
            context["user_id"] = str(internal_owner["id"])
        identity = internal_owner
    else:
        context["user_id"] = str(user["id"])
        identity = user
    context["user_role"] = identity.get("system_role")
    context["oauth_provider"] = identity.get("oauth_provider")
    context["oauth_id"] = identity.get("oauth_id")


def gateway_run_config(thread_id: str, request_config: dict | None, body_context: dict | None, *, internal: bool,
                       user: dict | None, internal_owner: dict | None = None,
                       assistant_id: str | None = None) -> dict:
    """The ``context`` and ``configurable`` a run gets from a request, after the four steps ``start_run`` takes at
    the pin, in its order: build, merge ``body.context``, strip internal-only keys (unless ``internal``), stamp the
    server's identity. ``user`` is the authenticated user (``{"id", "system_role", "oauth_provider",
    "oauth_id"}``) or None; ``internal_owner`` is the owner an internal caller acts for, once resolved. A bad
    request ``context`` or ``assistant_id`` raises ``ValueError``, as upstream's does.

    >>> config = gateway_run_config("t-1", {"context": {"user_id": "alice", "__x": 1}}, None, internal=False,
    ...                             user={"id": "bob", "system_role": "user", "oauth_provider": None, "oauth_id": None})
    >>> config["context"]
    {'user_id': 'bob', 'thread_id': 't-1', 'is_internal': False, 'user_role': 'user', 'oauth_provider': None, 'oauth_id': None}
    >>> sorted(config), config["configurable"]
    (['configurable', 'context'], {'thread_id': 't-1'})
    """
    config = _build_run_config(thread_id, request_config, assistant_id)
    _merge_body_context(config, body_context, internal=internal)
    if not internal:
        _strip_internal_caller_keys(config)
    _stamp_identity(config, body_context, internal=internal, user=user, internal_owner=internal_owner)
    return {"context": config.get("context"), "configurable": config.get("configurable")}


def strip_message_metadata(additional_kwargs: dict, *, trusted_internal: bool) -> dict:
    """The ``additional_kwargs`` of an input message as the Gateway keeps it: an untrusted caller's message loses
    :data:`SERVER_OWNED_MESSAGE_KEYS` (exact, case-sensitive names); a trusted internal caller's keeps everything
    (``_strip_external_message_metadata``, line 231, applied by ``normalize_input``, line 281).

    >>> strip_message_metadata({"original_user_content": "x", "files": ["a.pdf"]}, trusted_internal=False)
    {'files': ['a.pdf']}
    """
    if not isinstance(additional_kwargs, dict):
        raise TypeError(f"additional_kwargs must be a dict, got {type(additional_kwargs).__name__}")
    if trusted_internal:
        return dict(additional_kwargs)
    return {key: value for key, value in additional_kwargs.items() if key not in SERVER_OWNED_MESSAGE_KEYS}
