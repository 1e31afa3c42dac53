# TEMPORARY shim for the notebooks; the lead removes it when the chapters are updated
"""The old name of :mod:`loopkit.eviction_race`: it only re-exports that module's public names."""

from .eviction_race import *  # noqa: F403
from .eviction_race import __all__  # noqa: F401
