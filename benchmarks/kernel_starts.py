"""Start many kernels at once the way nbval does, and count the ones that never answer: the experiment behind
tests/kernels.py (issue 32, "Kernel died before replying to kernel_info" under load). Not a benchmark of run_all.py.

    .venv/bin/python benchmarks/kernel_starts.py tcp 50 8     # 8 processes, 50 kernel starts each, over TCP
    .venv/bin/python benchmarks/kernel_starts.py ipc 50 8     # the same over ipc (tests/kernels.py)

Each start is nbval's: its kernel spec for the current environment, a KernelManager, ``wait_for_ready``. Each
kernel's stderr (nbval sends it to /dev/null) is kept in build/kernel-starts/<transport>/. The summary prints how
many starts failed, and every pair of starts that overlapped in time and were handed the same port (TCP) or socket
name (ipc). Add load beside it to widen the window between picking a port and binding it (busy loops, another
test run).
"""

import json
import multiprocessing
import os
import pathlib
import sys
import time

from jupyter_client.manager import KernelManager
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from kernels import IpcKernelManager  # noqa: E402


def start_one(out: pathlib.Path, transport: str, n: int) -> dict:
    err = out / f"kernel-{n}.err"
    manager_class = IpcKernelManager if transport == "ipc" else KernelManager
    km = manager_class(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    started = time.time()
    with err.open("w") as stderr:
        km.start_kernel(stderr=stderr)
    ports = [km.shell_port, km.iopub_port, km.stdin_port, km.control_port, km.hb_port]
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=90)
        outcome = "ok"
    except RuntimeError as error:
        outcome = str(error)
    ended = time.time()
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    tail = [line for line in err.read_text().splitlines() if "running over TCP" not in line][-2:]
    return {"n": n, "ok": outcome, "start": started, "end": ended, "ports": ports, "ip": km.ip, "err": tail,
            "load": os.getloadavg()[0]}


def worker(out: pathlib.Path, transport: str, starts: int, k: int) -> None:
    with open(out / f"worker-{k}.jsonl", "w") as log:
        for i in range(starts):
            log.write(json.dumps(start_one(out, transport, k * 1000 + i)) + "\n")
            log.flush()


def summarize(out: pathlib.Path) -> None:
    rows = [json.loads(line) for f in out.glob("worker-*.jsonl") for line in f.read_text().splitlines()]
    bad = [r for r in rows if r["ok"] != "ok"]
    took = sorted(r["end"] - r["start"] for r in rows)
    loads = sorted(r["load"] for r in rows)
    print(f"{out.name}: {len(rows)} starts, {len(bad)} failed; start median {took[len(took) // 2]:.1f} s, worst "
          f"{took[-1]:.1f} s; load {loads[0]:.1f}-{loads[-1]:.1f}")
    for r in bad:
        print(f"  kernel {r['n']}: {r['ok']} {r['err'][-1] if r['err'] else ''}")
    shared = 0
    for i, r in enumerate(rows):
        for o in rows[i + 1:]:
            common = set(r["ports"]) & set(o["ports"])
            if o["start"] < r["end"] and r["start"] < o["end"] and common and r["ip"] == o["ip"]:
                shared += 1
                print(f"  kernels {r['n']} ({r['ok']}) and {o['n']} ({o['ok']}), started together, share {common}")
    print(f"  {shared} pairs of overlapping starts shared a port or socket name")


if __name__ == "__main__":
    transport, starts, at_once = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    out = ROOT / "build" / "kernel-starts" / transport
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    workers = [multiprocessing.Process(target=worker, args=(out, transport, starts, k)) for k in range(at_once)]
    for process in workers:
        process.start()
    for process in workers:
        process.join()
    summarize(out)
