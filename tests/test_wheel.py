"""loopkit works as a package: a wheel built from a clean copy of the checkout (the files git tracks and the new ones
it does not ignore, so no compiled catalog comes along) holds the compiled catalogs, and Spanish works when loopkit is
imported from that wheel, not from the checkout.

The build uses this venv's setuptools and Babel (the lock's), without build isolation: nothing is downloaded.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest
from notebook_tools import ROOT


def clean_copy(into):
    """The checkout as a fresh clone would hold it (plus new files git does not ignore), in ``into``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel ``pip wheel .`` builds from a clean copy, and the copy."""
    copy = clean_copy(tmp_path_factory.mktemp("checkout"))
    assert not list(copy.rglob("*.mo")), "the clean copy already holds a compiled catalog"
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(out), str(copy)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    [path] = out.glob("loopkit-*.whl")
    return path


def test_the_wheel_holds_every_compiled_catalog(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    catalogs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "loopkit").rglob("LC_MESSAGES/loopkit.po"))
    assert catalogs, "no catalog in the checkout"
    for catalog in catalogs:
        assert catalog in names and catalog.removesuffix(".po") + ".mo" in names, f"{wheel.name} lacks {catalog}'s .mo"


def test_spanish_works_from_the_unpacked_wheel(wheel, tmp_path):
    """Imported from the unpacked wheel alone (the checkout and its editable install out of the path), loopkit speaks
    Spanish: set_language("es") finds the catalog, and a text is translated."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    script = ("import loopkit, sys; from loopkit.core.language import tr; loopkit.set_language('es'); "
              "print(loopkit.__file__); print(tr('agree'))")
    ran = subprocess.run([sys.executable, "-I", "-S", "-c", f"import sys; sys.path.insert(0, {str(site)!r}); {script}"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    where, agree = ran.stdout.splitlines()
    assert where.startswith(str(site)), f"loopkit was imported from {where}, not from the wheel"
    assert agree == "coinciden"
