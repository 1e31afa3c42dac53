"""The workbook's JavaScript read-bucket model against loopkit's Python one (chapter 02).

Every expected key below is worked out by hand from the two languages' rules, not computed by either model.
"""

import math
import subprocess
import sys
import tomllib
from fnmatch import fnmatch

import pytest
from hypothesis import given
from hypothesis import strategies as st
from notebook_tools import ROOT

from loopkit import stable_key
from loopkit.teaching import js_bucket

# JavaScript numbers are doubles: integers are exact up to 2**53, and so is floor((n - 1) / 200) (the fraction it
# drops is at least 1/200, more than half the spacing of doubles there).
SAFE = 2**53


def python_key(args):
    return stable_key("read_file", args)


@given(
    path=st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
    start=st.none() | st.integers(-SAFE, SAFE),
    end=st.none() | st.integers(-SAFE, SAFE),
)
def test_the_models_agree_on_every_integer_range(path, start, end):
    args = {"path": path}
    if start is not None:  # None here means "the key is missing", which both languages default the same way
        args["start_line"] = start
    if end is not None:
        args["end_line"] = end
    assert js_bucket.js_read_bucket(args) == python_key(args)


@pytest.mark.parametrize(
    "args, javascript, python",
    [
        ({"path": "a.py", "start_line": 1, "end_line": 199}, "a.py:0-0", "a.py:0-0"),
        ({"path": "a.py", "start_line": 200, "end_line": 1}, "a.py:0-0", "a.py:0-0"),
        ({"path": "a.py", "start_line": 201}, "a.py:1-1", "a.py:1-1"),
        ({"path": "a.py"}, "a.py:0-0", "a.py:0-0"),
        ({"path": "a\x00b", "start_line": 1}, "a\x00b:0-0", "a\x00b:0-0"),  # the engine cuts strings at NUL
        ({"path": "a.py", "start_line": "120", "end_line": "260"}, "a.py:0-1", "a.py:0-1"),
        # null is a value in JavaScript: Math.min(450, null) is 0, clamped to 1; Python's None end is the start
        ({"path": "a.py", "start_line": 450, "end_line": None}, "a.py:0-2", "a.py:2-2"),
        ({"path": "a.py", "start_line": None, "end_line": 450}, "a.py:0-2", "a.py:0-2"),
        ({"path": "a.py", "start_line": "ten", "end_line": 450}, "a.py:NaN-NaN", "a.py:0-2"),
        ({"path": "a.py", "start_line": 1, "end_line": "450.5"}, "a.py:0-2", "a.py:0-0"),
        ({"path": "a.py", "start_line": 1, "end_line": "0x200"}, "a.py:0-2", "a.py:0-0"),
        ({"path": "a.py", "start_line": 1, "end_line": "1e3"}, "a.py:0-4", "a.py:0-0"),
        ({"path": "a.py", "start_line": 1, "end_line": math.inf}, "a.py:0-Infinity", "a.py:0-0"),
        ({"path": "a.py", "start_line": -math.inf, "end_line": 5}, "a.py:0-0", "a.py:0-0"),
        ({"start_line": 1, "end_line": 50}, "undefined:0-0", ":0-0"),
        ({"path": None, "start_line": 1, "end_line": 50}, "null:0-0", ":0-0"),
        ({"path": "a.py", "start_line": 10**16, "end_line": 10**16},
         "a.py:50000000000000-50000000000000", "a.py:49999999999999-49999999999999"),
    ],
)
def test_each_listed_case_gives_the_worked_out_keys(args, javascript, python):
    assert js_bucket.js_read_bucket(args) == javascript
    assert python_key(args) == python


def test_the_chapter_cases_are_the_agreements_and_the_explained_disagreements():
    rows = {row["case"]: row for row in js_bucket.compare()}
    disagree = {label for label, row in rows.items() if not row["agree"]}
    assert disagree == {
        "null end", '"ten" start', '"450.5" end', '"0x200" end', '"1e3" end', "Infinity end", "missing path",
        "line 10**16",
    }
    explained = {case.label for case in js_bucket.CASES if case.why}
    assert explained == disagree, "every disagreement, and only a disagreement, has its one-line reason"
    assert rows["Infinity end"]["end"] == "Infinity" and rows["missing path"]["start"] == "1"
    assert rows["null end"]["JavaScript"] == "a.py:0-2" and rows["null end"]["Python"] == "a.py:2-2"


def test_js_literal_keeps_missing_keys_missing_and_writes_what_json_lacks():
    assert js_bucket.js_literal({}) == "{}"
    assert js_bucket.js_literal({"path": "a.py", "end_line": None}) == '{"path": "a.py", "end_line": null}'
    assert js_bucket.js_literal({"a": math.inf, "b": -math.inf, "c": math.nan}) == (
        '{"a": Infinity, "b": -Infinity, "c": NaN}'
    )
    assert js_bucket.js_literal({"path": 'say "hi"\n'}) == '{"path": "say \\"hi\\"\\n"}'


@pytest.mark.parametrize(
    "args, message",
    [
        ([("path", "a.py")], "args must be a mapping of read_file arguments, got list"),
        ({"path": b"a.py"}, "args['path'] must be a str, int, float, bool or None to reach JavaScript, got bytes"),
        ({"start_line": [1, 2]}, "args['start_line'] must be a str, int, float, bool or None"),
        ({1: "a.py"}, "args keys must be str, got 1"),
    ],
)
def test_arguments_javascript_cannot_receive_are_refused_by_name(args, message):
    with pytest.raises(TypeError) as caught:
        js_bucket.js_read_bucket(args)
    assert str(caught.value).startswith(message)


def test_a_missing_engine_is_named_with_how_to_install_it(monkeypatch):
    js_bucket._context.cache_clear()
    monkeypatch.setitem(sys.modules, "quickjs", None)  # makes `import quickjs` fail
    try:
        with pytest.raises(ModuleNotFoundError, match=r"needs the engine quickjs-ng .*pip install quickjs-ng"):
            js_bucket.js_read_bucket({"path": "a.py"})
    finally:
        js_bucket._context.cache_clear()


def test_the_engine_is_imported_only_when_javascript_runs():
    code = (
        "import sys, loopkit, loopkit.teaching.js_bucket as j; before = 'quickjs' in sys.modules; "
        "j.js_read_bucket({'path': 'a.py'}); print(before, 'quickjs' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_the_engine_is_pinned_for_binder_at_the_installed_version():
    pins = (ROOT / "binder" / "requirements.in").read_text().splitlines()  # the direct pin; the lock repeats it
    assert f"{js_bucket.ENGINE}=={js_bucket.engine_version()}" in pins


def test_every_data_file_in_the_package_is_declared_package_data():
    """setuptools puts only .py files into a wheel unless pyproject.toml names the others."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["loopkit"]
    data = [p for p in (ROOT / "loopkit").rglob("*") if p.is_file() and p.suffix not in {".py", ".pyc"}]
    assert any(p.name == "read_bucket.js" for p in data)
    for path in data:
        relative = path.relative_to(ROOT / "loopkit").as_posix()
        assert any(fnmatch(relative, pattern) for pattern in patterns), f"{relative} would be left out of the wheel"
    assert "function readBucket(args)" in js_bucket.js_source()



def test_in_spanish_the_table_and_its_cases_speak_spanish(spanish):
    rows = js_bucket.compare()
    assert list(rows[0]) == ["caso", "inicio", "fin", "JavaScript", "Python", "coinciden"]
    by_case = {row["caso"]: row for row in rows}
    assert by_case["fin null"]["coinciden"] is False and by_case["enteros 1-199"]["coinciden"] is True
    assert by_case['inicio "ten"']["JavaScript"] == "a.py:NaN-NaN"
    null_end = next(case for case in js_bucket.CASES if case.english_label == "null end")
    assert null_end.why == ("JS: Math.min lee null como 0, que se lleva a la línea 1; Python: un fin None toma el "
                            "valor del inicio")
    untranslated = [case.english_label for case in js_bucket.CASES
                    if case.label == case.english_label or case.why == case.english_why != ""]
    assert not untranslated, f"cases shown in English in the Spanish track: {untranslated}"
