"""The instructor's notes on every exercise (docs/exercise-notes.md, docs/es/notas-por-ejercicio.md, files of their own
beside the guides) are written from the exercises themselves by tools/exercise_notes.py, and are up to date."""

import importlib.util
import re

from notebook_tools import ROOT

spec = importlib.util.spec_from_file_location("exercise_notes", ROOT / "tools" / "exercise_notes.py")
exercise_notes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(exercise_notes)


def test_both_notes_files_are_up_to_date():
    for language, path in exercise_notes.TARGETS.items():
        old, new = exercise_notes.rewritten(path, language)
        assert old == new, f"{path.name} is out of date: run python tools/exercise_notes.py --write"


def test_the_guides_link_to_the_notes_and_hold_none_of_them():
    for guide, notes_file in ((ROOT / "docs" / "instructor.md", "exercise-notes.md"),
                              (ROOT / "docs" / "es" / "notas-ejercicios.md", "notas-por-ejercicio.md")):
        text = guide.read_text(encoding="utf-8")
        assert f"]({notes_file}" in text, f"{guide.name} does not link to {notes_file}"
        assert not re.search(r"^#+ \d+\.\d+ · ", text, re.M), f"{guide.name} holds per-exercise notes"


def test_every_exercise_has_a_note_with_each_of_its_misconceptions():
    from loopkit.teaching.exercises import all_questions

    text = exercise_notes.notes("en")
    for question in all_questions().values():
        assert f"### {question.qid} · " in text
        for _, why in question.misconceptions:
            assert why is None or exercise_notes._cell(why) in text, (question.qid, why)
        for case in question.cases:
            assert case.idea is None or case.idea in text, (question.qid, case.idea)


def test_the_spanish_notes_are_in_spanish():
    text = exercise_notes.notes("es")
    assert "Respuesta:" in text and "Di primero:" in text and "Answer:" not in text


# --- the notes on the exercises the plans run live ------------------------------------------------------------

import sys  # noqa: E402

import pytest  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import plans  # noqa: E402

from loopkit.core.language import set_language, tr  # noqa: E402
from loopkit.teaching.exercises import all_questions  # noqa: E402


def test_the_live_exercises_are_the_ones_the_plans_run_live():
    named = [qid for plan in plans.PLANS for slot in plan.slots for qid in slot.live]
    live = exercise_notes.live_exercises()
    assert live and set(live) == set(named)
    assert live == sorted(live, key=lambda qid: tuple(map(int, qid.split(".")))), "in chapter order"
    for language in ("en", "es"):
        headings = re.findall(r"^### (\d+\.\d+) · ", exercise_notes.live_notes(language), re.M)
        assert headings == live


def test_every_exercise_a_plan_runs_live_has_a_response_to_each_of_its_wrong_answers():
    questions = all_questions()
    for qid in exercise_notes.live_exercises():
        question = questions[qid]
        missing = [answer for answer, why in question.misconceptions if why and question.response_to(answer) is None]
        assert not missing, f"exercise {qid} is run live but has no response to {missing}"


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_live_wrong_answer_is_one_row_with_what_it_reveals_and_what_to_say(language):
    text = exercise_notes.live_notes(language)
    questions = all_questions()
    set_language(language)
    try:
        for qid in exercise_notes.live_exercises():
            question = questions[qid]
            for answer, why in question.misconceptions:
                row = (f"| {exercise_notes._cell(exercise_notes._code(answer))} | {exercise_notes._cell(tr(why))} | "
                       f"{exercise_notes._cell(tr(question.response_to(answer)))} |")
                assert row in text.splitlines(), (qid, answer)
    finally:
        set_language("en")


def test_a_plan_that_runs_an_exercise_without_responses_cannot_be_written(monkeypatch):
    questions = all_questions()
    unanswered = next(qid for qid, q in questions.items()
                      if q.kind != "function" and not q.responses and qid not in exercise_notes.live_exercises())
    slot = plans.chapter("05", live=(unanswered,))
    monkeypatch.setattr(plans, "PLANS", plans.PLANS + (plans.Plan("test", 30, (), (slot,)),))
    with pytest.raises(ValueError, match=rf"exercise {re.escape(unanswered)} is run live in the test plan but has "
                                         r"no response to"):
        exercise_notes.live_notes("en")


def test_each_notes_file_holds_the_live_notes_then_every_exercise():
    for language, path in exercise_notes.TARGETS.items():
        text = path.read_text(encoding="utf-8")
        live, every = exercise_notes.PAGE[language]["live"], exercise_notes.PAGE[language]["every"]
        assert text.index(live) < text.index(every), path.name
        assert exercise_notes.live_notes(language).strip() in text.split(every)[0], path.name
