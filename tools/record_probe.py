"""Run chapter 08's probe on the two pinned upstream files and write what upstream's side observed into
``loopkit/teaching/probe/recorded.py``, so a chapter run offline can show a real run of the probe.

Usage: python tools/record_probe.py FOLDER [DATE]

FOLDER holds the two files of ``loopkit.core.upstream.FILES`` (a checkout of bytedance/deer-flow at the pinned
commit, or a folder with just the two files). The probe refuses either file unless its sha256 is the pinned one,
runs only the named definitions, and observes every claim on them. What is written is only what it observed
(normalized arguments, keys, counts, digests) and what it ran (the names kept, the modules imported, how many other
statements it skipped): no line of upstream code. DATE (default: today, UTC) is the day of the run.
"""

from __future__ import annotations

import ast
import datetime
import pathlib
import pprint
import sys

from loopkit.core import upstream
from loopkit.teaching import probe
from loopkit.teaching.probe.claims import CLAIMS, observations

TARGET = pathlib.Path(__file__).resolve().parent.parent / "loopkit" / "teaching" / "probe" / "recorded.py"

HEADER = '''"""A real run of the probe, recorded: what upstream's helpers gave on every claim when the probe ran on the two pinned
files, so that a chapter run without a network still shows a run (:func:`loopkit.teaching.probe.recorded_run`).

Written by ``tools/record_probe.py`` from a run of :func:`loopkit.teaching.probe.run_probe` on the files at commit
``{commit}``, read from a copy of the repository instead of downloaded; both passed the
sha256 check. These are facts observed on upstream's code (normalized arguments, keys, counts, digests) and what the
probe ran of each file, not upstream's code.
"""

from __future__ import annotations

__all__ = ["RECORDED_ON", "BATCHES", "SEED", "RAN", "UPSTREAM"]

#: The day the probe ran (UTC).
RECORDED_ON = {date!r}
#: The generated batches the run observed, and their seed.
BATCHES, SEED = {batches}, {seed}

#: For each file: the definitions kept, the modules their imports named, and how many other statements did not run.
RAN: dict[str, dict] = {ran}

#: What each claim observed on upstream's helpers, by the claim's English name, in the order of ``CLAIMS``.
UPSTREAM: dict[str, object] = {upstream}
'''


def imported_modules(statements: tuple[str, ...]) -> tuple[str, ...]:
    """The module (and name) each kept import statement names: ``import json`` -> ``json``, ``from a import B`` ->
    ``a.B``; only the names, never the statements."""
    names = []
    for statement in statements:
        node = ast.parse(statement).body[0]
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    return tuple(names)


def render(folder: str | pathlib.Path, date: str, files: dict | None = None) -> str:
    """The text of ``recorded.py`` from a run of the probe on the files in ``folder`` (``files`` defaults to
    ``loopkit.core.upstream.FILES``, whose hashes the files must have); raises ``RuntimeError`` with the probe's
    one-line report when it does not run."""
    files = upstream.FILES if files is None else files
    report = probe.run_probe(True, fetch=probe.directory_fetcher(folder), files=files, env={}, as_table=False)
    if not report.ran:
        raise RuntimeError(report.message)
    objects = {name: obj for ex in report.extractions.values() for name, obj in ex.objects.items()}
    seen = observations(probe.upstream_helpers(objects, files), batches=probe.BATCHES, seed=probe.SEED)
    ran = {
        path.rsplit("/", 1)[1]: {"kept": tuple(ex.objects), "imports": imported_modules(ex.imports),
                                 "not_run": ex.skipped}
        for path, ex in report.extractions.items()
    }
    upstream_seen = {claim.english_name: value for claim, value in zip(CLAIMS, seen, strict=True)}
    return HEADER.format(commit=upstream.COMMIT, date=date, batches=probe.BATCHES, seed=probe.SEED,
                         ran=pprint.pformat(ran, width=116, sort_dicts=False),
                         upstream=pprint.pformat(upstream_seen, width=116, sort_dicts=False, compact=True))


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print(__doc__, file=sys.stderr)
        return 2
    date = argv[1] if len(argv) == 2 else datetime.datetime.now(datetime.UTC).date().isoformat()
    try:
        text = render(argv[0], date)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
