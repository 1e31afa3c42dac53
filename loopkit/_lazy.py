"""Lazy re-exports for the view packages, so importing them does not import ipywidgets or matplotlib."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable


class _ExportingPackage(types.ModuleType):
    """A package whose lazily exported names win over submodules of the same name.

    Importing ``package.x`` binds the *submodule* as the attribute ``package.x``. When an exported function shares
    its module's name (``plots.timeline``, ``plots.heatmap``), that binding would shadow the function, so the
    function is bound instead.
    """

    def __setattr__(self, name: str, value) -> None:
        exports = self.__dict__.get("_lazy_exports", {})
        if isinstance(value, types.ModuleType) and value.__name__ == f"{self.__name__}.{exports.get(name)}":
            value = getattr(value, name, value)
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[Callable, Callable]:
    """Return ``(__getattr__, __dir__)`` for ``package`` that load ``name`` from ``package.exports[name]``."""
    module = sys.modules.get(package)
    if module is not None and type(module) is types.ModuleType:
        module.__dict__["_lazy_exports"] = dict(exports)
        module.__class__ = _ExportingPackage

    def __getattr__(name: str):
        if name in exports:
            return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(exports)

    return __getattr__, __dir__
