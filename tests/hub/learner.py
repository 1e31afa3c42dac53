"""A learner at a workshop, as the hub sees one: a browser session that follows a link and runs chapters.

There is no browser here. :class:`Learner` does over HTTP what a browser does for a learner, and nothing more:

- it follows the nbgitpuller link, logs in on the hub's form, clicks *Launch Server* on the hub's "Server not
  running" page, waits on the spawn-pending page until the server is ready (where a browser listens to the page's
  progress stream, the learner polls the hub's REST API for its server's state every 2 s, up to a deadline
  that the test scales with the number of learners starting at once: a poll cannot hang on a stream that a
  loaded machine answers late), then does what nbgitpuller's page script does (``nbgitpuller/static/js/gitsync.js`` in nbgitpuller 1.3.0): it reads the ``git-pull/api`` event stream
  and, when the pull has finished, opens the page the link names;
- it runs a chapter the way JupyterLab does: a session (and with it a kernel) through the server's REST API, then
  every code cell as an ``execute_request`` on the kernel's websocket.
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import time
import urllib.parse
import uuid
from collections.abc import Callable, Sequence

import requests
import websocket


class SpawnFailed(Exception):
    """The hub reported that this learner's server did not start."""


@dataclasses.dataclass
class PullResult:
    """What the learner's nbgitpuller page showed: the last event of the pull, and where it then sent them."""

    phase: str  # "finished" or "error"
    event: dict
    status_page: str
    redirect_url: str


@dataclasses.dataclass
class CellRun:
    index: int
    status: str  # the execute_reply's status: "ok" or "error"
    stdout: str
    errors: list[str]


def _attribute(page: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', page)
    return urllib.parse.unquote(html.unescape(found.group(1))) if found else None


class Learner:
    """``server_state(name)`` answers "ready", "pending" or "none" for a learner's server (``Hub.server_state``);
    ``ready_deadline`` is how long a server may take to become ready; ``timeout`` bounds each HTTP request."""

    def __init__(self, name: str, hub_url: str, *, server_state: Callable[[str], str], ready_deadline: float = 180.0,
                 timeout: float = 180.0) -> None:
        self.name = name
        self.hub_url = hub_url
        self.server_state = server_state
        self.ready_deadline = ready_deadline
        self.timeout = timeout
        self.waited_for_server: list[float] = []  # seconds from the pending page to a ready (or failed) server
        self.http = requests.Session()
        self.server_xsrf: str | None = None
        self.launches = 0  # clicks on the hub's Launch Server button ("Server not running")
        self.relaunches = 0  # clicks on the hub's Relaunch Server button after a failed start
        self.retried: list[str] = []  # REST calls sent a second time after the connection was reset

    @property
    def server_url(self) -> str:
        return f"{self.hub_url}/user/{self.name}"

    # -- following the link ------------------------------------------------------------------------------------

    def follow_link(self, link: str, *, relaunches_allowed: int = 1) -> PullResult:
        """Open ``link`` in the learner's browser: log in, launch the server if needed, and run the pull page.

        A server that fails to start is launched again with the hub's *Relaunch Server* button, at most
        ``relaunches_allowed`` times; a failure after that raises :class:`SpawnFailed` with the hub's messages.
        """
        failures: list[str] = []
        answer = self.http.get(link, timeout=self.timeout)
        for _ in range(12):
            path = urllib.parse.urlsplit(answer.url).path
            if path.endswith("/hub/login"):
                answer = self._log_in(answer)
            elif 'id="start"' in answer.text:  # the hub's "Server not running" or "Spawn failed" page
                if "Spawn failed" in answer.text:
                    failures.append(self._failure_text(answer.text))
                    if self.relaunches >= relaunches_allowed:
                        raise SpawnFailed(f"{len(failures)} starts failed: " + " | ".join(failures))
                    self.relaunches += 1
                else:
                    self.launches += 1
                answer = self.http.get(self._start_button(answer), timeout=self.timeout)  # Launch / Relaunch
            elif "/hub/spawn-pending/" in path:
                answer = self._wait_for_spawn(answer)
            elif path.startswith(f"/user/{self.name}/git-pull"):
                return self._run_pull_page(answer)
            elif path.startswith(f"/user/{self.name}/") and answer.status_code == 200:
                answer = self.http.get(link, timeout=self.timeout)  # relaunched into the lab: click the link again
            else:
                raise AssertionError(f"{self.name}: unexpected page {answer.status_code} {answer.url}\n"
                                     f"{answer.text[:500]}")
        raise AssertionError(f"{self.name}: the link did not reach nbgitpuller after 12 pages ({answer.url})")

    def _log_in(self, page: requests.Response) -> requests.Response:
        form = re.search(r'<form[^>]*action="([^"]*)"', page.text)
        xsrf = re.search(r'name="_xsrf"[^>]*value="([^"]*)"', page.text)
        assert form and xsrf, f"{self.name}: no login form at {page.url}"
        action = urllib.parse.urljoin(page.url, html.unescape(form.group(1)))
        return self.http.post(action, data={"username": self.name, "password": "workshop", "_xsrf": xsrf.group(1)},
                              timeout=self.timeout)

    def _start_button(self, page: requests.Response) -> str:
        found = re.search(r'id="start"[^>]*href="([^"]*)"', page.text, re.S)
        assert found, f"{self.name}: no Launch Server button at {page.url}"
        return urllib.parse.urljoin(page.url, html.unescape(found.group(1)))

    @staticmethod
    def _failure_text(page: str) -> str:
        text = re.sub(r"<[^>]+>", " ", page)
        found = re.search(r"Spawn failed(.*?)Would you like", text, re.S)
        return " ".join((found.group(1) if found else text[:300]).split())

    def _wait_for_spawn(self, page: requests.Response) -> requests.Response:
        """Poll the hub until the server is ready or its start has failed, then go on as the page's script does."""
        assert re.search(r'EventSource\(\s*"([^"]*)"', page.text), f"{self.name}: {page.url} is no spawn-pending page"
        started = time.monotonic()
        while self.server_state(self.name) == "pending":
            if time.monotonic() - started > self.ready_deadline:
                raise SpawnFailed(f"the server was still starting after {self.ready_deadline:.0f} s (the deadline)")
            time.sleep(2.0)
        self.waited_for_server.append(round(time.monotonic() - started, 1))
        # Failed or ready, the browser goes on to ``next``; after a failure the hub answers with its "Spawn failed"
        # page and its Relaunch button, which follow_link handles. After a Relaunch there is no ``next``, and the
        # pending page itself answers: the server, or the "Spawn failed" page again.
        next_url = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query).get("next", [page.url])[0]
        return self.http.get(urllib.parse.urljoin(page.url, next_url), timeout=self.timeout)

    def _run_pull_page(self, page: requests.Response) -> PullResult:
        """Do what nbgitpuller's status page script does: stream ``git-pull/api``, then compute where to go."""
        assert page.status_code == 200, f"{self.name}: nbgitpuller page answered {page.status_code}"
        base_url = _attribute(page.text, "data-base-url")
        self.server_xsrf = _attribute(page.text, "data-xsrf")
        params = {"_xsrf": self.server_xsrf, "repo": _attribute(page.text, "data-repo"),
                  "targetpath": _attribute(page.text, "data-targetpath")}
        for optional in ("depth", "branch", "backup"):
            value = _attribute(page.text, f"data-{optional}")
            if value is not None:
                params[optional] = value
        sync_url = f"{self.hub_url}{base_url}git-pull/api?{urllib.parse.urlencode(params)}"
        event = {"phase": "error", "message": "the event stream ended without a result"}
        with self.http.get(sync_url, stream=True, timeout=self.timeout) as stream:
            for line in stream.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    event = json.loads(line[len("data:"):])
                    if event.get("phase") in ("finished", "error"):
                        break
        redirect = f"{self.hub_url}{base_url}{_attribute(page.text, 'data-path')}"
        return PullResult(event["phase"], event, page.text, redirect)

    def open_page(self, url: str) -> dict:
        """Open a JupyterLab URL and return the page config JupyterLab boots from (its ``treePath`` and more)."""
        answer = self.http.get(url, timeout=self.timeout)
        assert answer.status_code == 200, f"{self.name}: {url} answered {answer.status_code}"
        config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                           answer.text, re.S)
        assert config, f"{self.name}: {url} is not a JupyterLab page"
        return json.loads(config.group(1))

    # -- the server's REST API ---------------------------------------------------------------------------------

    def api(self, method: str, path: str, *, retry: bool = True, **kwargs) -> requests.Response:
        """One call of the server's REST API, on a fresh connection each time.

        A pooled keep-alive connection that the proxy has just closed (Node closes idle ones after 5 s) is reset
        when reused; a browser then sends the request again, and so does this: once, recorded in ``retried``.
        ``retry=False`` is for a call that must not be sent twice blindly. An error status fails.
        """
        headers = {"X-XSRFToken": self.server_xsrf or "", "Connection": "close"}
        for attempt in (1, 2):
            try:
                answer = self.http.request(method, f"{self.server_url}/api/{path}", headers=headers,
                                           timeout=self.timeout, **kwargs)
                break
            except requests.ConnectionError:
                if attempt == 2 or not retry:
                    raise
                self.retried.append(f"{method} {path}")
                time.sleep(1.0)
        answer.raise_for_status()
        return answer

    def start_session(self, path: str) -> dict:
        """Start a kernel for ``path`` as JupyterLab does (a session). After a reset, the session the first request
        may have created is looked up before a second one is asked for, so no learner gets two kernels."""
        body = {"path": path, "name": path.rsplit("/", 1)[-1], "type": "notebook", "kernel": {"name": "python3"}}
        try:
            return self.api("POST", "sessions", json=body, retry=False).json()
        except requests.ConnectionError:
            self.retried.append("POST sessions")
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            for session in self.api("GET", "sessions").json():
                if session["path"] == path:
                    return session
            time.sleep(1.0)
        return self.api("POST", "sessions", json=body, retry=False).json()

    def read_notebook(self, path: str) -> dict:
        return self.api("GET", f"contents/{path}").json()["content"]

    def save_notebook(self, path: str, notebook: dict) -> None:
        self.api("PUT", f"contents/{path}", json={"type": "notebook", "format": "json", "content": notebook})

    def run_notebook(self, path: str, then: Sequence[str] = ()) -> tuple[str, list[CellRun]]:
        """Start a kernel for ``path`` as JupyterLab does (a session), run every code cell, then each code of
        ``then`` in the same kernel (a learner's own cells typed below the chapter's); return the session id and
        the runs, the chapter's first.

        The kernel starts in the notebook's folder, as in JupyterLab, so a chapter's relative paths resolve.
        """
        session = self.start_session(path)
        cells = [cell for cell in self.read_notebook(path)["cells"] if cell["cell_type"] == "code"]
        codes = ["".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"] for cell in cells]
        runs = []
        channel = self._connect(session["kernel"]["id"])
        try:
            for index, code in enumerate([*codes, *then]):
                runs.append(self._execute(channel, index, code))
        finally:
            channel.close()
        return session["id"], runs

    def shut_down(self, session_id: str) -> None:
        self.api("DELETE", f"sessions/{session_id}")

    def _connect(self, kernel_id: str) -> websocket.WebSocket:
        url = f"{self.server_url}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
        path = urllib.parse.urlsplit(url).path
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.http.cookies if path.startswith(c.path))
        return websocket.create_connection(url.replace("http://", "ws://", 1), cookie=cookies,
                                           header=[f"X-XSRFToken: {self.server_xsrf}"], timeout=self.timeout)

    def _execute(self, channel: websocket.WebSocket, index: int, code: str) -> CellRun:
        msg_id = uuid.uuid4().hex
        channel.send(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                       "session": uuid.uuid4().hex, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True},
        }))
        status, stdout, errors, idle = None, [], [], False
        deadline = time.monotonic() + self.timeout
        while (status is None or not idle) and time.monotonic() < deadline:
            message = json.loads(channel.recv())
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["header"]["msg_type"], message["content"]
            if kind == "execute_reply":
                status = content["status"]
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "stream" and content["name"] == "stdout":
                stdout.append(content["text"])
            elif kind == "error":
                errors.append(f"{content['ename']}: {content['evalue']}")
        return CellRun(index, status or "timeout", "".join(stdout), errors)
