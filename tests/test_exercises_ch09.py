"""The reference answers of chapter 09 follow from the boundary helpers, run on each question's own data, and the
listed wrong answers are what a plausible wrong rule gives."""

import json
import re

import pytest

from loopkit import boundaries as b
from loopkit import fingerprint
from loopkit.exercises import ch09
from notebook_tools import ROOT, load, source

CHAPTER = ROOT / "notebooks" / "09_boundaries.ipynb"


def question_text(qid):
    cells = load(CHAPTER)["cells"]
    return next(source(c) for c in cells if source(c).startswith(f"### Exercise {qid}:"))


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


def test_9_3_strip_server_owned_removes_the_answer_from_the_questions_metadata():
    assert set(b.strip_server_owned(ch09.Q3_METADATA)[1]) == ch09.q3.solution_value
    text = question_text("9.3")
    assert all(f'"{key}"' in text for key in ch09.Q3_METADATA), "the notebook states other metadata"
    # the listed slip of comparing exact key names: only an exact "user_id" would go, not "User-ID"
    exact = {k for k in ch09.Q3_METADATA if k in b.SERVER_OWNED_KEYS or k.startswith("_")}
    assert exact in ch09.q3.wrong_answers


def test_9_4_scrub_env_keeps_the_answer_and_a_fragment_rule_gives_a_listed_slip():
    kept = set(b.scrub_env({name: "v" for name in ch09.Q4_NAMES}))
    assert kept == ch09.q4.solution_value
    assert all(f"`{name}`" in question_text("9.4") for name in ch09.Q4_NAMES)
    # reading KEY and AUTH as fragments (DeerFlow-style, plus AUTH) drops KEYBOARD_LAYOUT and AUTHOR_NAME too
    by_fragment = {n for n in ch09.Q4_NAMES if not any(part in n for part in (*b.DEERFLOW_ENV_FRAGMENTS, "AUTH"))}
    assert by_fragment == {"PATH", "HOME", "XDG_SESSION_TYPE"} and by_fragment in ch09.q4.wrong_answers


def test_9_5_an_empty_declared_credential_is_refused_by_name():
    with pytest.raises(b.CredentialError, match="GITHUB_TOKEN") as refused:
        b.inject_credentials({"GITHUB_TOKEN": "static-token"}, ["GITHUB_TOKEN"], {"GITHUB_TOKEN": ""})
    assert "static-token" not in str(refused.value)
    assert ch09.q5.solution_value == "c"  # c) It raises CredentialError naming GITHUB_TOKEN
    assert re.search(r"^- c\) It raises `CredentialError` naming `GITHUB_TOKEN`", question_text("9.5"), re.M)


@pytest.mark.parametrize("answer", ["c", "C", " c ", "c)", "(c)", "c.", "(C) ", "c) It raises CredentialError"])
def test_9_5_reads_the_usual_ways_of_writing_a_letter(answer):
    assert ch09.q5.verify(answer).ok


def test_9_5_tells_the_workbook_model_from_deerflows_sandbox_path_at_the_pin():
    # at the pin an empty supplied secret is injected as it is (b), and a missing one is left out (d)
    bound = b.bind_skill_secrets({"secrets": {"GITHUB_TOKEN": ""}},
                                 [{"name": "gh", "requires": [{"name": "GITHUB_TOKEN", "optional": False}]}])
    assert bound["context"]["__active_skill_secrets"] == {"GITHUB_TOKEN": ""}
    empty = ch09.q5.verify("b)")
    assert empty.status == "incorrect" and "DeerFlow's sandbox path at the pinned commit" in empty.explanation
    missing = ch09.q5.verify("d")
    assert "missing secret" in missing.explanation and "PR #5010" in missing.explanation
    assert "fallback" in ch09.q5.verify("a").explanation


@pytest.mark.parametrize("answer", ["a", "(a)", "b)", "cd", "", "credential", 3])
def test_9_5_still_rejects_other_letters_and_non_letters(answer):
    assert ch09.q5.verify(answer).status == "incorrect"


def test_9_7_recommend_deployment_gives_the_answer_and_the_two_slips():
    choices = tuple(b.recommend_deployment(*answers).choice for answers in ch09.Q7_SITUATIONS.values())
    assert choices == ch09.q7.solution_value
    # forgetting that others can reach B, or that C keeps state, gives two of the listed wrong answers
    unreachable_b = dict(ch09.Q7_SITUATIONS, B=ch09.Q7_SITUATIONS["B"][:1] + (False,) + ch09.Q7_SITUATIONS["B"][2:])
    stateless_c = dict(ch09.Q7_SITUATIONS, C=ch09.Q7_SITUATIONS["C"][:4] + (False,))
    for situations in (unreachable_b, stateless_c):
        slip = tuple(b.recommend_deployment(*answers).choice for answers in situations.values())
        assert slip in ch09.q7.wrong_answers


@pytest.mark.parametrize("answer", [("shared", "shared", "isolated"), ["Shared", "shared deployment", " isolated"],
                                    "shared, shared, isolated"])
def test_9_7_reads_a_tuple_a_list_or_one_string(answer):
    assert ch09.q7.verify(answer).ok


def test_9_8_the_pinned_rule_gives_the_answer_and_each_wrong_rule_a_listed_slip():
    assert {n for n in ch09.Q8_NAMES if b.is_blocked_env_name(n)} == ch09.q8.solution_value
    assert all(f"`{name}`" in question_text("9.8") for name in ch09.Q8_NAMES)
    by_words = {n for n in ch09.Q8_NAMES if b.is_secret_name(n)}  # this workbook's scrub_env
    fragments_only = {n for n in ch09.Q8_NAMES if any(f in n for f in b.pinned.BLOCKED_NAME_FRAGMENTS)}
    prefix_match = {n for n in ch09.Q8_NAMES if n in fragments_only
                    or any(n.startswith(exact) for exact in b.pinned.BLOCKED_EXACT_NAMES)}
    older = {n for n in ch09.Q8_NAMES if any(f in n for f in ("KEY", "SECRET", "TOKEN", "PASSWORD", "PASSWD",
                                                             "CREDENTIAL"))}  # commit 4f474b53's fragments
    for slip in (by_words, fragments_only, prefix_match, older):
        assert slip != ch09.q8.solution_value and slip in ch09.q8.wrong_answers, slip


def test_9_8_explains_each_misconception_whatever_the_case():
    assert "exact names" in ch09.q8.verify(["keyboard_layout", "Compass_Heading"]).explanation
    assert "compared whole" in ch09.q8.verify(ch09.q8.solution_value | {"DATABASE_URL_RO"}).explanation
    assert "4f474b53" in ch09.q8.verify({"KEYBOARD_LAYOUT"}).explanation
    assert ch09.q8.verify(["keyboard_layout", "GH_PAT", " compass_heading ", "database_url"]).ok


def test_in_spanish_the_custom_checkers_answer_in_spanish(spanish):
    assert ch09.q5.verify("c").explanation.startswith("Denegar por defecto: una credencial declarada vacía")
    assert ch09.q5.verify("z").explanation == "Responde con una letra de la a a la d; 'z' no lo es."
    assert ch09.q8.verify(set(ch09.q8.solution_value)).explanation.startswith(
        "En el commit fijado DeerFlow bloquea un nombre")
    assert ch09.q8.verify({"HOME", "PATH"}).explanation == (
        "Tu respuesta ['HOME', 'PATH'] no es el conjunto que elimina la regla de DeerFlow.")
    assert ch09.q8.verify({"GH_PAT", "SSH_AUTH_SOCK"}).explanation.startswith("Esa es la regla de palabras")
    assert ch09.q8.verify("GH_PAT").explanation == "da una colección de nombres, como {'PATH', 'HOME'}"
    assert "se recibió int" in ch09.q7.verify((1, 2, 3)).explanation
