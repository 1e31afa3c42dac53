"""Settings for every pytest run from the repository root, notebooks included.

A missing translation is an error in the tests (a learner gets the English text instead): the nbval kernels
inherit this variable, so a Spanish chapter that shows an untranslated loopkit text fails. See loopkit/core/language.py.

A cell tagged ``reveal`` shows the answer to a prediction. It is committed without output, so nbval has nothing to
compare it with; instead, once nbval has run it, :func:`pytest_runtest_call` checks what it printed: it must show
the answer loopkit holds for its exercise (``Question.shown_in``), and none of the exercise's known wrong answers in
its place.

nbval's kernels talk over Unix sockets (tests/kernels.py): over TCP, a kernel's ports, picked free and released,
can be taken by another process before the kernel binds them, and that kernel dies before it answers (the flake
of issue 32: "Kernel died before replying to kernel_info" on every cell of one chapter, under load).
"""

import os
import pathlib
import sys

import pytest

os.environ["LOOPKIT_STRICT_TRANSLATIONS"] = "1"
# A machine whose hub turns the room view on (loopkit/teaching/room.py) must not get the tests' answers in its room:
# the tests, and the notebook kernels that inherit this environment, record nothing unless a test asks.
os.environ.pop("LOOPKIT_ROOM", None)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tests"))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tests" / "browser"))

# tests/test_reveal_check.py runs this file's reveal check on small notebooks of its own. The browser tests' fixtures
# (one JupyterLab server, one Chromium) are a plugin, registered once: a module that imported them by name would get
# fixtures of its own, and a second module a second Chromium, which Playwright's sync API refuses.
pytest_plugins = ["pytester", "lab_fixtures"]

# nbval 0.11.0 builds each notebook's kernel with the KernelManager its kernel module imported (nbval/kernel.py,
# start_new_kernel); this is that name, pointed at the same manager over ipc.
import nbval.kernel  # noqa: E402
from kernels import IpcKernelManager  # noqa: E402

nbval.kernel.KernelManager = IpcKernelManager


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    from notebook_tools import is_reveal, printed_text, reveal_problem

    result = yield
    cell = getattr(item, "cell", None)
    if cell is not None and is_reveal(cell):
        # nbval (pinned 0.11.0) keeps the outputs it received for a cell in ``test_outputs``.
        problem = reveal_problem(item.parent.nb, cell, printed_text(item.test_outputs or []))
        if problem:
            raise AssertionError(f"{item.parent.path.name}: {problem}")
    return result
