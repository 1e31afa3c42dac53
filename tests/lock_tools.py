"""Read the workbook's locks (``make lock`` writes them with uv) and the short lists they are made from.

A lock is a pip requirements file in which every entry is ``name==version``, perhaps with an environment marker
(``; python_full_version < '3.12'``), followed by its ``--hash`` options on continuation lines. The readers here
take those files apart with ``packaging``, the parser pip itself vendors, so a test sees what pip will see.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import pathlib
import re
import sysconfig

from notebook_tools import ROOT
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

LEARNER_LOCK = ROOT / "binder" / "requirements.txt"
TEST_LOCK = ROOT / "requirements-test.txt"
DIRECT_LISTS = {LEARNER_LOCK: [ROOT / "binder" / "requirements.in", ROOT / "binder" / "install.in"],
                TEST_LOCK: [ROOT / "binder" / "requirements.in", ROOT / "binder" / "install.in",
                            ROOT / "requirements-test.in"]}
_COMMENT = re.compile(r"(^|\s)#.*$")  # pip's rule: a '#' at the start of a line or after whitespace


@dataclasses.dataclass(frozen=True)
class Pin:
    """One entry of a lock: where it is, what it pins, for which environments, and the files it accepts."""

    where: str  # FILE:LINE
    name: str  # canonical: lower case, runs of -_. as one -
    version: str
    requirement: Requirement
    hashes: tuple[str, ...]

    def applies(self, environment: dict | None = None) -> bool:
        marker = self.requirement.marker
        return marker is None or marker.evaluate(environment or default_environment())


def logical_lines(path: pathlib.Path) -> list[tuple[int, str]]:
    """(first line number, text) of every requirement line, continuations joined and comments removed."""
    lines, pending, start = [], "", 0
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = _COMMENT.sub("", raw).rstrip()
        if not pending:
            start = number
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        joined = (pending + text).strip()
        pending = ""
        if joined:
            lines.append((start, joined))
    return lines


def read_lock(path: pathlib.Path) -> list[Pin]:
    """Every pin of a lock; an entry that is not ``name==version`` (an option line, a range) is an error here."""
    pins = []
    for number, line in logical_lines(path):
        where = f"{path.relative_to(ROOT)}:{number}"
        spec, *options = re.split(r"\s+(?=--)", line)
        hashes = tuple(option.split("=", 1)[1] for option in options if option.startswith("--hash="))
        other = [option for option in options if not option.startswith("--hash=")]
        assert not other, f"{where}: unexpected option in a lock entry: {other}"
        requirement = Requirement(spec)
        pinned = [s for s in requirement.specifier if s.operator == "=="]
        assert len(requirement.specifier) == 1 and pinned, f"{where}: {spec!r} is not pinned with =="
        pins.append(Pin(where, canonicalize_name(requirement.name), pinned[0].version, requirement, hashes))
    return pins


def read_direct(path: pathlib.Path) -> list[Requirement]:
    """The requirements of a short list (an ``.in`` file)."""
    return [Requirement(line) for _, line in logical_lines(path)]


def pins_for_here(pins: list[Pin]) -> dict[str, str]:
    """name -> version for the pins whose markers hold for this interpreter and platform."""
    here: dict[str, str] = {}
    for pin in pins:
        if pin.applies():
            assert pin.name not in here, f"{pin.where}: {pin.name} is pinned twice for this environment"
            here[pin.name] = pin.version
    return here


def site_packages() -> list[str]:
    """This environment's own folders of installed distributions (not the checkout, which the tests run from and
    where setuptools leaves a ``loopkit.egg-info`` while it builds the editable install)."""
    return sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})


def installed() -> dict[str, str]:
    """name -> version of every distribution installed in this interpreter's environment."""
    found: dict[str, str] = {}
    for dist in importlib.metadata.distributions(path=site_packages()):
        name = dist.metadata["Name"]
        if name:  # a broken leftover .dist-info folder has no metadata
            found.setdefault(canonicalize_name(name), dist.version)
    return found
