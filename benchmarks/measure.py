"""One run of ``python -m loopkit replay PATH`` in a child process: its exit code, wall and CPU seconds, peak RSS and
the lines it wrote to standard error.

The command runs under a small wrapper process, so ``RUSAGE_CHILDREN`` there holds the command's own processes only
(its CPU time and the peak RSS of the largest one), not this benchmark's.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
from dataclasses import dataclass

WRAPPER = """
import resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
elapsed = time.perf_counter() - started
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(done.returncode, elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
sys.stdout.write(done.stderr.decode("utf-8", "replace"))
"""


@dataclass(frozen=True)
class Measured:
    exit_code: int
    wall_s: float
    cpu_s: float
    peak_mb: float
    errors: list[str]


def replay(path: pathlib.Path, timeout: float = 3600) -> Measured:
    """Replay ``path`` with the command line, as a user would, and measure it."""
    out = subprocess.run([sys.executable, "-c", WRAPPER, sys.executable, "-m", "loopkit", "replay", str(path)],
                         capture_output=True, text=True, check=True, timeout=timeout)
    head, *errors = out.stdout.splitlines()
    code, wall, cpu, peak_kb = head.split()
    return Measured(int(code), float(wall), float(cpu), int(peak_kb) / 1024, errors)
