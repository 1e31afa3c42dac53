"""One build step besides pyproject.toml's metadata: compile the translations into the wheel.

The catalogs ``loopkit/core/locales/<language>/LC_MESSAGES/loopkit.po`` are committed, their compiled ``loopkit.mo``
are not (``make translations`` compiles them in the checkout). A wheel built from a clean checkout must carry them
all the same, or ``set_language("es")`` fails after ``pip install .``: so building the package compiles each catalog
into the build folder, with Babel (a build requirement, in the lock), as ``pybabel compile`` does (fuzzy entries
left out). An editable install reads the checkout's own files instead, and ``make translations`` serves it.
"""

from __future__ import annotations

import pathlib

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGS = "loopkit/core/locales/*/LC_MESSAGES/loopkit.po"


class BuildWithCatalogs(build_py):
    """setuptools' build_py, then every catalog compiled to its ``.mo`` beside the built modules."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(pathlib.Path(__file__).parent.glob(CATALOGS)):
            relative = po.relative_to(pathlib.Path(__file__).parent)
            target = pathlib.Path(self.build_lib) / relative.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(po, "rb") as source:
                catalog = read_po(source, locale=relative.parts[3])
            with open(target, "wb") as compiled:
                write_mo(compiled, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
