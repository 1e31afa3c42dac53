"""batch_builder: the plain helpers, the render function, and the view driven through its buttons."""

import hashlib
import json

import ipywidgets as W
import pytest
from html_tables import as_text, read_view, tables, text

from loopkit.views.widgets import batch_builder
from loopkit.views.widgets.batch import (
    DEFAULT_BATCH,
    duplicate_last,
    parse_batch,
    read_batch,
    render_batch,
    shuffle_calls,
)

ENTRIES = sorted(
    ['read_file:src/app.py:0-0', 'bash:{"command": "pytest -q"}', 'web_search:{"query": "python loop detection"}']
)


def digest(entries):
    return hashlib.md5(json.dumps(sorted(entries)).encode()).hexdigest()[:12]


def test_parse_batch_keeps_raw_json_text_like_an_openai_style_provider():
    assert parse_batch('bash {"command": "ls"}\n\n  noop  \nx not json') == [
        {"name": "bash", "args": '{"command": "ls"}'},
        {"name": "noop", "args": {}},
        {"name": "x", "args": "not json"},
    ]
    with pytest.raises(TypeError, match="batch must be a str"):
        parse_batch(None)


def test_shuffle_keeps_the_calls_and_changes_the_order():
    text = "a 1\nb 2\nc 3"
    for seed in range(20):
        shuffled = shuffle_calls(text, seed)
        assert shuffled != text and sorted(shuffled.splitlines()) == ["a 1", "b 2", "c 3"]
    assert shuffle_calls(text, 7) == shuffle_calls(text, 7)
    assert shuffle_calls("a\na", 3) == "a\na"  # nothing to reorder


def test_duplicate_last():
    assert duplicate_last("a\n\nb\n") == "a\nb\nb"
    assert duplicate_last("") == ""


def test_reading_gives_each_entry_the_sorted_entries_and_the_fingerprint():
    reading = read_batch(DEFAULT_BATCH, pinned="")
    assert reading.fingerprint == digest(ENTRIES) and reading.hashed == ENTRIES and reading.pinned == "none"
    assert [row["#"] for row in reading.rows] == [1, 2, 3]
    bash = reading.rows[1]
    assert bash["entry"] == 'bash:{"command": "pytest -q"}'  # the description field is not in the key
    assert bash["call"] == 'bash {"command": "pytest -q", "description": "run the tests"}'  # ... the call keeps it


def test_reading_marks_raw_text_arguments_and_empty_batches():
    assert read_batch("bash [1, 2]").rows[0]["note"] == "keyed by its raw text (not a JSON object)"
    assert read_batch('bash {"command": "ls"}').rows[0]["note"] == ""
    assert read_batch("  \n ") is None


def test_reading_compares_with_the_pinned_fingerprint():
    assert read_batch(DEFAULT_BATCH, pinned=f"  {digest(ENTRIES)} ").pinned == "same"
    assert read_batch(DEFAULT_BATCH, pinned="000000000000").pinned == "differs"


def test_the_panel_shows_the_reading():
    panel = render_batch(DEFAULT_BATCH + '\nx {"a": "<b>"}', pinned="000000000000")
    reading = read_batch(DEFAULT_BATCH + '\nx {"a": "<b>"}', pinned="000000000000")
    assert tables(panel) == [as_text(reading.rows)]  # escaped: the <b> in an argument is text, not markup
    shown = text(panel)
    assert f"4 call(s). Fingerprint: {reading.fingerprint}, differs from the pinned fingerprint 000000000000" in shown
    assert shown.endswith("Sorted entries (what is hashed): " + " ".join(reading.hashed))
    assert "The batch is empty" in text(render_batch(""))


def reading(view):
    """What the view's plain function reads from its current controls; the panel must show exactly that."""
    return read_view(view, render_batch, read_batch)


def test_view_controls_and_buttons():
    view = batch_builder()
    assert isinstance(view.controls["batch"], W.Textarea) and isinstance(view.controls["pinned"], W.Text)
    assert set(view.buttons) == {"shuffle", "duplicate", "pin", "reset"}
    assert view.controls["pinned"].value == digest(ENTRIES)
    assert reading(view).pinned == "same"


def test_shuffle_button_reorders_but_keeps_the_fingerprint():
    view = batch_builder()
    before = view.controls["batch"].value
    view.buttons["shuffle"].click()
    assert view.controls["batch"].value != before
    assert reading(view).fingerprint == digest(ENTRIES) and reading(view).pinned == "same"


def test_duplicate_button_changes_the_fingerprint_then_pin_and_reset():
    view = batch_builder()
    view.buttons["duplicate"].click()
    doubled = ENTRIES + ['web_search:{"query": "python loop detection"}']
    assert len(reading(view).rows) == 4 and reading(view).fingerprint == digest(doubled)
    assert reading(view).pinned == "differs"
    view.buttons["pin"].click()
    assert view.controls["pinned"].value == digest(doubled) and reading(view).pinned == "same"
    view.buttons["shuffle"].click()
    assert reading(view).pinned == "same"
    view.buttons["reset"].click()
    assert view.controls["batch"].value == DEFAULT_BATCH and reading(view).pinned == "differs"


def test_editing_the_text_updates_the_panel():
    view = batch_builder('write_file {"path": "a.py", "content": "v1"}')
    first = view.controls["pinned"].value
    view.controls["batch"].value = 'write_file {"path": "a.py", "content": "v2"}'
    assert reading(view).pinned == "differs"  # a changed write is new progress
    view.controls["batch"].value = 'write_file {"content": "v1", "path": "a.py"}'
    assert reading(view).fingerprint == first  # the same write, keys in another order: a repeat



def test_the_builder_speaks_spanish(spanish):
    panel = render_batch(DEFAULT_BATCH + "\nbash [1, 2]", pinned="000000000000")
    shown = text(panel)
    assert "4 llamada(s). Huella: " in shown and "distinta de la huella fijada 000000000000" in shown
    assert shown.endswith("Entradas ordenadas (lo que entra en el hash): " + " ".join(read_batch(
        DEFAULT_BATCH + "\nbash [1, 2]").hashed))
    rows = tables(panel)[0]
    assert list(rows[0]) == ["#", "llamada", "entrada", "nota"]
    assert rows[3]["nota"] == "su clave es el texto tal cual (no es un objeto JSON)"
    assert "igual que la huella fijada" in text(render_batch(DEFAULT_BATCH, pinned=digest(ENTRIES)))
    assert "No hay nada fijado: pulsa Fijar huella" in text(render_batch(DEFAULT_BATCH))
    assert text(render_batch("")).startswith('El lote está vacío: escribe una llamada por línea, p. ej. bash {"command"')
    view = batch_builder()
    assert view.children[0].value == "<b>Constructor de lotes: el orden no cuenta, las repeticiones sí</b>"
    assert [view.controls[name].description for name in ("batch", "pinned")] == ["lote", "fijada"]
    assert [button.description for button in view.buttons.values()] == [
        "Barajar llamadas", "Duplicar la última", "Fijar huella", "Restablecer"]
