"""Serve bare git repositories over git's smart HTTP protocol on 127.0.0.1, as a forge would.

nbgitpuller clones with ``--depth 1`` unless told otherwise, and git's dumb HTTP protocol cannot make a shallow
clone, so this server speaks the smart protocol: each request is handed to ``git http-backend`` (git's own CGI
program) and its answer is passed back. The server runs in a thread of the test process; every request's
``git http-backend`` is a child process that is waited for before the answer is sent.
"""

from __future__ import annotations

import http.server
import os
import pathlib
import subprocess
import threading
import urllib.parse


def _cgi_environment(handler: http.server.BaseHTTPRequestHandler, root: pathlib.Path) -> dict[str, str]:
    path, _, query = handler.path.partition("?")
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GIT_PROJECT_ROOT": str(root),
        "GIT_HTTP_EXPORT_ALL": "1",  # serve every repository under the root, without a git-daemon-export-ok file
        "REQUEST_METHOD": handler.command,
        "PATH_INFO": urllib.parse.unquote(path),
        "QUERY_STRING": query,
        "CONTENT_TYPE": handler.headers.get("Content-Type", ""),
        "CONTENT_LENGTH": handler.headers.get("Content-Length", ""),
        "HTTP_GIT_PROTOCOL": handler.headers.get("Git-Protocol", ""),
        "REMOTE_ADDR": handler.client_address[0],
        "SERVER_PROTOCOL": "HTTP/1.1",
    }


class _GitHandler(http.server.BaseHTTPRequestHandler):
    root: pathlib.Path  # set on the subclass the server makes

    def do_GET(self) -> None:
        self._run_backend(b"")

    def do_POST(self) -> None:
        self._run_backend(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

    def _run_backend(self, body: bytes) -> None:
        done = subprocess.run(["git", "http-backend"], input=body, capture_output=True,
                              env=_cgi_environment(self, self.root), check=False)
        head, _, payload = done.stdout.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.split()[0])
            elif name:
                headers.append((name, value.strip()))
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args) -> None:  # quiet: the hub log is the one worth reading
        pass


class GitHttpServer:
    """Serves every bare repository under ``root`` at ``http://127.0.0.1:<port>/<name>.git``."""

    def __init__(self, root: pathlib.Path) -> None:
        handler = type("Handler", (_GitHandler,), {"root": root})
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="git-http", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> GitHttpServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)
