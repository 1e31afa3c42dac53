"""Drive the workbook the way a learner does: a JupyterLab server from the project's .venv, and Chromium.

Two pieces, used by the fixtures in ``conftest.py``:

- :class:`LabServer` starts ``jupyter lab`` from ``.venv`` on 127.0.0.1 (a free port, no token) over a scratch
  copy of the repository, so that the lab's autosave can never touch the committed notebooks. It is stopped by
  its own process id.
- :class:`ChapterPage` opens one chapter in the lab and does what the chapter's first cell asks of a learner:
  clear the outputs, *Kernel > Restart Kernel and Run All Cells*, and wait for every code cell to finish.

Selectors are JupyterLab 4's own class names (``.jp-Cell``, ``.jp-InputPrompt``, ``.jp-OutputArea-output``) and
ipywidgets 8's (``.jupyter-widgets``, ``.widget-text``).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

ROOT = pathlib.Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
SCREENSHOTS = ROOT / "build" / "screenshots"

STDERR_MIME = "application/vnd.jupyter.stderr"  # JupyterLab renders both tracebacks and stderr with this type
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
# What ipywidgets' lab renderer shows instead of a view when the kernel-side model is gone or never arrives.
WIDGET_FAILURES = ("Error displaying widget", "model not found", "Loading widget...")

# Copied into the scratch folder the lab serves; the rest (.venv, .git, caches, build output) stays behind.
_NOT_COPIED = shutil.ignore_patterns(
    ".venv", ".git", "build", ".hypothesis", ".pytest_cache", "__pycache__", "*.egg-info", ".ipynb_checkpoints"
)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LabServer:
    """``jupyter lab`` from the project's ``.venv``, serving a copy of the repository in ``workdir``."""

    # Polled, so a quiet machine does not wait: the deadline is for `make test`'s heavy lanes, where the hub starts
    # twenty servers and Binder's environment installs beside this lab.
    def __init__(self, workdir: pathlib.Path, *, startup_timeout: float = 300.0) -> None:
        self.workdir = workdir
        self.root = workdir / "repo"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "jupyter-lab.log"
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen | None = None
        self.runtime = pathlib.Path(tempfile.mkdtemp(prefix="lab-"))  # 0700, short: /tmp/lab-xxxxxxxx

    def command(self) -> list[str]:
        lab = VENV_BIN / "jupyter-lab"
        if not lab.exists():
            raise FileNotFoundError(f"{lab} is missing: run `make test` (it creates .venv) before the browser test")
        return [
            str(lab),
            "--no-browser",
            "--allow-root",  # CI runs as root; this flag changes nothing for anyone else
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",  # fail rather than silently serve on another port
            "--IdentityProvider.token=",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.user_settings_dir={self.workdir / 'user-settings'}",
            f"--LabApp.workspaces_dir={self.workdir / 'workspaces'}",
            # As `make lab`: kernels over Unix sockets, no TCP ports to race for (tests/kernels.py), and none of
            # ipykernel's "running over TCP without encryption" warnings in the log.
            "--KernelManager.transport=ipc",
            # window.jupyterapp, so that a tab that holds the lab already opens the next chapter in it
            # (ChapterPage.open), as a learner does from the file browser, without loading the whole lab again.
            "--LabApp.expose_app_in_browser=True",
        ]

    def environment(self) -> dict[str, str]:
        """The caller's environment, minus anything from the user's own Jupyter and IPython setup. The runtime
        folder, where the kernels' Unix sockets live, is a short one of its own: a socket's path holds at most 107
        bytes, and a pytest temporary folder is deeper than that allows."""
        env = dict(os.environ)
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "IPYTHONDIR"):
            path = self.workdir / name.lower()
            path.mkdir(exist_ok=True)
            env[name] = str(path)
        env["JUPYTER_RUNTIME_DIR"] = str(self.runtime)
        env.pop("JUPYTER_PATH", None)
        env.pop("JUPYTER_CONFIG_PATH", None)
        return env

    def start(self) -> None:
        shutil.copytree(ROOT, self.root, ignore=_NOT_COPIED)
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command(),
            cwd=self.root,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.process.returncode} while starting:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.25)
        raise TimeoutError(f"jupyter lab did not answer on {self.url} within {self.startup_timeout} s:\n{self.log()}")

    def get_json(self, path: str):
        with urllib.request.urlopen(f"{self.url}{path}", timeout=10) as response:
            return json.load(response)

    def log(self, tail: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except FileNotFoundError:
            return "(no log)"

    def check_alive(self) -> None:
        """Fail with the server's exit status and log when it is no longer running (a crash, or a signal)."""
        if self.process is not None and self.process.poll() is not None:
            raise AssertionError(
                f"the JupyterLab server (pid {self.process.pid}) exited with {self.process.returncode} during the "
                f"test (negative: killed by that signal):\n{self.log(2000)}"
            )

    def stop(self) -> None:
        """SIGTERM to the server's own pid (it shuts its kernels down), SIGKILL if it has not gone in 20 s."""
        process = self.process
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        shutil.rmtree(self.runtime, ignore_errors=True)


# The state of a Run All, read in the page: how many code cells, which prompts are numbered, queued or blank, and
# whether an error (or stderr) output has appeared, which stops JupyterLab's Run All.
_RUN_STATE = """
() => {
  const prompts = [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')]
    .map(e => e.textContent.trim());
  const indicator = document.querySelector('.jp-NotebookPanel .jp-Notebook-ExecutionIndicator');
  return {
    prompts,
    idle: indicator !== null && indicator.getAttribute('data-status') === 'idle',
    errors: document.querySelectorAll('.jp-NotebookPanel .jp-OutputArea-output[data-mime-type="%s"]').length,
  };
}
""" % STDERR_MIME

_RUN_FINISHED = """
() => {
  const state = (%s)();
  const numbered = state.prompts.length > 0 && state.prompts.every(p => /^\\[\\d+\\]:$/.test(p));
  const queued = state.prompts.some(p => p === '[*]:');
  return state.idle && !queued && (numbered || state.errors > 0);
}
""" % _RUN_STATE.strip()


# Whether the tab shows a lab that has started (window.jupyterapp: --LabApp.expose_app_in_browser).
_APP_IS_UP = "() => Boolean(window.jupyterapp && window.jupyterapp.shell)"
# Close every document of the main area without saving (a chapter that ran is "modified": its outputs changed), then
# open the chapter with the lab's own command, the one a double click in the file browser runs.
_OPEN_IN_THE_LAB = """
async (path) => {
  const app = window.jupyterapp;
  const open = Array.from(app.shell.widgets('main'));
  const gone = open.map((widget) => new Promise((done) => {
    if (widget.isDisposed) return done();
    widget.disposed.connect(() => done());
  }));
  for (const widget of open) {
    if (widget.context) widget.context.model.dirty = false;
    widget.close();
  }
  await Promise.all(gone);
  await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
}
"""


class ChapterPage:
    """One chapter open in the lab, in a browser tab (its own, or its track's: ``track_tab`` in lab_fixtures.py)."""

    def __init__(self, page, server: LabServer, notebook: pathlib.Path) -> None:
        self.page = page
        self.server = server
        self.notebook = notebook
        self.cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]

    @property
    def relpath(self) -> str:
        return self.notebook.relative_to(ROOT).as_posix()

    def open(self, timeout_ms: float = 90_000) -> None:
        """Open the chapter: in the lab the tab already shows (every document there is closed first, unsaved), as a
        learner opens the next chapter from the file browser; else by loading the lab at the chapter's address."""
        self.server.check_alive()
        if self.page.url.startswith(f"{self.server.url}/lab") and self.page.evaluate(_APP_IS_UP):
            self.page.evaluate(_OPEN_IN_THE_LAB, self.relpath)
        else:
            # ?reset: start from an empty workspace, not from the tabs an earlier test left open
            self.page.goto(f"{self.server.url}/lab/tree/{self.relpath}?reset")
        expect(self.page.locator(".jp-NotebookPanel")).to_have_count(1, timeout=timeout_ms)
        # The execution indicator says "idle" before any kernel exists ("No Kernel | Initializing"); a kernel is
        # ready once the toolbar names it and the indicator is idle again.
        kernel_name = self.panel.locator(".jp-Toolbar-item[data-jp-item-name='kernelName']")
        expect(kernel_name).not_to_have_text(re.compile(r"^\s*(No Kernel)?\s*$"), timeout=timeout_ms)
        self.panel.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(timeout=timeout_ms)
        # The lab attaches cells in batches; wait for all of them (the index of a cell in the file is then the
        # index of its element in the page).
        expect(self.panel.locator(".jp-Notebook .jp-Cell")).to_have_count(len(self.cells), timeout=timeout_ms)

    @property
    def panel(self):
        """The notebook's panel in the lab (its toolbar and its cells)."""
        return self.page.locator(".jp-NotebookPanel")

    def menu(self, menu: str, command: str) -> None:
        """Click a top menu, then one of its items (by JupyterLab command id)."""
        self.page.locator("#jp-top-panel .lm-MenuBar-item", has_text=menu).click()
        self.page.locator(f".lm-Menu-item[data-command='{command}']").click()

    def restart_and_run_all(self, timeout_ms: float = 300_000) -> dict:
        """Clear every output, then *Restart Kernel and Run All Cells*, and wait until the run is over.

        Clearing first makes "every code cell has run" visible: each prompt goes from ``[ ]:`` to ``[n]:``, and
        every widget on the page afterwards was created by this run's kernel. Returns the final run state.
        """
        self.menu("Edit", "editmenu:clear-all")
        self.page.wait_for_function(
            "() => [...document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt')]"
            ".every(e => e.textContent.trim() === '[ ]:')"
        )
        self.menu("Kernel", "runmenu:restart-and-run-all")
        self.page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click()  # "Restart"
        try:
            self.page.wait_for_function(_RUN_FINISHED, timeout=timeout_ms)
        except PlaywrightTimeoutError:
            self.server.check_alive()
            shot = self.screenshot("-timed-out")
            state = self.page.evaluate(_RUN_STATE)
            raise AssertionError(
                f"{self.notebook.name}: Restart and Run All had not finished after {timeout_ms / 1000:.0f} s: {state}; "
                f"see {shot}"
            ) from None
        return self.page.evaluate(_RUN_STATE)

    def dom_cell(self, index: int):
        """The lab's cell for ``self.cells[index]`` (the lab keeps every cell in the page)."""
        return self.panel.locator(".jp-Notebook .jp-Cell").nth(index)

    def code_cell_index(self, needle: str) -> int | None:
        """Index of the first code cell whose source contains ``needle``."""
        for index, cell in enumerate(self.cells):
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            if cell["cell_type"] == "code" and needle in text:
                return index
        return None

    def widget_cells(self) -> list[int]:
        """Cells that show a widget view: a stored widget output, or a tagged cell that calls ``widgets.``."""
        found = []
        for index, cell in enumerate(self.cells):
            if cell["cell_type"] != "code":
                continue
            text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            stored = any(WIDGET_MIME in output.get("data", {}) for output in cell.get("outputs", []))
            tagged = "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []) and "widgets." in text
            if stored or tagged:
                found.append(index)
        return found

    def error_outputs(self) -> list[str]:
        return self.panel.locator(f".jp-OutputArea-output[data-mime-type='{STDERR_MIME}']").all_inner_texts()

    def live_widget(self, index: int, timeout_ms: float = 60_000):
        """Wait until cell ``index`` shows a rendered widget view and return its outputs; fail if it shows
        ipywidgets' error text (model not found) or only the plain-text fallback."""
        cell = self.dom_cell(index)
        # The lab draws a cell's outputs when the cell comes into view, or when the page is idle: on a busy machine a
        # cell below the window may stay undrawn for long. A learner scrolls to it; so does the test.
        cell.scroll_into_view_if_needed()
        outputs = cell.locator(".jp-OutputArea-output")
        # A real view is an element inside the output; ipywidgets' error text sits on the output element itself.
        live = outputs.locator(".jupyter-widgets.lm-Widget")
        failed = outputs.filter(has_text=re.compile("|".join(re.escape(text) for text in WIDGET_FAILURES[:2])))
        try:
            live.or_(failed).first.wait_for(state="attached", timeout=timeout_ms)
        except PlaywrightTimeoutError:
            pass
        text = " | ".join(outputs.all_inner_texts()) or "(no output)"
        for failure in WIDGET_FAILURES:
            assert failure not in text, f"{self.notebook.name} cell {index} shows {failure!r} instead of a widget: {text[:300]}"
        assert live.count() > 0, f"{self.notebook.name} cell {index}: no live widget view; the cell shows: {text[:300]}"
        return outputs

    def screenshot(self, suffix: str = "", *, at: int | None = None) -> pathlib.Path:
        """Save the lab as the learner sees it, scrolled to cell ``at`` if given, under build/screenshots/."""
        if at is not None:
            # Selecting the cell (a click on its prompt) makes the lab scroll it into view, as a learner's click does.
            cell = self.dom_cell(at)
            cell.locator(".jp-InputPrompt").first.click()
            expect(cell).to_be_in_viewport()
        # Cells off screen are painted lazily (CSS content-visibility): give the lab a moment to paint the view.
        self.page.wait_for_timeout(500)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        track_and_name = self.notebook.relative_to(ROOT / "notebooks").with_suffix("").as_posix().replace("/", "-")
        path = SCREENSHOTS / f"{track_and_name}{suffix}.png"   # es-05_detector.png for the Spanish twin
        self.page.screenshot(path=str(path))
        return path

    def shut_down_kernels(self) -> None:
        """Shut down every kernel session through the REST API (with the page's XSRF cookie)."""
        request = self.page.context.request
        xsrf = next((c["value"] for c in self.page.context.cookies() if c["name"] == "_xsrf"), "")
        for session in self.server.get_json("/api/sessions"):
            request.delete(f"{self.server.url}/api/sessions/{session['id']}", headers={"X-XSRFToken": xsrf})
