"""Which inherited environment variables a sandbox command keeps, as DeerFlow decides it at the pinned commit.

DeerFlow's ``backend/packages/harness/deerflow/sandbox/env_policy.py`` at ``f1f4af99`` (issue #3861): a name is
blocked when, upper-cased, it is one of a list of exact names or contains one of six fragments anywhere; the
secrets a request injects are then laid over what is left. This is this workbook's code for that rule, checked
against 120 decisions recorded from the pinned functions (``tests/data/boundaries-vectors.json``).
"""

from __future__ import annotations

from collections.abc import Mapping

from loopkit.core.checks import require_str

__all__ = ["BLOCKED_NAME_FRAGMENTS", "BLOCKED_EXACT_NAMES", "is_blocked_env_name", "build_sandbox_env"]

#: A name containing one of these (after upper-casing), even inside a longer word, is blocked: ``KEYBOARD_LAYOUT``
#: and ``COMPASS_HEADING`` go too. ``env_policy.py`` at ``f1f4af99``, lines 24-46.
BLOCKED_NAME_FRAGMENTS = ("KEY", "SECRET", "TOKEN", "PASS", "CREDENTIAL", "DSN")

#: Names blocked exactly (after upper-casing): connection strings and credential sources that hold none of the
#: fragments. ``DATABASE_URL_RO`` is not one of them. ``env_policy.py`` at ``f1f4af99``, lines 66-88.
BLOCKED_EXACT_NAMES = frozenset(
    {
        "DATABASE_URL", "DATABASE_URI", "REDIS_URL", "MONGODB_URI", "MONGO_URL", "AMQP_URL", "RABBITMQ_URL",
        "POSTGRES_URL", "POSTGRESQL_URL", "MYSQL_URL", "CLICKHOUSE_URL", "CONNECTION_STRING", "CONN_STR", "GH_PAT",
        "GITHUB_PAT", "MYSQL_PWD", "REDISCLI_AUTH", "REDIS_AUTH", "PGSERVICEFILE",
    }
)  # fmt: skip


def is_blocked_env_name(name: str) -> bool:
    """True when DeerFlow's pinned policy keeps ``name`` from a sandbox command: the upper-cased name is one of
    :data:`BLOCKED_EXACT_NAMES` or contains one of :data:`BLOCKED_NAME_FRAGMENTS` (``env_policy.py`` at
    ``f1f4af99``, line 91). Python's ``str.upper`` is used, so ``ﬁle_key`` becomes ``FILE_KEY`` and is blocked.

    >>> [is_blocked_env_name(n) for n in ("DATABASE_URL", "db_pass", "KEYBOARD_LAYOUT", "SSH_AUTH_SOCK", "HOME")]
    [True, True, True, False, False]
    """
    upper = require_str("name", name).upper()
    return upper in BLOCKED_EXACT_NAMES or any(fragment in upper for fragment in BLOCKED_NAME_FRAGMENTS)


def build_sandbox_env(inherited: Mapping[str, str], injected: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a sandbox command: ``inherited`` (upstream reads ``os.environ``) without its blocked
    names, then every ``injected`` secret on top, which wins even when its name is blocked, because the request
    supplied it for a skill that declared it (``env_policy.py`` at ``f1f4af99``, line 100).

    >>> build_sandbox_env({"PATH": "/bin", "OPENAI_API_KEY": "host"}, {"OPENAI_API_KEY": "from-request"})
    {'PATH': '/bin', 'OPENAI_API_KEY': 'from-request'}
    """
    if not isinstance(inherited, Mapping):
        raise TypeError(f"inherited must be a mapping of str to str, got {type(inherited).__name__}")
    if injected is not None and not isinstance(injected, Mapping):
        raise TypeError(f"injected must be a mapping of str to str or None, got {type(injected).__name__}")
    env = {name: value for name, value in inherited.items() if not is_blocked_env_name(name)}
    env.update(injected or {})
    return env
