"""Credentials out of band, this workbook's model of the idea: secrets leave the inherited environment, and a
request's declared credentials are laid over it; a missing one is an error, not a fallback (chapter 09).

DeerFlow's own rule at the pinned commit is :func:`loopkit.teaching.boundaries.pinned.is_blocked_env_name` (fragments and
exact names, checked against recorded decisions); :func:`deerflow_scrubs` and :func:`env_rules_table` set it beside
this workbook's word rule. DeerFlow at the pin does not deny a missing secret either: the command runs without it
(:func:`loopkit.teaching.boundaries.pinned.bind_skill_secrets`). No error raised here ever contains a credential value:
errors name the variable instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from loopkit.core.checks import require_str, require_strs
from loopkit.core.language import tr

from .pinned.env_policy import BLOCKED_NAME_FRAGMENTS, is_blocked_env_name
from .sources import deerflow_column

__all__ = ["SECRET_WORDS", "SECRET_SUFFIXES", "HARMLESS_WORDS", "DEFAULT_ALLOW", "is_secret_name", "scrub_env",
           "DEERFLOW_ENV_FRAGMENTS", "deerflow_scrubs", "env_rules_table", "CredentialError", "inject_credentials"]


#: Words that make an environment variable name look secret (compared case-insensitively, as whole words).
SECRET_WORDS = frozenset(
    {
        "KEY", "KEYS", "APIKEY", "TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD",
        "PASSPHRASE", "PASS", "PWD", "PAT", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTH", "AUTHORIZATION", "BEARER",
        "SESSION", "SESSIONID", "COOKIE", "COOKIES", "PRIVATE", "SIGNATURE", "DSN",
    }
)  # fmt: skip

#: Endings that make a run-together word secret too: ``PGPASSWORD``, ``GITHUBTOKEN``, ``SSHPASS``, ``OPENAIAPIKEY``.
#: ``KEY``, ``AUTH`` and ``SESSION`` are missing on purpose (``HOTKEY``, ``OAUTH``): only whole words count for them.
SECRET_SUFFIXES = (
    "PASSWORD", "PASSWORDS", "PASSWD", "PASSPHRASE", "PASS", "TOKEN", "TOKENS", "SECRET", "SECRETS", "APIKEY",
    "APIKEYS", "SECRETKEY", "PRIVATEKEY", "ACCESSKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "COOKIE", "COOKIES",
    "DSN",
)  # fmt: skip

#: Words that end like a secret but hold none (``PROXY_BYPASS``, ``COMPASS_HEADING``); they stay.
HARMLESS_WORDS = frozenset(
    {
        "BYPASS", "COMPASS", "ENCOMPASS", "SURPASS", "TRESPASS", "OVERPASS", "UNDERPASS", "MULTIPASS", "ONEPASS",
        "TWOPASS", "SINGLEPASS", "FIRSTPASS", "SECONDPASS",
    }
)  # fmt: skip

#: Names kept by :func:`scrub_env` although they contain a secret word: they hold no secret.
DEFAULT_ALLOW = frozenset({"PWD", "OLDPWD", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "XDG_SESSION_DESKTOP"})

# Words: runs of capitals (an acronym before a capitalised word ends early), capitalised or lower-case runs, digits.
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _words(name: str) -> list[str]:
    return [w.upper() for w in _WORD.findall(name)]


def _is_secret_word(word: str) -> bool:
    return word in SECRET_WORDS or (word not in HARMLESS_WORDS and word.endswith(SECRET_SUFFIXES))


def is_secret_name(name: str) -> bool:
    """True when a word of ``name`` is one of :data:`SECRET_WORDS`, or ends with one of :data:`SECRET_SUFFIXES`
    (and is not one of :data:`HARMLESS_WORDS`), in any case.

    Words are split at ``_``, ``-``, ``.``, digits and camelCase humps, so ``GITHUB_TOKEN``, ``apiKey``,
    ``DB_PASSWORD2``, ``PGPASSWORD``, ``SSHPASS`` and ``GH_PAT`` look secret, while ``KEYBOARD``, ``AUTHOR``,
    ``PATH``, ``PASSTHROUGH`` and ``PROXY_BYPASS`` do not. Only the name is read: a password inside the value of
    ``DATABASE_URL`` is invisible here.

    >>> [is_secret_name(n) for n in ("GITHUB_TOKEN", "apiKey", "PGPASSWORD", "KEYBOARD_LAYOUT", "PROXY_BYPASS")]
    [True, True, True, False, False]
    """
    require_str("name", name)
    return any(_is_secret_word(word) for word in _words(name))


def scrub_env(env: Mapping[str, str], allow: Iterable[str] = ()) -> dict[str, str]:
    """A copy of ``env`` without the names that look secret (:func:`is_secret_name`).

    Names in ``allow`` or in :data:`DEFAULT_ALLOW` (exact, case-sensitive names) are kept anyway. A name can hide a
    secret that no rule catches (a password inside ``DATABASE_URL``); such names need removing by hand, or the env
    should be built from nothing.

    >>> scrub_env({"PATH": "/bin", "GITHUB_TOKEN": "t", "AWS_SECRET_ACCESS_KEY": "s", "PWD": "/w"})
    {'PATH': '/bin', 'PWD': '/w'}
    """
    if not isinstance(env, Mapping):
        raise TypeError(f"env must be a mapping of str to str, got {type(env).__name__}")
    keep = frozenset(require_strs("allow", allow)) | DEFAULT_ALLOW
    scrubbed = {}
    for name, value in env.items():
        if not isinstance(name, str):
            raise TypeError(f"env names must be str, got a {type(name).__name__} name")
        if not isinstance(value, str):
            raise TypeError(f"env[{name!r}] must be a str, got {type(value).__name__}")
        if name in keep or not is_secret_name(name):
            scrubbed[name] = value
    return scrubbed


#: The name fragments DeerFlow's sandbox policy scrubs at the pinned commit, anywhere in the upper-cased name; it
#: also scrubs 19 exact names (:data:`loopkit.teaching.boundaries.pinned.BLOCKED_EXACT_NAMES`).
DEERFLOW_ENV_FRAGMENTS = BLOCKED_NAME_FRAGMENTS


def deerflow_scrubs(name: str) -> bool:
    """True when DeerFlow's policy at the pinned commit removes ``name`` from a sandbox command's environment: the
    pinned rule itself, :func:`loopkit.teaching.boundaries.pinned.is_blocked_env_name`.

    It matches fragments and exact names, not words: ``KEYBOARD_LAYOUT`` and ``GH_PAT`` go, ``SSH_AUTH_SOCK`` stays.

    >>> deerflow_scrubs("KEYBOARD_LAYOUT"), deerflow_scrubs("GH_PAT"), deerflow_scrubs("SSH_AUTH_SOCK")
    (True, True, False)
    """
    return is_blocked_env_name(name)


def env_rules_table(names: Iterable[str]) -> list[dict[str, str]]:
    """One row per name: does DeerFlow's rule at the pinned commit scrub it, and does :func:`scrub_env` (allow-list
    included)?

    Headings and verdicts are in the learner's language (:func:`loopkit.core.language.tr`); the names stay as they are.

    >>> env_rules_table(["PATH"])
    [{'name': 'PATH', 'DeerFlow at f1f4af99': 'kept', 'this workbook': 'kept'}]
    """
    listed = require_strs("names", names)
    kept_here = scrub_env({name: "" for name in listed})
    column = deerflow_column("sandbox env")
    return [
        {
            tr("name"): name,
            column: tr("scrubbed") if deerflow_scrubs(name) else tr("kept"),
            tr("this workbook"): tr("kept") if name in kept_here else tr("scrubbed"),
        }
        for name in listed
    ]


class CredentialError(PermissionError):
    """A declared credential is missing or unusable. The message names the credential, never a value."""


def inject_credentials(
    env: Mapping[str, str],
    declared: Iterable[str],
    provided: Mapping[str, Any],
    *,
    allow: Iterable[str] = (),
) -> dict[str, str]:
    """Scrub ``env``, then lay this request's ``provided`` values for the ``declared`` names over it.

    Policy: default deny, this workbook's choice. A declared name that ``provided`` lacks, or gives as ``None``, an
    empty or a blank string, raises :class:`CredentialError`; it never falls back to a value from ``env`` (scrubbed
    or allowed). Provided names that were not declared are not injected. No message ever contains a value. (DeerFlow
    at the pin runs the command without a missing secret and injects an empty one as it is.)

    >>> inject_credentials({"PATH": "/bin", "GITHUB_TOKEN": "static"}, ["GITHUB_TOKEN"], {"GITHUB_TOKEN": "req-1"})
    {'PATH': '/bin', 'GITHUB_TOKEN': 'req-1'}
    >>> inject_credentials({"GITHUB_TOKEN": "static"}, ["GITHUB_TOKEN"], {})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    loopkit.teaching.boundaries.credentials.CredentialError: credential GITHUB_TOKEN is declared but this request did not ...
    """
    names = frozenset(require_strs("declared", declared))
    for name in sorted(names):
        if not _ENV_NAME.fullmatch(name):
            raise ValueError(f"declared name {name!r} is not a valid environment variable name")
    if not isinstance(provided, Mapping):
        raise TypeError(f"provided must be a mapping of credential names to values, got {type(provided).__name__}")
    merged = scrub_env(env, allow)
    for name in sorted(names):
        value = provided.get(name)
        if value is None:
            raise CredentialError(
                f"credential {name} is declared but this request did not provide it; "
                "refusing to run without it (there is no fallback to a static value)"
            )
        if not isinstance(value, str):
            raise TypeError(f"credential {name} must be a str, got {type(value).__name__}")
        if not value.strip():
            raise CredentialError(f"credential {name} was provided empty; refusing to run without it")
        if "\x00" in value:
            raise CredentialError(f"credential {name} contains a NUL character and cannot go into an environment")
        merged[name] = value
    return merged
