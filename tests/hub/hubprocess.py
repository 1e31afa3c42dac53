"""A real JupyterHub on 127.0.0.1, in a scratch folder, and a ledger of every process it starts.

The hub is JupyterHub from the project's ``.venv``, with its built-in ``DummyAuthenticator`` (any name, any
password) and ``SimpleLocalProcessSpawner`` (one single-user server per learner, as a local process, with its home
under the scratch folder). Its proxy is configurable-http-proxy from npm, which ``make test`` installs under
``.venv/node`` from the root ``package.json`` and ``package-lock.json``. Database, cookie secret and logs live in
the scratch folder, so two runs never share state. The room view (loopkit/teaching/room.py) is turned on the way
docs/jupyterhub.md says: ``LOOPKIT_ROOM`` in every learner's environment names the scratch folder's ``room/``.

Each single-user server is started through a one-line shell wrapper that sends its output to
``logs/<learner>.log``: that file is the log tail a failed learner is reported with. The wrapper also makes any
learner whose name starts with ``broken-`` fail to start, so the test can prove that a failed start is retried
and reported (see ``BROKEN_PREFIX``).
"""

from __future__ import annotations

import os
import pathlib
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import psutil
import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
PROXY = ROOT / ".venv" / "node" / "node_modules" / ".bin" / "configurable-http-proxy"
BROKEN_PREFIX = "broken-"

# The single-user server's wrapper: $0 is jupyterhub-singleuser, "$@" the spawner's arguments.
_WRAPPER = """exec >>"$LOOPKIT_HUB_LOGS/$JUPYTERHUB_USER.log" 2>&1
case "$JUPYTERHUB_USER" in {broken}*) echo "refusing to start: $JUPYTERHUB_USER fails on purpose (tests/test_hub.py)"; exit 3;; esac
exec "$0" "$@"
"""

_CONFIG = """\
# Written by tests/hub/hubprocess.py for one test run; everything lives in this folder.
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {folder!r} + "/proxy.pid"
c.JupyterHub.pid_file = {folder!r} + "/hub.pid"
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/jupyterhub_cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {folder!r} + "/home/{{username}}"
c.Spawner.cmd = ["/bin/sh", "-c", {wrapper!r}, {singleuser!r}]
c.Spawner.args = {args!r}
# The room view is on for every learner, as docs/jupyterhub.md ("The room view") tells an instructor to do it.
c.Spawner.environment = {{"LOOPKIT_HUB_LOGS": {folder!r} + "/logs", "LOOPKIT_ROOM": {room!r}}}
# How long the hub waits for a server to start and then to answer: the test's deadline, which grows with the
# number of learners who start at once (see tests/test_hub.py), so the hub never gives up before the test does.
c.Spawner.start_timeout = {server_timeout}
c.Spawner.http_timeout = {server_timeout}


import socket

_ports_handed_out = set()


def learner_port():
    # A port for one learner's server, below the kernel's range of ephemeral ports. Left alone, the spawner binds
    # port 0 to find a free port, closes it, and the server binds it again later. Under load that gap is long, and
    # the machine's own outgoing connections (hundreds here) take their local ports from that same ephemeral range,
    # so one can take the port first; jupyterhub-singleuser runs with port_retries=0, so the server then exits, and
    # JupyterHub 6.1.1 notices an exited server only when Spawner.http_timeout runs out. No outgoing connection and
    # no bind to port 0 takes a port below the range.
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as ports:
            ephemeral = int(ports.read().split()[0])
    except OSError:
        ephemeral = 32768
    for port in range({port_base}, ephemeral):
        if port in _ports_handed_out:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        _ports_handed_out.add(port)
        return port
    raise RuntimeError(f"no free port between {port_base} and {{ephemeral}} for a learner's server")


def prepare_learner(spawner):
    # Kernel sockets (ipc, see Spawner.args) go in a short per-learner folder: a Unix socket path has at most
    # 107 bytes, and the learner's home under pytest's temporary folder is longer than that allows.
    spawner.environment["JUPYTER_RUNTIME_DIR"] = {runtime!r} + "/" + spawner.user.name
    spawner.port = learner_port()
    # JupyterHub 6.1.1 notices a server that exited only when Spawner.http_timeout runs out; the learners meant
    # to fail should not hold the test for that long.
    if spawner.user.name.startswith({broken!r}):
        spawner.http_timeout = 3


c.Spawner.pre_spawn_hook = prepare_learner
# An observer service, so the test can ask the hub about every learner's server.
c.JupyterHub.services = [{{"name": "observer", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "observer", "scopes": ["read:users", "read:servers"], "services": ["observer"]}}]
"""


class HubUnavailable(Exception):
    """The hub cannot run here (no Node, no proxy, no free port, or it did not come up); the message says why."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    except OSError as error:
        raise HubUnavailable(f"no free TCP port on 127.0.0.1 for the hub test: {error}") from error


def require_tools() -> None:
    """Raise with the reason when Node or the proxy is missing; the hub test fails on it, it never skips."""
    if shutil.which("node") is None:
        raise HubUnavailable("Node.js is not on PATH; JupyterHub's proxy (configurable-http-proxy) needs it. "
                             "Install it (Debian: apt-get install nodejs npm), then run make test.")
    if not PROXY.exists():
        raise HubUnavailable(f"{PROXY.relative_to(ROOT)} is missing; `make test` installs it from package.json "
                             "(npm ci under .venv/node). Run make test, or: make .venv/node/.installed")


class ProcessLedger:
    """Every process the hub test started, recorded by id and start time, so teardown can end them all."""

    def __init__(self) -> None:
        self.seen: dict[int, psutil.Process] = {}

    def record_tree(self, root: psutil.Process) -> list[psutil.Process]:
        try:
            tree = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []
        for process in tree:
            self.seen.setdefault(process.pid, process)
        return tree

    def alive(self) -> list[psutil.Process]:
        return [process for process in self.seen.values() if process.is_running()
                and process.status() != psutil.STATUS_ZOMBIE]

    def kill_all(self) -> None:
        for process in self.alive():
            try:
                process.kill()
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(list(self.seen.values()), timeout=10)


class Hub:
    """One JupyterHub run in ``folder``; ``start`` it, then ``stop`` it in a ``finally``."""

    def __init__(self, folder: pathlib.Path, *, server_timeout: int = 180) -> None:
        self.folder = folder
        self.server_timeout = server_timeout
        self.logs = folder / "logs"
        self.room = folder / "room"  # the room view's shared folder (LOOPKIT_ROOM), one file per learner
        self.port, self.hub_port, self.proxy_api_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(16)
        self.ledger = ProcessLedger()
        self.runtime = pathlib.Path(tempfile.gettempdir()) / f"lkhub-{secrets.token_hex(4)}"  # short: sockets
        # Where the learners' server ports start (see learner_port in the config): a random base, so two hub tests
        # on one machine (other checkouts) are unlikely to try the same ports at the same moment.
        self.port_base = 20000 + 100 * secrets.randbelow(100)
        self.process: psutil.Popen | None = None

    def config_text(self) -> str:
        # Kernels talk to their server over Unix sockets in the learner's runtime folder, not TCP ports: with
        # TCP, twenty servers that start kernels at the same moment on one machine pick the same free ports
        # (one run here logged 6 "ZMQError: Address already in use" as kernels died). docs/jupyterhub.md says so.
        args = ["--KernelManager.transport=ipc"]
        if os.geteuid() == 0:
            args.append("--ServerApp.allow_root=True")  # CI machines often run as root
        return _CONFIG.format(port=self.port, hub_port=self.hub_port, proxy_api_port=self.proxy_api_port,
                              proxy=str(PROXY), folder=str(self.folder), token=self.token, args=args,
                              wrapper=_WRAPPER.format(broken=BROKEN_PREFIX), broken=BROKEN_PREFIX,
                              runtime=str(self.runtime), server_timeout=self.server_timeout,
                              port_base=self.port_base, room=str(self.room),
                              singleuser=str(VENV_BIN / "jupyterhub-singleuser"))

    require_tools = staticmethod(require_tools)

    def start(self, timeout: float = 240.0) -> Hub:
        """Start the hub and poll its API until it answers. A quiet machine answers in seconds; the deadline is for a
        loaded one (runs here at load averages of 20-38 saw the hub silent for over 60 s)."""
        require_tools()
        self.logs.mkdir(parents=True, exist_ok=True)
        self.runtime.mkdir(mode=0o700)
        (self.folder / "home").mkdir(exist_ok=True)
        self.room.mkdir(exist_ok=True)
        config = self.folder / "jupyterhub_config.py"
        config.write_text(self.config_text(), encoding="utf-8")
        env = dict(os.environ, PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
        with open(self.logs / "hub.log", "wb") as log:
            self.process = psutil.Popen([str(VENV_BIN / "jupyterhub"), "-f", str(config)], cwd=self.folder,
                                        stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.ledger.record_tree(self.process)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.ledger.record_tree(self.process)
            if self.process.poll() is not None:
                raise HubUnavailable(f"JupyterHub exited with {self.process.returncode} while starting:\n"
                                     + self.log_tail("hub"))
            try:
                if requests.get(f"{self.url}/hub/api", timeout=2).status_code == 200:
                    self.ledger.record_tree(self.process)
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.5)
        raise HubUnavailable(f"JupyterHub did not answer at {self.url} within {timeout:.0f} s:\n"
                             + self.log_tail("hub"))

    def log_tail(self, name: str, lines: int = 25) -> str:
        path = self.logs / f"{name}.log"
        if not path.exists():
            return f"(no log at {path})"
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])

    def api(self, path: str) -> dict:
        answer = requests.get(f"{self.url}/hub/api{path}", headers={"Authorization": f"token {self.token}"},
                              timeout=self.server_timeout)
        answer.raise_for_status()
        return answer.json()

    def server_state(self, learner: str) -> str:
        """What the hub says of the learner's default server: "ready", "pending" (starting or stopping), or "none"
        (never started, or its start failed: the hub then forgets it)."""
        server = self.api(f"/users/{learner}").get("servers", {}).get("")
        if server is None:
            return "none"
        if server.get("ready"):
            return "ready"
        return "pending" if server.get("pending") else "none"

    def server_process(self, learner: str) -> psutil.Process | None:
        """The learner's single-user server: the hub's child whose environment names that learner."""
        if self.process is None:
            return None
        for child in self.process.children():
            try:
                if child.environ().get("JUPYTERHUB_USER") == learner:
                    return child
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
        return None

    def stop(self, grace: float = 30.0) -> list[psutil.Process]:
        """SIGTERM the hub (it stops the servers and the proxy it started), then kill by id whatever is left.

        Returns the processes still alive afterwards, which the test asserts is empty.
        """
        if self.process is None:
            return []
        self.ledger.record_tree(self.process)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=grace)
            except psutil.TimeoutExpired:
                pass
        self.ledger.kill_all()
        shutil.rmtree(self.runtime, ignore_errors=True)
        return self.ledger.alive()
