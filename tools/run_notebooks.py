"""Restart & Run All for chapter notebooks: execute each one top to bottom in a fresh kernel, in place.

Usage: python tools/run_notebooks.py notebooks/02_read_buckets.ipynb [...]

The stored outputs are what learners see and what nbval compares, so they must come from exactly one clean run.
Timing metadata is not recorded, and consecutive stream outputs are merged (the kernel may split one print into
several chunks), so outputs are stable. Widget state is stored (so a saved chapter shows its views), and its model
ids are new on every run: re-running a chapter with widgets rewrites those ids and nothing else. Prints the wall time of
each notebook; exits non-zero if any cell raises.

A cell tagged ``reveal`` shows the answer to a prediction. It runs with the rest (so a cell after it may use what
it computes, and an error in it still fails the run), and is then stored without its output and execution count: a
learner sees ``[ ]`` and runs it after answering. nbval still runs it, and the root ``conftest.py`` checks what it
prints.
"""

from __future__ import annotations

import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

# The kernels talk over Unix sockets, as make lab's and the tests' do (tests/kernels.py says why: over TCP, two
# kernels starting at once can be handed the same free port, and ipykernel warns about TCP for every chapter).
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from kernels import AsyncIpcKernelManager  # noqa: E402


def merge_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks into one output, as a single print would give."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.get("output_type") == "stream" and previous is not None
                and previous.get("output_type") == "stream" and previous.get("name") == output.get("name")):
            previous["text"] += output["text"]
        else:
            merged.append(output)
    return merged


REVEAL_TAG = "reveal"


def hide_reveals(cells: list) -> None:
    """Store every reveal cell as not yet run: no output, no execution count."""
    for cell in cells:
        if cell.cell_type == "code" and REVEAL_TAG in cell.get("metadata", {}).get("tags", []):
            cell.outputs = []
            cell.execution_count = None


def execute(nb: nbformat.NotebookNode, folder: pathlib.Path) -> float:
    """Run ``nb`` top to bottom in a fresh kernel started in ``folder``, in place, every stream output merged; its
    wall time in seconds. (make site runs a copy of each chapter this way for its reveal cells' outputs.)"""
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        kernel_manager_class=AsyncIpcKernelManager,
        resources={"metadata": {"path": str(folder)}},
    )
    started = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - started
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
    return elapsed


def run(path: pathlib.Path) -> float:
    nb = nbformat.read(path, as_version=4)
    elapsed = execute(nb, path.parent)
    hide_reveals(nb.cells)
    nbformat.write(nb, path)
    return elapsed


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    failed = 0
    for name in argv:
        path = pathlib.Path(name)
        try:
            elapsed = run(path)
        except CellExecutionError as exc:
            failed += 1
            print(f"FAILED {path}: a cell raised\n{exc}", file=sys.stderr)
            continue
        print(f"{elapsed:6.2f} s  {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
