"""Throughput of fingerprint() and PinnedMiddleware.after_model() on a realistic mix of batches.

Usage: python benchmarks/bench_detector.py [--repeat N] [--quick]

Two workloads (see workload.py): 100,000 single-call batches and 20,000 five-call batches, mostly distinct calls
with some loops. Each is timed as

* **reference**: the same code, but every serialization goes through ``json.dumps(value, sort_keys=True,
  default=str)``, which builds a new encoder on each call (the upstream style the issue measures against);
* **loopkit**: the code as it is.

Each pass times the workload in slices of 2,000 batches; a slice's time is its best over N passes, and a rate is
calls divided by the sum of those best slice times. On a shared machine that filters out the moments when the
process was interrupted. The speedup over the reference, measured in the same process with the passes
interleaved, is the robust number. Digests must be bit-identical; the script checks that on every batch.

Goals: fingerprint >= 1.3x the reference (issue 3). The ``after_model`` rows are informational: since issue 9
the detector and middleware are written for reading, without speed tricks, and their floor is the one in
``bench_middleware.py`` (at least 0.7x upstream's own ``after_model``). Issue 3 had asked for 1.4x here; the
readable middleware, with its lock and its LRU of threads, measures about 1.4x, so this script reports it and
no longer gates on it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from report import machine, result_line  # noqa: E402
from workload import batches  # noqa: E402

from loopkit import PinnedMiddleware, fingerprint  # noqa: E402

# The modules (loopkit.core.fingerprint is also the name of the function, so fetch the modules by name).
KEYS, FINGERPRINT = sys.modules["loopkit.core.keys"], sys.modules["loopkit.core.fingerprint"]

GOALS = {"fingerprint": 1.3}


def _dumps(value):
    return json.dumps(value, sort_keys=True, default=str)


@contextlib.contextmanager
def reference_serialization():
    """Swap loopkit's serializer for a fresh ``json.dumps`` on every call, as upstream does."""
    saved = KEYS.canonical_json, FINGERPRINT.canonical_json
    KEYS.canonical_json = FINGERPRINT.canonical_json = _dumps
    try:
        yield
    finally:
        KEYS.canonical_json, FINGERPRINT.canonical_json = saved


CHUNK = 2_000  # batches per timed slice


def _time_fingerprint(work):
    """Seconds for each consecutive slice of ``work``."""
    clock, times = time.perf_counter, []
    for start in range(0, len(work), CHUNK):
        began = clock()
        for batch in work[start:start + CHUNK]:
            fingerprint(batch)
        times.append(clock() - began)
    return times


def _time_observe(work):
    """Seconds for each consecutive slice of ``work``, all through one detector (state carries over)."""
    middleware = PinnedMiddleware()  # upstream defaults; 200 threads of 500 turns, so the LRU of 100 evicts
    after_model, clock, times = middleware.after_model, time.perf_counter, []
    for start in range(0, len(work), CHUNK):
        began = clock()
        for i in range(start, min(start + CHUNK, len(work))):
            after_model(work[i], i // 500, "run")
        times.append(clock() - began)
    return times


def _best(passes):
    """Total time of a pass if every slice ran at its best: the per-slice minimum over passes, summed.

    On a shared machine a pass is interrupted at random moments; taking each slice's best filters those out while
    every batch of the workload is still timed.
    """
    return sum(min(times) for times in zip(*passes))


def best_pair(fn, work, repeat):
    """Best reference time and best loopkit time, their passes interleaved so that load drifts hit both."""
    ref, new = [], []
    for _ in range(repeat):
        with reference_serialization():
            ref.append(fn(work))
        new.append(fn(work))
    return _best(ref), _best(new)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="passes per measurement; the best one counts")
    parser.add_argument("--quick", action="store_true", help="a tenth of the batches (a smoke run)")
    parser.add_argument("--no-reference", action="store_true",
                        help="time loopkit only (to compare two checkouts: PYTHONPATH=/other/checkout ...)")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1

    failed = False
    speedups = []  # (workload, fingerprint speedup) for the result line
    print(f"machine: {machine()}")
    print(f"{'workload':<22}{'what':<13}{'reference':>14}{'loopkit':>14}{'speedup':>9}  goal")
    for n, size in ((100_000 // scale, 1), (20_000 // scale, 5)):
        work = batches(n, size)
        calls = n * size
        with reference_serialization():
            expected = [fingerprint(b) for b in work]
        assert [fingerprint(b) for b in work] == expected, "digests differ from the reference serialization"
        for what, fn in (("fingerprint", _time_fingerprint), ("after_model", _time_observe)):
            if args.no_reference:
                new = _best([fn(work) for _ in range(args.repeat)])
                print(f"{f'{n:,} x {size}-call':<22}{what:<13}{'-':>14}{calls / new:>10,.0f}/s")
                continue
            ref, new = best_pair(fn, work, args.repeat)
            speedup = ref / new
            goal = GOALS.get(what)
            ok = goal is None or speedup >= goal
            failed |= not ok
            if what == "fingerprint":
                speedups.append((f"{size}-call", speedup))
            verdict = f">= {goal}x {'ok' if ok else 'MISSED'}" if goal else "(informational)"
            print(f"{f'{n:,} x {size}-call':<22}{what:<13}{calls / ref:>10,.0f}/s {calls / new:>10,.0f}/s"
                  f"{speedup:>8.2f}x  {verdict}")
    print("digests: bit-identical to the reference serialization on every batch")
    print("for comparison only (not a goal here): on issue 3's machine class fingerprint ran 255,000/s, its "
          "reference 195,000/s")
    if speedups:
        shown = ", ".join(f"{x:.2f}x ({name})" for name, x in speedups)
        print(result_line(f"fingerprint {shown} the reference, side by side",
                          f">= {GOALS['fingerprint']}x the reference", not failed))
    else:
        print(result_line("loopkit alone (--no-reference): rates above, this machine", None, None))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
