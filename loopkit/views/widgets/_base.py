"""The one pattern every view follows: named controls, a pure render function, and an HTML panel.

A view is an ``ipywidgets.VBox`` whose ``controls`` dict holds its inputs and whose ``panel`` shows
``render(**values)``. The render function is a plain function of the control values, so a test can call it
directly, or set ``view.controls[name].value`` and read ``view.panel.value`` without any browser.
"""

from __future__ import annotations

import base64
import html
import io
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
    """Embed a matplotlib figure in HTML as a PNG, and close it so figures do not pile up."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{data}"/>'


def table_html(rows: Sequence[Mapping], columns: Sequence[str] | None = None) -> str:
    """A small HTML table from a list of dicts (no pandas needed in the render path). The column headings are
    shown in the learner's language (:func:`loopkit.core.language.tr`); the cells as they are."""
    if not rows:
        return f"<i>{html.escape(tr('(nothing yet)'))}</i>"
    columns = list(columns or rows[0].keys())
    head = "".join(f"<th>{html.escape(tr(str(c)))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(row.get(c, '')))}</td>" for c in columns) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
