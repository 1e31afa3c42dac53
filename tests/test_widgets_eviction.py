"""eviction_race: the render function and the view driven through its script and maxsize controls."""

import ipywidgets as W

from loopkit.widgets import eviction_race
from loopkit.widgets.eviction import DEFAULT_SCRIPT, render_eviction_race


def summary(panel):
    """The summary table's rows as {policy: (keys left, evicted)}."""
    table = panel.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    rows = {}
    for row in table.split("<tr>")[1:]:
        cells = [cell.split("</td>", 1)[0] for cell in row.split("<td>")[1:]]
        rows[cells[0]] = (cells[1], cells[2])
    return rows


def test_default_script_makes_the_three_policies_disagree():
    # Room for two: a, b in; a overwritten; c in; a read; d in.
    assert summary(render_eviction_race(DEFAULT_SCRIPT, 2)) == {
        "BoundedDict (FIFO)": ("c d", "a b"),
        "LRUDict (LRU)": ("a d", "b c"),
        "cachetools.FIFOCache": ("c d", "b a"),
    }


def test_render_shows_every_step():
    panel = render_eviction_race("set a 1; set b 2; set c 3", 2)
    assert "3 operation(s), room for 2 key(s)" in panel
    assert "<td>3</td><td>set c 3</td><td>b c  (evicts a)</td>" in panel
    assert summary(panel)["LRUDict (LRU)"] == ("b c", "a")
    assert summary(render_eviction_race("set a 1", 2))["BoundedDict (FIFO)"] == ("a", "none")


def test_empty_script_says_what_to_write():
    assert "No operations yet" in render_eviction_race("  # nothing\n", 3)


def test_view_contract_script_textarea_and_maxsize_slider():
    view = eviction_race()
    assert isinstance(view.controls["script"], W.Textarea) and isinstance(view.controls["maxsize"], W.IntSlider)
    assert view.controls["script"].value == DEFAULT_SCRIPT and view.controls["maxsize"].value == 2
    assert summary(view.panel.value)["LRUDict (LRU)"] == ("a d", "b c")


def test_changing_the_script_changes_the_panel():
    view = eviction_race()
    view.controls["script"].value = "set x 1; set y 2; get x; set z 3"
    assert summary(view.panel.value) == {
        "BoundedDict (FIFO)": ("y z", "x"),
        "LRUDict (LRU)": ("x z", "y"),
        "cachetools.FIFOCache": ("y z", "x"),
    }


def test_changing_maxsize_changes_the_panel():
    view = eviction_race()
    view.controls["maxsize"].value = 4
    assert summary(view.panel.value)["BoundedDict (FIFO)"] == ("a b c d", "none")
    view.controls["maxsize"].value = 1  # room for one: every new key pushes out the only one
    assert summary(view.panel.value)["LRUDict (LRU)"] == ("d", "a b a c")


def test_a_malformed_line_shows_its_number_and_what_was_expected_not_a_traceback():
    view = eviction_race()
    view.controls["script"].value = "set a 1\nset b\nset c 3"
    panel = view.panel.value
    assert "line 2: expected &quot;set KEY VALUE&quot; (3 words), got &#x27;set b&#x27;" in panel
    assert "Traceback" not in panel and "<table>" not in panel
    view.controls["script"].value = "set a 1; fetch a"
    assert "line 1, operation 2: expected &quot;set KEY VALUE&quot;, &quot;get KEY&quot; or &quot;del KEY&quot;" in (
        view.panel.value
    )
    view.controls["script"].value = "set a 1"
    assert summary(view.panel.value)["BoundedDict (FIFO)"] == ("a", "none")
