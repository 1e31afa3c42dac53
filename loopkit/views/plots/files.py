"""Write a replay's timeline to an image file, for ``python -m loopkit replay --plot OUT.png`` (chapter 10)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from loopkit.core.detector import DetectorConfig

__all__ = ["image_path_problem", "save_timeline"]


def image_path_problem(path: str) -> str | None:
    """Why an image cannot be written to ``path`` (no matplotlib, an unknown extension, no such folder), or None.

    Checked before a replay starts, so a long replay does not end in an error it could have given at once.
    """
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as exc:
        return f"needs matplotlib (the notebook extras): {exc}"
    formats = FigureCanvasBase.get_supported_filetypes()
    suffix = os.path.splitext(path)[1].lower()
    if suffix.lstrip(".") not in formats:
        what = f"unsupported image format {suffix!r}" if suffix else "no file extension to tell the image format"
        return f"{what}; expected one of {', '.join('.' + f for f in sorted(formats))}"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"no such directory {folder!r}"
    return None


def save_timeline(steps: Sequence, config: DetectorConfig, path: str) -> None:
    """Draw the timeline of replayed steps (kept with their state) and save it to ``path``, with no display."""
    import matplotlib

    matplotlib.use("Agg")  # a command line has no display
    import matplotlib.pyplot as plt

    from loopkit.teaching.replay_table import table

    from .timelines import timeline

    figure = next(ax for ax in timeline(table(steps, config), config) if ax is not None).figure
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)
