"""Interactive views for the chapters. This package and :mod:`loopkit.views.plots` are the only places that import
ipywidgets and matplotlib, and they import them inside the view functions.

Every view is a thin shell over a plain function in the same module: the tests call the plain function, then set
the view's controls and assert on what it shows. Names load lazily::

    from loopkit.views import widgets
    widgets.bucket_explorer()
"""

from loopkit.core._lazy import lazy_exports

#: public name -> submodule that defines it
_EXPORTS = {
    "repeat_stepper": "repeats",  # chapter 00
    "normalize_explorer": "normalization",  # chapter 01
    "bucket_explorer": "buckets",  # chapter 02
    "batch_builder": "batch",  # chapter 03
    "eviction_race": "eviction",  # chapter 04
    "detector_playground": "playground",  # chapter 05
    "window_stepper": "window",  # chapter 05
    "lifecycle_stepper": "lifecycle",  # chapter 06
    "version_compare": "versions",  # chapter 07
    "deployment_advisor": "deployment",  # chapter 09
    "transcript_replay": "transcript",  # chapter 10
    "transcript_upload": "upload",  # chapter 10
    "room_view": "room",  # the instructor's notebook, notebooks/instructor/room.ipynb
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
