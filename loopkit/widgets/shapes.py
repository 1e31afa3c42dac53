# TEMPORARY shim for the notebooks; the lead removes it when the chapters are updated
"""The old name of :mod:`loopkit.widgets.normalization`: it only re-exports that module's public names."""

from .normalization import *  # noqa: F403
from .normalization import __all__  # noqa: F401
