"""How much a fingerprint can tell apart: birthday-bound numbers and a prefix-collision search (chapter 03).

A fingerprint keeps 12 hex characters of an MD5 digest, which is 48 bits. Among ``n`` different batches the chance
that *some two* share a fingerprint is about ``1 - exp(-n(n-1) / 2**49)`` (the birthday bound), so a collision
becomes likely near ``2**24`` (about 16.8 million) batches. Matching *one given* fingerprint is another question:
each try hits with chance ``2**-48``, so it takes about ``2**48`` (281 trillion) tries. A shorter prefix collides
much sooner, and anyone can find such a collision by plain enumeration: the fingerprint is a label for counting
repeats, not a secret and not a proof of which batch ran.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from loopkit.core.checks import require_int, require_number
from loopkit.core.fingerprint import FINGERPRINT_HEX_CHARS, call_entry, fingerprint
from loopkit.core.language import tr

__all__ = [
    "PrefixCollision",
    "birthday_rows",
    "calls_for_probability",
    "collision_probability",
    "expected_match_tries",
    "expected_tries",
    "find_prefix_collision",
    "match_tries_for_probability",
    "numbered_batches",
    "prefix_bits",
]

#: Bits carried by one hex character.
BITS_PER_HEX = 4


def _check_hex_chars(hex_chars: Any) -> int:
    return require_int("hex_chars", hex_chars, at_most=FINGERPRINT_HEX_CHARS)


def _check_bits(bits: Any) -> int:
    return require_int("bits", bits)


def _check_probability(p: Any) -> float:
    return require_number("p", p, above=0, below=1)


def prefix_bits(hex_chars: int) -> int:
    """The number of bits in a fingerprint prefix of ``hex_chars`` hex characters (4 bits each).

    >>> prefix_bits(12), prefix_bits(6)
    (48, 24)
    """
    return BITS_PER_HEX * _check_hex_chars(hex_chars)


def collision_probability(n: int, bits: int) -> float:
    """The birthday-bound chance that ``n`` different batches include two with the same ``bits``-bit label.

    Uses the standard approximation ``1 - exp(-n(n-1) / 2**(bits+1))``, which is very close for the sizes here.

    >>> f"{collision_probability(1_000, 48):.2e}", collision_probability(1, 48)
    ('1.77e-09', 0.0)
    """
    require_int("n", n, at_least=0)
    space = 2 ** _check_bits(bits)
    if n < 2:
        return 0.0
    return -math.expm1(-n * (n - 1) / (2 * space))


def calls_for_probability(p: float, bits: int) -> float:
    """How many different batches give a collision chance of ``p``: ``sqrt(2 * 2**bits * ln(1 / (1 - p)))``.

    For ``p = 0.5`` this is about ``1.18 * 2**(bits/2)``: the birthday bound.

    >>> round(calls_for_probability(0.5, 48) / 2**24, 4)
    1.1774
    """
    return math.sqrt(2 * 2 ** _check_bits(bits) * math.log(1 / (1 - _check_probability(p))))


def expected_tries(bits: int) -> float:
    """The mean number of random labels drawn until the first repeat: about ``sqrt(pi / 2 * 2**bits)``.

    >>> round(expected_tries(24))
    5134
    """
    return math.sqrt(math.pi / 2 * 2 ** _check_bits(bits))


def expected_match_tries(bits: int) -> float:
    """The mean number of random labels drawn until one equals a *given* ``bits``-bit label: ``2**bits``.

    Each try hits with chance ``2**-bits``, so the wait is geometric. Compare :func:`expected_tries`, the wait
    until *some two* labels agree, which is only about the square root of this.

    >>> expected_match_tries(48) == 2**48
    True
    """
    return float(2 ** _check_bits(bits))


def match_tries_for_probability(p: float, bits: int) -> float:
    """How many random tries give a chance ``p`` of matching a *given* ``bits``-bit label:
    ``ln(1 - p) / ln(1 - 2**-bits)``, about ``0.69 * 2**bits`` for ``p = 0.5``.

    >>> round(match_tries_for_probability(0.5, 48) / 2**48, 4)
    0.6931
    """
    return math.log1p(-_check_probability(p)) / math.log1p(-(2.0 ** -_check_bits(bits)))


def birthday_rows(hex_chars: Iterable[int] = (4, 6, 8, 12), *, batches: int = 1_000) -> list[dict]:
    """One row per prefix length: its bits, the number of labels, the batches for a 50 % collision chance, the
    expected tries to the first collision, and the collision chance among ``batches`` different batches. The keys
    are a table's headings, in the learner's language (:func:`~loopkit.core.language.tr`).

    >>> row = birthday_rows([12])[0]
    >>> row["bits"], row["labels"], row["batches for 50 %"]
    (48, 281474976710656, 19753662)
    """
    rows = []
    for chars in hex_chars:
        bits = prefix_bits(chars)
        rows.append(
            {
                tr("hex chars"): chars,
                "bits": bits,
                tr("labels"): 2**bits,
                tr("batches for 50 %"): round(calls_for_probability(0.5, bits)),
                tr("expected tries"): round(expected_tries(bits)),
                tr("P(collision), {batches} batches", batches=f"{batches:,}"): collision_probability(batches, bits),
            }
        )
    return rows


def numbered_batches(tool: str = "bash", field: str = "command", template: str = "echo {i}") -> Iterator[list[dict]]:
    """An endless, fixed enumeration of one-call batches: ``[{"name": tool, "args": {field: template.format(i=i)}}]``
    for ``i = 0, 1, 2, ...``. Every batch is a different action, so any shared fingerprint is a collision.

    >>> next(numbered_batches())
    [{'name': 'bash', 'args': {'command': 'echo 0'}}]
    """
    i = 0
    while True:
        yield [{"name": tool, "args": {field: template.format(i=i)}}]
        i += 1


@dataclass(frozen=True)
class PrefixCollision:
    """Two different batches whose fingerprints share their first ``hex_chars`` characters."""

    hex_chars: int
    tries: int
    first: list
    second: list
    first_fingerprint: str
    second_fingerprint: str

    @property
    def prefix(self) -> str:
        """The shared prefix."""
        return self.first_fingerprint[: self.hex_chars]


def _entries(batch: Iterable[Mapping]) -> list[str]:
    return sorted(call_entry(call) for call in batch)


def find_prefix_collision(
    hex_chars: int, batches: Iterable[list] | None = None, *, max_tries: int = 1_000_000
) -> PrefixCollision | None:
    """Hash ``batches`` in order (by default :func:`numbered_batches`) until two *different* batches share the
    first ``hex_chars`` characters of their fingerprints; return them, with the number of batches hashed.

    Batches that are the same action (equal sorted call entries) are repeats, not collisions, and are skipped.
    Returns None when ``batches`` runs out or ``max_tries`` batches were hashed without a collision. The search
    is deterministic: the same inputs always give the same pair.

    >>> hit = find_prefix_collision(2)
    >>> hit.tries, hit.first_fingerprint[:2] == hit.second_fingerprint[:2], hit.first != hit.second
    (20, True, True)
    """
    _check_hex_chars(hex_chars)
    require_int("max_tries", max_tries)
    seen: dict[str, tuple[list, str]] = {}
    source = numbered_batches() if batches is None else batches
    for tries, batch in enumerate(source, start=1):
        if tries > max_tries:
            return None
        digest = fingerprint(batch)
        prefix = digest[:hex_chars]
        if prefix in seen:
            first, first_digest = seen[prefix]
            if _entries(first) != _entries(batch):
                return PrefixCollision(hex_chars, tries, first, list(batch), first_digest, digest)
            continue
        seen[prefix] = (list(batch), digest)
    return None
