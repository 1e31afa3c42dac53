"""Static plots for the chapters, drawn with matplotlib (imported inside each plotting function).

Each plot takes plain data (usually a pandas DataFrame that a loopkit function produced) and returns the
matplotlib Axes or Figure, so a test can assert on what was drawn. Names load lazily::

    from loopkit.views import plots
    plots.timeline(df, config)
"""

from loopkit.core._lazy import lazy_exports

#: public name -> submodule that defines it
_EXPORTS = {
    "timeline": "timelines",  # chapter 05
    "window": "svg_window",  # chapter 05
    "heatmap": "heatmaps",  # chapter 10
    "save_timeline": "files",  # the command line's --plot
    "image_path_problem": "files",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
