"""The kernels the tests start talk over Unix sockets, each under its own name (tests/kernels.py says why: over TCP,
a kernel's ports can be taken by another process between the moment they are picked and the moment it binds them).
"""

from __future__ import annotations

import os

import nbval.kernel
from kernels import IpcKernelManager


def test_nbvals_kernels_use_the_ipc_transport_under_a_name_of_their_own():
    """What the root conftest.py gives nbval: its own start_new_kernel, as every notebook test calls it."""
    manager, client = nbval.kernel.start_new_kernel(kernel_name=nbval.kernel.CURRENT_ENV_KERNEL_NAME)
    try:
        info = client.get_connection_info()
        assert info["transport"] == "ipc", info
        assert os.path.isabs(manager.connection_file), manager.connection_file
        assert info["ip"] == manager.connection_file.removesuffix(".json") + "-ipc"
        sockets = [f"{info['ip']}-{info[name]}" for name in ("shell_port", "iopub_port", "control_port", "hb_port")]
        assert all(os.path.exists(path) for path in sockets), sockets   # the kernel bound them
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert not os.path.exists(manager.connection_file), "the connection file outlived its kernel"
    assert not any(os.path.exists(path) for path in sockets), "a socket file outlived its kernel"


def test_no_two_kernel_managers_share_a_socket_name():
    names = {IpcKernelManager().ip for _ in range(50)}
    assert len(names) == 50
    assert not any(name.startswith("kernel-ipc") for name in names), "a relative name, shared by one folder's kernels"
