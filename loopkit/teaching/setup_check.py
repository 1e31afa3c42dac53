"""Is this kernel set up for the workbook? One line per requirement, and what to do when one is missing.

The requirements are the pins in ``binder/requirements.in``, the workbook's direct runtime dependencies (``make
lock`` resolves them into ``binder/requirements.txt``, the lock that Binder and ``make lab`` install): the stored
outputs of the chapters were produced with exactly these versions, so a different version can show a different
table. ``check_setup()`` is chapter 00's setup cell.
"""

from __future__ import annotations

import pathlib
import sys
from importlib import metadata

from loopkit.core.language import N_, tr

MINIMUM_PYTHON = (3, 11)
FIX = N_("run `make lab` again on your machine, or relaunch Binder")


def find_requirements(start: pathlib.Path | None = None) -> pathlib.Path | None:
    """``binder/requirements.in`` in the working directory or one of its parents, else next to loopkit."""
    here = (start or pathlib.Path.cwd()).resolve()
    for folder in (here, *here.parents, pathlib.Path(__file__).resolve().parents[2]):
        candidate = folder / "binder" / "requirements.in"
        if candidate.is_file():
            return candidate
    return None


def read_pins(path: pathlib.Path) -> dict[str, str]:
    """The ``name==version`` lines of a requirements file, comments and blank lines left out.

    >>> import tempfile; folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "r.txt").write_text("# runtime\\npandas==3.1.1  # tables\\n\\n")
    >>> read_pins(folder / "r.txt")
    {'pandas': '3.1.1'}
    """
    pins = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        requirement = line.split("#")[0].strip()
        if not requirement:
            continue
        name, separator, version = requirement.partition("==")
        if not separator or not name.strip() or not version.strip():
            raise ValueError(f"{path}:{number}: expected a pinned 'name==version' line, got {line.strip()!r}")
        pins[name.strip()] = version.strip()
    return pins


def installed_version(name: str) -> str | None:
    """The version of an installed distribution, or None when it is not installed."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def pin_line(name: str, pinned: str, found: str | None) -> str:
    """One requirement's line: ``OK`` or ``PROBLEM``, with what to do about a problem.

    >>> pin_line("pandas", "3.1.1", "3.1.1")
    'OK       pandas 3.1.1'
    >>> pin_line("pandas", "3.1.1", None)
    'PROBLEM  pandas 3.1.1 is not installed: run `make lab` again on your machine, or relaunch Binder'
    """
    if found == pinned:
        return tr("OK       {name} {version}", name=name, version=found)
    if found is None:
        return tr("PROBLEM  {name} {version} is not installed: {fix}", name=name, version=pinned, fix=tr(FIX))
    return tr("PROBLEM  {name}: expected {pinned}, found {found}: {fix}", name=name, pinned=pinned, found=found,
              fix=tr(FIX))


def python_line(version: tuple[int | str, ...]) -> str:
    """The Python requirement's line.

    >>> python_line((3, 12, 1))
    'OK       Python 3.11 or newer'
    >>> python_line((3, 10, 4))
    'PROBLEM  Python 3.10.4 is too old: the workbook needs 3.11 or newer; install it, then run `make lab`'
    """
    if tuple(version[:2]) >= MINIMUM_PYTHON:
        return tr("OK       Python 3.11 or newer")   # not the exact version: the stored output is the same on 3.12
    shown = ".".join(map(str, version[:3]))
    return tr("PROBLEM  Python {version} is too old: the workbook needs 3.11 or newer; install it, then run "
              "`make lab`", version=shown)


def loopkit_line(found: str | None) -> str:
    """The line for loopkit itself: installed into this kernel's environment (``make lab`` and Binder install it),
    not merely importable from the working directory.

    >>> loopkit_line("0.1.0")
    'OK       loopkit 0.1.0'
    >>> loopkit_line(None)
    'PROBLEM  loopkit is not installed in this kernel: run `make lab` again on your machine, or relaunch Binder'
    """
    if found is None:
        return tr("PROBLEM  loopkit is not installed in this kernel: {fix}", fix=tr(FIX))
    return tr("OK       {name} {version}", name="loopkit", version=found)


def setup_lines(start: pathlib.Path | None = None) -> list[str]:
    """Every requirement's line, Python first, then loopkit, then each pinned package."""
    lines = [python_line(sys.version_info), loopkit_line(installed_version("loopkit"))]
    path = find_requirements(start)
    if path is None:
        lines.append(tr("PROBLEM  binder/requirements.in not found: open the workbook from a clone of its "
                        "repository"))
        return lines
    lines.extend(pin_line(name, pinned, installed_version(name)) for name, pinned in read_pins(path).items())
    return lines


def check_setup() -> None:
    """Print one line per requirement: ``OK``, or ``PROBLEM`` with what to do."""
    for line in setup_lines():
        print(line)
