"""Chapter 01's normalize_explorer: the plain step-by-step function, then the view driven through its controls."""

import pytest
from html_tables import read_view, tables, text

from loopkit.views import widgets
from loopkit.views.widgets.normalization import TRANSPORTS, explain_args, raw_value, render_normalize, rule

STRING, OBJECT, NONE = TRANSPORTS


def test_raw_value_per_transport():
    assert raw_value('{"b": 2, "a": 1}', STRING) == '{"b": 2, "a": 1}'
    assert raw_value('{"b": 2, "a": 1}', OBJECT) == {"b": 2, "a": 1}
    assert raw_value("[1, 2]", OBJECT) == [1, 2]
    assert raw_value("anything", NONE) is None


def test_raw_value_explains_bad_input():
    with pytest.raises(ValueError, match="text: a parsed object needs text that parses as JSON"):
        raw_value("{oops", OBJECT)
    with pytest.raises(ValueError, match="transport must be one of"):
        raw_value("{}", "carrier pigeon")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ({"a": 1}, "a dict: used as it is"),
        ('{"a": 1}', "a JSON string holding an object: parsed into a dict"),
        ("[1]", "a JSON string holding an array: re-serialized into the fallback"),
        ("null", "a JSON string holding null: re-serialized into the fallback"),
        ("{oops", "a string that is not JSON: the text itself is the fallback"),
        ("", "a string that is not JSON: the text itself is the fallback"),
        (None, "None: no arguments, no fallback"),
        (7, "a value of type int: serialized into the fallback"),
        ('"x"', "a JSON string holding a string: re-serialized into the fallback"),
        ("2.5", "a JSON string holding a number: re-serialized into the fallback"),
    ],
)
def test_rule_names_the_branch(raw, expected):
    assert rule(raw) == expected


def test_explain_args_for_each_transport_of_the_same_text():
    text = '{"start_line": 1, "path": "a.py"}'
    as_string = explain_args("read_file", text, STRING)
    as_object = explain_args("read_file", text, OBJECT)
    assert as_string["args"] == as_object["args"] == "{'start_line': 1, 'path': 'a.py'}"
    assert as_string["fallback"] == as_object["fallback"] == "None"
    assert as_string["stable key"] == as_object["stable key"] == "a.py:0-0"
    assert as_string["entry"] == "read_file:a.py:0-0"
    assert as_string["fingerprint"] == as_object["fingerprint"]
    assert len(as_string["fingerprint"]) == 12
    none = explain_args("read_file", text, NONE)
    assert none["raw"] == "None" and none["args"] == "{}" and none["stable key"] == ":0-0"
    assert none["fingerprint"] != as_string["fingerprint"]


def test_explain_args_keys_broken_text_by_the_text_itself():
    steps = explain_args("read_file", '{"path": "a.py"', STRING)
    assert steps["args"] == "{}"
    assert steps["fallback"] == "'{\"path\": \"a.py\"'"
    assert steps["stable key"] == '{"path": "a.py"'
    assert steps["entry"] == 'read_file:{"path": "a.py"'


def test_the_panel_shows_every_step_as_a_row():
    panel = render_normalize("bash", '{"command": "ls <dir>"}', STRING)
    steps = explain_args("bash", '{"command": "ls <dir>"}', STRING)
    assert tables(panel) == [[{"step": step, "value": value} for step, value in steps.items()]]
    assert steps["stable key"] == '{"command": "ls <dir>"}'  # shown as text, not as markup


def steps(view):
    """The steps for the view's current controls; the panel must show exactly what explain_args builds."""
    return read_view(view, render_normalize, explain_args)


def test_view_updates_from_every_control():
    view = widgets.normalize_explorer()
    assert set(view.controls) == {"name", "text", "transport"}
    assert steps(view)["stable key"] == "a.py:0-0"
    view.controls["text"].value = '{"path": "a.py", "start_line": 250}'
    assert steps(view)["stable key"] == "a.py:1-1"
    view.controls["name"].value = "bash"
    assert steps(view)["stable key"] == '{"path": "a.py"}'
    view.controls["text"].value = "{oops"
    view.controls["transport"].value = OBJECT
    with pytest.raises(ValueError, match="parses as JSON"):
        explain_args(**view.values())
    assert "parses as JSON" in text(view.panel.value)
    view.controls["transport"].value = NONE
    assert steps(view)["rule"].startswith("None: no arguments, no fallback")



def test_in_spanish_the_panel_names_the_steps_and_the_rule_in_spanish(spanish):
    panel = render_normalize("read_file", "[1,2]", STRING)
    assert tables(panel) == [[
        {"paso": "valor recibido", "valor": "'[1,2]'"},
        {"paso": "regla", "valor": "una cadena JSON con un array: se vuelve a serializar como fallback"},
        {"paso": "args", "valor": "{}"},
        {"paso": "fallback", "valor": "'[1, 2]'"},
        {"paso": "clave estable", "valor": "[1, 2]"},
        {"paso": "entrada", "valor": "read_file:[1, 2]"},
        {"paso": "huella", "valor": "c861763ddbb3"},
    ]]
    assert rule({"a": 1}) == "un dict: se usa tal cual"
    assert rule(7) == "un valor de tipo int: se serializa como fallback"


def test_in_spanish_the_dropdown_shows_spanish_names_but_keeps_the_english_values(spanish):
    view = widgets.normalize_explorer()
    transport = view.controls["transport"]
    assert [label for label, _ in transport.options] == [
        "cadena JSON (estilo OpenAI)", "objeto ya analizado (estilo Anthropic)", "None (sin argumentos)"]
    assert [value for _, value in transport.options] == list(TRANSPORTS)
    assert [view.controls[name].description for name in ("name", "text", "transport")] == [
        "herramienta", "argumentos", "enviado como"]
    transport.value = NONE
    assert steps(view)["stable key"] == ":0-0"
    assert {"paso": "regla", "valor": "None: sin argumentos y sin fallback"} in tables(view.panel.value)[0]
