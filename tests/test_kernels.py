"""The kernels the tests start talk over Unix sockets, each under its own name (tests/kernels.py says why: over TCP,
a kernel's ports can be taken by another process between the moment they are picked and the moment it binds them).
"""

from __future__ import annotations

import os
import tempfile

import nbval.kernel
from kernels import SOCKET_PATH_MAX, IpcKernelManager


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


def test_a_deep_runtime_folder_gives_short_socket_names(tmp_path, monkeypatch):
    """A socket's path must fit a Unix socket address: a runtime folder deep in a pytest temporary folder does not."""
    deep = tmp_path / ("x" * 60) / "jupyter_runtime_dir"
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(deep))
    manager = IpcKernelManager()
    assert len(f"{manager.ip}-99999") <= SOCKET_PATH_MAX, manager.ip
    short = tempfile.mkdtemp(prefix="k-")  # /tmp/k-xxxxxxxx
    try:
        monkeypatch.setenv("JUPYTER_RUNTIME_DIR", short)
        assert IpcKernelManager().connection_file.startswith(short + "/"), "a short runtime folder is used as it is"
    finally:
        os.rmdir(short)


def test_no_two_kernel_managers_share_a_socket_name():
    names = {IpcKernelManager().ip for _ in range(50)}
    assert len(names) == 50
    assert not any(name.startswith("kernel-ipc") for name in names), "a relative name, shared by one folder's kernels"


def test_nbclient_runs_a_notebook_over_ipc_from_another_folder(tmp_path):
    """nbclient starts the kernel in the notebook's folder, not the current one: the sockets' absolute names still
    meet (a relative kernel-ipc-<n> would be bound in one folder and looked for in the other)."""
    import nbformat
    from kernels import AsyncIpcKernelManager
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import os; print(os.getcwd())")])
    client = NotebookClient(nb, timeout=120, kernel_name="python3", kernel_manager_class=AsyncIpcKernelManager,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    assert nb.cells[0].outputs[0]["text"].strip() == str(tmp_path)
