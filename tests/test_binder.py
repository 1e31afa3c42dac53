"""Binder, checked: what repo2docker plans to build, and Binder's own base environment running every chapter.

repo2docker reads ``binder/`` only when that folder exists: a root ``requirements.txt``, ``setup.py`` or
``pyproject.toml`` is then ignored without a word. The tests here make that silence loud.

- ``test_repo2docker_plan`` runs ``jupyter-repo2docker --no-build`` (no Docker engine needed: it only renders the
  Dockerfile) and reads the plan.
- ``test_nothing_the_notebooks_need_is_left_at_the_root`` checks that what Binder ignores is not needed.
- ``test_binder_like_environment_runs_every_chapter`` (marker ``binder``, slow, needs PyPI) rebuilds the base
  image's Python environment from the pinned environment file that ships inside the ``jupyter-repo2docker``
  package (its PyPI twins; see :func:`base_environment` for what has none), installs ``binder/requirements.txt`` on
  top as repo2docker does, runs ``postBuild`` and ``pip check``, starts the server as the image does and opens
  JupyterLab at chapter 00 of each track, then executes every chapter there. ``build/binder-base.json`` records
  what it found.
"""

from __future__ import annotations

import ast
import concurrent.futures
import configparser
import dataclasses
import importlib.metadata
import importlib.util
import json
import os
import pathlib
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
import urllib.error
import urllib.request

import pytest
from lock_tools import LEARNER_LOCK, read_direct, read_lock
from notebook_tools import (
    ROOT,
    all_chapters,
    chapters,
    code_cells,
    imported_modules,
    is_reveal,
    load,
    printed_text,
    reveal_problem,
    source,
    tags,
)
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

BINDER = ROOT / "binder"
RUNTIME = re.fullmatch(r"python-(\d+\.\d+)\s*", (BINDER / "runtime.txt").read_text())
REPORT = ROOT / "build" / "binder-base.json"
# uv, the Makefile's lock tool (make's setup installs it there), rebuilds the base environment below: it fetches its
# wheels side by side. What installs the base is not what this test checks; pip, as in repo2docker's Dockerfile,
# installs binder/requirements.txt on top.
UV = ROOT / "build" / "lock-tool" / "bin" / "uv"
# What repo2docker reads from the root when there is no binder/ folder (its buildpacks' file names).
ROOT_CONFIG_FILES = (
    "environment.yml", "requirements.txt", "requirements3.txt", "setup.py", "pyproject.toml", "Pipfile",
    "Pipfile.lock", "apt.txt", "postBuild", "start", "runtime.txt", "install.R", "DESCRIPTION", "Project.toml",
    "REQUIRE", "default.nix", "Dockerfile",
)
# Root files that are fine to be ignored on Binder, and why.
IGNORED_ON_PURPOSE = {
    "requirements.txt": "includes binder/requirements.txt, the same lock (the Makefile and postBuild install loopkit); the test tools are in requirements-test.txt",
    "pyproject.toml": "loopkit's metadata; postBuild installs loopkit with `pip install -e .`",
    "setup.py": "a wheel's one build step (it compiles the translations); the editable install postBuild makes skips it",
}


def requirement_lines(path: pathlib.Path) -> list[str]:
    lines = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            lines.append(line)
    return lines


def locked_names() -> set[str]:
    """Every distribution binder/requirements.txt pins (for some Python version or platform)."""
    return {pin.name for pin in read_lock(LEARNER_LOCK)}


# ---------------------------------------------------------------------------------------------------------------
# the plan


def run_repo2docker_plan() -> subprocess.CompletedProcess:
    tool = pathlib.Path(sys.executable).parent / "jupyter-repo2docker"
    assert tool.exists(), f"{tool} is missing: jupyter-repo2docker is pinned in requirements-test.txt; run `make test`"
    return subprocess.run(
        [str(tool), "--no-build", "--user-id", "1000", "--user-name", "jovyan", "."],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )


def test_repo2docker_plan():
    assert RUNTIME, "binder/runtime.txt should read like python-3.11"
    python = RUNTIME.group(1)
    plan = run_repo2docker_plan()
    assert plan.returncode == 0, f"repo2docker --no-build failed:\n{plan.stderr[-3000:]}"
    dockerfile, log = plan.stdout, plan.stderr

    # The pinned Python of binder/runtime.txt: the log names it, and the base environment is that version's.
    assert f"Building conda environment for python={python}" in log, log
    # (repo2docker names the copied lock file with "." and "-" escaped as -2e and -2d)
    lock = "".join(f"-{ord(c):x}" if c in ".-" else c for c in f"environment.py-{python}-linux-64.lock")
    assert lock in dockerfile, f"the base environment is not Python {python}'s ({lock} is not copied)"

    # binder/requirements.txt is copied in alone and installed into the kernel's environment before the rest of
    # the repository arrives (it names no other file), so Docker can cache that layer; the root one is not read.
    assert re.search(r"^COPY .*src/binder/requirements\.txt \$\{REPO_DIR\}/binder/requirements\.txt$", dockerfile, re.M)
    assert re.search(r'^RUN \$\{KERNEL_PYTHON_PREFIX\}/bin/pip install .*-r "binder/requirements\.txt"$', dockerfile, re.M)
    assert "src/requirements.txt" not in dockerfile, "repo2docker would install the root requirements.txt"
    assert not re.search(r"pip install[^\n]* \.\s*$", dockerfile, re.M), "repo2docker would install the root package"

    # postBuild runs, as the user, after the repository is copied in.
    assert re.search(r"^RUN \./binder/postBuild$", dockerfile, re.M)
    steps = [line for line in dockerfile.splitlines() if line.startswith(("COPY", "RUN", "USER"))]
    post_build = steps.index("RUN ./binder/postBuild")
    assert any(s.startswith("COPY --chown=1000:1000 src/ ") for s in steps[:post_build]), "postBuild before the copy"
    assert [s for s in steps[:post_build] if s.startswith("USER")][-1] == "USER ${NB_USER}", "postBuild runs as root"


def _third_party_imports() -> dict[str, set[str]]:
    """Top-level modules outside the standard library imported by the chapters and by loopkit -> who imports."""
    found: dict[str, set[str]] = {}
    for path in chapters():
        for cell in code_cells(load(path)):
            for module in imported_modules(source(cell)):
                found.setdefault(module, set()).add(path.name)
    for path in sorted((ROOT / "loopkit").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return {m: who for m, who in found.items() if m != "loopkit" and m not in sys.stdlib_module_names}


def test_nothing_the_notebooks_need_is_left_at_the_root():
    assert (BINDER / "requirements.txt").exists()
    # 1. Every root file that repo2docker would have read is one we know it ignores, for a stated reason.
    for name in ROOT_CONFIG_FILES:
        if (ROOT / name).exists():
            assert name in IGNORED_ON_PURPOSE, (
                f"{name} at the root is ignored by Binder because binder/ exists; move what it does into binder/"
            )

    # 2. Every module the chapters and loopkit import comes from a distribution that binder/requirements.txt
    #    pins, not only from the test tools.
    provided = locked_names()
    owners = importlib.metadata.packages_distributions()
    for module, importers in sorted(_third_party_imports().items()):
        dists = {canonicalize_name(d) for d in owners.get(module, [])}
        assert dists, f"{module!r} (imported by {sorted(importers)}) is not installed at all"
        assert dists & provided, (
            f"{module!r} (imported by {sorted(importers)}) comes from {sorted(dists)}, which binder/requirements.txt "
            "does not pin: Binder installs only that file (never requirements-test.txt), so add it to "
            "binder/requirements.in and run make lock"
        )

    # 3. The root requirements.txt is the same lock, and postBuild installs loopkit, as the Makefile does.
    assert requirement_lines(ROOT / "requirements.txt") == ["-r binder/requirements.txt"]
    post_build = (BINDER / "postBuild").read_text()
    assert re.search(r"python -m pip install [^\n]*--no-deps[^\n]* -e \.$", post_build, re.M), "postBuild does not install loopkit"

    # 4. loopkit's declared dependencies, including the notebooks extra, are direct pins (binder/requirements.in),
    #    which chapter 00's check_setup() verifies.
    direct = {canonicalize_name(r.name) for r in read_direct(BINDER / "requirements.in")}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        declared += extra
    for line in declared:
        name = canonicalize_name(Requirement(line).name)
        assert name in direct, f"pyproject.toml declares {line!r}, which binder/requirements.in does not pin"


# ---------------------------------------------------------------------------------------------------------------
# Binder's base environment, from repo2docker's own pinned environment file

#: conda-forge names whose PyPI distribution is called otherwise.
CONDA_TO_PYPI = {
    "brotli-python": "brotli",
    "jupyterhub-base": "jupyterhub",
    "nbconvert-core": "nbconvert",
    "python-fastjsonschema": "fastjsonschema",
}


@dataclasses.dataclass(frozen=True)
class BaseEnvironment:
    """The notebook environment of repo2docker's base image, read from its explicit conda lock.

    ``python`` is the interpreter's version; ``pypi`` the Python distributions (PyPI name -> version), which pip can
    reinstall exactly; ``conda_only`` what has no PyPI twin and cannot be reproduced in a venv: native libraries
    and the tools and data that conda-forge ships as packages (openssl, zeromq, nodejs, tzdata, ...), and
    conda metapackages (jupyterhub-singleuser, bleach-with-css, ...), whose contents are among ``pypi``.
    """

    lock: pathlib.Path
    python: str
    pypi: dict[str, str]
    conda_only: dict[str, str]


def base_environment(python: str) -> BaseEnvironment:
    """repo2docker's pinned base environment for ``python`` (such as "3.11") on linux-64.

    Each line after ``@EXPLICIT`` is a package's URL, ``.../NAME-VERSION-BUILD.conda#md5``. conda-forge builds
    a Python distribution with a build string that starts with ``py`` (``pyhd8ed1ab_0`` for pure Python,
    ``py311h...`` for compiled ones); every other build is a native library, data, a tool or a metapackage.
    """
    package = importlib.util.find_spec("repo2docker")  # found, not imported (importing it warns about a dependency)
    assert package, "jupyter-repo2docker is not installed: it is pinned in requirements-test.txt; run make test"
    lock = pathlib.Path(package.origin).parent / "buildpacks" / "conda" / f"environment.py-{python}-linux-64.lock"
    assert lock.exists(), f"jupyter-repo2docker has no pinned base environment for Python {python}: {lock}"
    text = lock.read_text(encoding="utf-8")
    assert "@EXPLICIT" in text, f"{lock}: not an explicit conda lock"
    interpreter, pypi, conda_only = None, {}, {}
    for line in text.split("@EXPLICIT", 1)[1].split():
        stem = re.sub(r"\.(conda|tar\.bz2)$", "", line.split("#", 1)[0].rsplit("/", 1)[1])
        name, version, build = stem.rsplit("-", 2)
        if name == "python":
            interpreter = version
        elif build.startswith("py"):
            pypi[canonicalize_name(CONDA_TO_PYPI.get(name, name))] = version
        else:
            conda_only[name] = version
    assert interpreter, f"{lock}: no python package"
    return BaseEnvironment(lock, interpreter, pypi, conda_only)


def test_the_base_environment_is_read_from_repo2dockers_own_lock():
    """The reading above, on the file Binder builds from: Python 3.11's notebook environment holds JupyterLab 4,
    the notebook 7 that conflicts with JupyterLab 4.6, and JupyterHub's single-user server."""
    base = base_environment(RUNTIME.group(1))
    assert base.python.startswith(RUNTIME.group(1) + ".")
    assert base.pypi["jupyterlab"].startswith("4.") and base.pypi["notebook"].startswith("7.")
    assert "jupyterhub" in base.pypi and "jupyterhub-base" not in base.pypi
    assert {"openssl", "zeromq", "nodejs", "jupyterhub-singleuser", "bleach-with-css"} <= set(base.conda_only)
    assert "bleach" in base.pypi and "tinycss2" in base.pypi  # what the metapackage bleach-with-css stands for


# ---------------------------------------------------------------------------------------------------------------
# a Binder-like environment

# What a clone has not: git-ignored files, the compiled translations (*.mo) among them, which postBuild makes.
_COPY_IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "build", ".hypothesis", ".pytest_cache", "__pycache__", "*.egg-info", ".ipynb_checkpoints", "*.mo"
)


def _runtime_python() -> str:
    """An interpreter of the Python version in binder/runtime.txt."""
    wanted = RUNTIME.group(1)
    if "%d.%d" % sys.version_info[:2] == wanted:
        return sys.executable
    found = shutil.which(f"python{wanted}")
    if found:
        return found
    message = f"no python{wanted} (binder/runtime.txt) on this machine for the Binder-like environment"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _sanitizers() -> list[tuple[re.Pattern, str]]:
    config = configparser.ConfigParser()
    config.read(ROOT / "tests" / "sanitize.cfg")
    return [(re.compile(config[s]["regex"]), config[s]["replace"]) for s in config.sections()]


def _compared_text(cell: dict, sanitizers) -> str:
    """The outputs nbval compares for a cell (stream text and text/plain), with addresses and dates masked.

    Consecutive stream outputs of one name are joined, as nbval does: how a kernel splits its writes varies.
    """
    parts: list[list[str]] = []
    for output in cell.get("outputs", []):
        if output["output_type"] == "stream":
            text = "".join(output["text"])
            if parts and parts[-1][0] == output["name"]:
                parts[-1][1] += text
            else:
                parts.append([output["name"], text])
        elif "data" in output and "text/plain" in output["data"]:
            parts.append(["text/plain", "".join(output["data"]["text/plain"])])
        elif output["output_type"] == "error":
            parts.append(["error", f"{output['ename']}: {output['evalue']}"])
    text = "\n".join(f"[{kind}] {body}" for kind, body in parts)
    for pattern, replacement in sanitizers:
        text = pattern.sub(replacement, text)
    return text


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _environment_listing(run) -> dict[str, str]:
    """name -> version of every distribution in the Binder-like environment, read by its own pip."""
    listing = json.loads(run("python", "-m", "pip", "list", "--format=json", "--disable-pip-version-check"))
    return {canonicalize_name(item["name"]): item["version"] for item in listing}


def _serve_and_open_chapter_00(repo: pathlib.Path, env: dict, folder: pathlib.Path) -> dict:
    """Start the server as the image's CMD does (``jupyter notebook``), wait until it answers, open each track's
    chapter 00 in JupyterLab as the launch links do (``labpath``), and stop it. Returns what each page said."""
    port, token = _free_port(), secrets.token_hex(16)
    command = ["jupyter", "notebook", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}"]
    if os.geteuid() == 0:
        command.append("--allow-root")  # CI machines often run as root; Binder's user is not root
    url = f"http://127.0.0.1:{port}"
    log_path = folder / "binder-server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    try:
        deadline = time.monotonic() + 180  # polled: a loaded machine needs longer, a quiet one returns at once
        while True:
            assert server.poll() is None, f"the server exited with {server.returncode}:\n{log_path.read_text()[-3000:]}"
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            assert time.monotonic() < deadline, f"the server did not answer within 180 s:\n{log_path.read_text()[-3000:]}"
            time.sleep(0.5)
        pages = {}
        for labpath in ("notebooks/00_start_here.ipynb", "notebooks/es/00_empieza_aqui.ipynb"):
            with urllib.request.urlopen(f"{url}/lab/tree/{labpath}?token={token}", timeout=60) as answer:
                page = answer.read().decode()
            config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
            assert config, f"/lab/tree/{labpath} is not a JupyterLab page:\n{page[:500]}"
            pages[labpath] = json.loads(config.group(1))
        with urllib.request.urlopen(f"{url}/tree?token={token}", timeout=60) as answer:  # notebook 7's own page
            pages["/tree"] = {"status": answer.status}
        return pages
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)


@pytest.mark.binder
def test_binder_like_environment_runs_every_chapter(tmp_path):
    """One slow test for all chapters of both tracks, in a copy of Binder's base environment (a few minutes with a
    warm pip cache). The Spanish launch link opens the same environment, so its chapters run here too."""
    book = all_chapters()
    assert book, "no chapters to run"
    python = _runtime_python()
    base = base_environment(RUNTIME.group(1))
    repo = tmp_path / "repo"  # Binder works in its own copy of the repository
    shutil.copytree(ROOT, repo, ignore=_COPY_IGNORE)
    venv = tmp_path / "env"
    # Binder's kernel draws with matplotlib's inline backend, as the committed outputs do: no MPLBACKEND here.
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "MPLBACKEND"}}
    env.update(
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR"):
        (tmp_path / name.lower()).mkdir()
        env[name] = str(tmp_path / name.lower())
    env.pop("JUPYTER_PATH", None)

    def run(*args, timeout=1200, check=True):
        done = subprocess.run(list(args), cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
        if check:
            assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
            return done.stdout
        return done

    # 1. The base image's notebook environment: every Python distribution of repo2docker's lock, at its version,
    #    from PyPI, without their dependencies (conda resolved them already; the lock is the whole environment).
    run(python, "-m", "venv", str(venv))
    assert UV.exists(), f"{UV} is missing: make test's setup installs it (the Makefile's $(UV))"
    run(str(UV), "pip", "install", "--no-config", "--quiet", "--no-deps", "--python", str(venv / "bin" / "python"),
        *[f"{name}=={version}" for name, version in sorted(base.pypi.items())])
    before = _environment_listing(run)
    base_check = run("python", "-m", "pip", "check", check=False)

    # 2. What repo2docker's Dockerfile runs (the plan above): binder/requirements.txt into that environment (the
    #    image adds --no-cache-dir; a cache changes only where pip finds a file, whose hash the lock checks) ...
    install = run("python", "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt", check=False)
    assert install.returncode == 0, f"pip install -r binder/requirements.txt failed:\n{install.stdout}{install.stderr}"
    after_install = _environment_listing(run)
    # ... then, with the whole repository copied in, postBuild (which compiles the translations); and pip check.
    compiled = sorted(path.relative_to(repo) for path in repo.rglob("*.mo"))
    assert not compiled, f"the copy should start without compiled catalogs, as a clone does: {compiled}"
    run("bash", "binder/postBuild")
    catalogs = sorted(path.relative_to(repo).with_suffix("") for path in repo.glob("loopkit/core/locales/*/*/*.po"))
    assert catalogs and catalogs == sorted(path.relative_to(repo).with_suffix("") for path in repo.rglob("*.mo"))
    check = run("python", "-m", "pip", "check", check=False)
    after = _environment_listing(run)

    pins = {pin.name: pin.version for pin in read_lock(LEARNER_LOCK) if pin.applies()}
    replaced = {name: f"{before[name]} -> {after[name]}" for name in sorted(before) if after.get(name) != before[name]}
    REPORT.parent.mkdir(exist_ok=True)
    REPORT.write_text(json.dumps({
        "base_lock": f"jupyter-repo2docker {importlib.metadata.version('jupyter-repo2docker')}: "
                     f"{base.lock.relative_to(base.lock.parents[3])}",
        "python": {"base image": base.python, "here": run("python", "-c", "import platform; print(platform.python_version())").strip()},
        "reproduced_from_pypi": len(base.pypi),
        "not_reproduced_conda_only": base.conda_only,
        "pip_check_base_alone": (base_check.stdout + base_check.stderr).strip(),
        "pip_install_output": (install.stdout + install.stderr).strip(),
        "pip_check_after_postBuild": (check.stdout + check.stderr).strip(),
        "replaced_by_the_lock": replaced,
        "added_by_the_lock": sorted(set(after_install) - set(before)),
    }, indent=2) + "\n", encoding="utf-8")

    # The conflict the base image brings (its notebook 7.4.7 accepts only JupyterLab < 4.5) is gone: the lock's
    # notebook replaced it, and every package's requirements hold.
    assert check.returncode == 0, f"pip check on the Binder-like environment:\n{check.stdout}{check.stderr}"
    assert after["jupyterlab"] == pins["jupyterlab"] and after["notebook"] == pins["notebook"]
    # Every package is pinned: by our lock at its version, or else by the base image's lock at its version.
    unpinned = {name: version for name, version in after.items() if name != "loopkit"
                and version != pins.get(name, base.pypi.get(name))}
    assert not unpinned, f"packages pinned neither by binder/requirements.txt nor by the base image: {unpinned}"

    # postBuild's effects: loopkit from the copy, the Spanish catalog compiled, the lab settings overrides, the
    # widgets extension enabled.
    spanish = run("python", "-c", "from loopkit.core.language import set_language, tr; set_language('es'); print(tr('Why: {why}.', "
                  "why='x'))").strip()
    assert spanish == "Motivo: x.", spanish
    where = run("python", "-c", "import loopkit, sys; print(loopkit.__file__); print(sys.prefix)").split()
    assert pathlib.Path(where[0]).is_relative_to(repo) and pathlib.Path(where[1]) == venv
    overrides = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(overrides.read_text()) == json.loads((BINDER / "overrides.json").read_text())
    # ... and the custom CSS that keeps a chapter's stored views from looking broken before it runs (binder/lab.css)
    server_config = json.loads((venv / "etc" / "jupyter" / "jupyter_server_config.json").read_text())
    assert server_config["LabApp"] == {"custom_css": True}, server_config
    [custom] = server_config["ServerApp"]["tornado_settings"]["static_custom_path"]
    assert (pathlib.Path(custom) / "custom.css").read_text() == (BINDER / "lab.css").read_text()
    extensions = run("jupyter", "labextension", "list", timeout=120, check=False)
    listing = re.sub(r"\x1b\[[0-9;]*m", "", extensions.stdout + extensions.stderr)  # without its colours
    assert re.search(r"@jupyter-widgets/jupyterlab-manager v\S+ enabled OK", listing), listing

    # The server starts as the image starts it, and each launch link's labpath opens JupyterLab at chapter 00.
    pages = _serve_and_open_chapter_00(repo, env, tmp_path)
    for labpath in ("notebooks/00_start_here.ipynb", "notebooks/es/00_empieza_aqui.ipynb"):
        assert (pages[labpath]["appName"], pages[labpath]["treePath"]) == ("JupyterLab", labpath), pages[labpath]
    assert pages["/tree"]["status"] == 200

    # Every chapter, top to bottom, in this environment's own kernel.
    out = tmp_path / "executed"

    def executed_path(path: pathlib.Path) -> pathlib.Path:  # a twin may share its English chapter's file name
        return out / path.parent.relative_to(ROOT) / path.name

    # Two nbconvert processes, each a half of the chapters of one track, one per core of a workshop laptop or CI
    # machine. Their kernels talk over Unix sockets, each process's under a short folder of its own (tests/kernels.py
    # says why: TCP ports picked free can be taken before a kernel binds them); the name is absolute, since the kernel
    # runs in the chapter's folder and nbconvert in the repository's, and short, since a socket's path holds at most
    # 107 bytes.
    halves = [chapters(track)[start::2] for track in ("en", "es") for start in (0, 1)]
    kernels = pathlib.Path(tempfile.mkdtemp(prefix="binder-"))

    def execute(numbered):
        number, half = numbered
        sockets = kernels / str(number)
        sockets.mkdir()
        return run("jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600",
                   "--KernelManager.transport=ipc", f"--KernelManager.ip={sockets / 'kernel'}",
                   "--output-dir", str(executed_path(half[0]).parent), *[str(p.relative_to(ROOT)) for p in half],
                   timeout=1800)

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(execute, enumerate(half for half in halves if half)))
    finally:
        shutil.rmtree(kernels, ignore_errors=True)
    sanitizers = _sanitizers()
    for path in book:
        executed_nb = load(executed_path(path))
        committed, executed = code_cells(load(path)), code_cells(executed_nb)
        assert len(committed) == len(executed)
        for before_cell, after_cell in zip(committed, executed):
            for output in after_cell.get("outputs", []):
                assert output["output_type"] != "error", f"{path.name} raised on Binder:\n{source(after_cell)}"
                assert output.get("name") != "stderr", f"{path.name} wrote to stderr on Binder:\n{''.join(output['text'])}"
            if "nbval-ignore-output" in tags(before_cell):
                continue
            if is_reveal(before_cell):  # committed without output: what it prints must show its exercise's answer
                problem = reveal_problem(executed_nb, after_cell, printed_text(after_cell.get("outputs", [])))
                assert problem is None, f"{path.name} on Binder: {problem}"
                continue
            assert _compared_text(after_cell, sanitizers) == _compared_text(before_cell, sanitizers), (
                f"{path.name}: on Binder this cell shows something else than the committed notebook:\n{source(before_cell)}"
            )
