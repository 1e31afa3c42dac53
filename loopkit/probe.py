"""Check the pinned upstream helpers against loopkit, side by side (chapter 08).

The probe downloads the two upstream files named in :mod:`loopkit.upstream` at the pinned commit, refuses any file
whose sha256 differs from the pinned one, and then runs *only* the named top-level functions and the class from
each file, in a fresh namespace. Finally it runs one claim table on upstream's helpers and on loopkit's, side by
side, one row per claim.

What runs, precisely. The file is parsed with :mod:`ast`; nothing in it is executed except

- the named top-level ``def`` and ``class`` statements (with their decorators, base classes and defaults);
- the ``from __future__`` imports, and the standard-library imports those definitions actually use;
- module-level constants those definitions use, but only when the value is a literal (or one of ``frozenset``,
  ``tuple``, ``set``, ``list``, ``dict`` around a literal): they are rebuilt with :func:`ast.literal_eval`, which
  evaluates no code.

Any other name the kept definitions need (a third-party import, a constant computed by a call) is refused with an
error that names it. Every other statement of the file (third-party imports, logger setup, other classes, code
with side effects) is never run.

The probe needs the network only for the download. It does not run when it is switched off, when the environment
variable ``LOOPKIT_OFFLINE`` is set (to anything but ``0``, ``false``, ``no`` or nothing), or when the download
fails; :func:`run_probe` then says so in one line. Every piece is injectable (``fetch``, ``files``, ``env``), so the
tests run on stand-in files without a network.

>>> run_probe(False).message.startswith("Probe did not run: it is switched off")
True
"""

from __future__ import annotations

import ast
import builtins
import copy
import hashlib
import http.client
import json
import os
import pathlib
import random
import symtable
import sys
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .checks import require_int, require_number
from . import upstream
from .bounded import BoundedDict
from .fingerprint import fingerprint
from .keys import stable_key
from .normalize import normalize_args

__all__ = [
    "OFFLINE_ENV",
    "TIMEOUT_SECONDS",
    "ProbeRefused",
    "HashMismatch",
    "ExtractionRefused",
    "Extraction",
    "Helpers",
    "LOOPKIT_HELPERS",
    "Claim",
    "CLAIMS",
    "ProbeReport",
    "sha256_hex",
    "verify_sha256",
    "url_fetcher",
    "directory_fetcher",
    "extract_definitions",
    "upstream_helpers",
    "generated_batches",
    "claim_rows",
    "claim_table",
    "run_probe",
]

#: Set this environment variable (e.g. ``LOOPKIT_OFFLINE=1``) and the probe makes no network request at all.
OFFLINE_ENV = "LOOPKIT_OFFLINE"
#: Seconds a single download may take before the probe gives up and says so.
TIMEOUT_SECONDS = 20.0
#: A pinned helper file is a few kilobytes; a response larger than this is refused without hashing it all.
MAX_BYTES = 2_000_000
#: Batches the "digest equality" claim generates, and the seed that makes them the same on every run.
BATCHES = 300
SEED = 7


class ProbeRefused(ValueError):
    """The probe will not run a downloaded file: its hash is wrong, or it needs code the probe does not run."""


class HashMismatch(ProbeRefused):
    """A file's sha256 differs from the pinned one."""


class ExtractionRefused(ProbeRefused):
    """The named definitions are missing, or they need a name the probe will not provide."""


# ---------------------------------------------------------------------------------------------------------- fetch


def sha256_hex(data: bytes) -> str:
    """The sha256 of ``data`` as 64 lowercase hex characters."""
    return hashlib.sha256(data).hexdigest()


def verify_sha256(path: str, data: bytes, expected: str) -> None:
    """Raise :class:`HashMismatch`, naming ``path`` and both hashes, unless ``sha256(data) == expected``.

    >>> verify_sha256("x.py", b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    >>> try:
    ...     verify_sha256("x.py", b"", "0" * 64)
    ... except HashMismatch as exc:
    ...     print(str(exc)[:45])
    refusing x.py: its sha256 is e3b0c44298fc1c14
    """
    if not isinstance(data, bytes):
        raise TypeError(f"verify_sha256(): data for {path} must be bytes, got {type(data).__name__}")
    actual = sha256_hex(data)
    if actual != expected:
        raise HashMismatch(f"refusing {path}: its sha256 is {actual}, but the pinned file's sha256 is {expected}")


def url_fetcher(timeout: float = TIMEOUT_SECONDS) -> Callable[[str], bytes]:
    """A ``fetch(path) -> bytes`` that downloads ``path`` at the pinned commit with :mod:`urllib.request`.

    Each request has a ``timeout`` (seconds); a response over ``MAX_BYTES`` is refused.
    """
    require_number("timeout", timeout)

    def fetch(path: str) -> bytes:
        request = urllib.request.Request(upstream.raw_url(path), headers={"User-Agent": "loopkit-probe"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise ProbeRefused(f"refusing {path}: the download is larger than {MAX_BYTES} bytes")
        return data

    return fetch


def directory_fetcher(root: str | os.PathLike) -> Callable[[str], bytes]:
    """A ``fetch(path) -> bytes`` that reads ``root/path``, or ``root/<file name>`` when that is all there is.

    Use it with a local checkout of the upstream repository, or with a folder holding the two files.
    """
    base = pathlib.Path(root)
    if not base.is_dir():
        raise ValueError(f"directory_fetcher(): root must be an existing directory, got {str(base)!r}")

    def fetch(path: str) -> bytes:
        full = base / path
        return (full if full.is_file() else base / pathlib.PurePosixPath(path).name).read_bytes()

    return fetch


# -------------------------------------------------------------------------------------------------------- extract


@dataclass(frozen=True)
class Extraction:
    """What :func:`extract_definitions` kept from one file, and what it did not run."""

    objects: dict[str, Any]
    imports: tuple[str, ...]
    constants: tuple[str, ...]
    skipped: int

    def summary(self) -> str:
        kept = ", ".join(self.objects)
        imports = "; ".join(self.imports) or "none"
        consts = ", ".join(self.constants) or "none"
        return f"kept {kept}; imports: {imports}; literal constants: {consts}; {self.skipped} other statements not run"


def _is_stdlib(module: str | None, level: int) -> bool:
    return level == 0 and bool(module) and module.split(".")[0] in sys.stdlib_module_names


def _bound_names(node: ast.Import | ast.ImportFrom) -> list[tuple[str, ast.alias]]:
    """(name bound in the namespace, alias) for each alias of an import statement."""
    if isinstance(node, ast.Import):
        return [(a.asname or a.name.split(".")[0], a) for a in node.names]
    return [(a.asname or a.name, a) for a in node.names if a.name != "*"]


def _needed_globals(defs: list[ast.stmt], *, lazy_annotations: bool, filename: str) -> set[str]:
    """Global names the kept definitions read (at definition time or when called), from a symbol table."""
    analysis = copy.deepcopy(defs)
    for tree in analysis:
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node in ast.walk(tree):
            # Annotations that are never evaluated must not make the probe ask for a name: all of them under
            # ``from __future__ import annotations``, and local variable annotations always.
            if lazy_annotations and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.returns = None
            elif lazy_annotations and isinstance(node, ast.arg):
                node.annotation = None
            elif isinstance(node, ast.AnnAssign) and (
                lazy_annotations or any(node in ast.walk(f) for f in functions)
            ):
                node.annotation = ast.Constant(None)
    source = ast.unparse(ast.Module(body=analysis, type_ignores=[]))
    needed: set[str] = set()
    tables = [symtable.symtable(source, filename, "exec")]
    while tables:
        table = tables.pop()
        needed.update(s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced())
        tables.extend(table.get_children())
    return needed - {d.name for d in defs} - {"__name__"}


#: Built-in containers a constant may be wrapped in, as in ``frozenset({"write_file", "str_replace"})``.
_CONTAINERS = {"frozenset": frozenset, "tuple": tuple, "set": set, "list": list, "dict": dict}


def _constant_value(node: ast.expr) -> Any:
    """The value of a literal, or of one built-in container call around a literal, without running any code."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _CONTAINERS
        and not node.keywords
        and len(node.args) <= 1
    ):
        return _CONTAINERS[node.func.id](*(ast.literal_eval(arg) for arg in node.args))
    return ast.literal_eval(node)


def extract_definitions(source: str | bytes, names: Sequence[str], *, filename: str = "<upstream>") -> Extraction:
    """Run only the top-level definitions ``names`` of ``source`` in a fresh namespace, and return them.

    Nothing else in the file runs: not its other statements, not its third-party imports. The definitions get the
    standard-library imports they use, and the literal constants they use (rebuilt without running code). A name
    they need that neither provides is refused, naming it.

    >>> src = "import json\\nimport not_installed\\nprint('side effect')\\ndef f(x):\\n    return json.dumps(x)\\n"
    >>> ex = extract_definitions(src, ["f"])
    >>> ex.objects["f"]([1]), ex.imports, ex.skipped
    ('[1]', ('import json',), 2)
    """
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"names must be a sequence of str, got {names!r}")
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        raise ExtractionRefused(f"{filename}:{exc.lineno}: cannot parse the file: {exc.msg}") from None
    wanted = set(names)
    defs: dict[str, ast.stmt] = {}
    futures: list[ast.ImportFrom] = []
    imports: dict[str, tuple[ast.Import | ast.ImportFrom, ast.alias]] = {}
    assigned: dict[str, ast.stmt] = {}
    other_defs: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name in wanted:
            defs[node.name] = node  # a later definition replaces an earlier one, as when Python runs the file
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            other_defs.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            futures.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for bound, alias in _bound_names(node):
                imports[bound] = (node, alias)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned[node.targets[0].id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            assigned[node.target.id] = node
    missing = [n for n in names if n not in defs]
    if missing:
        raise ExtractionRefused(f"{filename}: no top-level function or class named {', '.join(missing)}")
    kept = [defs[n] for n in names]
    lazy = any(a.name == "annotations" for f in futures for a in f.names)
    kept_imports: list[tuple[int, int, ast.stmt]] = []  # (line, alias position, statement): run in file order
    import_statements: set[int] = set()  # the file's import statements that (partly) run
    constants: dict[str, Any] = {}
    for name in sorted(_needed_globals(kept, lazy_annotations=lazy, filename=filename)):
        if name in imports:
            node, alias = imports[name]
            module = node.module if isinstance(node, ast.ImportFrom) else alias.name
            level = node.level if isinstance(node, ast.ImportFrom) else 0
            if not _is_stdlib(module, level):
                raise ExtractionRefused(
                    f"{filename}:{node.lineno}: the kept definitions use {name!r}, imported from {'.' * level}"
                    f"{module or ''}, which is not in the standard library; the probe runs no other imports"
                )
            if isinstance(node, ast.ImportFrom):
                single: ast.stmt = ast.ImportFrom(module=module, names=[alias], level=0)
            else:
                single = ast.Import(names=[alias])
            kept_imports.append((node.lineno, node.names.index(alias), ast.copy_location(single, node)))
            import_statements.add(id(node))
        elif name in assigned:
            node = assigned[name]
            try:
                constants[name] = _constant_value(node.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise ExtractionRefused(
                    f"{filename}:{node.lineno}: the kept definitions use {name!r}, whose value is computed by "
                    "code, not written as a literal; the probe does not run it"
                ) from None
        elif name in other_defs:
            raise ExtractionRefused(
                f"{filename}: the kept definitions use {name!r}, another top-level function or class; the probe "
                f"keeps only {', '.join(names)}"
            )
        elif not hasattr(builtins, name):
            raise ExtractionRefused(
                f"{filename}: the kept definitions use {name!r}, which is neither a standard-library import nor a "
                "literal constant of the file; the probe runs nothing else"
            )
    imports_run = [statement for _, _, statement in sorted(kept_imports, key=lambda item: item[:2])]
    module = ast.Module(body=[*futures, *imports_run, *kept], type_ignores=[])
    namespace: dict[str, Any] = {"__name__": f"upstream.{pathlib.PurePosixPath(filename).stem}", **constants}
    try:
        exec(compile(module, filename, "exec"), namespace)  # noqa: S102 - only the kept statements
    except Exception as exc:
        raise ExtractionRefused(
            f"{filename}: defining {', '.join(names)} failed: {type(exc).__name__}: {exc}"
        ) from None
    skipped = len(tree.body) - len(futures) - len(kept) - len(import_statements)
    return Extraction(
        objects={n: namespace[n] for n in names},
        imports=tuple(ast.unparse(k) for k in imports_run),
        constants=tuple(sorted(constants)),
        skipped=skipped,
    )


# --------------------------------------------------------------------------------------------------------- claims


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

    The names listed in ``files`` (default :data:`loopkit.upstream.FILES`), in order, are the argument normalizer,
    the key function, the batch hash and the FIFO dict.
    """
    names = _modelled_names(upstream.FILES if files is None else files)
    if len(names) != 4:
        raise ValueError(f"files must name exactly 4 definitions (normalize, key, hash, dict), got {names}")
    missing = [n for n in names if n not in objects]
    if missing:
        raise ValueError(f"objects lacks the upstream definitions {missing}")
    return Helpers("upstream", *(objects[n] for n in names))


_CALL_TOOLS = ("read_file", "write_file", "str_replace", "bash", "web_search", "grep", "fetch", "lookup")
_WORDS = ("a.py", "src/app.py", "notes.md", "pytest -q", "ls", "loop detection", "TODO", "*.py", "ünïcode", "")


def _random_args(rng: random.Random, tool: str) -> dict:
    pick = rng.choice
    if tool == "read_file":
        lines = [None, 1, 5, 150, 199, 200, 201, 399, 401, 0, -3, "40", "x", 12.5]
        return {"path": pick(_WORDS), "start_line": pick(lines), "end_line": pick(lines)}
    if tool in ("write_file", "str_replace"):
        return {"path": pick(_WORDS), "content": pick(_WORDS), "old": pick([None, "a", "b"])}
    fields = ("command", "query", "pattern", "glob", "url", "path", "cmd", "timeout", "description", "max_results")
    return {f: pick([None, *_WORDS, 3, True]) for f in rng.sample(fields, rng.randint(0, 4))}


def _random_call(rng: random.Random) -> dict:
    tool = rng.choice(_CALL_TOOLS)
    args = _random_args(rng, tool)
    shape = rng.random()
    if shape < 0.35:
        raw: Any = json.dumps(args)
    elif shape < 0.45:
        raw = rng.choice(["{oops", "[1,2]", '["b", {"z": 1, "a": 2}]', '"text"', " 42 ", "null", "", [1, "a"], 7, None])
    else:
        raw = args
    call = {"name": tool, "args": raw, "id": f"call_{rng.randrange(10**6)}"}
    if rng.random() < 0.05:
        del call["args"]
    if rng.random() < 0.03:
        del call["name"]
    return call


def generated_batches(n: int = BATCHES, seed: int = SEED) -> list[list[dict]]:
    """``n`` reproducible tool-call batches of 1-4 calls, in every argument shape, some with repeated calls.

    >>> len(generated_batches(5)), generated_batches(5) == generated_batches(5)
    (5, True)
    """
    require_int("n", n)
    rng = random.Random(seed)
    batches = []
    for _ in range(n):
        batch = [_random_call(rng) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.2:
            batch.append(copy.deepcopy(rng.choice(batch)))
        batches.append(batch)
    return batches


@dataclass(frozen=True)
class Claim:
    """One row of the claim table: a name, what it checks, and how to observe it on one implementation."""

    name: str
    checks: str
    observe: Callable[[Helpers, list], Any]


def _normalization(h: Helpers, batches: list) -> tuple:
    shapes = ({"path": "a.py"}, '{"path": "a.py"}', "[1,2]", '"text"', "not json", None, 7)
    return tuple(h.normalize(raw) for raw in shapes)


def _read_buckets(h: Helpers, batches: list) -> tuple:
    ranges = ((1, 199), (200, 1), (201, None), (150, 250), ("10", "x"))
    return tuple(h.stable_key("read_file", {"path": "a.py", "start_line": s, "end_line": e}, None) for s, e in ranges)


def _changed_write(h: Helpers, batches: list) -> str:
    def write(content: str) -> dict:
        return {"name": "write_file", "args": {"path": "notes.md", "content": content}}

    changed = h.fingerprint([write("draft 1")]) != h.fingerprint([write("draft 2")])
    repeated = h.fingerprint([write("draft 1")]) == h.fingerprint([write("draft 1")])
    return f"changed write is new: {changed}; same write repeats: {repeated}"


def _permutation(h: Helpers, batches: list) -> str:
    rng = random.Random(SEED)
    kept = 0
    for batch in batches:
        shuffled = list(batch)
        rng.shuffle(shuffled)
        kept += h.fingerprint(shuffled) == h.fingerprint(batch)
    return f"{kept}/{len(batches)} shuffled batches keep their digest"


def _multiplicity(h: Helpers, batches: list) -> str:
    changed = sum(h.fingerprint([*batch, batch[0]]) != h.fingerprint(batch) for batch in batches)
    return f"{changed}/{len(batches)} batches change when a call is repeated"


def _eviction(h: Helpers, batches: list) -> str:
    d = h.bounded_dict(2)
    d["a"], d["b"] = 1, 2
    d["a"] = 10  # an update: under insertion order it keeps its place
    d["c"] = 3
    return f"keeps {list(d.items())}"


def _digests(h: Helpers, batches: list) -> tuple:
    return tuple(h.fingerprint(batch) for batch in batches)


#: The claims the tutorial makes about the helpers, each observed the same way on upstream and on loopkit.
CLAIMS = (
    Claim("JSON normalization", "7 shapes: dict, JSON dict, JSON list and str, bad JSON, None, int", _normalization),
    Claim("read buckets", "read_file ranges 1-199, 200-1, 201, 150-250, and unusable numbers", _read_buckets),
    Claim("changed-write sensitivity", "write_file with new content vs. the same content", _changed_write),
    Claim("permutation invariance", "each generated batch, shuffled", _permutation),
    Claim("multiplicity", "each generated batch with its first call repeated", _multiplicity),
    Claim("insertion-order eviction", "maxsize 2: insert a, b; update a; insert c", _eviction),
    Claim("digest equality", "the digest of every generated batch", _digests),
)


def _observe(claim: Claim, helpers: Helpers, batches: list) -> Any:
    try:
        return claim.observe(helpers, batches)
    except Exception as exc:  # a broken implementation is a finding, shown in its cell, not a crash
        return f"raised {type(exc).__name__}: {' '.join(str(exc).split())}"[:120]


def _show(value: Any) -> str:
    """A short, stable text for one table cell. Long sequences show their length and a hash of their contents."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple) and len(value) > 8:
        return f"{len(value)} values, combined sha256 {sha256_hex(repr(value).encode())[:12]}"
    text = repr(value)
    return text if len(text) <= 72 else text[:69] + "..."


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
    generated = generated_batches(batches, seed)
    rows = []
    for claim in CLAIMS:
        mine, other = _observe(claim, ours, generated), _observe(claim, theirs, generated)
        rows.append(
            {
                "claim": claim.name,
                "checks": claim.checks,
                theirs.label: _show(other),
                ours.label: _show(mine),
                "agree": bool(mine == other),
            }
        )
    return rows


def claim_table(theirs: Helpers, ours: Helpers = LOOPKIT_HELPERS, *, batches: int = BATCHES, seed: int = SEED):
    """:func:`claim_rows` as a pandas DataFrame indexed by claim (pandas is imported here, not by ``loopkit``)."""
    import pandas as pd

    return pd.DataFrame(claim_rows(theirs, ours, batches=batches, seed=seed)).set_index("claim")


# ------------------------------------------------------------------------------------------------------ the probe


@dataclass
class ProbeReport:
    """What :func:`run_probe` did: ``status`` is "ran", "skipped" or "refused"; ``message`` is one line."""

    status: str
    message: str
    rows: list[dict] = field(default_factory=list)
    table: Any = None
    extractions: dict[str, Extraction] = field(default_factory=dict)

    @property
    def ran(self) -> bool:
        return self.status == "ran"

    def __str__(self) -> str:
        return self.message


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _offline_requested(env: Mapping[str, str]) -> bool:
    return env.get(OFFLINE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def run_probe(
    enabled: bool = True,
    *,
    fetch: Callable[[str], bytes] | None = None,
    files: Mapping[str, Mapping[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    batches: int = BATCHES,
    as_table: bool = True,
) -> ProbeReport:
    """Download, verify, extract, and run the claim table on upstream and loopkit side by side.

    ``enabled=False`` or ``LOOPKIT_OFFLINE`` in ``env`` (default ``os.environ``) skip it before any network use; a
    failed download skips it too. Each skip, and each refusal (a hash that differs, a definition that needs code the
    probe does not run), is reported in ``message`` as one line. ``fetch(path) -> bytes`` defaults to
    :func:`url_fetcher`; ``files`` to :data:`loopkit.upstream.FILES`.
    """
    if not enabled:
        return ProbeReport(
            "skipped",
            "Probe did not run: it is switched off (RUN_PROBE = False). Set RUN_PROBE = True, with internet access, "
            "to download and check the pinned upstream files.",
        )
    env = os.environ if env is None else env
    if _offline_requested(env):
        setting = f"{OFFLINE_ENV}={env[OFFLINE_ENV].strip()}"
        return ProbeReport("skipped", f"Probe did not run: {setting} is set, so it makes no network requests.")
    files = upstream.FILES if files is None else files
    fetch = url_fetcher() if fetch is None else fetch
    extractions: dict[str, Extraction] = {}
    for path, info in files.items():
        try:
            data = fetch(path)
        except ProbeRefused as exc:
            return ProbeReport("refused", _one_line(f"Probe refused: {exc}"))
        # OSError: urllib's URLError and HTTPError, timeouts, DNS and socket errors, missing files. HTTPException:
        # http.client's protocol errors (IncompleteRead, BadStatusLine, InvalidURL), which are not OSErrors.
        # ValueError: a URL urllib cannot parse (ProbeRefused, a ValueError too, is handled above).
        except (OSError, http.client.HTTPException, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            return ProbeReport(
                "skipped", _one_line(f"Probe did not run: could not get {path} ({type(exc).__name__}: {reason}).")
            )
        try:
            verify_sha256(path, data, info["sha256"])
            extractions[path] = extract_definitions(data, info["names"], filename=path)
        except ProbeRefused as exc:
            return ProbeReport("refused", _one_line(f"Probe refused: {exc}", limit=400), extractions=extractions)
    objects = {name: obj for ex in extractions.values() for name, obj in ex.objects.items()}
    theirs = upstream_helpers(objects, files)
    rows = claim_rows(theirs, batches=batches)
    agreeing = sum(row["agree"] for row in rows)
    disagreeing = [row["claim"] for row in rows if not row["agree"]]
    verdict = f"DISAGREE on {', '.join(disagreeing)}" if disagreeing else "all agree"
    message = (
        f"Probe ran: {len(files)} files verified by sha256 at {upstream.COMMIT[:12]}; "
        f"{agreeing} of {len(rows)} claims agree between upstream and loopkit ({verdict})."
    )
    table = None
    if as_table:
        import pandas as pd

        table = pd.DataFrame(rows).set_index("claim")
    return ProbeReport("ran", message, rows=rows, table=table, extractions=extractions)
