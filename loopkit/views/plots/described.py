"""Figures that say what they show: a plot's description (its alt text) kept on the figure, and given to the page.

JupyterLab 4.6 shows a matplotlib figure's ``image/png`` as an ``<img>`` without alt text, so a screen reader
announces only "image". :func:`describe` keeps a sentence on the figure; in an IPython kernel it also teaches the
display to show such a figure as HTML, ``<img alt="...">`` with the same PNG, which JupyterLab prefers to the bare
image. A figure without a description is displayed as before. The views embed their figures with
:func:`img_html` directly.
"""

from __future__ import annotations

import base64
import html
import io

__all__ = ["describe", "description", "img_html"]

_ATTRIBUTE = "loopkit_description"


def img_html(fig, *, alt: str, style: str | None = None) -> str:
    """The figure as an HTML image (a PNG in a data URL) with its alt text (and an inline ``style``, if given).

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> fig = plt.figure(figsize=(1, 1)); img_html(fig, alt="an empty square").startswith('<img alt="an empty square"')
    True
    >>> plt.close(fig)
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    styled = f' style="{html.escape(style)}"' if style else ""
    return f'<img alt="{html.escape(alt)}"{styled} src="data:image/png;base64,{data}"/>'


def describe(fig, alt: str):
    """Keep ``alt`` on ``fig`` as its description, shown to the page as the image's alt text; returns ``fig``.

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> fig = describe(plt.figure(), "two lines"); description(fig)
    'two lines'
    >>> plt.close(fig)
    """
    setattr(fig, _ATTRIBUTE, alt)
    _show_described_figures_with_alt_text()
    return fig


def description(fig) -> str | None:
    """The description :func:`describe` kept on ``fig``, or None."""
    return getattr(fig, _ATTRIBUTE, None)


def _described_html(fig) -> str | None:
    alt = description(fig)
    return None if alt is None else img_html(fig, alt=alt)  # None: IPython leaves text/html out


def _show_described_figures_with_alt_text() -> None:
    """In an IPython kernel, add an HTML form for described figures to what a displayed figure sends."""
    try:
        from IPython import get_ipython
    except ImportError:  # no IPython: nothing displays figures here
        return
    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.formatters["text/html"].for_type_by_name(
            "matplotlib.figure", "Figure", _described_html)
