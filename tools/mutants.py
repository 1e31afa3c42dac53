"""Hand-written mutants: does a plausible bug in loopkit make a test in tests/ fail?

Each mutant in ``tools/mutants.toml`` names a file, an exact snippet of it, the snippet with a bug in it, the bug it
models and the test files that should catch it. This script copies the checkout to a temporary folder once (the
working tree is never touched), and for each mutant writes the mutated file into the copy, runs the mutant's test
files there with pytest (the copy's ``loopkit`` is the one imported), and puts the original back. A mutant is

* **killed** when the tests fail (or time out: a mutant that makes a loop never end is caught too);
* **survived** when they pass: a test is missing or too weak;
* **equivalent** when the data says so (``equivalent = "why"``): no test could tell it from the original, so it is
  not run and not counted.

Run it by hand (it takes minutes, so it is not part of ``make test``)::

    .venv/bin/python tools/mutants.py                 # every mutant; the exit status is 1 if any survived
    .venv/bin/python tools/mutants.py --only ID ...   # some of them
    .venv/bin/python tools/mutants.py --list          # the mutants, without running them
    .venv/bin/python tools/mutants.py --jobs 2        # two copies, two mutants at a time

Before the mutants, every test they name runs once on the unmutated copy: a test that fails there would "kill"
every mutant that runs it, so the run stops and says which. ``tests/test_mutants.py`` checks the data itself (each
snippet occurs exactly once in its file, each test file exists), so a refactor that moves code shows up in
``make test`` instead of here.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tools" / "mutants.toml"
FIELDS = {"id", "file", "original", "mutated", "bug", "tests", "equivalent"}
#: The test of this data (each snippet occurs once...): never a mutant's killer, only behaviour tests are.
DATA_CHECK = "tests/test_mutants.py"


@dataclass(frozen=True)
class Mutant:
    """One hand-written bug: ``original`` (exactly once in ``file``) becomes ``mutated``; ``tests`` should see it."""

    id: str
    file: str
    original: str
    mutated: str
    bug: str
    tests: tuple[str, ...]
    equivalent: str | None = None

    @property
    def floor(self) -> str:
        """The floor of the mutated module: its top-level folder under ``loopkit/`` (``core``, ``traces``...)."""
        parts = Path(self.file).parts
        return parts[1] if len(parts) > 2 else "loopkit"


def load(path: Path = DATA) -> list[Mutant]:
    """The mutants of ``path``; a malformed entry raises ``ValueError`` naming it."""
    with open(path, "rb") as handle:
        entries = tomllib.load(handle).get("mutant", [])
    mutants, seen = [], set()
    for number, entry in enumerate(entries, 1):
        where = f"{path.name}: mutant {number} ({entry.get('id', 'no id')})"
        missing = {"id", "file", "original", "mutated", "bug", "tests"} - set(entry)
        unknown = set(entry) - FIELDS
        if missing or unknown:
            raise ValueError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
        if entry["id"] in seen:
            raise ValueError(f"{where}: the id is used twice")
        seen.add(entry["id"])
        tests = entry["tests"]
        if isinstance(tests, str) or not tests:
            raise ValueError(f"{where}: tests must be a non-empty list of test files")
        mutants.append(Mutant(entry["id"], entry["file"], entry["original"], entry["mutated"], entry["bug"],
                              tuple(tests), entry.get("equivalent")))
    return mutants


def problems(mutants: list[Mutant], root: Path = ROOT) -> list[str]:
    """What is wrong with the data against the code in ``root``: a snippet not found exactly once, a mutation that
    changes nothing, a test file that does not exist, or the data check named as a mutant's test."""
    found = []
    for mutant in mutants:
        source = root / mutant.file
        if not source.is_file():
            found.append(f"{mutant.id}: {mutant.file} does not exist")
            continue
        occurrences = source.read_text(encoding="utf-8").count(mutant.original)
        if occurrences != 1:
            found.append(f"{mutant.id}: its original snippet occurs {occurrences} times in {mutant.file}, not once")
        if mutant.original == mutant.mutated:
            found.append(f"{mutant.id}: the mutated snippet is the original")
        for test in mutant.tests:
            path, _, name = test.partition("::")
            if path == DATA_CHECK:
                found.append(f"{mutant.id}: {DATA_CHECK} checks this data, not loopkit's behaviour: it fails for "
                             "every mutant (the snippet is gone while it runs), so it may not be what kills one")
            elif not (root / path).is_file():
                found.append(f"{mutant.id}: test file {path} does not exist")
            elif name and not re.search(rf"^def {re.escape(name)}\(", (root / path).read_text(encoding="utf-8"), re.M):
                found.append(f"{mutant.id}: {path} has no test {name}")
    return found


def copy_checkout(into: Path) -> Path:
    """A copy of the checkout's files (tracked, new ones git does not ignore, and the compiled catalogs) in ``into``;
    returns it."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    for name in sorted(set(filter(None, listed.split("\0")))):
        source, target = ROOT / name, into / name
        if source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    # the compiled catalogs are built, not tracked (make translations): the Spanish tests need them in the copy too
    for compiled in sorted((ROOT / "loopkit").rglob("*.mo")):
        target = into / compiled.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(compiled, target)
    return into


#: pytest without what the mutants' unit tests never use: the notebook and docstring options of pyproject.toml's
#: addopts, and the notebook, browser and parallel plugins. Loading those takes about two thirds of a run's CPU time.
PYTEST_OPTIONS = ("-x", "-q", "--no-header", "-o", "addopts=", "-p", "no:cacheprovider", "-p", "no:nbval",
                  "-p", "no:xdist", "-p", "no:playwright", "-p", "no:base_url", "-p", "no:anyio")


def pytest_command(tests: tuple[str, ...]) -> list[str]:
    return [sys.executable, "-m", "pytest", *PYTEST_OPTIONS, *tests]


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, str]:
    """``("passed" | "failed" | "timeout", last lines of output)`` for ``tests`` run in ``copy``."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    try:
        done = subprocess.run(pytest_command(tests), cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-3:])
    return ("passed" if done.returncode == 0 else "failed"), tail


def check_imports_copy(copy: Path) -> None:
    """The copy's loopkit, not the editable install's, must be the one the tests import."""
    env = {**os.environ, "PYTHONPATH": str(copy)}
    where = subprocess.run([sys.executable, "-c", "import loopkit; print(loopkit.__file__)"], cwd=copy, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    if not Path(where).resolve().is_relative_to(copy.resolve()):
        raise SystemExit(f"the copy imports loopkit from {where}, not from {copy}: mutants would not be seen")


def run_mutant(copy: Path, mutant: Mutant, timeout: float) -> tuple[str, str, float]:
    """Apply ``mutant`` in ``copy``, run its tests, restore the file: ``(verdict, output tail, seconds)``."""
    target = copy / mutant.file
    original = target.read_text(encoding="utf-8")
    start = time.monotonic()
    try:
        target.write_text(original.replace(mutant.original, mutant.mutated, 1), encoding="utf-8")
        outcome, tail = run_tests(copy, mutant.tests, timeout)
    finally:
        target.write_text(original, encoding="utf-8")
    verdict = "survived" if outcome == "passed" else "killed"
    return verdict, (tail if outcome != "timeout" else "timed out"), time.monotonic() - start


def baseline(copy: Path, mutants: list[Mutant], timeout: float) -> None:
    """Every test the mutants name must pass on the unmutated copy (one pytest run for all of them)."""
    tests = sorted({test for m in mutants if m.equivalent is None for test in m.tests})
    whole = {test for test in tests if "::" not in test}
    tests = [test for test in tests if test.split("::")[0] not in whole or "::" not in test]
    outcome, tail = run_tests(copy, tuple(tests), timeout * 4)
    if outcome != "passed":
        raise SystemExit(f"the unmutated code fails the mutants' tests ({outcome}):\n{tail}\n"
                         f"fix that first: every mutant run with those tests would count as killed")


def summary(results: list[tuple[Mutant, str]]) -> str:
    """Killed of non-equivalent mutants, overall and by floor."""
    lines = []
    floors = sorted({m.floor for m, _ in results})
    for label, chosen in [("all", results)] + [(f, [r for r in results if r[0].floor == f]) for f in floors]:
        counts = Counter(verdict for _, verdict in chosen)
        live = counts["killed"] + counts["survived"]
        share = f"{100 * counts['killed'] / live:.0f}%" if live else "-"
        lines.append(f"{label:8} killed {counts['killed']}/{live} ({share}), equivalent {counts['equivalent']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="ID", help="run only these mutants")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at a time, each in its own copy")
    parser.add_argument("--timeout", type=float, default=600, help="seconds a mutant's tests may take")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run of the unmutated code")
    args = parser.parse_args(argv)
    mutants = load()
    wrong = problems(mutants)
    if wrong:
        print("the mutant data does not fit the code:\n" + "\n".join(wrong), file=sys.stderr)
        return 2
    if args.only:
        unknown = set(args.only) - {m.id for m in mutants}
        if unknown:
            print(f"no mutant {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        mutants = [m for m in mutants if m.id in args.only]
    if args.list:
        for m in mutants:
            print(f"{m.id:45} {m.file}: {m.bug}" + (f" [equivalent: {m.equivalent}]" if m.equivalent else ""))
        return 0
    live = [m for m in mutants if m.equivalent is None]
    with tempfile.TemporaryDirectory(prefix="loopkit-mutants-") as tmp:
        copies = [copy_checkout(Path(tmp) / f"copy{i}") for i in range(max(1, args.jobs))]
        check_imports_copy(copies[0])
        if not args.no_baseline:
            baseline(copies[0], live, args.timeout)
        results: list[tuple[Mutant, str]] = [(m, "equivalent") for m in mutants if m.equivalent is not None]
        free = list(copies)
        with concurrent.futures.ThreadPoolExecutor(len(copies)) as pool:
            pending = {}
            queue = list(live)
            while queue or pending:
                while queue and free:
                    mutant, copy = queue.pop(0), free.pop()
                    pending[pool.submit(run_mutant, copy, mutant, args.timeout)] = (mutant, copy)
                done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    mutant, copy = pending.pop(future)
                    free.append(copy)
                    verdict, tail, seconds = future.result()
                    results.append((mutant, verdict))
                    print(f"{verdict:9} {mutant.id:45} {seconds:5.1f} s  {mutant.bug}", flush=True)
    survivors = [m for m, verdict in results if verdict == "survived"]
    print()
    print(summary(results))
    if survivors:
        print("\nsurvived:\n" + "\n".join(f"  {m.id}: {m.file}: {m.bug} (ran {' '.join(m.tests)})"
                                         for m in survivors))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
