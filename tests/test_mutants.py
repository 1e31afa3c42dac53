"""The mutation harness's data (tools/mutants.toml) still fits the code, so it cannot rot silently.

The harness itself (``tools/mutants.py``) is run by hand, since it takes minutes; this only checks what it reads:
every mutant's original snippet occurs exactly once in its file (a refactor that moves or rewrites the code shows up
here, and the mutant is refreshed), its mutation changes something, and the tests it names exist.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest
from notebook_tools import ROOT


def _harness():
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "tools" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("mutants", module)
    spec.loader.exec_module(module)
    return module


mutants = _harness()


def test_every_mutant_names_a_snippet_that_occurs_exactly_once_and_tests_that_exist():
    found = mutants.problems(mutants.load())
    assert not found, ("tools/mutants.toml no longer fits the code; refresh these mutants (copy the current snippet, "
                       "re-apply the bug) and run `.venv/bin/python tools/mutants.py --only ID`:\n" + "\n".join(found))


def test_the_data_has_enough_live_mutants_on_every_floor():
    live = [m for m in mutants.load() if m.equivalent is None]
    assert len(live) >= 80
    assert {m.floor for m in live} >= {"core", "traces", "teaching", "views", "cli"}


def test_the_teaching_floor_has_mutants_in_each_of_its_parts():
    """Issue 32: the largest floor had 7 mutants, none on these parts. Each part has some now, live or equivalent with
    the reason no test could tell it apart."""
    teaching = [m for m in mutants.load() if m.floor == "teaching"]
    assert len(teaching) >= 37
    parts = ("boundaries/", "exercises/", "uploads.py", "collisions.py", "eviction_race.py", "js_bucket.py",
             "read_bucket.js", "room.py")
    for part in parts:
        assert any(m.file.startswith(f"loopkit/teaching/{part}") for m in teaching), f"no mutant on teaching/{part}"
    for m in teaching:
        assert m.equivalent is None or len(m.equivalent.split()) >= 8, f"{m.id}: say why no test could see it"


def test_the_data_check_may_not_kill_a_mutant(tmp_path):
    """tests/test_mutants.py fails for every mutant (the snippet is gone while it runs); naming it would count a
    mutant as killed that no behaviour test sees."""
    (tmp_path / "loopkit").mkdir()
    (tmp_path / "loopkit" / "m.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_mutants.py").write_text("def test_data():\n    pass\n", encoding="utf-8")
    named = mutants.Mutant("named", "loopkit/m.py", "x = 1", "x = 2", "bug", ("tests/test_mutants.py",))
    assert mutants.problems([named], root=tmp_path) == [
        "named: tests/test_mutants.py checks this data, not loopkit's behaviour: it fails for every mutant (the "
        "snippet is gone while it runs), so it may not be what kills one"]


def test_a_snippet_found_twice_or_missing_is_reported(tmp_path):
    (tmp_path / "loopkit").mkdir()
    (tmp_path / "loopkit" / "m.py").write_text("x = 1\nx = 1\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_m.py").write_text("def test_m():\n    pass\n", encoding="utf-8")
    twice = mutants.Mutant("twice", "loopkit/m.py", "x = 1", "x = 2", "bug", ("tests/test_m.py",))
    absent = mutants.Mutant("absent", "loopkit/m.py", "y = 1", "y = 2", "bug", ("tests/test_m.py::test_n",))
    same = mutants.Mutant("same", "loopkit/m.py", "x = 1\nx", "x = 1\nx", "bug", ("tests/test_gone.py",))
    found = mutants.problems([twice, absent, same], root=tmp_path)
    assert found == [
        "twice: its original snippet occurs 2 times in loopkit/m.py, not once",
        "absent: its original snippet occurs 0 times in loopkit/m.py, not once",
        "absent: tests/test_m.py has no test test_n",
        "same: the mutated snippet is the original",
        "same: test file tests/test_gone.py does not exist",
    ]


@pytest.mark.parametrize("field", ["bug", "tests"])
def test_an_entry_without_its_bug_or_tests_is_refused(tmp_path, field):
    entry = {"id": "x", "file": "loopkit/m.py", "original": "a", "mutated": "b", "bug": "a bug", "tests": ["t.py"]}
    del entry[field]
    lines = ["[[mutant]]"] + [f"{key} = {value!r}".replace("'", '"') for key, value in entry.items()]
    data = tmp_path / "mutants.toml"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"mutant 1 \(x\): missing \['{field}'\]"):
        mutants.load(data)
