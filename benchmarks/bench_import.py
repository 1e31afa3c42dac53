"""How long ``import loopkit`` takes in a fresh interpreter, and what it loads (not a test: numbers vary by machine).

The goal (issue 26): under 50 ms on a quiet machine, so a chapter's first cell and ``python -m loopkit`` start at
once. Each of the runs starts a new Python, which times only the import (``time.perf_counter`` around it; the
interpreter's own start-up is left out) and lists what the import left in ``sys.modules``. The median is the
headline. The figure is absolute, so the script prints the machine and its load average and always exits 0, unless
the import itself loads a library the core must never load (pandas, numpy, matplotlib, ipywidgets).

Usage: python benchmarks/bench_import.py [RUNS]   (default 21)
"""

from __future__ import annotations

import json
import pathlib
import statistics
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from report import machine, result_line  # noqa: E402

GOAL_MS = 50.0
NEVER = ("pandas", "numpy", "matplotlib", "ipywidgets")
CHILD = """
import json, sys, time
before = set(sys.modules)
started = time.perf_counter()
import loopkit
elapsed = time.perf_counter() - started
print(json.dumps({"ms": elapsed * 1000, "loaded": sorted(set(sys.modules) - before)}))
"""


def one_import() -> dict:
    """One fresh interpreter's import time (ms) and the modules the import loaded."""
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.splitlines()[-1])


def main(argv: list[str]) -> int:
    runs = int(argv[0]) if argv else 21
    print(f"machine: {machine()}")
    one_import()  # the first run may write bytecode caches; it is not counted
    samples = [one_import() for _ in range(runs)]
    times = sorted(sample["ms"] for sample in samples)
    loaded = samples[-1]["loaded"]
    ours = [name for name in loaded if name == "loopkit" or name.startswith("loopkit.")]
    forbidden = sorted({name.split(".")[0] for name in loaded} & set(NEVER))
    median = statistics.median(times)
    print(f"import loopkit, {runs} fresh interpreters: median {median:.1f} ms, "
          f"fastest {times[0]:.1f} ms, slowest {times[-1]:.1f} ms")
    print(f"it loads {len(loaded)} modules, {len(ours)} of them loopkit's: {', '.join(ours)}")
    if forbidden:
        print(f"import loopkit loaded {', '.join(forbidden)}: the core must use the standard library only")
    print(f"machine at the end: {machine()}")
    print(result_line(f"median {median:.1f} ms ({runs} runs)", f"< {GOAL_MS:.0f} ms on a quiet machine",
                      median < GOAL_MS))
    return 1 if forbidden else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
