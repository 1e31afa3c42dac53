"""The import path chapters and older code use for the transcript adapters. Everything lives in
:mod:`loopkit.adapters` (one module per format, plus sources, runs and batching) and is re-exported here unchanged,
so ``from loopkit.providers import load_trace`` and ``from loopkit.adapters import load_trace`` are the same
function."""

from .adapters import *  # noqa: F403 - this module is the old name of the package's public API
from .adapters import __all__  # noqa: F401
