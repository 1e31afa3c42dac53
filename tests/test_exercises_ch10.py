"""Chapter 10's answers come from what loopkit does on the chapter's own data, and the listed wrong answers are
the ones the misconceptions produce."""

import pathlib

from loopkit import DetectorConfig, PinnedMiddleware, challenge, fingerprint, load_trace, peers
from loopkit.exercises import ch10
from loopkit.replay import replay_batches

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
LOOP = load_trace(DATA / "coding_loop.openai_chat.jsonl").batches


def stop_step(config):
    steps = list(replay_batches(LOOP, PinnedMiddleware(config)))
    return next(step.step for step in steps if step.decision.action == "stop")


def test_10_2_the_tighter_stop_is_the_fourth_return_of_the_read():
    assert stop_step(DetectorConfig(warn_threshold=2, hard_limit=4)) == ch10.q2.solution_value
    assert stop_step(DetectorConfig()) == 11 and 11 in ch10.q2.wrong_answers  # the default stop is a misconception


def test_10_3_no_peer_notices_the_looping_session():
    noticed = sum(model.run(LOOP).action != "ok" for model in peers.PEERS)
    assert noticed == ch10.q3.solution_value
    assert len(peers.PEERS) in ch10.q3.wrong_answers


def test_10_3_the_session_never_repeats_an_exact_call_back_to_back():
    """The reason the misconceptions give: no two consecutive batches are the same exact calls."""
    exact = [[(call["name"], call["args"]) for call in batch] for batch in LOOP]
    assert all(a != b for a, b in zip(exact, exact[1:]))
    assert len({fingerprint(batch) for batch in LOOP}) < len(LOOP)  # while DeerFlow's keys do see repeats


def test_10_4_the_solution_evades_and_each_wrong_trace_fails_for_its_stated_reason():
    assert challenge.score(ch10.q4.solution_value).evaded
    repeat, progress, short_cycle = ch10.q4.wrong_answers
    assert challenge.score(repeat).deerflow.action != "ok"
    assert not challenge.check_loop(progress).loops
    assert challenge.score(short_cycle).deerflow.action != "ok"


def test_10_4_the_spanish_solution_code_is_the_same_program_with_spanish_comments():
    """q4.solution() shows the catalog's Spanish text in the Spanish track: running it must give the same answer."""
    from loopkit.language import catalog

    spanish = catalog("es")[None, ch10.EVASIVE_TRACE_CODE]
    assert "diez acciones distintas" in spanish and "ten different actions" not in spanish
    assert ch10._run_solution_code(spanish) == ch10.q4.solution_value
