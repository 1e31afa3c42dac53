"""Binder, checked: what repo2docker plans to build, and a Binder-like environment that runs every chapter.

repo2docker reads ``binder/`` only when that folder exists: a root ``requirements.txt``, ``setup.py`` or
``pyproject.toml`` is then ignored without a word. The tests here make that silence loud.

- ``test_repo2docker_plan`` runs ``jupyter-repo2docker --no-build`` (no Docker engine needed: it only renders the
  Dockerfile) and reads the plan.
- ``test_nothing_the_notebooks_need_is_left_at_the_root`` checks that what Binder ignores is not needed.
- ``test_binder_like_environment_runs_every_chapter`` (marker ``binder``, slow, needs PyPI) builds a fresh venv
  from ``binder/requirements.txt`` alone, runs the ``postBuild`` steps in it and executes every chapter there.
"""

from __future__ import annotations

import ast
import concurrent.futures
import configparser
import importlib.metadata
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from notebook_tools import ROOT, all_chapters, chapters, code_cells, imported_modules, load, source, tags

BINDER = ROOT / "binder"
RUNTIME = re.fullmatch(r"python-(\d+\.\d+)\s*", (BINDER / "runtime.txt").read_text())
# What repo2docker reads from the root when there is no binder/ folder (its buildpacks' file names).
ROOT_CONFIG_FILES = (
    "environment.yml", "requirements.txt", "requirements3.txt", "setup.py", "pyproject.toml", "Pipfile",
    "Pipfile.lock", "apt.txt", "postBuild", "start", "runtime.txt", "install.R", "DESCRIPTION", "Project.toml",
    "REQUIRE", "default.nix", "Dockerfile",
)
# Root files that are fine to be ignored on Binder, and why.
IGNORED_ON_PURPOSE = {
    "requirements.txt": "includes binder/requirements.txt and `-e .` (postBuild installs loopkit); the test tools are in requirements-test.txt",
    "pyproject.toml": "loopkit's metadata; postBuild installs loopkit with `pip install -e .`",
}


def requirement_lines(path: pathlib.Path) -> list[str]:
    lines = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            lines.append(line)
    return lines


def binder_requirements() -> dict[str, Requirement]:
    return {canonicalize_name(r.name): r for r in map(Requirement, requirement_lines(BINDER / "requirements.txt"))}


# ---------------------------------------------------------------------------------------------------------------
# the plan


def run_repo2docker_plan() -> subprocess.CompletedProcess:
    tool = pathlib.Path(sys.executable).parent / "jupyter-repo2docker"
    assert tool.exists(), f"{tool} is missing: jupyter-repo2docker is pinned in requirements.txt; run `make test`"
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

    # binder/requirements.txt is copied in and installed into the kernel's environment; the root one is not.
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


def _installed_closure(names) -> set[str]:
    """The distributions that installing ``names`` brings in (read from this environment's metadata)."""
    seen, todo = set(), [canonicalize_name(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for line in requires:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(req.name))
    return seen


def test_nothing_the_notebooks_need_is_left_at_the_root():
    assert (BINDER / "requirements.txt").exists()
    # 1. Every root file that repo2docker would have read is one we know it ignores, for a stated reason.
    for name in ROOT_CONFIG_FILES:
        if (ROOT / name).exists():
            assert name in IGNORED_ON_PURPOSE, (
                f"{name} at the root is ignored by Binder because binder/ exists; move what it does into binder/"
            )

    # 2. Every module the chapters and loopkit import comes with binder/requirements.txt (directly or as a
    #    dependency of it), not only with the root requirements.txt.
    provided = _installed_closure(binder_requirements())
    owners = importlib.metadata.packages_distributions()
    for module, importers in sorted(_third_party_imports().items()):
        dists = {canonicalize_name(d) for d in owners.get(module, [])}
        assert dists, f"{module!r} (imported by {sorted(importers)}) is not installed at all"
        assert dists & provided, (
            f"{module!r} (imported by {sorted(importers)}) comes from {sorted(dists)}, which binder/requirements.txt "
            "does not bring in: Binder installs only that file (never the root requirements.txt), so pin it there"
        )

    # 3. The root requirements.txt: binder's file, test tools, and loopkit itself (which postBuild installs).
    root_lines = requirement_lines(ROOT / "requirements.txt")
    assert "-r binder/requirements.txt" in root_lines and "-e ." in root_lines
    root_lines += requirement_lines(ROOT / "requirements-test.txt")
    post_build = (BINDER / "postBuild").read_text()
    assert re.search(r"^python -m pip install .*-e \.$", post_build, re.M), "postBuild does not install loopkit"
    binder = binder_requirements()
    for line in root_lines:
        if line.startswith("-"):
            continue
        req = Requirement(line)
        name = canonicalize_name(req.name)
        if name in binder:
            assert req.specifier == binder[name].specifier, f"{req.name} is pinned differently at the root and in binder/"

    # 4. loopkit's declared dependencies, including the notebooks extra, are pinned in binder/requirements.txt.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = list(project.get("dependencies", []))
    for extra in project.get("optional-dependencies", {}).values():
        declared += extra
    for line in declared:
        name = canonicalize_name(Requirement(line).name)
        assert name in binder, f"pyproject.toml declares {line!r}, which binder/requirements.txt does not pin"


# ---------------------------------------------------------------------------------------------------------------
# a Binder-like environment

_COPY_IGNORE = shutil.ignore_patterns(
    ".venv", ".git", "build", ".hypothesis", ".pytest_cache", "__pycache__", "*.egg-info", ".ipynb_checkpoints"
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


@pytest.mark.binder
def test_binder_like_environment_runs_every_chapter(tmp_path):
    """One slow test for all chapters of both tracks: the venv is built once (about a minute with a warm pip
    cache). The Spanish launch link opens the same environment, so its chapters run here too."""
    book = all_chapters()
    assert book, "no chapters to run"
    python = _runtime_python()
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

    def run(*args, timeout=900):
        done = subprocess.run(list(args), cwd=repo, env=env, capture_output=True, text=True, timeout=timeout)
        assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
        return done.stdout

    # repo2docker's base environment has pip and the build backend; then binder/requirements.txt, then postBuild.
    run(python, "-m", "venv", str(venv))
    build_backend = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    run("python", "-m", "pip", "install", "--quiet", "--upgrade", "pip", *build_backend)
    run("python", "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt")
    run("bash", "binder/postBuild")

    # postBuild's effects: loopkit from the copy, the lab settings overrides, the widgets extension enabled.
    where = run("python", "-c", "import loopkit, sys; print(loopkit.__file__); print(sys.prefix)").split()
    assert pathlib.Path(where[0]).is_relative_to(repo) and pathlib.Path(where[1]) == venv
    overrides = venv / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(overrides.read_text()) == json.loads((BINDER / "overrides.json").read_text())
    extensions = subprocess.run(
        ["jupyter", "labextension", "list"], cwd=repo, env=env, capture_output=True, text=True, timeout=120
    )
    listing = re.sub(r"\x1b\[[0-9;]*m", "", extensions.stdout + extensions.stderr)  # without its colours
    assert re.search(r"@jupyter-widgets/jupyterlab-manager v\S+ enabled OK", listing), listing

    # Every chapter, top to bottom, in this environment's own kernel.
    out = tmp_path / "executed"

    def executed_path(path: pathlib.Path) -> pathlib.Path:  # a twin may share its English chapter's file name
        return out / path.parent.relative_to(ROOT) / path.name

    # Two nbconvert processes, each a half of the chapters of one track, one per core of a workshop laptop or CI
    # machine.
    halves = [chapters(track)[start::2] for track in ("en", "es") for start in (0, 1)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda half: run("jupyter", "nbconvert", "--to", "notebook", "--execute",
                                       "--ExecutePreprocessor.timeout=600", "--output-dir",
                                       str(executed_path(half[0]).parent), *[str(p.relative_to(ROOT)) for p in half],
                                       timeout=1800), [half for half in halves if half]))
    sanitizers = _sanitizers()
    for path in book:
        committed, executed = code_cells(load(path)), code_cells(load(executed_path(path)))
        assert len(committed) == len(executed)
        for before, after in zip(committed, executed):
            for output in after.get("outputs", []):
                assert output["output_type"] != "error", f"{path.name} raised on Binder:\n{source(after)}"
                assert output.get("name") != "stderr", f"{path.name} wrote to stderr on Binder:\n{''.join(output['text'])}"
            if "nbval-ignore-output" in tags(before):
                continue
            assert _compared_text(after, sanitizers) == _compared_text(before, sanitizers), (
                f"{path.name}: on Binder this cell shows something else than the committed notebook:\n{source(before)}"
            )
