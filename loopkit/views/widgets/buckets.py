"""Chapter 02's view: pick a path and a line range, see its ``read_file`` key and the buckets on a number line.

The bucket arithmetic lives in :func:`loopkit.read_bucket` only. This module reads the two bucket numbers back
out of the key it returns, so the picture can never disagree with the key the detector would compare. Its
words (labels, the sentence under the key, the number line's captions) are in the learner's language
(:func:`loopkit.core.language.tr`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import ipywidgets as W
import traitlets

from loopkit.core.keys import BUCKET_SIZE, read_bucket
from loopkit.core.language import tr

from ._base import View, number_box

__all__ = ["LINE_MAX", "LineRange", "bucket_span", "number_line_svg", "render_buckets", "bucket_explorer"]

#: The last line the line boxes and the number line show: five 200-line buckets.
LINE_MAX = 1000

_WIDTH, _LEFT, _TOP, _BAR = 600, 10, 24, 26


def bucket_span(path: str, start: int, end: int, *, bucket_size: int = BUCKET_SIZE) -> tuple[str, int, int]:
    """``(key, lo_bucket, hi_bucket)`` for a read of ``path`` from ``start`` to ``end``.

    >>> bucket_span("a.py", 150, 250)
    ('a.py:0-1', 0, 1)
    """
    key = read_bucket(path, start, end, bucket_size=bucket_size)
    lo, hi = key.rsplit(":", 1)[1].split("-")
    return key, int(lo), int(hi)


def _x(line: float, max_line: int) -> float:
    """The horizontal position of the left edge of ``line`` on the number line."""
    return round(_LEFT + (line - 1) / max_line * (_WIDTH - 2 * _LEFT), 1)


def number_line_svg(
    start: int, end: int, *, lo: int, hi: int, bucket_size: int = BUCKET_SIZE, max_line: int = LINE_MAX
) -> str:
    """An inline SVG of lines 1..``max_line`` cut into buckets; buckets ``lo``..``hi`` are shaded.

    Each bucket is a ``<rect>`` with ``data-bucket`` (its number) and ``data-in-key`` ("yes" when it lies between
    the key's two ends). The read itself is the dark bar marked ``data-role="range"``.
    """
    if max_line < 1:
        raise ValueError(f"max_line must be at least 1, got {max_line}")
    label = html.escape(tr("read buckets of {size} lines", size=bucket_size))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_TOP + _BAR + 34}" '
        f'role="img" aria-label="{label}">'
    ]
    for bucket in range((max_line - 1) // bucket_size + 1):
        first, last = bucket * bucket_size + 1, min((bucket + 1) * bucket_size, max_line)
        inside = lo <= bucket <= hi
        x0, x1 = _x(first, max_line), _x(last + 1, max_line)
        fill = "#f4b400" if inside else "#e8eaed"
        parts.append(
            f'<rect data-bucket="{bucket}" data-in-key="{"yes" if inside else "no"}" x="{x0}" y="{_TOP}" '
            f'width="{round(x1 - x0, 1)}" height="{_BAR}" fill="{fill}" stroke="#5f6368"/>'
        )
        middle = round((x0 + x1) / 2, 1)
        caption = html.escape(tr("bucket {bucket}", bucket=bucket))
        parts.append(f'<text x="{middle}" y="{_TOP - 6}" text-anchor="middle" font-size="12">{caption}</text>')
        span = html.escape(tr("lines {first}\u2013{last}", first=first, last=last))
        parts.append(f'<text x="{middle}" y="{_TOP + _BAR + 16}" text-anchor="middle" font-size="11">{span}</text>')
    a, b = sorted((max(min(start, max_line), 1), max(min(end, max_line), 1)))
    parts.append(
        f'<rect data-role="range" x="{_x(a, max_line)}" y="{_TOP + _BAR // 2 - 4}" '
        f'width="{max(round(_x(b + 1, max_line) - _x(a, max_line), 1), 2)}" height="8" fill="#202124"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def bucket_meaning(lo: int, hi: int) -> str:
    """What a key whose ends fall in buckets ``lo`` and ``hi`` means for the detector, in one sentence (in the
    learner's language).

    >>> bucket_meaning(1, 1).startswith("Both ends fall in bucket 1")
    True
    """
    if lo == hi:
        return tr("Both ends fall in bucket {lo}, so every read of this file that starts and ends in bucket {lo} "
                  "gets the same key: the detector counts them as the same action.", lo=lo)
    return tr("The range starts in bucket {lo} and ends in bucket {hi}, so the key differs from any read that "
              "stays inside one bucket.", lo=lo, hi=hi)


def render_buckets(path: str, lines: Sequence[int], *, bucket_size: int = BUCKET_SIZE) -> str:
    """The panel of :func:`bucket_explorer`: the key of ``read_file(path, *lines)``, a sentence, and the picture.

    >>> "<code>a.py:0-1</code>" in render_buckets("a.py", (150, 250))
    True
    """
    start, end = lines
    key, lo, hi = bucket_span(path, start, end, bucket_size=bucket_size)
    meaning = bucket_meaning(lo, hi)
    stated = tr("read_file key: {key} (lines {start}\u2013{end})", key=f"<code>{html.escape(key)}</code>",
                start=start, end=end)
    return (
        f"<div><p>{stated}</p>"
        f"<p>{html.escape(meaning)}</p>"
        f"{number_line_svg(start, end, lo=lo, hi=hi, bucket_size=bucket_size)}</div>"
    )


class LineRange(W.HBox):
    """A read's first and last line, two labelled number boxes (1..``LINE_MAX``); ``value`` is ``(first, last)``
    as entered. A reversed range is a read too: the key sorts its two ends, as upstream does.

    >>> lines = LineRange((1, 199)); lines.last.value = 201; lines.value
    (1, 201)
    >>> lines.value = (150, 250); (lines.first.value, lines.last.value)
    (150, 250)
    """

    value = traitlets.Tuple(traitlets.Int(), traitlets.Int())

    def __init__(self, value: tuple[int, int]) -> None:
        style = {"description_width": "initial"}  # each label as wide as its words (the Spanish "última línea")
        self.first = number_box(value[0], 1, LINE_MAX, tr("first line"), style=style)
        self.last = number_box(value[1], 1, LINE_MAX, tr("last line"), style=style)
        super().__init__([self.first, self.last])
        self.value = tuple(value)
        self._copying = False  # set while a new value is copied into the boxes, which then report it back
        for box in (self.first, self.last):
            box.observe(self._from_boxes, names="value")
        self.observe(self._to_boxes, names="value")

    def _from_boxes(self, change) -> None:
        if not self._copying:
            self.value = (self.first.value, self.last.value)

    def _to_boxes(self, change) -> None:
        self._copying = True
        try:
            self.first.value, self.last.value = change["new"]
        finally:
            self._copying = False


def bucket_explorer(path: str = "a.py", lines: tuple[int, int] = (1, 199)):
    """A view with a path box and the read's first and last line (1..1000) that shows the read bucket key live."""
    controls = {"path": W.Text(value=path, description=tr("path")), "lines": LineRange(lines)}
    return View(controls, render_buckets, title=tr("read_file buckets: which reads count as the same?"))
