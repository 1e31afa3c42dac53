# TEMPORARY shim for the notebooks; the lead removes it when the chapters are updated
"""The old name of :mod:`loopkit.adapters` (one module per transcript format, plus sources, runs and batching): it
only re-exports that package's public names, so ``from loopkit.providers import load_trace`` still works."""

from .adapters import *  # noqa: F403
from .adapters import __all__  # noqa: F401
