# TEMPORARY shim for the notebooks; the lead removes it when the chapters are updated
"""The old name of :mod:`loopkit.replay_table`: it only re-exports that module's public names."""

from .replay_table import *  # noqa: F403
from .replay_table import __all__  # noqa: F401
