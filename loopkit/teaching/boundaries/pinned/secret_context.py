"""The request-scoped secret carrier, as DeerFlow handles it at the pinned commit.

DeerFlow's ``backend/packages/harness/deerflow/runtime/secret_context.py`` at ``f1f4af99`` (issue #3861, PR #3871;
the ``auth_token`` refusal since PR #4448): a caller sends secrets in ``config.context.secrets``; only string names
with string values are read; a run whose metadata carries the legacy ``auth_token`` is refused; and the copy of a
run config that is stored or echoed loses the reserved context keys and that metadata key. This is this workbook's
code for those rules, checked against 60 decisions recorded from the pinned functions.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SECRETS_KEY", "ACTIVE_SECRETS_KEY", "BINDING_AUDIT_KEY", "REDACTED_CONTEXT_KEYS", "LEGACY_METADATA_KEY",
           "string_pairs", "request_secrets", "run_metadata_allowed", "redact_run_config"]

#: The run-context key the caller's secrets arrive under (``secret_context.py`` at ``f1f4af99``, line 21).
SECRETS_KEY = "secrets"
#: Where the skill-activation middleware puts the secrets bound for this call (line 26).
ACTIVE_SECRETS_KEY = "__active_skill_secrets"
#: Where it keeps the names-only record of the last binding (line 110).
BINDING_AUDIT_KEY = "__skill_secrets_binding_audit"
#: The run-context keys a stored or echoed copy never carries: they hold secret values, a middleware's owner token
#: or names of bound secrets (lines 124-133).
REDACTED_CONTEXT_KEYS = frozenset(
    {SECRETS_KEY, ACTIVE_SECRETS_KEY, "__slash_skill_secret_source", BINDING_AUDIT_KEY,
     "__slash_skill_activation_run", "__skill_tool_policy_decision"}
)
#: The metadata key a run may not use for a credential any more (line 34).
LEGACY_METADATA_KEY = "auth_token"


def string_pairs(raw: Any) -> dict[str, str]:
    """The entries of ``raw`` whose name and value are both strings (``{}`` when ``raw`` is no dict): a malformed
    carrier is read as far as it is well formed, never an error (line 54).

    >>> string_pairs({"API_KEY": "k", "PORT": 8080, 7: "x"})
    {'API_KEY': 'k'}
    """
    if not isinstance(raw, dict):
        return {}
    return {name: value for name, value in raw.items() if isinstance(name, str) and isinstance(value, str)}


def request_secrets(context: object) -> dict[str, str]:
    """The secrets a run context carries: its ``secrets`` mapping, read by :func:`string_pairs`
    (``extract_request_secrets``, line 60).

    >>> request_secrets({"secrets": {"GH_TOKEN": "t", "RETRIES": 3}, "user_id": "u"})
    {'GH_TOKEN': 't'}
    """
    if not isinstance(context, dict):
        return {}
    return string_pairs(context.get(SECRETS_KEY))


def run_metadata_allowed(metadata: object) -> bool:
    """False when run ``metadata`` is a dict holding the legacy ``auth_token`` key, which DeerFlow refuses at run
    admission (``validate_run_metadata_secrets`` raises, line 41). Anything else passes, even a non-dict.

    >>> run_metadata_allowed({"auth_token": "t"}), run_metadata_allowed({"topic": "x"}), run_metadata_allowed("auth_token")
    (False, True, True)
    """
    return not (isinstance(metadata, dict) and LEGACY_METADATA_KEY in metadata)


def redact_run_config(config: object) -> object:
    """The copy of a run config that may be stored on the run record or echoed by the run API: its ``context``
    without :data:`REDACTED_CONTEXT_KEYS`, its ``metadata`` without ``auth_token``, everything else as it was
    (``redact_config_secrets``, line 149). A non-dict passes unchanged; ``config`` itself is not modified.

    >>> redact_run_config({"context": {"secrets": {"K": "v"}, "topic": "x"}, "metadata": {"auth_token": "t"}})
    {'context': {'topic': 'x'}, 'metadata': {}}
    """
    if not isinstance(config, dict):
        return config
    redacted = dict(config)
    if isinstance(config.get("context"), dict):
        redacted["context"] = {key: value for key, value in config["context"].items()
                               if key not in REDACTED_CONTEXT_KEYS}
    if isinstance(config.get("metadata"), dict):
        redacted["metadata"] = {key: value for key, value in config["metadata"].items()
                                if key != LEGACY_METADATA_KEY}
    return redacted
