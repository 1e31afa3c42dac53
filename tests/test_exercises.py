"""Every exercise: its solution passes its own check, its listed wrong answers fail, and a blank is 'not answered'."""

import pytest

from loopkit.teaching.exercises import KINDS, Question, ____, all_questions, as_tuple, equals, function_cases

QUESTIONS = all_questions()


def test_questions_are_registered():
    assert QUESTIONS, "no chapter defines exercises yet"


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_solution_passes(qid):
    verdict = QUESTIONS[qid].verify(QUESTIONS[qid].solution_value)
    assert verdict.ok, verdict.explanation


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_wrong_answers_fail(qid):
    q = QUESTIONS[qid]
    for wrong in q.wrong_answers:
        verdict = q.verify(wrong)
        assert verdict.status == "incorrect", f"{qid} accepted the wrong answer {wrong!r}"


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_blank_is_not_answered_and_hint_and_solution_print(qid, capsys):
    q = QUESTIONS[qid]
    q.check(____)
    q.check()
    q.hint()
    q.solution()
    lines = capsys.readouterr().out.splitlines()
    expected = f"Exercise {qid} is not answered yet: replace ____ with your answer, then run the cell."
    assert lines[:2] == [expected, expected]
    assert lines[2].startswith(f"Hint ({qid}): ") and len(lines[2]) > 20
    assert lines[3] == f"Solution ({qid}):" and len(lines) > 4


def _demo(checker=None, solution=3, wrong=None, kind="value"):
    wrong = {4: "Four is what you get when you count the fence posts, not the gaps."} if wrong is None else wrong
    return Question("test.1", "demo", kind=kind, checker=checker or equals(3, why="three it is"), solution=solution,
                    hint="h", wrong=wrong)


def test_check_prints_verdict_and_the_misconception_behind_a_known_wrong_answer(capsys):
    q = _demo()
    q.check(3)
    q.check(4)
    q.check(5)
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == [
        "Correct! (Exercise test.1)",
        "three it is",
        "Not yet (Exercise test.1). Try again, or ask for a hint.",
        "Four is what you get when you count the fence posts, not the gaps.",
    ]
    assert out[4] == out[2] and out[5].startswith("Your answer 5 is not the expected value, nor one of the usual slips")


def test_misconceptions_are_found_after_normalizing():
    q = _demo(checker=equals(("a", "b"), why="", normalize=as_tuple), solution=("a", "b"),
              wrong={("b", "a"): "Order matters here."})
    assert q.verify(["b", "a"]).explanation == "Order matters here."
    assert q.verify(["a", "b"]).ok


def test_function_checks_run_cases_and_report_the_failing_input():
    def double(x):
        return 2 * x

    q = _demo(checker=function_cases([((1,), 2), ((5,), 10)], why="doubling works"), solution=double,
              wrong=[lambda x: x + 1], kind="function")
    assert q.verify(double).ok
    assert "For input (5) it returned 6, expected 10" in q.verify(lambda x: x + 1).explanation
    assert "raised ZeroDivisionError" in q.verify(lambda x: 1 / 0).explanation
    assert "wants a function" in q.verify(7).explanation
    assert q.verify(lambda x: ____).status == "unanswered"


def test_a_question_needs_a_kind_and_a_wrong_answer():
    with pytest.raises(ValueError, match="at least one wrong answer"):
        _demo(wrong={})
    with pytest.raises(ValueError, match="kind must be one of value, prediction, function"):
        _demo(kind="guess")


def test_an_instructor_response_answers_a_listed_wrong_answer_in_one_line():
    fence = "Four is what you get when you count the fence posts, not the gaps."
    response = "Draw three gaps between four posts on the board, and count the gaps."
    q = Question("test.2", "demo", kind="value", checker=equals(3, why="three it is"), solution=3, hint="h",
                 wrong={4: fence, 2: "Two is one gap short."}, responses={4: response})
    assert q.response_to(4) == response and q.response_to(2) is None
    assert response in q.texts(), "a response is translated like every other text of the question"
    with pytest.raises(ValueError, match=r"exercise test\.3: a response to 5, which is not one of its wrong answers"):
        Question("test.3", "demo", kind="value", checker=equals(3, why=""), solution=3, hint="h", wrong={4: fence},
                 responses={5: response})
    for bad in ("", "two\nlines"):
        with pytest.raises(ValueError, match=r"exercise test\.4: the response to 4 must be one line of text"):
            Question("test.4", "demo", kind="value", checker=equals(3, why=""), solution=3, hint="h",
                     wrong={4: fence}, responses={4: bad})


def test_every_question_says_what_kind_it_is():
    assert {q.kind for q in QUESTIONS.values()} <= set(KINDS)


def test_question_ids_are_unique_across_chapters(monkeypatch):
    import types

    import loopkit.teaching.exercises as exercises

    first = types.SimpleNamespace(__name__="ch98", QUESTIONS=(_demo(),))
    second = types.SimpleNamespace(__name__="ch99", QUESTIONS=(_demo(),))
    monkeypatch.setattr(exercises, "chapter_modules", lambda: [first, second])
    with pytest.raises(ValueError, match="'test.1' is defined twice"):
        exercises.all_questions()


# --- one answer, many spellings ---------------------------------------------------------------------------------

from loopkit.teaching.exercises import Case, is_distinctive, letter_set, printed_forms, standard_form  # noqa: E402


@pytest.mark.parametrize("typed, like, meant", [
    ("  src/app.py:0-1 ", "src/app.py:0-1", "src/app.py:0-1"),
    ("'src/app.py:0-1'", "src/app.py:0-1", "src/app.py:0-1"),
    ('"a  b\n c"', "a b c", "a b c"),
    ("201", 201, 201),
    (" -3 ", -3, -3),
    ("201", "201", "201"),            # text asked for: the digits stay text
    (["ok", "warn"], ("ok", "warn"), ("ok", "warn")),
    (["b", "a"], {"a", "b"}, frozenset({"a", "b"})),
    (("40", "20"), (40, 20), (40, 20)),
])
def test_standard_form_makes_the_usual_spellings_of_one_answer_equal(typed, like, meant):
    assert standard_form(typed, like) == standard_form(meant, like)


def test_standard_form_keeps_what_makes_answers_different():
    assert standard_form("ab", "ab") != standard_form("a b", "ab")
    assert standard_form(("warn", "ok"), ("ok", "warn")) != standard_form(("ok", "warn"), ("ok", "warn"))
    assert standard_form("2O1", 201) == "2O1"                    # not a number: stays text, and is wrong
    unordered = [standard_form(x, ordered=False) for x in (["a", "b", "b"], ["b", "a", "b"], ["a", "b"])]
    assert unordered[0] == unordered[1] != unordered[2]          # order is free, multiplicity is not


def test_equals_accepts_a_right_answer_written_another_way_and_still_finds_misconceptions():
    q = _demo(checker=equals(("ok", "warn"), why="right"), solution=("ok", "warn"),
              wrong={("warn", "ok"): "The order is the point here."})
    assert q.verify(["ok", " warn "]).ok and q.verify(("ok", "warn")).ok
    assert q.verify(["warn", "ok"]).explanation == "The order is the point here."
    unordered = _demo(checker=equals(("b", "a"), why="right", ordered=False), solution=("b", "a"), wrong={("a",): "x"})
    assert unordered.verify(["a", "b"]).ok and not unordered.verify(["a", "a"]).ok


def test_a_plain_wrong_answer_hears_what_kind_of_answer_is_wanted():
    q = _demo()
    assert q.verify("three").explanation == "Your answer 'three' is text, but this exercise asks for a number."
    pair = _demo(checker=equals(("ok", "warn"), why="w"), solution=("ok", "warn"), wrong={("ok",): "x"})
    assert pair.verify(["ok", "warn", "stop"]).explanation == (
        "Your answer lists 3, and the answer lists 2: count again.")
    assert pair.verify(("warn", "stop")).explanation.startswith("Your answer ('warn', 'stop') is not the expected")


def test_a_failing_function_hears_the_idea_of_the_input_it_got_wrong():
    def bucket(line):
        return (max(line, 1) - 1) // 200

    checker = function_cases([Case((1,), 0, "line 1 is the first line of bucket 0"),
                              Case((200,), 0, "line 200 is the last line of bucket 0")], why="w")
    q = _demo(checker=checker, solution=bucket, wrong=[lambda line: line // 200], kind="function")
    explanation = q.verify(lambda line: line // 200).explanation
    assert explanation == ("For input (200) it returned 1, expected 0. "
                           "That input tests this: line 200 is the last line of bucket 0")
    assert q.verify(bucket).ok and "line 1 is the first line of bucket 0" in q.texts()
    assert [case.idea for case in q.cases] == ["line 1 is the first line of bucket 0",
                                               "line 200 is the last line of bucket 0"]


def test_printed_forms_and_distinctive_answers():
    assert {"A, D", "D, A", "{'A', 'D'}", "['D', 'A']"} <= set(printed_forms({"A", "D"}))
    assert "ok -> warn -> stop" in printed_forms(("ok", "warn", "stop"))
    assert [is_distinctive(v) for v in (9, 10, "y", "bc", "abc", (40, 20), ("ok", "warn"), True, None)] == [
        False, True, False, False, True, False, True, False, False]


def test_a_reveal_pattern_shows_only_its_answer():
    q = Question("t.2", "t", kind="prediction", checker=equals(3, why="w"), solution=3, hint="h",
                 wrong={4: "x"}, reveal=r"^repeats: {answer}$")
    assert q.shown_in("turn 1\nrepeats: 3\n") and not q.shown_in("repeats: 3 of 4") and not q.shown_in("3")
    assert q.shown_in("repeats: 4", 4) and not q.shown_in("repeats: 4")
    with pytest.raises(ValueError, match="reveal must contain"):
        Question("t.3", "t", kind="prediction", checker=equals(3, why="w"), solution=3, hint="h", wrong={4: "x"},
                 reveal="repeats: 3")


def test_a_sequence_typed_as_one_string_is_read_item_by_item():
    assert standard_form("ok, warn", ("ok", "warn")) == ("ok", "warn")
    assert standard_form("(40, 20)", (40, 20)) == standard_form("40 20", (40, 20)) == (40, 20)
    assert standard_form("B, C", {"B", "C"}) == frozenset({"B", "C"})
    assert standard_form("set p 3, get p", ("set p 3", "get p")) == ("set p 3", "get p")
    assert standard_form("set p 3 get p", ("set p 3", "get p")) == ("set p 3 get p",)  # items with spaces need commas


def test_a_wrong_set_is_not_told_the_size_of_the_answer():
    q = _demo(checker=equals(frozenset({"g"}), why="w"), solution=frozenset({"g"}), wrong={frozenset({"b"}): "x"})
    explanation = q.verify({"c", "g"}).explanation
    assert "lists" not in explanation and explanation.startswith("Your answer")


def test_a_wrong_set_hears_about_its_first_wrong_item_unless_it_is_a_listed_slip():
    reasons = {"A": "A is the same action.", "B": "B is another command.", "C": "C is another tool."}
    q = _demo(checker=equals(frozenset("a"), why="w", normalize=letter_set, item_reasons=reasons),
              solution={"A"}, wrong={"AB": "You took B's command for the same one."})
    assert q.verify("C").explanation == "Look again at A: A is the same action."      # A left out comes first
    assert q.verify("AC").explanation == "Look again at C: C is another tool."         # C put in by mistake
    assert q.verify("AB").explanation == "You took B's command for the same one."      # the listed slip wins
    assert q.verify("a").ok and set(reasons.values()) <= set(q.texts())
