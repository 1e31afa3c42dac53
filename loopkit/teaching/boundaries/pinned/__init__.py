"""DeerFlow's own boundary code at the pinned commit ``f1f4af99``, one function per pinned function (chapter 09).

Each function here is this workbook's code, written from reading the pinned file and checked against the 320
decisions recorded from that file's function (``tests/data/boundaries-vectors.json``, copied from the shared
conformance set; ``tests/test_boundaries_pinned.py`` replays every one). Unlike the rest of
:mod:`loopkit.teaching.boundaries`, which is this workbook's model of each idea, these say what DeerFlow itself does at the
pin. :data:`PINNED_FUNCTIONS` says where each upstream function can be read, with its line.

- ``env_policy``: :func:`is_blocked_env_name`, :func:`build_sandbox_env`;
- ``secret_context``: :func:`request_secrets`, :func:`run_metadata_allowed`, :func:`redact_run_config`;
- ``skill_activation``: :func:`bind_skill_secrets`;
- ``gateway`` (``services.py``): :func:`gateway_run_config`, :func:`strip_message_metadata`;
- ``durable_context``: :func:`durable_context_layout`, :func:`bound_summary_text`;
- ``input_sanitization``: :func:`escape_blocked_tags`;
- ``mcp_interceptors``: :func:`mcp_interceptor_chain`.
"""

from __future__ import annotations

from typing import NamedTuple

from loopkit.core.upstream import COMMIT, REPO

from .durable_context import OMISSION_MARKER, SUMMARY_CHAR_BUDGET, bound_summary_text, durable_context_layout
from .env_policy import BLOCKED_EXACT_NAMES, BLOCKED_NAME_FRAGMENTS, build_sandbox_env, is_blocked_env_name
from .gateway import (
    CONFIGURABLE_CONTEXT_KEYS,
    INTERNAL_CALLER_KEYS,
    RUNTIME_ONLY_KEYS,
    SERVER_OWNED_AUTHZ_KEYS,
    SERVER_OWNED_MESSAGE_KEYS,
    gateway_run_config,
    strip_message_metadata,
)
from .input_sanitization import BLOCKED_TAG_NAMES, escape_blocked_tags
from .mcp_interceptors import BUILDER_OUTCOMES, mcp_interceptor_chain
from .secret_context import (
    ACTIVE_SECRETS_KEY,
    BINDING_AUDIT_KEY,
    REDACTED_CONTEXT_KEYS,
    redact_run_config,
    request_secrets,
    run_metadata_allowed,
)
from .skill_activation import bind_skill_secrets

__all__ = [
    "PinnedFunction", "PINNED_FUNCTIONS", "pinned_url",
    "BLOCKED_NAME_FRAGMENTS", "BLOCKED_EXACT_NAMES", "is_blocked_env_name", "build_sandbox_env",
    "ACTIVE_SECRETS_KEY", "BINDING_AUDIT_KEY", "REDACTED_CONTEXT_KEYS", "request_secrets", "run_metadata_allowed",
    "redact_run_config", "bind_skill_secrets",
    "CONFIGURABLE_CONTEXT_KEYS", "INTERNAL_CALLER_KEYS", "SERVER_OWNED_AUTHZ_KEYS", "RUNTIME_ONLY_KEYS",
    "SERVER_OWNED_MESSAGE_KEYS", "gateway_run_config", "strip_message_metadata",
    "SUMMARY_CHAR_BUDGET", "OMISSION_MARKER", "bound_summary_text", "durable_context_layout",
    "BLOCKED_TAG_NAMES", "escape_blocked_tags", "BUILDER_OUTCOMES", "mcp_interceptor_chain",
]  # fmt: skip

_HARNESS = "backend/packages/harness/deerflow"


class PinnedFunction(NamedTuple):
    """Where one of this package's functions can be read in DeerFlow at the pin: the file, the upstream name, and
    the line where that name is defined (each line checked against the pinned tree)."""

    function: str  # this package's name
    path: str
    upstream: str
    line: int


#: Each function of this package, the upstream function it is checked against, and where to read that one.
PINNED_FUNCTIONS = (
    PinnedFunction("is_blocked_env_name", f"{_HARNESS}/sandbox/env_policy.py", "is_blocked_env_name", 91),
    PinnedFunction("build_sandbox_env", f"{_HARNESS}/sandbox/env_policy.py", "build_sandbox_env", 100),
    PinnedFunction("request_secrets", f"{_HARNESS}/runtime/secret_context.py", "extract_request_secrets", 60),
    PinnedFunction("run_metadata_allowed", f"{_HARNESS}/runtime/secret_context.py", "validate_run_metadata_secrets",
                   41),
    PinnedFunction("redact_run_config", f"{_HARNESS}/runtime/secret_context.py", "redact_config_secrets", 149),
    PinnedFunction("bind_skill_secrets", f"{_HARNESS}/agents/middlewares/skill_activation_middleware.py",
                   "SkillActivationMiddleware._resolve_secret_bindings", 361),
    PinnedFunction("gateway_run_config", "backend/app/gateway/services.py", "start_run", 1055),
    PinnedFunction("strip_message_metadata", "backend/app/gateway/services.py", "_strip_external_message_metadata",
                   231),
    PinnedFunction("durable_context_layout", f"{_HARNESS}/agents/middlewares/durable_context_middleware.py",
                   "DurableContextMiddleware._inject", 249),
    PinnedFunction("bound_summary_text", f"{_HARNESS}/agents/middlewares/durable_context_middleware.py",
                   "_bound_text", 47),
    PinnedFunction("escape_blocked_tags", f"{_HARNESS}/agents/middlewares/input_sanitization_middleware.py",
                   "neutralize_untrusted_tags", 149),
    PinnedFunction("mcp_interceptor_chain", f"{_HARNESS}/mcp/interceptors.py", "build_mcp_tool_interceptors", 15),
)


def pinned_url(path: str, line: int | None = None) -> str:
    """The link to ``path`` at the pinned commit, at ``line`` when given.

    >>> pinned_url("backend/app/gateway/services.py", 424).rsplit("/", 1)[1]
    'services.py#L424'
    """
    anchor = f"#L{line}" if line is not None else ""
    return f"https://github.com/{REPO}/blob/{COMMIT}/{path}{anchor}"
