"""The reference answers of chapter 09 follow from the boundary helpers, run on each question's own data; the listed
wrong answers are what a plausible wrong rule gives; the function exercises' cases agree with loopkit and reject the
wrong functions a learner plausibly writes, each on the case whose idea names its mistake."""

import itertools
import json
import re
import unicodedata

import pytest
from notebook_tools import ROOT, is_reveal, load, source

from loopkit import fingerprint
from loopkit.core.language import tr
from loopkit.teaching import boundaries as b
from loopkit.teaching.exercises import ch09, function_cases

CHAPTERS = [ROOT / "notebooks" / "09_boundaries.ipynb", ROOT / "notebooks" / "es" / "09_limites.ipynb"]
CHAPTER = CHAPTERS[0]


def question_text(qid, chapter=CHAPTER):
    cells = load(chapter)["cells"]
    return next(source(c) for c in cells if re.match(rf"### (Exercise|Ejercicio) {re.escape(qid)}:", source(c)))


def text_elsewhere(chapter, qid):
    """Every source and stored output of the chapter except exercise ``qid``'s question and reveal cells."""
    nb = load(chapter)
    heading = re.compile(rf"### (Exercise|Ejercicio) {re.escape(qid)}:")
    parts = []
    for cell in nb["cells"]:
        if heading.match(source(cell)) or is_reveal(cell) and qid == _reveal_owner(nb, cell):
            continue
        parts.append(source(cell))
        parts.extend(json.dumps(output) for output in cell.get("outputs", []))
    return "\n".join(parts)


def _reveal_owner(nb, cell):
    from notebook_tools import exercise_of_cell

    return exercise_of_cell(nb, next(i for i, c in enumerate(nb["cells"]) if c is cell))


def first_failing_idea(question, function):
    """The idea of the first case ``function`` gets wrong (or raises on), or None when it passes them all."""
    for case in question.cases:
        try:
            if function(*case.args) != case.expected:
                return case.idea
        except Exception:
            return case.idea
    return None


# ------------------------------------------------------------------------------------------------------------ 9.1

def test_9_1_anyone_with_the_calls_has_the_fingerprint_but_not_the_keyed_tag():
    calls = [{"name": "bash", "args": {"command": "deploy --prod"}}]
    as_text = [{"name": "bash", "args": json.dumps({"command": "deploy --prod"})}]
    client_has_fingerprint = fingerprint(as_text) == fingerprint(calls)
    client_has_tag = b.keyed_fingerprint(calls, b"a-guess-of-the-secret-0000") == b.keyed_fingerprint(
        calls, b"server-only-secret-0123456789")
    assert (client_has_fingerprint, client_has_tag) == ch09.q1.solution_value


@pytest.mark.parametrize("answer", [(True, False), [True, False]])
def test_9_1_takes_the_pair_as_a_tuple_or_a_list(answer):
    assert ch09.q1.verify(answer).ok
    assert ch09.q1.verify([True, True]).status == ch09.q1.verify("True, False").status == "incorrect"


# ------------------------------------------------------------------------------------------------------------ 9.2

def test_9_2_every_case_is_what_the_trust_channel_and_the_frame_give():
    for case in ch09.q2.cases:
        source_name, text = case.args
        if b.trust_channel(source_name) == "instructions":
            assert case.expected == text
        else:
            assert case.expected == b.frame_untrusted(source_name, text)
            assert b.read_frame(case.expected) == (source_name, text)


@pytest.mark.parametrize("wrong, idea", [
    (ch09._never_frames, "a fetched web page is data"),
    (ch09._always_frames, "framework instructions are the one source"),
    (ch09._frames_only_web_pages, "an MCP tool's result is data too"),
    (ch09._frames_the_sources_it_was_shown, "a source nobody listed is data as well"),
    (ch09._frames_the_known_data_sources, "a source nobody listed is data as well"),
    (ch09._trusts_any_name_with_framework_in_it, "only the source named exactly framework"),
    (ch09._frames_by_hand, "the frame also escapes look-alike brackets"),
    (ch09._frames_by_hand_keeping_quotes, "the frame also escapes look-alike brackets"),
])
def test_9_2_each_wrong_function_fails_on_the_idea_it_misses(wrong, idea):
    assert wrong in ch09.q2.wrong_answers
    assert first_failing_idea(ch09.q2, wrong).startswith(idea)
    verdict = ch09.q2.verify(wrong)
    assert verdict.status == "incorrect" and idea in verdict.explanation


def test_9_2_the_four_cases_of_before_accepted_five_of_the_wrong_functions():
    """Why the cases grew: the four cases 9.2 had before this chapter was reshaped took these for right."""
    before = function_cases([case for case in ch09.q2.cases[:4]], why="w")
    for wrong in (ch09._frames_the_sources_it_was_shown, ch09._frames_the_known_data_sources,
                  ch09._trusts_any_name_with_framework_in_it, ch09._frames_by_hand,
                  ch09._frames_by_hand_keeping_quotes):
        assert before(wrong)[0], wrong.__name__
    assert ch09.q2.verify(ch09.prepare).ok


def test_9_2_the_unlisted_source_is_neither_an_instruction_source_nor_a_listed_data_source():
    unlisted = next(case.args[0] for case in ch09.q2.cases if "nobody listed" in case.idea)
    assert unlisted not in b.INSTRUCTION_SOURCES | b.DATA_SOURCES | {"web_page", "mcp_result", "subagent_report"}


# ------------------------------------------------------------------------------------------------------------ 9.3

def canonical(key):
    return "".join(ch for ch in unicodedata.normalize("NFKC", key).casefold() if ch.isalnum())


OWNED = {canonical(key) for key in b.SERVER_OWNED_KEYS}


def test_9_3_strip_server_owned_removes_the_answer_from_the_questions_metadata():
    removed = set(b.strip_server_owned(ch09.Q3_METADATA)[1])
    assert removed == ch09.q3.solution_value
    for chapter in CHAPTERS:
        assert all(f'"{key}"' in question_text("9.3", chapter) for key in ch09.Q3_METADATA)
    assert list(ch09._Q3_REASONS) == list(ch09.Q3_METADATA)
    for key, reason in ch09._Q3_REASONS.items():
        assert ("removed" in reason) == (key in removed), key


def test_9_3_each_listed_slip_is_a_plausible_wrong_rule():
    keys = ch09.Q3_METADATA
    exact = {k for k in keys if k in b.SERVER_OWNED_KEYS or k.startswith("_")}  # spellings compared as they are
    containing = {k for k in keys if any(o in canonical(k) for o in OWNED) or k.startswith("_")}  # part of a key
    contained = {k for k in keys if any(canonical(k) in o for o in OWNED) or k.startswith("_")}  # a key's part
    no_internal = {k for k in keys if canonical(k) in OWNED}  # forgetting that _keys are internal
    right = ch09.q3.solution_value
    for slip in (exact, containing, contained, no_internal):
        assert slip != right and frozenset(slip) in ch09.q3.wrong_answers, slip
    kept = set(b.strip_server_owned(keys)[0])
    assert frozenset(kept) in ch09.q3.wrong_answers  # the keys that stay, given instead


def test_9_3_its_keys_are_spellings_the_chapter_shows_nowhere_else():
    for chapter in CHAPTERS:
        elsewhere = text_elsewhere(chapter, "9.3")
        for key in ("Run-Trace", "userIdHint", "SEQUENCE.NUMBER", "_priority"):
            assert key not in elsewhere, (chapter.name, key)


# ------------------------------------------------------------------------------------------------------------ 9.4

SECRET_FRAGMENTS = sorted(b.SECRET_WORDS, key=len)


def test_9_4_scrub_env_keeps_the_answer():
    kept = set(b.scrub_env({name: "v" for name in ch09.Q4_NAMES}))
    assert kept == ch09.q4.solution_value
    for chapter in CHAPTERS:
        assert all(f"`{name}`" in question_text("9.4", chapter) for name in ch09.Q4_NAMES)
    assert list(ch09._Q4_REASONS) == list(ch09.Q4_NAMES)
    for name, reason in ch09._Q4_REASONS.items():
        assert ("removes" in reason) == (name not in kept), name


def test_9_4_each_listed_slip_is_a_plausible_wrong_rule():
    names = ch09.Q4_NAMES
    allow = b.DEFAULT_ALLOW

    def by_letters(name):  # a secret word anywhere in the name's letters, as DeerFlow reads fragments
        return any(word in name.upper() for word in b.SECRET_WORDS)

    def word_rule(name, *, endings=True, ending_anywhere=False):
        words = re.findall(r"[A-Za-z]+", name.upper().replace("_", " "))
        def secret(word):
            if word in b.SECRET_WORDS:
                return True
            if word in b.HARMLESS_WORDS:
                return False
            if ending_anywhere:
                return any(suffix in word for suffix in b.SECRET_SUFFIXES)
            return endings and word.endswith(b.SECRET_SUFFIXES)
        return any(secret(word) for word in words)

    assert {n for n in names if n in allow or not word_rule(n)} == ch09.q4.solution_value  # the rule itself
    slips = [
        {n for n in names if n in allow or not by_letters(n)},                 # letters, not words
        {n for n in names if not by_letters(n)},                               # letters, and no allow-list
        {n for n in names if not word_rule(n)},                                # no allow-list
        {n for n in names if any(a in n for a in allow) or not word_rule(n)},  # the allow-list as a part of a name
        {n for n in names if n in allow or not word_rule(n, endings=False)},   # no run-together endings
        {n for n in names if n in allow or not word_rule(n, ending_anywhere=True)},  # an ending anywhere
    ]
    for slip in slips:
        assert slip != ch09.q4.solution_value and frozenset(slip) in ch09.q4.wrong_answers, slip


def test_9_4_its_names_appear_nowhere_else_in_the_chapter():
    """Except PWD, which the prose names as one of DEFAULT_ALLOW's: the allow-list is part of the rule taught."""
    for chapter in CHAPTERS:
        elsewhere = text_elsewhere(chapter, "9.4")
        for name in set(ch09.Q4_NAMES) - {"PWD"}:
            assert not re.search(rf"(?<![\w]){name}(?![\w])", elsewhere), (chapter.name, name)


# ------------------------------------------------------------------------------------------------------------ 9.5

def test_9_5_an_empty_declared_credential_is_refused_by_name():
    with pytest.raises(b.CredentialError, match="GITHUB_TOKEN") as refused:
        b.inject_credentials({"GITHUB_TOKEN": "static-token"}, ["GITHUB_TOKEN"], {"GITHUB_TOKEN": ""})
    assert "static-token" not in str(refused.value)
    assert ch09.q5.solution_value == "c"  # c) It raises CredentialError naming GITHUB_TOKEN
    assert re.search(r"^- c\) It raises `CredentialError` naming `GITHUB_TOKEN`", question_text("9.5"), re.M)


@pytest.mark.parametrize("answer", ["c", "C", " c ", "'c'", '"c"', "c)", "(c)", "c.", "(C) ",
                                    "c) It raises CredentialError"])
def test_9_5_reads_the_usual_ways_of_writing_a_letter(answer):
    assert ch09.q5.verify(answer).ok


def test_9_5_tells_the_workbook_model_from_deerflows_sandbox_path_at_the_pin():
    # at the pin an empty supplied secret is injected as it is (b), and a missing one is left out (d)
    bound = b.bind_skill_secrets({"secrets": {"GITHUB_TOKEN": ""}},
                                 [{"name": "gh", "requires": [{"name": "GITHUB_TOKEN", "optional": False}]}])
    assert bound["context"]["__active_skill_secrets"] == {"GITHUB_TOKEN": ""}
    empty = ch09.q5.verify("b)")
    assert empty.status == "incorrect" and "DeerFlow's sandbox path at the pinned commit" in empty.explanation
    missing = ch09.q5.verify("'d'")
    assert "missing secret" in missing.explanation and "PR #5010" in missing.explanation
    assert "fallback" in ch09.q5.verify("a").explanation


@pytest.mark.parametrize("answer", ["a", "(a)", "b)", "cd", "", "credential", 3])
def test_9_5_still_rejects_other_letters_and_non_letters(answer):
    assert ch09.q5.verify(answer).status == "incorrect"


# ------------------------------------------------------------------------------------------------------------ 9.6

def test_9_6_every_case_is_what_validate_header_value_decides():
    for case in ch09.q6.cases:
        try:
            b.validate_header_value(*case.args)
            accepted = True
        except b.HeaderValueError:
            accepted = False
        assert accepted == case.expected, case.args


@pytest.mark.parametrize("wrong, idea", [
    (ch09._no_line_feed, "a NUL is refused too"),
    (ch09._no_line_break, "a NUL is refused too"),
    (ch09._printable, "non-ASCII text is refused"),
    (ch09._printable_ascii_and_no_space_in_the_name, "a value may not end (or start) with a space"),
    (ch09._every_value_rule_and_no_space_in_the_name, "a line break in the name"),
    (ch09._deerflows_later_check, "this workbook's rule refuses a tab anywhere"),
    (ch09._truth_of_the_returned_value, "an empty value holds no bad character"),
    (ch09._checks_the_value_only, "the header name is checked too"),
])
def test_9_6_each_wrong_function_fails_on_the_idea_it_misses(wrong, idea):
    assert wrong in ch09.q6.wrong_answers
    assert first_failing_idea(ch09.q6, wrong).startswith(idea)
    verdict = ch09.q6.verify(wrong)
    assert verdict.status == "incorrect" and idea in verdict.explanation


def test_9_6_the_six_cases_of_before_accepted_three_of_the_wrong_functions():
    """Why the cases grew: the six cases 9.6 had before took these for right."""
    old = [("X-Run", "run-42"), ("X-Run", "ok\r\nSet-Cookie: admin=1"), ("X-Run", "a\x00b"), ("X-Run", "tab\there"),
           ("X Run", "fine"), ("Authorization", "Bearer abc.def")]
    for wrong in (ch09._printable_ascii_and_no_space_in_the_name, ch09._truth_of_the_returned_value,
                  ch09._every_value_rule_and_no_space_in_the_name):
        assert all(wrong(*args) == ch09.is_safe(*args) for args in old), wrong.__name__
    assert ch09.q6.verify(ch09.is_safe).ok


def test_9_6_a_function_that_lets_the_error_escape_is_told_the_idea_of_its_input():
    def unguarded(name, value):
        b.validate_header_value(name, value)
        return True

    verdict = ch09.q6.verify(unguarded)
    assert verdict.status == "incorrect" and "HeaderValueError" in verdict.explanation
    assert "a CR LF would end this header" in verdict.explanation


# ------------------------------------------------------------------------------------------------------------ 9.7

def test_9_7_recommend_deployment_gives_the_answer_and_the_two_slips():
    choices = tuple(b.recommend_deployment(*answers).choice for answers in ch09.Q7_SITUATIONS.values())
    assert choices == ch09.q7.solution_value
    # forgetting that others can reach B, or that C keeps state, gives listed wrong answers
    unreachable_b = dict(ch09.Q7_SITUATIONS, B=ch09.Q7_SITUATIONS["B"][:1] + (False,) + ch09.Q7_SITUATIONS["B"][2:])
    stateless_c = dict(ch09.Q7_SITUATIONS, C=ch09.Q7_SITUATIONS["C"][:4] + (False,))
    both = dict(unreachable_b, C=stateless_c["C"])
    for situations in (unreachable_b, stateless_c, both):
        slip = tuple(b.recommend_deployment(*answers).choice for answers in situations.values())
        assert slip in ch09.q7.wrong_answers, slip
    for label, reason in ch09._Q7_REASONS.items():
        assert reason.endswith(f": {b.recommend_deployment(*ch09.Q7_SITUATIONS[label]).choice}.")


@pytest.mark.parametrize("answer", [("shared", "shared", "isolated"), ["Shared", "shared deployment", " isolated"],
                                    "shared, shared, isolated", ("'shared'", '"shared"', "isolated")])
def test_9_7_reads_a_tuple_a_list_or_one_string(answer):
    assert ch09.q7.verify(answer).ok


def first_wrong_situations():
    """For each situation, an answer that is none of the listed slips and gets that situation wrong first."""
    listed = set(ch09.q7.wrong_answers)
    found = {}
    for answer in itertools.product(("local", "isolated", "shared"), repeat=3):
        wrong = [label for label, mine, right in zip("ABC", answer, ch09.q7.solution_value) if mine != right]
        if wrong and answer not in listed:
            found.setdefault(wrong[0], answer)
    return found


def test_9_7_an_unlisted_answer_is_told_its_first_wrong_situation():
    assert set(first_wrong_situations()) == set(ch09.Q7_SITUATIONS)
    for label, wrong in first_wrong_situations().items():
        assert ch09.q7.verify(wrong).explanation == f"Look again at {label}: {ch09._Q7_REASONS[label]}"
    assert ch09.q7.verify(("local", "shared", "isolated")).explanation.startswith("Look again at A: forty people")
    assert ch09.q7.verify(("shared", "shared", "shared")).explanation.startswith("Look again at C:")
    assert ch09.q7.verify(("shared", "shared")).explanation == (
        "Give three words, one for each of A, B and C; you gave 2.")


# ------------------------------------------------------------------------------------------------------------ 9.8

def test_9_8_the_pinned_rule_gives_the_answer_and_each_wrong_rule_a_listed_slip():
    names = ch09.Q8_NAMES
    blocked = {n for n in names if b.is_blocked_env_name(n)}
    assert blocked == ch09.q8.solution_value
    fragments = b.pinned.BLOCKED_NAME_FRAGMENTS
    exact = b.pinned.BLOCKED_EXACT_NAMES

    def words(name):
        return re.findall(r"[a-z]+|[A-Z][a-z]*|[A-Z]+", name)

    slips = [
        {n for n in names if b.is_secret_name(n)},                                          # this workbook's words
        {n for n in names if any(f in n.upper() for f in fragments)},                       # no exact names
        {n for n in names if any(f in n.upper() for f in fragments)
         or any(n.upper().startswith(e) for e in exact)},                                   # exact names as prefixes
        {n for n in names if n.upper() in exact or any(w.upper() in fragments for w in words(n))},  # whole words only
        {n for n in names if any(f in n.upper() for f in ("KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD",
                                                          "CREDENTIAL"))},                 # commit 4f474b53's rule
        {n for n in names if n in exact or any(f in n for f in fragments)},                 # not upper-cased first
        {n for n in names if b.is_blocked_env_name(n) or "AUTH" in n.upper()},              # AUTH taken for a fragment
    ]
    for slip in slips:
        assert slip != ch09.q8.solution_value and frozenset(slip) in ch09.q8.wrong_answers, slip
    assert list(ch09._Q8_REASONS) == list(names)
    for name, reason in ch09._Q8_REASONS.items():
        assert ("DeerFlow removes" in reason) == (name in blocked), name


def test_9_8_the_question_lists_every_exact_name_and_its_names_appear_nowhere_else():
    for chapter in CHAPTERS:
        text = question_text("9.8", chapter)
        assert all(f"`{name}`" in text for name in (*ch09.Q8_NAMES, *b.pinned.BLOCKED_EXACT_NAMES))
        elsewhere = text_elsewhere(chapter, "9.8")
        for name in ch09.Q8_NAMES:
            assert not re.search(rf"(?<![\w]){name}(?![\w])", elsewhere), (chapter.name, name)


def test_9_8_explains_each_misconception_whatever_the_case():
    assert "exact names" in ch09.q8.verify(["passenger_app_env", "NPM_CONFIG__AUTHTOKEN"]).explanation
    assert "compared whole" in ch09.q8.verify(ch09.q8.solution_value | {"postgres_url_replica"}).explanation
    assert "4f474b53" in ch09.q8.verify({"npm_config__authToken"}).explanation
    assert ch09.q8.verify([" passenger_app_env ", "mongodb_uri", "'npm_config__authToken'"]).ok


def test_9_8_an_unlisted_answer_is_told_its_first_wrong_name():
    verdict = ch09.q8.verify({"MONGODB_URI", "TZ"})
    assert verdict.explanation.startswith("Look again at PASSENGER_APP_ENV: upper-cased, it holds PASS")
    assert ch09.q8.verify({"HOME", "MONGODB_URI"}).explanation == "HOME is not one of the names in the question."
    assert ch09.q3.verify({"run_trace", "_priority"}).explanation == ("run_trace is not one of the names in the "
                                                                     "question.")  # as the learner spelled it
    assert ch09.q8.verify("MONGODB_URI").explanation == "give a collection of names, such as {'PATH', 'HOME'}"


# ------------------------------------------------------------------------------------------------ both languages

def per_item_cases():
    """For each name-set question, each of its names toggled in its right answer: an answer wrong at that name."""
    for question, reasons in ((ch09.q3, ch09._Q3_REASONS), (ch09.q4, ch09._Q4_REASONS), (ch09.q8, ch09._Q8_REASONS)):
        for name, reason in reasons.items():
            answer = set(question.solution_value) ^ {name}
            if frozenset(n.upper() for n in answer) not in {question._normalize(w) for w in question.wrong_answers}:
                yield question, answer, name, reason


@pytest.mark.parametrize("question, answer, name, reason", list(per_item_cases()),
                         ids=lambda value: value if isinstance(value, str) and len(value) < 30 else "")
def test_an_unlisted_set_is_told_why_its_first_wrong_name_goes_or_stays(question, answer, name, reason):
    verdict = question.verify(answer)
    assert verdict.status == "incorrect"
    assert verdict.explanation == f"Look again at {name}: {reason}"


def test_every_reason_has_a_spanish_translation(spanish):
    for question, answer, name, reason in per_item_cases():
        assert question.verify(answer).explanation == f"Vuelve a mirar {name}: {tr(reason)}"
    for label, wrong in first_wrong_situations().items():
        assert ch09.q7.verify(wrong).explanation == f"Vuelve a mirar {label}: {tr(ch09._Q7_REASONS[label])}"


def test_in_spanish_the_custom_checkers_answer_in_spanish(spanish):
    assert ch09.q5.verify("c").explanation.startswith("Denegar por defecto: una credencial declarada vacía")
    assert ch09.q5.verify("z").explanation == "Responde con una letra de la a a la d; 'z' no lo es."
    assert ch09.q8.verify(set(ch09.q8.solution_value)).explanation.startswith(
        "En el commit fijado DeerFlow bloquea un nombre")
    assert ch09.q8.verify({"HOME", "PATH"}).explanation == "HOME, PATH no es uno de los nombres de la pregunta."
    assert ch09.q8.verify({"DOCKER_AUTH_CONFIG", "npm_config__authToken"}).explanation.startswith(
        "Esa es la regla de palabras")
    assert ch09.q8.verify("GH_PAT").explanation == "da una colección de nombres, como {'PATH', 'HOME'}"
    assert "se recibió int" in ch09.q7.verify((1, 2, 3)).explanation
    assert ch09.q7.verify(("shared",)).explanation == "Da tres palabras, una para cada una de A, B y C; has dado 1."
