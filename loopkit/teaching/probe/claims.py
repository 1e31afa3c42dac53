"""The claim table: each claim the tutorial makes about the helpers, observed the same way on two implementations
(upstream's, extracted by the probe, and loopkit's), side by side."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from loopkit.core import upstream
from loopkit.core.bounded import BoundedDict
from loopkit.core.checks import clip
from loopkit.core.fingerprint import fingerprint
from loopkit.core.keys import stable_key
from loopkit.core.language import N_, tr
from loopkit.core.normalize import normalize_args

from .download import sha256_hex
from .generated import BATCHES, SEED, generated_batches

__all__ = ["Helpers", "LOOPKIT_HELPERS", "upstream_helpers", "Claim", "Raised", "CLAIMS", "observations",
           "compared_rows", "claim_rows", "claim_frame", "claim_table"]


@dataclass(frozen=True)
class Helpers:
    """One implementation of the four modelled helpers, under neutral names, so one claim table runs on both."""

    label: str
    normalize: Callable[[Any], tuple]
    stable_key: Callable[[Any, dict, Any], str]
    fingerprint: Callable[[list], str]
    bounded_dict: Callable[[int], Any]


#: loopkit's side of the table.
LOOPKIT_HELPERS = Helpers("loopkit", normalize_args, stable_key, fingerprint, BoundedDict)


def _modelled_names(files: Mapping[str, Mapping[str, Any]]) -> list[str]:
    return [name for info in files.values() for name in info["names"]]


def upstream_helpers(objects: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]] | None = None) -> Helpers:
    """Upstream's side of the table, from the extracted definitions.

    The names listed in ``files`` (default :data:`loopkit.core.upstream.FILES`), in order, are the argument normalizer,
    the key function, the batch hash and the FIFO dict.
    """
    names = _modelled_names(upstream.FILES if files is None else files)
    if len(names) != 4:
        raise ValueError(f"files must name exactly 4 definitions (normalize, key, hash, dict), got {names}")
    missing = [n for n in names if n not in objects]
    if missing:
        raise ValueError(f"objects lacks the upstream definitions {missing}")
    return Helpers("upstream", *(objects[n] for n in names))

@dataclass(frozen=True)
class Claim:
    """One row of the claim table: a name, what it checks, how to observe it on one implementation, and how to say
    what was observed.

    ``observe(helpers, batches)`` returns plain data (tuples, numbers, bools), the same in every language, so two
    observations compare exactly and one can be recorded; ``describe``, when given, turns it into the cell's text in
    the learner's language. The fields hold the name and the check in English; ``name`` and ``checks`` give them in
    the learner's language (:func:`loopkit.core.language.tr`), read when they are shown.
    """

    english_name: str
    english_checks: str
    observe: Callable[[Helpers, list], Any]
    describe: Callable[[Any], str] | None = None

    @property
    def name(self) -> str:
        return tr(self.english_name)

    @property
    def checks(self) -> str:
        return tr(self.english_checks)

    def cell(self, observed: Any) -> str:
        """The table cell for one observation: a failure's text, ``describe``'s words, or a short generic text."""
        if isinstance(observed, Raised):
            return observed.text
        return self.describe(observed) if self.describe is not None else _show(observed)


@dataclass(frozen=True)
class Raised:
    """What a claim observed on an implementation that raised: a finding shown in its cell, not a crash."""

    error: str
    message: str

    @property
    def text(self) -> str:
        return tr("raised {error}: {message}", error=self.error, message=self.message)[:120]


def _normalization(h: Helpers, batches: list) -> tuple:
    shapes = ({"path": "a.py"}, '{"path": "a.py"}', "[1,2]", '"text"', "not json", None, 7)
    return tuple(h.normalize(raw) for raw in shapes)


def _read_buckets(h: Helpers, batches: list) -> tuple:
    ranges = ((1, 199), (200, 1), (201, None), (150, 250), ("10", "x"))
    return tuple(h.stable_key("read_file", {"path": "a.py", "start_line": s, "end_line": e}, None) for s, e in ranges)


def _changed_write(h: Helpers, batches: list) -> tuple[bool, bool]:
    def write(content: str) -> dict:
        return {"name": "write_file", "args": {"path": "notes.md", "content": content}}

    changed = h.fingerprint([write("draft 1")]) != h.fingerprint([write("draft 2")])
    repeated = h.fingerprint([write("draft 1")]) == h.fingerprint([write("draft 1")])
    return changed, repeated


def _permutation(h: Helpers, batches: list) -> tuple[int, int]:
    rng = random.Random(SEED)
    kept = 0
    for batch in batches:
        shuffled = list(batch)
        rng.shuffle(shuffled)
        kept += h.fingerprint(shuffled) == h.fingerprint(batch)
    return kept, len(batches)


def _multiplicity(h: Helpers, batches: list) -> tuple[int, int]:
    changed = sum(h.fingerprint([*batch, batch[0]]) != h.fingerprint(batch) for batch in batches)
    return changed, len(batches)


def _eviction(h: Helpers, batches: list) -> tuple:
    d = h.bounded_dict(2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10  # an update: under insertion order it keeps its place
    d["c"] = 3
    return tuple(d.items())


def _digests(h: Helpers, batches: list) -> tuple:
    return tuple(h.fingerprint(batch) for batch in batches)


#: The claims about the helpers that the probe checks, each observed the same way on upstream and on loopkit.
CLAIMS = (
    Claim(N_("JSON normalization"), N_("7 shapes: dict, JSON dict, JSON list and str, bad JSON, None, int"),
          _normalization),
    Claim(N_("read buckets"), N_("read_file ranges 1-199, 200-1, 201, 150-250, and unusable numbers"), _read_buckets),
    Claim(N_("changed-write sensitivity"), N_("write_file with new content vs. the same content"), _changed_write,
          lambda seen: tr("changed write is new: {changed}; same write repeats: {repeated}", changed=seen[0],
                          repeated=seen[1])),
    Claim(N_("permutation invariance"), N_("each generated batch, shuffled"), _permutation,
          lambda seen: tr("{kept}/{total} shuffled batches keep their digest", kept=seen[0], total=seen[1])),
    Claim(N_("multiplicity"), N_("each generated batch with its first call repeated"), _multiplicity,
          lambda seen: tr("{changed}/{total} batches change when a call is repeated", changed=seen[0],
                          total=seen[1])),
    Claim(N_("insertion-order eviction"), N_("maxsize 2: insert a, b; update a; insert c"), _eviction,
          lambda seen: tr("keeps {items}", items=list(seen))),
    Claim(N_("digest equality"), N_("the digest of every generated batch"), _digests),
)


def _observe(claim: Claim, helpers: Helpers, batches: list) -> Any:
    try:
        return claim.observe(helpers, batches)
    except Exception as exc:  # a broken implementation is a finding, shown in its cell, not a crash
        return Raised(type(exc).__name__, " ".join(str(exc).split()))


def _show(value: Any) -> str:
    """A short, stable text for one table cell. Long sequences show their length and a hash of their contents."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) > 8:
        return tr("{count} values, combined sha256 {digest}", count=len(value),
                  digest=sha256_hex(repr(value).encode())[:12])
    return clip(repr(value), 72)


def observations(helpers: Helpers, *, batches: int = BATCHES, seed: int = SEED) -> list:
    """What every claim observes on one implementation, in the order of :data:`CLAIMS`: plain data, the same in
    every language (a claim that raised gives a :class:`Raised`)."""
    generated = generated_batches(batches, seed)
    return [_observe(claim, helpers, generated) for claim in CLAIMS]


def compared_rows(theirs: list, ours: list, their_label: str, our_label: str) -> list[dict]:
    """One dict per claim from two lists of :func:`observations`: the claim, what it checks, each side's cell, and
    ``agree``, which compares the full observations (not the cells)."""
    if their_label == our_label:
        raise ValueError(f"the two implementations need different labels, both are {our_label!r}")
    return [
        {
            "claim": claim.name,
            "checks": claim.checks,
            their_label: claim.cell(other),
            our_label: claim.cell(mine),
            "agree": bool(mine == other),
        }
        for claim, other, mine in zip(CLAIMS, theirs, ours, strict=True)
    ]


def claim_rows(
    theirs: Helpers, ours: Helpers = LOOPKIT_HELPERS, *, batches: int = BATCHES, seed: int = SEED
) -> list[dict]:
    """Run every claim on both implementations: one dict per claim, with ``agree`` comparing the full results.

    The two columns are named by the implementations' labels (``"upstream"`` and ``"loopkit"`` in the probe).

    >>> import dataclasses
    >>> rows = claim_rows(dataclasses.replace(LOOPKIT_HELPERS, label="copy"), batches=20)
    >>> [row["claim"] for row in rows if not row["agree"]], rows[5]["copy"]
    ([], "keeps [('b', 2), ('c', 3)]")
    """
    if theirs.label == ours.label:
        raise ValueError(f"the two implementations need different labels, both are {ours.label!r}")
    return compared_rows(observations(theirs, batches=batches, seed=seed),
                         observations(ours, batches=batches, seed=seed), theirs.label, ours.label)


def claim_frame(rows: list[dict]):
    """Claim rows as a pandas DataFrame indexed by claim, its headings in the learner's language (the two
    implementations' columns keep their labels). pandas is imported here, not by ``loopkit``."""
    import pandas as pd

    headings = {"claim": tr("claim"), "checks": tr("checks"), "agree": tr("agree")}
    return pd.DataFrame(rows).rename(columns=headings).set_index(headings["claim"])


def claim_table(theirs: Helpers, ours: Helpers = LOOPKIT_HELPERS, *, batches: int = BATCHES, seed: int = SEED):
    """:func:`claim_rows` as a pandas DataFrame indexed by claim (see :func:`claim_frame`)."""
    return claim_frame(claim_rows(theirs, ours, batches=batches, seed=seed))
