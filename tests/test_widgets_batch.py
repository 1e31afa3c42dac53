"""batch_builder: the plain helpers, the render function, and the view driven through its buttons."""

import hashlib
import json

import ipywidgets as W
import pytest

from loopkit.widgets import batch_builder
from loopkit.widgets.batch import DEFAULT_BATCH, duplicate_last, parse_batch, render_batch, shuffle_calls

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


def test_render_shows_entries_sorted_entries_and_fingerprint():
    panel = render_batch(DEFAULT_BATCH, pinned="")
    assert f"Fingerprint: <code><b>{digest(ENTRIES)}</b></code>" in panel
    assert "3 call(s)" in panel and "Nothing pinned" in panel
    assert "bash:{&quot;command&quot;: &quot;pytest -q&quot;}" in panel  # the description field is not in the key
    assert "description&quot;: &quot;run the tests" in panel  # ... but the call as given still shows it
    hashed = panel.split("Sorted entries (what is hashed):", 1)[1]
    assert hashed.index("bash:") < hashed.index("read_file:") < hashed.index("web_search:")


def test_render_marks_raw_text_arguments_and_empty_batches():
    assert "keyed by its raw text" in render_batch("bash [1, 2]")
    assert "keyed by its raw text" not in render_batch('bash {"command": "ls"}')
    assert "The batch is empty" in render_batch("  \n ")


def test_render_compares_with_the_pinned_fingerprint():
    same = render_batch(DEFAULT_BATCH, pinned=digest(ENTRIES))
    other = render_batch(DEFAULT_BATCH, pinned="000000000000")
    assert "<b>same</b> as the pinned" in same
    assert "<b>differs</b> from the pinned fingerprint <code>000000000000</code>" in other


def test_view_controls_and_buttons():
    view = batch_builder()
    assert isinstance(view.controls["batch"], W.Textarea) and isinstance(view.controls["pinned"], W.Text)
    assert set(view.buttons) == {"shuffle", "duplicate", "pin", "reset"}
    assert view.controls["pinned"].value == digest(ENTRIES)
    assert "<b>same</b> as the pinned" in view.panel.value


def test_shuffle_button_reorders_but_keeps_the_fingerprint():
    view = batch_builder()
    before = view.controls["batch"].value
    view.buttons["shuffle"].click()
    assert view.controls["batch"].value != before
    assert f"<b>{digest(ENTRIES)}</b>" in view.panel.value and "<b>same</b> as the pinned" in view.panel.value


def test_duplicate_button_changes_the_fingerprint_then_pin_and_reset():
    view = batch_builder()
    view.buttons["duplicate"].click()
    doubled = ENTRIES + ['web_search:{"query": "python loop detection"}']
    assert "4 call(s)" in view.panel.value and f"<b>{digest(doubled)}</b>" in view.panel.value
    assert "<b>differs</b> from the pinned" in view.panel.value
    view.buttons["pin"].click()
    assert view.controls["pinned"].value == digest(doubled) and "<b>same</b>" in view.panel.value
    view.buttons["shuffle"].click()
    assert "<b>same</b> as the pinned" in view.panel.value
    view.buttons["reset"].click()
    assert view.controls["batch"].value == DEFAULT_BATCH and "<b>differs</b>" in view.panel.value


def test_editing_the_text_updates_the_panel():
    view = batch_builder('write_file {"path": "a.py", "content": "v1"}')
    first = view.controls["pinned"].value
    view.controls["batch"].value = 'write_file {"path": "a.py", "content": "v2"}'
    assert "<b>differs</b>" in view.panel.value  # a changed write is new progress
    view.controls["batch"].value = 'write_file {"content": "v1", "path": "a.py"}'
    assert f"<b>{first}</b>" in view.panel.value  # the same write, keys in another order: a repeat
