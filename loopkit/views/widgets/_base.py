"""The one pattern every view follows: named controls, a pure render function, and an HTML panel.

A view is an ``ipywidgets.VBox`` whose ``controls`` dict holds its inputs and whose ``panel`` shows
``render(**values)``. The render function is a plain function of the control values, so a test can call it
directly, or set ``view.controls[name].value`` and read ``view.panel.value`` without any browser.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as W

from loopkit.core.language import tr


class View(W.VBox):
    """Controls plus a live HTML panel. ``refresh()`` re-renders; every control change calls it."""

    def __init__(
        self,
        controls: Mapping[str, W.Widget],
        render: Callable[..., str],
        *,
        title: str | None = None,
        buttons: Sequence[W.Button] = (),
    ) -> None:
        super().__init__()
        self.controls = dict(controls)
        self.panel = W.HTML()
        self._render = render
        header = [W.HTML(f"<b>{html.escape(title)}</b>")] if title else []
        row = [W.HBox(list(buttons))] if buttons else []
        self.children = (*header, *self.controls.values(), *row, self.panel)  # ipywidgets keeps a tuple
        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        self.refresh()

    def values(self) -> dict:
        """The current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self, change=None) -> None:
        try:
            self.panel.value = self._render(**self.values())
        except ValueError as exc:  # bad learner input is shown in the panel, not raised into a callback
            self.panel.value = f"<pre style='color:#b00'>{html.escape(str(exc))}</pre>"


def figure_html(fig, *, alt: str) -> str:
    """Embed a matplotlib figure in HTML as a PNG with its alt text (what the plot shows, for a reader who cannot
    see it), and close it so figures do not pile up."""
    import matplotlib.pyplot as plt

    from ..plots.described import img_html

    embedded = img_html(fig, alt=alt, style=IMAGE_STYLE)
    plt.close(fig)
    return embedded


def number_box(value: int, low: int, high: int, description: str, **options) -> W.BoundedIntText:
    """A whole number from ``low`` to ``high``: typed, or stepped with the arrow keys or the box's arrows.

    The views use this, not a slider: ipywidgets 8.1.9 draws a slider's handle as a ``role="slider"`` element that
    its label does not name, so a screen reader announces a bare number (axe-core's ``aria-input-field-name``);
    a number box is an ``<input>`` that its label names.

    >>> box = number_box(3, 1, 10, "warn"); (box.value, box.min, box.max, box.description)
    (3, 1, 10, 'warn')
    """
    options.setdefault("continuous_update", True)
    return W.BoundedIntText(value=value, min=low, max=high, step=1, description=description, **options)


# Tables and pictures are styled inline, with JupyterLab's theme variables and a light fallback after each: the
# same HTML then follows the lab's light and dark themes and still reads well where those variables are not defined
# (nbviewer, a static render of the stored widget state). No stylesheet is needed, so nothing leaks into the page.
TABLE_STYLE = ("border-collapse:collapse;margin:0.4em 0;font-size:var(--jp-content-font-size1, 13px);"
               "color:var(--jp-content-font-color1, #1f1f1f)")
HEAD_STYLE = ("text-align:left;padding:3px 10px;font-weight:600;background:var(--jp-layout-color2, #eeeeee);"
              "border-bottom:2px solid var(--jp-border-color1, #bdbdbd)")
CELL_STYLE = "text-align:left;padding:3px 10px;vertical-align:top;border-bottom:1px solid var(--jp-border-color2, #e0e0e0)"
#: An image never grows past its output area; it scales down, keeping its proportions.
IMAGE_STYLE = "max-width:100%;height:auto"


def table_html(rows: Sequence[Mapping], columns: Sequence[str] | None = None) -> str:
    """A small HTML table from a list of dicts (no pandas needed in the render path). The column headings are
    shown in the learner's language (:func:`loopkit.core.language.tr`); the cells as they are. Headings and cells
    are padded and ruled (:data:`HEAD_STYLE`, :data:`CELL_STYLE`) in the colours of the lab's theme."""
    if not rows:
        return f"<i>{html.escape(tr('(nothing yet)'))}</i>"
    columns = list(columns or rows[0].keys())
    head = "".join(f'<th style="{HEAD_STYLE}">{html.escape(tr(str(c)))}</th>' for c in columns)
    body = "".join(
        "<tr>" + "".join(f'<td style="{CELL_STYLE}">{html.escape(str(row.get(c, "")))}</td>' for c in columns)
        + "</tr>" for row in rows
    )
    return f'<table style="{TABLE_STYLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def limits_conflict(*pairs: tuple[str, int, str, int]) -> str | None:
    """The panel's explanation, in the learner's language, of the first (warn name, warn, hard name, hard) pair whose
    warn threshold is above its hard limit; ``None`` when every pair is in order.

    :class:`~loopkit.core.detector.DetectorConfig` refuses such a pair: the detector checks the hard limit first,
    so the stop would always come before the warning. A view shows this instead of the English error.

    >>> limits_conflict(("warn_threshold", 3, "hard_limit", 5)) is None
    True
    """
    for warn_name, warn, hard_name, hard in pairs:
        if warn > hard:
            text = tr("{warn_name} ({warn}) is above {hard_name} ({hard}). The hard limit is checked first, so the "
                      "detector would stop before it ever warned, and DetectorConfig refuses this setting. Lower "
                      "{warn_name} to {hard} or less, or raise {hard_name} to {warn} or more.",
                      warn_name=f"<code>{html.escape(warn_name)}</code>", warn=warn,
                      hard_name=f"<code>{html.escape(hard_name)}</code>", hard=hard)
            return f'<p data-conflict="{html.escape(warn_name)}" role="status">{text}</p>'
    return None
