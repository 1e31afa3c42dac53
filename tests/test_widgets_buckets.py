"""Chapter 02's bucket_explorer: the plain render functions, then the view driven through its controls.

The control names and types are a contract: a browser test drives `path` (a Text) and `lines` (a LineRange: the
first and last line as two number boxes) and reads the key text out of the panel.
"""

import re

import ipywidgets as W
import pytest
from html_tables import read_view, text

from loopkit.views import widgets
from loopkit.views.widgets.buckets import (LINE_MAX, LineRange, bucket_meaning, bucket_span, number_line_svg,
                                           render_buckets)


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


def test_the_meaning_says_whether_the_range_stays_in_one_bucket():
    assert bucket_meaning(0, 0).startswith("Both ends fall in bucket 0, so every read")
    assert bucket_meaning(0, 1).startswith("The range starts in bucket 0 and ends in bucket 1")


def test_the_panel_states_the_key_its_meaning_and_draws_the_buckets():
    panel = render_buckets("<b>.py", (190, 210))
    assert text(panel).startswith(f"read_file key: <b>.py:0-1 (lines 190\u2013210) {bucket_meaning(0, 1)}")
    assert shaded(panel) == [0, 1]


def span(view):
    """The key the view's plain function computes from its current controls; the panel must show exactly that."""
    return read_view(view, render_buckets, lambda path, lines: bucket_span(path, *lines))


def test_view_controls_contract():
    view = widgets.bucket_explorer()
    path, lines = view.controls["path"], view.controls["lines"]
    assert isinstance(path, W.Text) and path.value == "a.py"
    assert isinstance(lines, LineRange) and lines.value == (1, 199)
    for box in (lines.first, lines.last):
        assert isinstance(box, W.BoundedIntText) and (box.min, box.max) == (1, LINE_MAX) and LINE_MAX >= 1000
    assert (lines.first.value, lines.last.value) == (1, 199)
    assert span(view) == ("a.py:0-0", 0, 0)


def test_view_follows_the_slider_across_line_200_and_back():
    view = widgets.bucket_explorer()
    view.controls["lines"].value = (150, 200)
    assert span(view) == ("a.py:0-0", 0, 0)
    view.controls["lines"].value = (150, 201)
    assert span(view) == ("a.py:0-1", 0, 1)
    view.controls["lines"].value = (201, 399)
    assert span(view) == ("a.py:1-1", 1, 1)


def test_view_follows_the_path():
    view = widgets.bucket_explorer()
    view.controls["path"].value = "src/app.py"
    assert span(view)[0] == "src/app.py:0-0"
    view.controls["path"].value = ""
    assert span(view)[0] == ":0-0"



def test_in_spanish_the_panel_and_the_number_line_speak_spanish(spanish):
    panel = render_buckets("a.py", (150, 250))
    assert text(panel).startswith(
        "clave de read_file: a.py:0-1 (líneas 150\u2013250) El rango empieza en el bloque 0 y termina en el "
        "bloque 1, así que su clave es distinta de la de cualquier lectura que se quede dentro de un solo "
        "bloque.")
    assert bucket_meaning(2, 2).startswith("Los dos extremos caen en el bloque 2, así que toda lectura")
    svg = number_line_svg(1, 199, lo=0, hi=0)
    assert 'aria-label="bloques de lectura de 200 líneas"' in svg
    for label in ("bloque 0", "bloque 4", "líneas 1\u2013200", "líneas 801\u20131000"):
        assert label in svg
    assert "bucket" not in text(svg) and "lines" not in text(svg)


def test_in_spanish_the_view_labels_its_controls(spanish):
    view = widgets.bucket_explorer()
    assert view.children[0].value == "<b>Bloques de lectura de read_file: ¿qué lecturas cuentan como la misma?</b>"
    lines = view.controls["lines"]
    assert [view.controls["path"].description, lines.first.description, lines.last.description] == [
        "ruta", "primera línea", "última línea"]
    view.controls["lines"].value = (150, 201)
    assert span(view) == ("a.py:0-1", 0, 1) and "El rango empieza en el bloque 0" in text(view.panel.value)
