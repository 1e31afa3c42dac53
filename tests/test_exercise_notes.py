"""The instructor's notes on every exercise (docs/instructor.md, docs/es/notas-ejercicios.md) are written from the
exercises themselves by tools/exercise_notes.py, and are up to date."""

import importlib.util

from notebook_tools import ROOT

spec = importlib.util.spec_from_file_location("exercise_notes", ROOT / "tools" / "exercise_notes.py")
exercise_notes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(exercise_notes)


def test_the_notes_in_both_guides_are_up_to_date():
    for language, path in exercise_notes.TARGETS.items():
        old, new = exercise_notes.rewritten(path, language)
        assert old == new, f"{path.name} is out of date: run python tools/exercise_notes.py --write"


def test_every_exercise_has_a_note_with_each_of_its_misconceptions():
    from loopkit.teaching.exercises import all_questions

    text = exercise_notes.notes("en")
    for question in all_questions().values():
        assert f"#### {question.qid} · " in text
        for _, why in question.misconceptions:
            assert why is None or exercise_notes._cell(why) in text, (question.qid, why)
        for case in question.cases:
            assert case.idea is None or case.idea in text, (question.qid, case.idea)


def test_the_spanish_notes_are_in_spanish():
    text = exercise_notes.notes("es")
    assert "Respuesta:" in text and "Di primero:" in text and "Answer:" not in text
