"""`make bench`'s runner: every benchmark runs, and one table shows them all, whether they met their goals or not.

The benchmarks themselves are timed, so no test runs them; these tests run the runner on small stand-in scripts in a
scratch copy of the folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from notebook_tools import ROOT

STAND_INS = {
    # a goal missed side by side: exits 1, and the ones after it must still run
    "bench_a_missed.py": 'print("slow"); print(\'{"result": "0.5x", "goal": ">= 0.7x", "met": false}\'); raise SystemExit(1)',
    "bench_b_met.py": 'print("fast"); print(\'{"result": "1.5x", "goal": ">= 0.7x", "met": true}\')',
    "bench_c_plain.py": 'print("48 files: 12.0 MB/s")',  # no result line
    "bench_d_broken.py": 'raise ValueError("no such workload")',
}


def run_stand_ins(tmp_path):
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    for name in ("run_all.py", "report.py"):
        shutil.copy(ROOT / "benchmarks" / name, folder / name)
    for name, code in STAND_INS.items():
        (folder / name).write_text(code + "\n")
    return subprocess.run([sys.executable, str(folder / "run_all.py")], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)


def test_every_benchmark_gets_a_row_even_after_one_misses_its_goal(tmp_path):
    done = run_stand_ins(tmp_path)
    table = done.stdout.split("\n4 benchmarks on ", 1)[1].splitlines()[1:]
    rows = {line.split()[0]: line for line in table[2:]}
    assert list(rows) == ["bench_a_missed", "bench_b_met", "bench_c_plain", "bench_d_broken"], done.stdout
    assert re.search(r"0\.5x\s+>= 0\.7x\s+MISSED, exit 1\s+1\s", rows["bench_a_missed"])
    assert re.search(r"1\.5x\s+>= 0\.7x\s+ok\s+0\s", rows["bench_b_met"])
    assert "48 files: 12.0 MB/s (no result line)" in rows["bench_c_plain"] and re.search(r"\s-\s+-\s+0\s", rows["bench_c_plain"])
    assert "ValueError: no such workload (no result line)" in rows["bench_d_broken"] and "exit 1" in rows["bench_d_broken"]
    assert done.returncode == 1  # two scripts exited non-zero
    assert "== benchmarks/bench_b_met.py" in done.stdout and "fast" in done.stdout  # each script's own output too


def test_the_runner_finds_every_benchmark_in_the_folder():
    scripts = sorted(p.name for p in (ROOT / "benchmarks").glob("bench_*.py"))
    assert {"bench_middleware.py", "bench_detector.py", "bench_restart_run_all.py"} <= set(scripts)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^bench: .*\n\t\$\(BIN\)/python benchmarks/run_all\.py$", makefile, re.M)
