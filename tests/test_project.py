"""The project's promises about setup: light imports, locked requirements, the Makefile, Binder files, README, CI."""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib

import pytest
from lock_tools import LEARNER_LOCK, read_direct, read_lock
from notebook_tools import ROOT
from packaging.utils import canonicalize_name

HEAVY = ("pandas", "numpy", "matplotlib", "ipywidgets")
SHORT_LISTS = (ROOT / "binder" / "requirements.in", ROOT / "binder" / "install.in", ROOT / "requirements-test.in")


def test_import_loopkit_stays_standard_library_only():
    code = "import sys, loopkit; print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))"
    out = subprocess.run([sys.executable, "-c", code, *HEAVY], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"import loopkit pulled in {out.stdout.strip()}"


def test_import_loopkit_loads_only_the_core_until_a_trace_is_read():
    """``import loopkit`` loads the core floor alone; the traces' names load on first use and are the same objects
    as the ones their modules define, so ``loopkit.iter_runs`` and ``from loopkit import *`` still work."""
    code = ("import sys, loopkit; print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('loopkit.')})); "
            "from loopkit import *; import loopkit.traces.adapters as a, loopkit.teaching.setup_check as s; "
            "print(iter_runs is a.iter_runs, check_setup is s.check_setup, 'ToolMap' in dir(loopkit))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["['core']", "True True True"], out.stdout + out.stderr


@pytest.mark.parametrize("short_list", SHORT_LISTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_the_direct_dependencies_are_pinned(short_list):
    """The short lists pin each direct dependency exactly: the stored outputs were made with these versions."""
    for requirement in read_direct(short_list):
        assert re.fullmatch(r"==[0-9][0-9A-Za-z.\-]*", str(requirement.specifier)), (
            f"{short_list.name}: {requirement} is not pinned with ==")


def test_the_learner_install_has_no_test_tools():
    """`make lab` installs requirements.txt only: the learner's lock and loopkit, nothing a test needs."""
    assert [line for line in (ROOT / "requirements.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")] == ["-r binder/requirements.txt"]
    learner = {pin.name for pin in read_lock(LEARNER_LOCK)}
    test_tools = {canonicalize_name(r.name) for r in read_direct(ROOT / "requirements-test.in")}
    assert {"pytest", "nbval", "playwright", "jupyter-repo2docker", "jupyterhub"} <= test_tools
    assert not learner & {"pytest", "nbval", "playwright", "jupyter-repo2docker", "jupyterhub", "hypothesis"}
    # rfc3987 (GPL-3.0+) only speeds the tests' imports of jsonschema (requirements-test.in says why): the learner's
    # environment, which Binder's image carries, holds no GPL package for it
    assert "rfc3987" in test_tools and "rfc3987" not in learner
    makefile = (ROOT / "Makefile").read_text()
    lab_recipe = makefile.split("$(LAB_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "requirements-test.txt" not in lab_recipe and "--require-hashes -r requirements.txt" in lab_recipe
    assert re.search(r"--no-deps --no-build-isolation -e \.$", lab_recipe, re.M), "make lab does not install loopkit"
    # both also compile the translations (the .po catalogs into the .mo files loopkit reads; they are not committed)
    assert re.search(r"^lab: check-venv \$\(LAB_STAMP\) \$\(COMPILED\)$", makefile, re.M)
    # make test's first lane (tools/lanes.py) is its setup: the install, then the translations
    assert re.search(r"^test-setup: check-venv \$\(TEST_STAMP\) \$\(COMPILED\) chromium$", makefile, re.M)
    assert re.search(r"^test: check-venv\n\t@\$\(PYTHON\) tools/lanes.py test ", makefile, re.M)
    assert "$(COMPILE_MESSAGES)" in lab_recipe, "make lab's install does not compile the translations"
    test_recipe = makefile.split("$(TEST_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "--require-hashes -r requirements-test.txt" in test_recipe


def test_with_two_jobs_nothing_is_put_under_venv_before_the_venv_exists():
    """make test's setup runs `make -j2`: npm's tools go to .venv/node while uv installs the locks. A folder made
    under .venv before `python -m venv` ran looks like a venv that stopped halfway (seen: ".venv has no pip")."""
    makefile = (ROOT / "Makefile").read_text()
    assert "-j2" in (ROOT / "tools" / "lanes.py").read_text()
    joined = makefile.replace("\\\n", " ")  # a rule's continued lines as one
    rules = dict(re.findall(r"^(\$\((?:NODE|LAB)_STAMP\)):([^\n]*)", joined, re.M))
    assert len(rules) == 2, rules
    for target, prerequisites in rules.items():
        assert re.search(r"\|.*\$\(BIN\)/python", prerequisites), f"{target} may start before .venv is made"
    venv_rule = makefile.split("$(BIN)/python: | check-venv\n", 1)[1].split("\n\n", 1)[0]
    assert "-m venv $(VENV)" in venv_rule and "test -e $(VENV)" not in makefile


def test_make_lab_starts_kernels_over_unix_sockets():
    """With TCP, ipykernel 7 prints "Kernel is running over TCP without encryption" in the learner's terminal for
    every chapter opened (seen in `make lab`); over ipc it does not."""
    makefile = (ROOT / "Makefile").read_text()
    lab_recipe = makefile.split("\nlab: ", 1)[1].split("\n\n", 1)[0]
    assert "$(BIN)/jupyter lab " in lab_recipe and "--KernelManager.transport=ipc" in lab_recipe


def test_the_license_is_a_pep_639_expression_and_the_build_backend_can_read_it():
    """A TOML table as license made every install print setuptools' deprecation banner three times."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    # setuptools 77 is the first that reads PEP 639 expressions; Babel compiles the translations into a wheel
    assert pyproject["build-system"]["requires"] == ["setuptools>=77", "babel>=2.12"]
    setuptools = next(pin for pin in read_lock(LEARNER_LOCK) if pin.name == "setuptools")
    assert tuple(map(int, setuptools.version.split(".")[:2])) >= (77, 0)


def test_the_console_command_is_declared_and_works_from_any_folder(tmp_path):
    """`loopkit replay ...` once the venv is active (its bin/ on PATH), from a folder that is not the checkout."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"loopkit": "loopkit.cli:main"}
    command = pathlib.Path(sys.executable).parent / "loopkit"
    assert command.exists(), f"{command} is missing: the install did not create the console command"
    trace = ROOT / "tests" / "data" / "transcripts"
    sample = sorted(trace.rglob("*.jsonl"))[0]
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH"}}
    env["PATH"] = f"{command.parent}{os.pathsep}{env.get('PATH', '')}"
    by_name = subprocess.run(["loopkit", "replay", str(sample)], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=120)
    as_module = subprocess.run([sys.executable, "-m", "loopkit", "replay", str(sample)], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=120)
    assert by_name.returncode in (0, 1), by_name.stderr  # 0: nothing stopped; 1: the detector stopped a run
    assert (by_name.returncode, by_name.stdout) == (as_module.returncode, as_module.stdout)
    assert sample.name in by_name.stdout


def test_binder_folder():
    binder = ROOT / "binder"
    assert re.fullmatch(r"python-3\.1[1-9]\n?", (binder / "runtime.txt").read_text())
    post_build = binder / "postBuild"
    assert os.access(post_build, os.X_OK), "binder/postBuild must be executable"
    text = post_build.read_text()
    assert "pip install" in text and "-e ." in text and "install_lab_settings.py" in text
    assert '"fetchNews": "false"' in (binder / "overrides.json").read_text()


def test_readme_quick_start_clones_then_runs_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    shell = [line.split("#")[0].strip() for block in re.findall(r"```(?:sh|bash)\n(.*?)```", quick, re.S)
             for line in block.splitlines()]
    shell = [line for line in shell if line]
    badge_repo = re.search(r"mybinder\.org/v2/gh/([\w.-]+/[\w.-]+)/", readme).group(1)
    assert f"git clone https://github.com/{badge_repo}.git" in shell
    assert shell.index(f"git clone https://github.com/{badge_repo}.git") < shell.index("cd loopkit")
    assert shell.index("cd loopkit") < shell.index("make lab") < shell.index("make test")
    apt = [line for line in shell if line.startswith("sudo apt-get install")]
    assert any("python3-venv" in line and "make" in line and "git" in line for line in apt), apt
    assert any("nodejs" in line and "npm" in line for line in apt), apt
    assert "make clean" in quick
    assert "loopkit replay" in quick and "python -m loopkit replay" in quick
    assert "mybinder.org/v2/gh/" in readme and "labpath=notebooks%2F00_start_here.ipynb" in readme


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test\b", ci, re.M)
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


# ---------------------------------------------------------------------------------------------------------------
# the Makefile's own checks, run on a scratch folder that holds only the Makefile and a .venv


def _make(folder, *args, **env):
    return subprocess.run(["make", "--no-print-directory", "-C", str(folder), *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})


@pytest.fixture
def scratch(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    return tmp_path


def test_a_venv_left_halfway_without_pip_says_make_clean(scratch):
    """What `python3 -m venv` leaves on Debian without python3-venv: a python, and no pip."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(scratch / ".venv")], check=True)
    for target in ("lab", "test", "test-quick"):
        done = _make(scratch, target)
        assert done.returncode != 0
        assert "is incomplete" in done.stderr and "make clean" in done.stderr and "python3-venv" in done.stderr, done.stderr
        assert "No module named pip" not in done.stdout + done.stderr
    assert not (scratch / ".venv" / ".lab-installed").exists()
    assert _make(scratch, "clean").returncode == 0 and not (scratch / ".venv").exists()


def test_a_venv_of_another_python_than_the_one_asked_for_says_make_clean(scratch):
    subprocess.run([sys.executable, "-m", "venv", str(scratch / ".venv")], check=True)
    other = scratch / "python9"  # answers like a Python 3.99 would
    other.write_text("#!/bin/sh\necho 3.99\n")
    other.chmod(0o755)
    done = _make(scratch, "test-quick", f"PYTHON={other}")
    assert done.returncode != 0
    have = "%d.%d" % sys.version_info[:2]
    assert f"was made with Python {have}, not with PYTHON={other} (3.99)" in done.stderr, done.stderr
    assert "make clean" in done.stderr
