"""Operating choices: local evaluation, an isolated or a shared deployment, and what each asks of you (chapter 09)."""

from __future__ import annotations

from typing import NamedTuple

from loopkit.core.language import N_, tr

__all__ = ["Deployment", "DEPLOYMENTS", "deployment_table", "Recommendation", "USER_CHOICES", "recommend_deployment"]


class Deployment(NamedTuple):
    option: str
    trusted: str
    state: str
    configure: str


#: The three ways to run an agent with the detector, and what each asks of you.
DEPLOYMENTS = {
    "local": Deployment(
        N_("local evaluation"),
        N_("you, and every input you feed it (synthetic or recorded traces)"),
        N_("in the process; gone when the kernel stops"),
        N_("nothing beyond the workbook; no real credentials, no untrusted pages"),
    ),
    "isolated": Deployment(
        N_("isolated deployment"),
        N_("one user or team as operator; fetched pages and tool results stay data"),
        N_("that deployment's own sandbox and volume"),
        N_("a sandbox for tools, a scrubbed env with request-scoped credentials, framed data, detector thresholds"),
    ),
    "shared": Deployment(
        N_("shared deployment"),
        N_("nobody's client: identity comes from authentication only"),
        N_("shared stores, partitioned by server-owned user id and run"),
        N_("authentication, strip_server_owned on every request, per-user memory buckets, a sandbox lease per run "
           "(DeerFlow added one after the pin), request-scoped credentials, header validation (DeerFlow added it after "
           "the pin, PR #5066), bounded per-run state"),
    ),
}


def deployment_table() -> list[dict[str, str]]:
    """:data:`DEPLOYMENTS` as a list of dicts, ready for ``pandas.DataFrame``, headings and cells in the learner's
    language (:func:`loopkit.core.language.tr`).

    >>> [row["option"] for row in deployment_table()]
    ['local evaluation', 'isolated deployment', 'shared deployment']
    """
    return [
        {tr("option"): tr(d.option), tr("trusted"): tr(d.trusted), tr("state"): tr(d.state),
         tr("configure"): tr(d.configure)}
        for d in DEPLOYMENTS.values()
    ]


class Recommendation(NamedTuple):
    """The advised option (a key of :data:`DEPLOYMENTS`, always English), the answers that decided it, and what to
    configure (both in the learner's language)."""

    choice: str
    reasons: tuple[str, ...]
    configure: str


#: The answers :func:`recommend_deployment` accepts for ``users``.
USER_CHOICES = (N_("only me"), N_("several people"))


def recommend_deployment(
    users: str,
    reachable: bool,
    real_credentials: bool,
    untrusted_content: bool,
    persistent_state: bool,
) -> Recommendation:
    """Advise one of :data:`DEPLOYMENTS` from five answers.

    Policy: more than one user of one running instance, or an instance others can reach over the network, needs a
    shared deployment (identity must come from the server). Otherwise, real credentials, untrusted content (web
    pages, MCP tools, uploads) or state that must outlive the process need an isolated deployment. Otherwise local
    evaluation is enough.

    >>> recommend_deployment("only me", False, True, False, False).choice
    'isolated'
    """
    if users not in USER_CHOICES:
        raise ValueError(f"users must be one of {USER_CHOICES}, got {users!r}")
    answers = {
        "reachable": reachable,
        "real_credentials": real_credentials,
        "untrusted_content": untrusted_content,
        "persistent_state": persistent_state,
    }
    for argument, answer in answers.items():
        if not isinstance(answer, bool):
            raise TypeError(f"{argument} must be True or False, got {answer!r}")
    shared = [
        why
        for why, applies in (
            (N_("several people use one instance: each needs a server-owned identity"), users == "several people"),
            (N_("others can reach it over the network: every request is a client you do not control"), reachable),
        )
        if applies
    ]
    isolated = [
        why
        for why, applies in (
            (N_("real credentials: they need scrubbing and request-scoped injection"), real_credentials),
            (N_("untrusted content: a prompt injection must not reach your own machine"), untrusted_content),
            (N_("state must persist: it needs its own storage"), persistent_state),
        )
        if applies
    ]
    if shared:
        choice, reasons = "shared", shared + isolated
    elif isolated:
        choice, reasons = "isolated", isolated
    else:
        choice, reasons = "local", [N_("one user, no real credentials, no untrusted content, nothing to keep")]
    return Recommendation(choice, tuple(tr(reason) for reason in reasons), tr(DEPLOYMENTS[choice].configure))
