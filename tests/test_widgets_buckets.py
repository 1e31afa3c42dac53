"""Chapter 02's bucket_explorer: the plain render functions, then the view driven through its controls.

The control names and types are a contract: a browser test drives `path` (a Text) and `lines` (an
IntRangeSlider) and reads the key text out of the panel.
"""

import re

import ipywidgets as W
import pytest

from loopkit import widgets
from loopkit.widgets.buckets import LINE_MAX, bucket_span, number_line_svg, render_buckets


@pytest.mark.parametrize(
    "start, end, expected",
    [
        (1, 199, ("a.py:0-0", 0, 0)),
        (200, 1, ("a.py:0-0", 0, 0)),
        (201, 201, ("a.py:1-1", 1, 1)),
        (150, 250, ("a.py:0-1", 0, 1)),
        (1, 1000, ("a.py:0-4", 0, 4)),
        (0, -3, ("a.py:0-0", 0, 0)),
    ],
)
def test_bucket_span(start, end, expected):
    assert bucket_span("a.py", start, end) == expected


def test_bucket_span_reads_a_path_that_contains_colons():
    assert bucket_span("c:/x:y.py", 401, 401) == ("c:/x:y.py:2-2", 2, 2)


def shaded(svg):
    return [int(b) for b, inside in re.findall(r'data-bucket="(\d+)" data-in-key="(yes|no)"', svg) if inside == "yes"]


def test_number_line_has_five_buckets_with_line_labels():
    svg = number_line_svg(1, 199, lo=0, hi=0)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert re.findall(r'data-bucket="(\d+)"', svg) == ["0", "1", "2", "3", "4"]
    for label in ("lines 1\u2013200", "lines 201\u2013400", "lines 801\u20131000"):
        assert label in svg
    assert shaded(svg) == [0]


def test_number_line_shades_every_bucket_between_the_ends():
    assert shaded(number_line_svg(150, 650, lo=0, hi=3)) == [0, 1, 2, 3]


def test_number_line_range_bar_sits_inside_its_bucket():
    svg = number_line_svg(201, 400, lo=1, hi=1)
    bar = re.search(r'data-role="range" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    bucket = re.search(r'data-bucket="1" data-in-key="yes" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)
    assert bar and bucket
    assert float(bar.group(1)) == float(bucket.group(1))
    assert float(bar.group(2)) == float(bucket.group(2))


def test_number_line_rejects_an_empty_line_range():
    with pytest.raises(ValueError, match="max_line must be at least 1"):
        number_line_svg(1, 1, lo=0, hi=0, max_line=0)


def test_render_states_the_key_and_what_it_means():
    same = render_buckets("a.py", (10, 190))
    assert "<code>a.py:0-0</code>" in same and "Both ends fall in bucket 0" in same
    across = render_buckets("a.py", (190, 210))
    assert "<code>a.py:0-1</code>" in across and "starts in bucket 0 and ends in bucket 1" in across


def test_render_escapes_the_path():
    assert "<code>&lt;b&gt;.py:0-0</code>" in render_buckets("<b>.py", (1, 5))


def test_view_controls_contract():
    view = widgets.bucket_explorer()
    path, lines = view.controls["path"], view.controls["lines"]
    assert isinstance(path, W.Text) and path.value == "a.py"
    assert isinstance(lines, W.IntRangeSlider)
    assert lines.min == 1 and lines.max >= 1000 and lines.max == LINE_MAX and lines.value == (1, 199)
    assert "a.py:0-0" in view.panel.value


def test_view_follows_the_slider_across_line_200_and_back():
    view = widgets.bucket_explorer()
    view.controls["lines"].value = (150, 200)
    assert "a.py:0-0" in view.panel.value
    view.controls["lines"].value = (150, 201)
    assert "a.py:0-1" in view.panel.value and "a.py:0-0" not in view.panel.value
    assert shaded(view.panel.value) == [0, 1]
    view.controls["lines"].value = (201, 399)
    assert "a.py:1-1" in view.panel.value


def test_view_follows_the_path():
    view = widgets.bucket_explorer()
    view.controls["path"].value = "src/app.py"
    assert "<code>src/app.py:0-0</code>" in view.panel.value
    view.controls["path"].value = ""
    assert "<code>:0-0</code>" in view.panel.value
