"""Kernels for the tests that start their own (nbval's, nbclient's): over Unix sockets, never over TCP ports.

jupyter_client's TCP transport picks a kernel's five ports by binding port 0 and closing the socket again; the
kernel binds them once it has started, seconds later under load. In between, any other process on the machine
(another pytest-xdist worker starting its kernel, a lab server, another user's tests) can be handed the same free
port and bind it first: the kernel then dies in ``zmq.error.ZMQError: Address already in use`` before it answers,
and nbval reports ``Kernel died before replying to kernel_info`` for every cell of that notebook. jupyter_client's
own port cache (``LocalPortCache``, its issue #487) guards only against the ports a process hands itself.

The ipc transport has no ports to race for: each socket is a file named after the kernel's connection file, which
is unique (a UUID in Jupyter's runtime folder), so no two kernels can ask for the same one. `make lab` and the lab
servers of the browser tests use the same transport (``--KernelManager.transport=ipc``).

>>> manager = IpcKernelManager()
>>> manager.transport, manager.ip == manager.connection_file.removesuffix(".json") + "-ipc"
('ipc', True)
"""

from __future__ import annotations

import os
import tempfile
import uuid

from jupyter_client.manager import AsyncKernelManager, KernelManager
from jupyter_core.paths import jupyter_runtime_dir
from traitlets import HasTraits, default

#: A Unix socket's path holds at most 107 bytes (sizeof(sockaddr_un.sun_path) on Linux, less one).
SOCKET_PATH_MAX = 107


def unique_connection_file() -> str:
    """A connection file path no other kernel uses: kernel-<uuid>.json in Jupyter's runtime folder (which
    jupyter_core creates readable by this user only, as jupyter_server does), or, when the sockets' names there
    would be too long for a Unix socket, in a short folder of this user's under the system's temporary folder."""
    name = f"kernel-{uuid.uuid4()}"
    folder = jupyter_runtime_dir()
    if len(os.path.join(folder, name)) + len("-ipc-99999") > SOCKET_PATH_MAX:
        folder = os.path.join(tempfile.gettempdir(), f"jupyter-kernels-{os.getuid()}")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.join(folder, f"{name}.json")


class IpcTransport(HasTraits):
    """The defaults a kernel manager below takes over: the ipc transport, and a unique absolute connection file.
    Its sockets are ``<connection file without .json>-ipc-<n>``; the connection file is given its path up front,
    because without one jupyter_client names them ``kernel-ipc-<n>`` relative to the current folder, shared by every
    kernel started from it."""

    @default("transport")
    def _default_transport(self) -> str:
        return "ipc"

    @default("connection_file")
    def _default_connection_file(self) -> str:
        return unique_connection_file()


class IpcKernelManager(IpcTransport, KernelManager):
    """jupyter_client's KernelManager over ipc (nbval's, through the root conftest.py)."""


class AsyncIpcKernelManager(IpcTransport, AsyncKernelManager):
    """The same for nbclient, which drives an AsyncKernelManager: ``NotebookClient(...,
    kernel_manager_class=AsyncIpcKernelManager)``."""
