"""Where the detector's guarantees end (chapters 08 and 09): one module per boundary, and DeerFlow's own code.

- ``pinned``: DeerFlow's boundary functions at the pinned commit ``f1f4af99``, one function per pinned function,
  in this workbook's code and checked against 320 recorded decisions (:func:`is_blocked_env_name`,
  :func:`build_sandbox_env`, :func:`request_secrets`, :func:`run_metadata_allowed`, :func:`redact_run_config`,
  :func:`bind_skill_secrets`, :func:`gateway_run_config`, :func:`strip_message_metadata`,
  :func:`durable_context_layout`, :func:`bound_summary_text`, :func:`escape_blocked_tags`,
  :func:`mcp_interceptor_chain`).
- ``claims``: chapter 09's 32 claims, each with where to read it and what the pinned functions compute for it
  (:data:`BOUNDARY_CLAIMS`, :func:`claims_table`).

Every other helper here is **this workbook's model of the idea**, not DeerFlow's code, and differs from it where
its docstring says so; :data:`DEERFLOW_SOURCES` says where DeerFlow's own version can be read (a file at a commit,
with a line, and its issues or PRs).

- ``evidence``: what each kind of check proves (:data:`EVIDENCE_LEVELS`), and why the fingerprint is no credential
  (:func:`keyed_fingerprint`).
- ``sources``: where DeerFlow does each of these (:data:`DEERFLOW_SOURCES`).
- ``trust``: framework instructions are system context; everything else is data, framed
  (:func:`frame_untrusted`, :func:`read_frame`, :func:`assemble_context`).
- ``durable_context``: DeerFlow's shape of durable context: an authority contract in a system message, then one
  hidden human message marked as data (:func:`durable_context_messages`, :func:`with_durable_context`).
- ``server_keys``: a client cannot supply its own user id, sandbox lease, run trace, sequence number or internal
  keys (:func:`strip_server_owned`, :func:`memory_bucket`).
- ``credentials``: secrets leave the inherited environment; a request's declared credentials are laid over it, and
  a missing one is an error, not a fallback (:func:`scrub_env`, :func:`inject_credentials`).
- ``headers``: no control characters, and no surrounding spaces, reach a transport (:func:`validate_header_value`).
- ``deployment``: local evaluation, an isolated or a shared deployment (:func:`recommend_deployment`).

Every public name is importable from here (``from loopkit.teaching.boundaries import scrub_env``). No error raised in this
package ever contains a credential or header *value*: errors name the variable or header instead.
"""

from __future__ import annotations

from .claims import BOUNDARY_CLAIMS, Claim, claims_table, claims_tally
from .credentials import (
                    DEERFLOW_ENV_FRAGMENTS,
                    DEFAULT_ALLOW,
                    HARMLESS_WORDS,
                    SECRET_SUFFIXES,
                    SECRET_WORDS,
                    CredentialError,
                    deerflow_scrubs,
                    env_rules_table,
                    inject_credentials,
                    is_secret_name,
                    scrub_env,
)
from .deployment import DEPLOYMENTS, USER_CHOICES, Deployment, Recommendation, deployment_table, recommend_deployment
from .durable_context import AUTHORITY_CONTRACT, ContextMessage, durable_context_messages, with_durable_context
from .evidence import EVIDENCE_LEVELS, EvidenceLevel, evidence_table, keyed_fingerprint
from .headers import HeaderValueError, deerflow_header_refusal, header_rules_table, validate_header_value
from .pinned import (
                    PINNED_FUNCTIONS,
                    bind_skill_secrets,
                    bound_summary_text,
                    build_sandbox_env,
                    durable_context_layout,
                    escape_blocked_tags,
                    gateway_run_config,
                    is_blocked_env_name,
                    mcp_interceptor_chain,
                    pinned_url,
                    redact_run_config,
                    request_secrets,
                    run_metadata_allowed,
                    strip_message_metadata,
)
from .server_keys import INTERNAL_PREFIX, SERVER_OWNED_KEYS, memory_bucket, strip_server_owned
from .sources import DEERFLOW_SOURCES, DeerFlowSource, deerflow_source_table, deerflow_source_url
from .trust import (
                    DATA_SOURCES,
                    FRAME_NOTE,
                    INSTRUCTION_SOURCES,
                    assemble_context,
                    frame_untrusted,
                    read_frame,
                    trust_channel,
)

__all__ = [
    "EVIDENCE_LEVELS",
    "EvidenceLevel",
    "evidence_table",
    "keyed_fingerprint",
    "DeerFlowSource",
    "DEERFLOW_SOURCES",
    "deerflow_source_url",
    "deerflow_source_table",
    "INSTRUCTION_SOURCES",
    "DATA_SOURCES",
    "FRAME_NOTE",
    "trust_channel",
    "frame_untrusted",
    "read_frame",
    "assemble_context",
    "AUTHORITY_CONTRACT",
    "ContextMessage",
    "durable_context_messages",
    "with_durable_context",
    "SERVER_OWNED_KEYS",
    "INTERNAL_PREFIX",
    "strip_server_owned",
    "memory_bucket",
    "SECRET_WORDS",
    "SECRET_SUFFIXES",
    "HARMLESS_WORDS",
    "DEFAULT_ALLOW",
    "is_secret_name",
    "scrub_env",
    "DEERFLOW_ENV_FRAGMENTS",
    "deerflow_scrubs",
    "env_rules_table",
    "CredentialError",
    "inject_credentials",
    "HeaderValueError",
    "validate_header_value",
    "deerflow_header_refusal",
    "header_rules_table",
    "DEPLOYMENTS",
    "USER_CHOICES",
    "Deployment",
    "Recommendation",
    "deployment_table",
    "recommend_deployment",
    "PINNED_FUNCTIONS",
    "pinned_url",
    "is_blocked_env_name",
    "build_sandbox_env",
    "request_secrets",
    "run_metadata_allowed",
    "redact_run_config",
    "bind_skill_secrets",
    "gateway_run_config",
    "strip_message_metadata",
    "durable_context_layout",
    "bound_summary_text",
    "escape_blocked_tags",
    "mcp_interceptor_chain",
    "Claim",
    "BOUNDARY_CLAIMS",
    "claims_table",
    "claims_tally",
]
