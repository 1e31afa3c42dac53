"""The locks: every package the workbook's environment holds is pinned, at its version, with its hashes.

``make lock`` (uv, see the Makefile) resolves the short lists of direct dependencies (``binder/requirements.in``,
``binder/install.in``, ``requirements-test.in``) into two locks: ``binder/requirements.txt``, the learner's (Binder
and ``make lab`` install it), and ``requirements-test.txt``, the learner's packages plus the test tools (``make test``
installs it). Stored notebook outputs are compared exactly, so a package that slips in unpinned, or at another
version than the lock's, could change what a learner sees with no commit here: these tests fail on it.
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib import metadata

import pytest
from lock_tools import (
    DIRECT_LISTS,
    LEARNER_LOCK,
    TEST_LOCK,
    installed,
    pins_for_here,
    read_direct,
    read_lock,
    site_packages,
)
from notebook_tools import ROOT
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

FIX = ("run `make clean` and then `make test` (a package installed by hand, or one the locks no longer hold, "
       "stays in .venv until it is rebuilt); to add a dependency, name it in an .in file and run `make lock`")


def unlocked(found: dict[str, str], pinned: dict[str, str]) -> list[str]:
    """What ``found`` (installed name -> version) holds that ``pinned`` does not pin, or pins at another version.

    >>> unlocked({"pandas": "3.1.1", "six": "1.17.0"}, {"pandas": "3.1.1"})
    ['six 1.17.0 is installed, and no lock pins it']
    >>> unlocked({"pandas": "3.0.0"}, {"pandas": "3.1.1"})
    ['pandas 3.0.0 is installed, and the lock pins 3.1.1']
    """
    problems = []
    for name, version in sorted(found.items()):
        if name not in pinned:
            problems.append(f"{name} {version} is installed, and no lock pins it")
        elif pinned[name] != version:
            problems.append(f"{name} {version} is installed, and the lock pins {pinned[name]}")
    return problems


def test_every_installed_package_is_pinned_by_the_lock_at_its_version():
    """The tests run in the test environment, so requirements-test.txt must pin everything it holds."""
    found = installed()
    assert "pytest" in found and "jupyterlab" in found, "this is not the workbook's test environment"
    found.pop("loopkit")  # this checkout, installed editable by the Makefile; checked below
    problems = unlocked(found, pins_for_here(read_lock(TEST_LOCK)))
    assert not problems, f"{len(problems)} package(s) not pinned as installed:\n" + "\n".join(problems) + f"\n{FIX}"


def test_loopkit_itself_is_this_checkout_installed_editable():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    [dist] = [d for d in metadata.distributions(name="loopkit", path=site_packages())]
    assert dist.version == project["version"]
    origin = json.loads(dist.read_text("direct_url.json") or "{}")
    assert origin.get("dir_info", {}).get("editable") is True, f"loopkit is not an editable install: {origin}"
    assert origin["url"] == ROOT.as_uri(), f"loopkit is installed from {origin['url']}, not from this checkout"


def test_the_test_lock_keeps_every_learner_pin_as_it_is():
    """The test environment is the learner's plus the test tools: not a package at another version. (A marker may
    differ: psutil is a test tool everywhere, and only on some platforms a dependency of ipykernel.)"""
    test: dict[str, set[str]] = {}
    for pin in read_lock(TEST_LOCK):
        test.setdefault(pin.name, set()).add(pin.version)
    learner: dict[str, set[str]] = {}
    for pin in read_lock(LEARNER_LOCK):
        learner.setdefault(pin.name, set()).add(pin.version)
    for name, versions in sorted(learner.items()):
        assert test.get(name) == versions, f"{name}: {sorted(versions)} for learners, {sorted(test.get(name, []))} for the tests"


@pytest.mark.parametrize("lock", list(DIRECT_LISTS), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_each_direct_dependency_is_locked_as_its_short_list_asks(lock):
    """An edited .in file without `make lock` after it fails here."""
    pins = read_lock(lock)
    versions: dict[str, set[str]] = {}
    for pin in pins:
        versions.setdefault(pin.name, set()).add(pin.version)
    for short_list in DIRECT_LISTS[lock]:
        for requirement in read_direct(short_list):
            name = canonicalize_name(requirement.name)
            assert name in versions, f"{short_list.name} asks for {requirement}, which {lock.name} does not pin: run make lock"
            assert all(v in SpecifierSet(str(requirement.specifier)) for v in versions[name]), (
                f"{short_list.name} asks for {requirement}, {lock.name} pins {sorted(versions[name])}: run make lock")


@pytest.mark.parametrize("lock", list(DIRECT_LISTS), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_lock_entry_carries_the_hashes_pip_checks(lock):
    for pin in read_lock(lock):
        assert pin.hashes, f"{pin.where}: {pin.name} has no --hash, so pip cannot check what it downloads"
        for digest in pin.hashes:
            assert re.fullmatch(r"sha256:[0-9a-f]{64}", digest), f"{pin.where}: {digest!r} is not a sha256 digest"


def test_the_locks_are_made_for_every_supported_python_from_the_short_lists():
    """`make lock` resolves one universal lock from the lowest Python that pyproject.toml accepts, and reads
    exactly the short lists these tests check the locks against."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    lowest = re.fullmatch(r">=\s*(3\.\d+)", requires).group(1)
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(rf"--universal --python-version {re.escape(lowest)}\b", makefile)
    recipe = makefile.split("\nlock: ", 1)[1].split("\n\n", 1)[0]
    for lock, short_lists in DIRECT_LISTS.items():
        line = next(line for line in recipe.splitlines() if f"-o {lock.relative_to(ROOT).as_posix()}" in line)
        assert re.findall(r"\S+\.in\b", line) == [path.relative_to(ROOT).as_posix() for path in short_lists]
    for lock in DIRECT_LISTS:
        assert lock.read_text().startswith("# This file was autogenerated by uv via the following command:\n"
                                           "#    make lock\n"), f"{lock.name} was not written by make lock"
