"""Lazy re-exports: names a package offers but imports on first use. The view packages use them so that importing
them does not import ipywidgets or matplotlib, and ``loopkit`` itself so that ``import loopkit`` loads the core only."""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable, Callable]:
    """Return ``(__getattr__, __dir__)`` for ``package`` that load ``name`` from ``package.exports[name]``.

    A name must differ from its module's name. This is Python's rule, not this helper's: importing a submodule
    binds it as an attribute of its package, so ``plots.timeline`` cannot be both the module ``timeline.py`` and
    the function in it (``import loopkit.views.plots.timeline as m`` would get one where it expects the other). Name the
    module for the concept and the function for what it does (``widgets/normalization.py`` holds
    ``normalize_explorer``).
    """
    clashes = sorted(name for name, module in exports.items() if name == module)
    if clashes:
        raise ValueError(f"{package}: exported names {clashes} equal their module names and would be shadowed")

    def __getattr__(name: str):
        if name in exports:
            return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(exports)

    return __getattr__, __dir__
