"""eviction_race: the rows its plain functions build, the panel that shows them, and the view driven through its
script and maxsize controls."""

import ipywidgets as W
import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.teaching.eviction_race import step_rows
from loopkit.views.widgets import eviction_race
from loopkit.views.widgets.eviction import DEFAULT_SCRIPT, race_summary, render_eviction_race


def outcome(script, maxsize):
    """The summary rows as {policy: (keys left, evicted)}."""
    return {row["policy"]: (row["keys left (next to evict first)"], row["evicted, in order"])
            for row in race_summary(script, maxsize)}


def test_default_script_makes_the_three_policies_disagree():
    # Room for two: a, b in; a overwritten; c in; a read; d in.
    assert outcome(DEFAULT_SCRIPT, 2) == {
        "BoundedDict (FIFO)": ("c d", "a b"),
        "LRUDict (LRU)": ("a d", "b c"),
        "cachetools.FIFOCache": ("c d", "b a"),
    }


def test_the_summary_says_when_nothing_was_evicted_or_nothing_is_left():
    assert outcome("set a 1", 2)["BoundedDict (FIFO)"] == ("a", "none")
    assert outcome("set a 1; del a", 2)["LRUDict (LRU)"] == ("-", "none")  # a removal is not an eviction


def test_the_panel_shows_the_summary_then_every_step():
    script = "set a 1; set b 2; set <c> 3"
    panel = render_eviction_race(script, 2)
    assert text(panel).startswith("3 operation(s), room for 2 key(s).")
    assert tables(panel) == [as_text(race_summary(script, 2)), as_text(step_rows(script, 2))]


def test_empty_script_says_what_to_write():
    assert text(render_eviction_race("  # nothing\n", 3)).startswith("No operations yet")


def shown(view):
    """The summary for the view's current controls; the panel must show exactly what the plain functions build."""
    return read_view(view, render_eviction_race, outcome)


def test_view_contract_script_textarea_and_maxsize_number_box():
    view = eviction_race()
    assert isinstance(view.controls["script"], W.Textarea) and isinstance(view.controls["maxsize"], W.BoundedIntText)
    assert view.controls["script"].value == DEFAULT_SCRIPT and view.controls["maxsize"].value == 2
    assert shown(view)["LRUDict (LRU)"] == ("a d", "b c")


def test_changing_the_script_changes_the_panel():
    view = eviction_race()
    view.controls["script"].value = "set x 1; set y 2; get x; set z 3"
    assert shown(view) == {
        "BoundedDict (FIFO)": ("y z", "x"),
        "LRUDict (LRU)": ("x z", "y"),
        "cachetools.FIFOCache": ("y z", "x"),
    }


def test_changing_maxsize_changes_the_panel():
    view = eviction_race()
    view.controls["maxsize"].value = 4
    assert shown(view)["BoundedDict (FIFO)"] == ("a b c d", "none")
    view.controls["maxsize"].value = 1  # room for one: every new key pushes out the only one
    assert shown(view)["LRUDict (LRU)"] == ("d", "a b a c")


def test_a_malformed_line_shows_its_number_and_what_was_expected_not_a_traceback():
    view = eviction_race()
    view.controls["script"].value = "set a 1\nset b\nset c 3"
    assert text(view.panel.value) == "line 2: expected \"set KEY VALUE\" (3 words), got 'set b'"
    with pytest.raises(ValueError, match="line 2: expected"):
        render_eviction_race(**view.values())
    view.controls["script"].value = "set a 1; fetch a"
    assert text(view.panel.value).startswith(
        'line 1, operation 2: expected "set KEY VALUE", "get KEY" or "del KEY"')
    view.controls["script"].value = "set a 1"
    assert shown(view)["BoundedDict (FIFO)"] == ("a", "none")



def test_the_race_speaks_spanish(spanish):
    script = "set a 1; set b 2; set c 3"
    panel = render_eviction_race(script, 3)
    assert text(panel).startswith("3 operación(es), espacio para 3 clave(s).")
    assert "Después de cada operación" in text(panel)
    summary, steps = tables(panel)
    assert summary[0] == {"política": "BoundedDict (FIFO)", "claves que quedan (en orden de expulsión)": "a b c",
                          "expulsadas, en orden": "ninguna"}
    assert list(steps[0]) == ["#", "operación", "BoundedDict (FIFO)", "LRUDict (LRU)", "cachetools.FIFOCache"]
    assert tables(render_eviction_race(script, 2))[1][-1]["LRUDict (LRU)"] == "b c  (expulsa a)"
    assert text(render_eviction_race("", 2)).startswith("Todavía no hay operaciones: escribe una por línea")
    view = eviction_race()
    assert view.children[0].value == "<b>Carrera de expulsión: FIFO frente a LRU frente a cachetools.FIFOCache</b>"
    assert view.controls["script"].description == "guion" and view.controls["maxsize"].description == "maxsize"


def test_a_malformed_line_is_named_in_english_in_both_tracks(spanish):
    """loopkit's error messages stay English, so a learner can search for them (loopkit/core/language.py)."""
    view = eviction_race()
    view.controls["script"].value = "set a 1\nput b 2"
    assert text(view.panel.value).startswith('line 2: expected "set KEY VALUE", "get KEY" or "del KEY"')
