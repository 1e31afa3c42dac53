"""loopkit.views.widgets._base: the View pattern (controls, pure render, HTML panel), table_html and figure_html."""

import base64
import re

import ipywidgets as W
import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from html_tables import tables  # noqa: E402

from loopkit.views.widgets._base import View, figure_html, limits_conflict, table_html  # noqa: E402


def render(word, times):
    if times < 0:
        raise ValueError("times must be at least 0, got <-1>")
    return f"<p>{word * times}</p>"


def make_view(**kwargs):
    controls = {"word": W.Text(value="ab"), "times": W.IntText(value=2)}
    return View(controls, render, **kwargs)


def test_view_renders_the_initial_values_at_once():
    view = make_view()
    assert view.values() == {"word": "ab", "times": 2}
    assert view.panel.value == "<p>abab</p>"


def test_every_control_change_rerenders_the_panel():
    view = make_view()
    view.controls["times"].value = 3
    assert view.panel.value == "<p>ababab</p>"
    view.controls["word"].value = "x"
    assert view.panel.value == "<p>xxx</p>"


def test_a_value_error_is_shown_escaped_in_the_panel_and_the_view_recovers():
    view = make_view()
    view.controls["times"].value = -1
    assert view.panel.value == "<pre style='color:#b00'>times must be at least 0, got &lt;-1&gt;</pre>"
    view.controls["times"].value = 1
    assert view.panel.value == "<p>ab</p>"


def test_other_exceptions_are_not_swallowed():
    def broken(word, times):
        raise KeyError("bug")

    with pytest.raises(KeyError):
        View({"word": W.Text(value="a"), "times": W.IntText(value=1)}, broken)


def test_children_are_title_controls_buttons_then_panel():
    button = W.Button(description="go")
    view = make_view(title="A <b> title", buttons=[button])
    header, word, times, row, panel = view.children
    assert header.value == "<b>A &lt;b&gt; title</b>"
    assert (word, times) == (view.controls["word"], view.controls["times"])
    assert row.children == (button,)
    assert panel is view.panel
    bare = make_view()
    assert len(bare.children) == 3 and bare.children[-1] is bare.panel


def test_table_html_columns_order_escaping_and_missing_cells():
    rows = [{"b": 1, "a": "<x>"}, {"a": "y"}]
    assert tables(table_html(rows)) == [[{"b": "1", "a": "<x>"}, {"b": "", "a": "y"}]]
    assert "&lt;x&gt;" in table_html(rows) and "<x>" not in table_html(rows)
    assert tables(table_html(rows, ["a"])) == [[{"a": "<x>"}, {"a": "y"}]]


def test_tables_are_ruled_and_padded_in_the_labs_theme_colours_with_fallbacks():
    out = table_html([{"a": 1, "b": 2}])
    styles = re.findall(r'<(table|th|td) style="([^"]*)"', out)
    assert [tag for tag, _ in styles] == ["table", "th", "th", "td", "td"]  # every heading and cell is styled
    for tag, style in styles:
        colours = re.findall(r"var\((--jp-[a-z0-9-]+), ([^)]+)\)", style)
        assert colours, f"{tag} takes no colour or size from the lab's theme: {style}"
        assert all(fallback.strip() for _, fallback in colours)  # nbviewer has no --jp- variables
    th, td = styles[1][1], styles[3][1]
    assert "padding" in th and "padding" in td  # headings no longer run together
    assert "border-bottom" in th and "--jp-border-color" in td


def test_a_warn_above_its_hard_limit_is_explained_in_the_learners_language(spanish):
    assert limits_conflict(("w", 3, "h", 3), ("fw", 1, "fh", 2)) is None
    out = limits_conflict(("w", 3, "h", 5), ("fw", 7, "fh", 4))
    assert 'data-conflict="fw"' in out and "(7)" in out and "(4)" in out
    assert "está por encima de" in out and "Baja <code>fw</code> a 4 o menos" in out


def test_table_html_of_nothing():
    assert table_html([]) == "<i>(nothing yet)</i>"


def test_figure_html_embeds_a_png_and_closes_the_figure():
    fig, ax = plt.subplots(figsize=(1, 1))
    ax.plot([0, 1], [0, 1])
    before = set(plt.get_fignums())
    out = figure_html(fig, alt='a "line"')
    assert out.startswith('<img alt="a &quot;line&quot;" style="max-width:100%;height:auto" src="data:image/png;base64,')
    assert out.endswith('"/>')  # the width limit keeps a wide figure inside its output area
    png = base64.b64decode(out.split("base64,", 1)[1].rstrip('"/>'))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert fig.number in before and fig.number not in plt.get_fignums()
