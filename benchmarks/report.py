"""The last line a benchmark prints, for `make bench`'s table, and the machine it ran on.

The protocol (benchmarks/README.md): a benchmark may end its standard output with one line holding a JSON object
with ``"result"`` (text: the headline figure), ``"goal"`` (text, or null when it has none) and ``"met"`` (true,
false, or null when there is no goal to meet). ``run_all.py`` reads that line; a script that prints none still gets
a row, with the last line it printed and its exit code.
"""

from __future__ import annotations

import json
import os
import platform


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> str:
    """This machine in one line: the CPU, its cores, the Python, and the load average right now.

    >>> "cores" in machine() and "load" in machine()
    True
    """
    load = "/".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (f"{cpu_model()}, {os.cpu_count()} cores, {platform.python_implementation()} "
            f"{platform.python_version()}, load {load} (1/5/15 min)")


def result_line(result: str, goal: str | None = None, met: bool | None = None) -> str:
    """The protocol's JSON line.

    >>> result_line("12,000 batches/s", "at least 0.7x upstream", True)
    '{"result": "12,000 batches/s", "goal": "at least 0.7x upstream", "met": true}'
    """
    return json.dumps({"result": result, "goal": goal, "met": met})
