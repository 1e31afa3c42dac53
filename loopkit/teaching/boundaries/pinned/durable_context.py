"""Where DeerFlow's durable context enters a model request at the pinned commit, and how its summary is cut.

DeerFlow's ``DurableContextMiddleware``
(``backend/packages/harness/deerflow/agents/middlewares/durable_context_middleware.py`` at ``f1f4af99``; PRs #3887,
#4040) adds, to each model request only, a system message holding its authority contract and one hidden human
message, marked as data, holding the thread's summary, delegation ledger and active skills. This is this workbook's
code for the layout of the request and for the summary's length bound, checked against 40 results recorded from
the pinned functions; the wording of the contract and of the sections is DeerFlow's and is not reproduced here.
"""

from __future__ import annotations

from collections.abc import Sequence

from loopkit.core.checks import require_str

__all__ = ["SUMMARY_CHAR_BUDGET", "OMISSION_MARKER", "bound_summary_text", "durable_context_layout"]

#: The summary's length bound in the data message (``durable_context_middleware.py`` at ``f1f4af99``, line 31).
SUMMARY_CHAR_BUDGET = 6000
#: What stands for the cut middle of a long text (line 53).
OMISSION_MARKER = "\n...\n"


def bound_summary_text(text: str, cap: int = SUMMARY_CHAR_BUDGET) -> str:
    """``text`` cut to at most ``cap`` characters (``_bound_text``, line 47): whole when it fits; otherwise its first
    two thirds of ``cap``, :data:`OMISSION_MARKER`, and as much of its end as fills ``cap``. A ``cap`` too small for
    the marker keeps only the start; a ``cap`` of 0 or less keeps nothing.

    >>> cut = bound_summary_text("x" * 7000)
    >>> len(cut), cut.index(OMISSION_MARKER), len(cut) - cut.index(OMISSION_MARKER) - len(OMISSION_MARKER)
    (6000, 4000, 1995)
    """
    require_str("text", text)
    if len(text) <= cap:
        return text
    if cap <= 0:
        return ""
    head = cap * 2 // 3
    tail = cap - head - len(OMISSION_MARKER)
    if tail <= 0:  # no room for the marker and an end: the start alone
        return text[:cap]
    return text[:head] + OMISSION_MARKER + text[-tail:]


def _sections(summary_text: str | None, delegations: Sequence, skills: Sequence) -> list[str]:
    """The data message's sections, each present only when it has something to say (``_render_durable_context_data``,
    line 69): a summary that is not empty, a non-empty delegation ledger, a non-empty list of skills."""
    present = [("summary", bool(summary_text)), ("delegations", bool(delegations)), ("skills", bool(skills))]
    return [name for name, has_content in present if has_content]


def durable_context_layout(roles: list[str], summary_text: str | None, delegations: list[dict],
                           skills: list[dict]) -> list[dict]:
    """The messages of a model request after the durable-context middleware (``_inject``, line 249), one entry per
    message: ``{"role", "from": "request", "index"}`` for a message of the request, ``{"role": "system", "from":
    "authority"}`` for the authority contract, and ``{"role": "human", "from": "data", "hidden": True,
    "marked_data": True, "sections": [...]}`` for the data message. The two come right after the request's
    *leading* system messages (a system message later in the request does not count), and only when there is a
    section; ``roles`` themselves are not changed, since upstream never writes them back to the thread's state.

    >>> [m["from"] for m in durable_context_layout(["system", "human"], "Outline agreed.", [], [])]
    ['request', 'authority', 'data', 'request']
    """
    if not isinstance(roles, Sequence) or isinstance(roles, str):
        raise TypeError(f"roles must be a list of message roles, got {type(roles).__name__}")
    request: list[dict] = [{"role": require_str(f"roles[{i}]", role), "from": "request", "index": i}
                           for i, role in enumerate(roles)]
    sections = _sections(summary_text, delegations, skills)
    if not sections:
        return request
    leading = next((i for i, role in enumerate(roles) if role != "system"), len(roles))
    added: list[dict] = [{"role": "system", "from": "authority"},
             {"role": "human", "from": "data", "hidden": True, "marked_data": True, "sections": sections}]
    return request[:leading] + added + request[leading:]
