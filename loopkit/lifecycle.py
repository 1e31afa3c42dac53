# TEMPORARY shim for the notebooks; the lead removes it when the chapters are updated
"""The old name of :mod:`loopkit.agent_loop`: it only re-exports that module's public names."""

from .agent_loop import *  # noqa: F403
from .agent_loop import __all__  # noqa: F401
