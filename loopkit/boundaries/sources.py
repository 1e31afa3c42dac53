"""Where DeerFlow does what chapter 09 teaches: a file at a commit, and the issues or PRs that brought it in.

The other modules of :mod:`loopkit.boundaries` are this workbook's model of each idea, not DeerFlow's code; this
table says where DeerFlow's own version can be read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..language import tr
from ..upstream import COMMIT, REPO

__all__ = ["DeerFlowSource", "DEERFLOW_SOURCES", "deerflow_source_url", "deerflow_source_table", "deerflow_column"]


class DeerFlowSource(NamedTuple):
    """Where a behaviour this chapter teaches can be read in DeerFlow: a file at a commit, and its issues or PRs."""

    topic: str
    what: str  # the behaviour, in this workbook's words
    path: str
    commit: str
    threads: str  # "#1234, #5678", or "none found"


_HARNESS = "backend/packages/harness/deerflow"

#: The DeerFlow files this chapter cites, each at the commit where it was read, with the issues and PRs that brought
#: the behaviour in. None of them is the pinned commit: the search index held these files only at other commits, so
#: whether the pinned commit already behaved this way was not checked.
DEERFLOW_SOURCES = (
    DeerFlowSource(
        "durable context",
        "authority contract in a system message; summary, delegations and skill files in one hidden human message "
        "marked as data, added per model request only",
        f"{_HARNESS}/agents/middlewares/durable_context_middleware.py",
        "00e4f549707c9998e093b867c9d73fe87f7405ed",
        "#3887, #4040",
    ),
    DeerFlowSource(
        "user id",
        "the Gateway writes the user id from its authenticated session, never from the client's context",
        "backend/app/gateway/services.py",
        "001b4e84e82fbae8333670de25421f47f8ba7db4",
        "#3665, #4868",
    ),
    DeerFlowSource(
        "server-owned keys",
        "caller copies of server-owned context keys are dropped before the agent is built; the trace id is "
        "overwritten; the Gateway also drops keys starting with two underscores",
        f"{_HARNESS}/runtime/runs/worker.py",
        "002a9246c00b0ea54d2f10f25d76475790365c55",
        "#4203, #5119",
    ),
    DeerFlowSource(
        "sandbox lease",
        "the sandbox lease owner and command scope ids are server-owned context keys",
        f"{_HARNESS}/sandbox/lease.py",
        "163bcf1f4234f71e3009151c89b0dea86d1c9b48",
        "none found",
    ),
    DeerFlowSource(
        "embedded client",
        "DeerFlowClient runs the agent in-process, without HTTP and without the Gateway in front of it",
        "backend/docs/EMBEDDED_CLIENT.md",
        "5901684d7492044f068ac3aecedf17a7bd1e5a5e",
        "none found",
    ),
    DeerFlowSource(
        "request-scoped secrets",
        "the caller sends secrets in config.context.secrets; only str-to-str entries are kept; traces drop them",
        f"{_HARNESS}/runtime/secret_context.py",
        "0486463c622c031b0e29902aeefa0eab0fc4c0b5",
        "#3861, #3871",
    ),
    DeerFlowSource(
        "skill binding",
        "a skill declares required-secrets; the injection set is recomputed on every model call; a missing one is "
        "logged by name",
        f"{_HARNESS}/agents/middlewares/skill_activation_middleware.py",
        "023cd27d2227778dfaa36ef7dd2912498c043285",
        "#3871, #3938",
    ),
    DeerFlowSource(
        "sandbox env",
        "the inherited environment loses every name containing KEY, SECRET, TOKEN, PASSWORD, PASSWD or CREDENTIAL; "
        "the injected secrets are laid over it",
        f"{_HARNESS}/sandbox/env_policy.py",
        "4f474b53a40df99fa48d39068d41e5c86f2ee56b",
        "#3861",
    ),
    DeerFlowSource(
        "MCP headers",
        "headers_from_context maps MCP headers to keys of the same secrets carrier; missing or empty is denied",
        f"{_HARNESS}/mcp/context_headers.py",
        "44ed756d363ad575c1eaa2aae28d09981575c745",
        "#5005, #5010",
    ),
    DeerFlowSource(
        "header values",
        "every MCP header value is checked before the transport sees it; the error names the credential only",
        f"{_HARNESS}/mcp/headers.py",
        "87d6d612b262c7e206b3d21f6780776bf15854fd",
        "#5065, #5066",
    ),
)


def deerflow_source_url(source: DeerFlowSource) -> str:
    """The GitHub link to ``source.path`` at ``source.commit``, for a learner to open."""
    return f"https://github.com/{REPO}/blob/{source.commit}/{source.path}"


def deerflow_source_table(sources: Iterable[DeerFlowSource] = DEERFLOW_SOURCES) -> list[dict[str, str]]:
    """One row per source: topic, behaviour, file, commit read (8 characters), threads, and whether it is the pin.

    The headings, topics and summaries are in the learner's language (:func:`loopkit.language.tr`); file names,
    commits and thread numbers are facts and stay as they are.

    >>> deerflow_source_table()[0]["read at"], deerflow_source_table()[0]["pinned commit?"]
    ('00e4f549', 'no')
    """
    return [
        {
            tr("topic"): tr(source.topic),
            tr("what DeerFlow does"): tr(source.what),
            tr("file"): source.path.rsplit("/", 1)[1],
            tr("read at"): source.commit[:8],
            tr("issues / PRs"): tr(source.threads) if source.threads == "none found" else source.threads,
            tr("pinned commit?"): tr("yes") if source.commit == COMMIT else tr("no"),
        }
        for source in sources
    ]


def deerflow_column(topic: str) -> str:
    """The column title for DeerFlow's behaviour on ``topic`` (its English name): "DeerFlow at" and the commit where
    it was read, in the learner's language.

    >>> deerflow_column("header values")
    'DeerFlow at 87d6d612'
    """
    source = next(s for s in DEERFLOW_SOURCES if s.topic == topic)
    return tr("DeerFlow at {commit}", commit=source.commit[:8])
