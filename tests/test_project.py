"""The project's promises about setup: light imports, pinned requirements, Binder files, README, CI."""

import os
import re
import subprocess
import sys

from notebook_tools import ROOT

HEAVY = ("pandas", "numpy", "matplotlib", "ipywidgets")


def test_import_loopkit_stays_standard_library_only():
    code = "import sys, loopkit; print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))"
    out = subprocess.run([sys.executable, "-c", code, *HEAVY], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"import loopkit pulled in {out.stdout.strip()}"


def _requirement_lines(path):
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith(("-r", "-e")):
            yield line


def test_requirements_are_pinned_and_install_loopkit():
    for path in (ROOT / "requirements.txt", ROOT / "requirements-test.txt", ROOT / "binder" / "requirements.txt"):
        for line in _requirement_lines(path):
            assert re.fullmatch(r"[A-Za-z0-9_.\-\[\]]+==[0-9][0-9A-Za-z.\-]*", line), f"{path.name}: unpinned {line!r}"
    root = (ROOT / "requirements.txt").read_text()
    assert "-r binder/requirements.txt" in root and re.search(r"^-e \.$", root, re.M)
    assert re.search(r"^-r requirements\.txt$", (ROOT / "requirements-test.txt").read_text(), re.M)


def test_the_learner_install_has_no_test_tools():
    """`make lab` installs requirements.txt only: the workbook's runtime and loopkit, nothing a test needs."""
    learner = set(_requirement_lines(ROOT / "requirements.txt"))
    assert learner == set(), f"requirements.txt should only include binder/requirements.txt and loopkit: {learner}"
    test_tools = {line.split("==")[0] for line in _requirement_lines(ROOT / "requirements-test.txt")}
    assert {"pytest", "nbval", "playwright", "jupyter-repo2docker"} <= test_tools
    makefile = (ROOT / "Makefile").read_text()
    lab_recipe = makefile.split("$(LAB_STAMP):", 1)[1].split("\n\n", 1)[0]
    assert "requirements-test.txt" not in lab_recipe and "-r requirements.txt" in lab_recipe
    assert re.search(r"^lab: \$\(LAB_STAMP\)$", makefile, re.M) and re.search(r"^test: \$\(TEST_STAMP\)$", makefile, re.M)


def test_binder_folder():
    binder = ROOT / "binder"
    assert re.fullmatch(r"python-3\.1[1-9]\n?", (binder / "runtime.txt").read_text())
    post_build = binder / "postBuild"
    assert os.access(post_build, os.X_OK), "binder/postBuild must be executable"
    text = post_build.read_text()
    assert "pip install" in text and "-e ." in text and "install_lab_settings.py" in text
    assert '"fetchNews": "false"' in (binder / "overrides.json").read_text()


def test_readme_quick_start_and_binder_badge():
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    shell = [line for block in re.findall(r"```(?:sh|bash)\n(.*?)```", quick, re.S) for line in block.splitlines()]
    assert [line.strip() for line in shell if line.strip()] == ["make lab", "make test"]
    assert "mybinder.org/v2/gh/" in readme and "labpath=notebooks%2F00_start_here.ipynb" in readme


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test\b", ci, re.M)
    assert os.access(ROOT / ".ci" / "run", os.X_OK)
