"""Where DeerFlow does what chapter 09 teaches: a file at a commit, with a line, and the issues or PRs that brought
it in.

Most of these files are in DeerFlow's tree at the pinned commit ``f1f4af99``, and are read there;
:mod:`loopkit.teaching.boundaries.pinned` holds this workbook's code for their functions, checked against recorded
decisions. Three topics are **not in the pinned tree**: they came later, and are read at the later (or PR-branch)
commit where they were found. The other modules of :mod:`loopkit.teaching.boundaries` are this workbook's model of each
idea, not DeerFlow's code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from loopkit.core.language import N_, tr
from loopkit.core.upstream import COMMIT, REPO

__all__ = ["DeerFlowSource", "DEERFLOW_SOURCES", "deerflow_source_url", "deerflow_source_table", "deerflow_column"]


class DeerFlowSource(NamedTuple):
    """Where a behaviour this chapter teaches can be read in DeerFlow: a file at a commit (the pinned one where the
    file is in the pinned tree), the line to start at, and its issues or PRs."""

    topic: str
    what: str  # the behaviour, in this workbook's words
    path: str
    commit: str
    threads: str  # "#1234, #5678", or "none found"
    line: int | None = None

    @property
    def pinned(self) -> bool:
        """Whether this is read at the pinned commit (else it came later and is not in the pinned tree)."""
        return self.commit == COMMIT


_HARNESS = "backend/packages/harness/deerflow"
_MIDDLEWARES = f"{_HARNESS}/agents/middlewares"

#: The DeerFlow files chapter 09 cites. Every line anchor was checked against the tree at the commit named.
DEERFLOW_SOURCES = (
    DeerFlowSource(
        N_("durable context"),
        N_("authority contract in a system message, then one hidden human message marked as data holding the summary "
        "(cut to 6,000 characters), delegations and skills, both right after the leading system messages, added to "
        "each model request only"),
        f"{_MIDDLEWARES}/durable_context_middleware.py", COMMIT, "#3887, #4040", 249,
    ),
    DeerFlowSource(
        N_("input sanitization"),
        N_("the genuine user message has its framework and injection tags HTML-escaped, then is framed between BEGIN "
           "and END USER INPUT markers; other tags are left alone"),
        f"{_MIDDLEWARES}/input_sanitization_middleware.py", COMMIT, "#3630, #3662, #4155", 192,
    ),
    DeerFlowSource(
        N_("tool-result sanitization"),
        N_("the results of four first-party network tools (web_fetch, web_search, image_search, web_capture) get the "
           "same tag escaping, without a frame; MCP tools of other names are not covered"),
        f"{_MIDDLEWARES}/tool_result_sanitization_middleware.py", COMMIT, "#4002", 19,
    ),
    DeerFlowSource(
        N_("user id"),
        N_("the Gateway writes the authenticated user's id, role and OAuth fields into the run context over the "
        "client's; with no authenticated user, a client's user_id stays"),
        "backend/app/gateway/services.py", COMMIT, "#2784, #3665, #3839", 424,
    ),
    DeerFlowSource(
        N_("server-owned keys"),
        N_("authorization keys are removed from context and configurable and is_internal is written by the server; "
        "request-config context keys starting with two underscores are dropped; non_interactive is for internal "
        "callers only"),
        "backend/app/gateway/services.py", COMMIT, "#4203, #3938, #3898", 324,
    ),
    DeerFlowSource(
        N_("message metadata"),
        N_("an untrusted caller's messages lose the server-owned metadata: the original user text, the reminder "
           "markers "
        "and the view-image marker"),
        "backend/app/gateway/services.py", COMMIT, "#4065", 231,
    ),
    DeerFlowSource(
        N_("run context"),
        N_("the worker builds the runtime context with its own thread_id and run_id; the caller's keys only fill gaps"),
        f"{_HARNESS}/runtime/runs/worker.py", COMMIT, "#2679", 382,
    ),
    DeerFlowSource(
        N_("embedded client"),
        N_("DeerFlowClient runs the agent in-process, without the LangGraph Server or the Gateway in front of it"),
        f"{_HARNESS}/client.py", COMMIT, N_("none found"), 1,
    ),
    DeerFlowSource(
        N_("request-scoped secrets"),
        N_("the caller sends secrets in config.context.secrets; only str-to-str entries are read; stored and echoed "
           "run "
        "configs lose them; metadata auth_token is refused"),
        f"{_HARNESS}/runtime/secret_context.py", COMMIT, "#3861, #3871, #4448", 60,
    ),
    DeerFlowSource(
        N_("skill binding"),
        N_("on every model call the injected set becomes the declared names the request supplies; a missing one is "
           "only "
        "named in the audit record and logged"),
        f"{_MIDDLEWARES}/skill_activation_middleware.py", COMMIT, "#3871, #3938", 361,
    ),
    DeerFlowSource(
        N_("sandbox env"),
        N_("the inherited environment loses every name containing KEY, SECRET, TOKEN, PASS, CREDENTIAL or DSN, and 19 "
        "exact names such as DATABASE_URL and GH_PAT; the injected secrets are laid over it"),
        f"{_HARNESS}/sandbox/env_policy.py", COMMIT, "#3871, #4018, #4026", 91,
    ),
    DeerFlowSource(
        N_("MCP interceptors"),
        N_("an MCP tool call passes the OAuth interceptor, installed only when an MCP server has OAuth configured, then "
           "the operator's configured interceptors; a bad one is skipped"),
        f"{_HARNESS}/mcp/interceptors.py", COMMIT, "#908, #2451", 15,
    ),
    DeerFlowSource(
        N_("sandbox lease"),
        N_("later, not in the pinned tree: the sandbox lease owner and command scope ids are server-owned context "
           "keys"),
        f"{_HARNESS}/sandbox/lease.py", "163bcf1f4234f71e3009151c89b0dea86d1c9b48", "none found", 28,
    ),
    DeerFlowSource(
        N_("MCP headers"),
        N_("later, not in the pinned tree: headers_from_context maps MCP headers to keys of the same secrets carrier; "
        "missing or empty is denied"),
        f"{_HARNESS}/mcp/context_headers.py", "44ed756d363ad575c1eaa2aae28d09981575c745", "#5005, #5010", 58,
    ),
    DeerFlowSource(
        N_("header values"),
        N_("later, not in the pinned tree: every MCP header value is checked before the transport sees it; the error "
        "names the credential only"),
        f"{_HARNESS}/mcp/headers.py", "87d6d612b262c7e206b3d21f6780776bf15854fd", "#5065, #5066",
    ),
)


def deerflow_source_url(source: DeerFlowSource) -> str:
    """The GitHub link to ``source.path`` at ``source.commit``, at its line when it has one."""
    anchor = f"#L{source.line}" if source.line is not None else ""
    return f"https://github.com/{REPO}/blob/{source.commit}/{source.path}{anchor}"


def deerflow_source_table(sources: Iterable[DeerFlowSource] = DEERFLOW_SOURCES) -> list[dict[str, str]]:
    """One row per source: topic, behaviour, file (and line), commit read (8 characters), threads, and whether it is
    the pin.

    The headings, topics and summaries are in the learner's language (:func:`loopkit.core.language.tr`); file names,
    commits and thread numbers are facts and stay as they are.

    >>> deerflow_source_table()[0]["file"], deerflow_source_table()[0]["pinned commit?"]
    ('durable_context_middleware.py:249', 'yes')
    """
    return [
        {
            tr("topic"): tr(source.topic),
            tr("what DeerFlow does"): tr(source.what),
            tr("file"): source.path.rsplit("/", 1)[1] + (f":{source.line}" if source.line is not None else ""),
            tr("read at"): source.commit[:8],
            tr("issues / PRs"): tr(source.threads) if source.threads == "none found" else source.threads,
            tr("pinned commit?"): tr("yes") if source.pinned else tr("no"),
        }
        for source in sources
    ]


def deerflow_column(topic: str) -> str:
    """The column title for DeerFlow's behaviour on ``topic`` (its English name): "DeerFlow at" and the commit where
    it was read, in the learner's language.

    >>> deerflow_column("header values"), deerflow_column("sandbox env")
    ('DeerFlow at 87d6d612', 'DeerFlow at f1f4af99')
    """
    source = next(s for s in DEERFLOW_SOURCES if s.topic == topic)
    return tr("DeerFlow at {commit}", commit=source.commit[:8])
