"""Chapter 10's answers come from what loopkit does on the chapter's own data, and the listed wrong answers are
the ones the misconceptions produce."""

import pathlib

from loopkit import DetectorConfig, PinnedMiddleware, fingerprint, load_trace, stable_key
from loopkit.teaching import challenge, peers
from loopkit.teaching.exercises import ch10

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"
LOOP = load_trace(DATA / "coding_loop.openai_chat.jsonl").batches


def decisions(batches, config=None):
    """DeerFlow's decision on each batch, as the middleware makes it, up to and including its stop."""
    middleware, made = PinnedMiddleware(config or DetectorConfig()), []
    for batch in batches:
        made.append(middleware.after_model(batch, "thread", "run"))
        if made[-1].action == "stop":
            break
    return made


def first_step(batches, action, config=None):
    return next(step for step, d in enumerate(decisions(batches, config), 1) if d.action == action)


def occurrences(batches):
    """For each fingerprint of a trace, the steps at which it occurs (the first occurrence included)."""
    steps = {}
    for step, batch in enumerate(batches, 1):
        steps.setdefault(fingerprint(batch), []).append(step)
    return steps


READ, TEST = fingerprint(LOOP[1]), fingerprint(LOOP[0])  # the read of dates.py (step 2) and the test run (step 1)
TIGHT = DetectorConfig(warn_threshold=2, hard_limit=4)


# -- 10.1 --------------------------------------------------------------------------------------------------------


def test_10_1_the_cases_agree_with_loopkits_own_adapter_rules():
    """Each expected result is what the solution gives, and each batch is in the shape the detector reads."""
    for case in ch10.q1.cases:
        assert ch10.to_batches(*case.args) == case.expected
        assert all(set(call) == {"name", "args", "id"} for batch in case.expected for call in batch)
    assert ch10.q1.verify(ch10.to_batches).ok


def test_10_1_every_known_wrong_adapter_fails_on_the_idea_it_gets_wrong():
    ideas = [ch10.q1.verify(wrong).explanation.split("That input tests this: ")[-1] for wrong in ch10.q1.wrong_answers]
    assert len(set(ideas)) >= 8  # the wrong adapters fail for different reasons, each named
    one_batch_for_all, drop_repeat = ch10.q1.wrong_answers[3], ch10.q1.wrong_answers[-1]
    assert "two batches, one per turn" in ideas[3] and one_batch_for_all([ch10._AGENT_LS]) == [[ch10._LS]]
    assert "finding the repeat is the detector's job" in ideas[-1]
    repeated = [ch10._AGENT_LS, ch10._AGENT_LS]
    assert fingerprint(drop_repeat(repeated)[0]) == fingerprint(ch10.to_batches(repeated)[1])  # what it hides


# -- 10.2 --------------------------------------------------------------------------------------------------------


def test_10_2_the_tighter_stop_is_the_first_fourth_occurrence():
    stop = first_step(LOOP, "stop", TIGHT)
    assert stop == ch10.q2.solution_value
    fourth = {digest: steps[3] for digest, steps in occurrences(LOOP).items() if len(steps) >= 4}
    assert stop == min(fourth.values()) == fourth[READ]
    assert decisions(LOOP, TIGHT)[-1].fingerprint == READ


def test_10_2_each_slip_is_what_a_plausible_wrong_rule_gives():
    seen, wrong = occurrences(LOOP), ch10.q2.wrong_answers
    assert first_step(LOOP, "stop") == seen[READ][4] == 11 and 11 in wrong      # the default / the 4th repeat
    assert seen[TEST][3] == 10 and 10 in wrong                                   # the other batch's 4th occurrence
    assert first_step(LOOP, "warn") == seen[READ][2] == 6 and 6 in wrong         # the default warning
    warn_steps = [step for step, d in enumerate(decisions(LOOP, TIGHT), 1) if d.action == "warn"]
    assert warn_steps == [seen[TEST][1], seen[READ][1]] == [4, 5]                # the tighter warnings
    assert {4, 5, TIGHT.hard_limit} <= set(wrong)                                # a warning, or the limit itself
    assert seen[TEST][2] == 8 and 8 in wrong                                     # the default warning on the test
    assert seen[TEST][4] == 12 and 12 in wrong                                   # the test run's 4th repeat


def test_10_2_the_steps_the_feedback_quotes_are_the_sessions():
    seen = occurrences(LOOP)
    read, test = (", ".join(map(str, seen[d][:3])) + f" and {seen[d][3]}" for d in (READ, TEST))
    assert f"steps {read}" in ch10.q2._checker.why and f"steps {test}" in ch10.q2._checker.why
    assert f"steps {test}" in dict(ch10.q2.misconceptions)[10]


# -- 10.3 --------------------------------------------------------------------------------------------------------


def test_10_3_no_peer_notices_the_looping_session():
    noticed = sum(model.run(LOOP).action != "ok" for model in peers.PEERS)
    assert noticed == ch10.q3.solution_value
    assert len(peers.PEERS) in ch10.q3.wrong_answers and len(peers.PEERS) - 1 in ch10.q3.wrong_answers
    assert len(peers.DETECTORS) == len(peers.PEERS) + 1 and len(peers.DETECTORS) in ch10.q3.wrong_answers
    assert peers.DeerFlow().run(LOOP).action == "stop"  # while DeerFlow does


def test_10_3_the_session_never_repeats_an_exact_call_back_to_back():
    """The reason the misconceptions give: no two consecutive batches are the same exact calls."""
    exact = [[(call["name"], call["args"]) for call in batch] for batch in LOOP]
    assert all(a != b for a, b in zip(exact, exact[1:]))
    assert len({fingerprint(batch) for batch in LOOP}) < len(LOOP)  # while DeerFlow's keys do see repeats
    # from step 8 the test run and a read take turns, but no read asks for the same lines as the one two steps back
    assert all(exact[i] == exact[i + 2] for i in range(7, 18, 2))
    assert all(exact[i] != exact[i + 2] for i in range(8, 18, 2))


# -- 10.4 --------------------------------------------------------------------------------------------------------


def test_10_4_the_solution_evades_and_each_wrong_trace_fails_for_its_stated_reason():
    assert challenge.score(ch10.q4.solution_value).evaded
    repeat, progress, short_cycle, reworded, cycle_of_9, respaced = ch10.q4.wrong_answers
    assert first_step(repeat, "warn") == 3 and decisions(repeat)[2].layer == "hash"
    assert challenge.score(progress).deerflow.action == "ok" and not challenge.check_loop(progress).loops
    assert challenge.score(short_cycle).deerflow.action != "ok" and decisions(short_cycle)[6].layer == "hash"


def test_10_4_a_reworded_description_is_the_same_action_to_the_detector_and_to_the_checker():
    reworded = ch10.q4.wrong_answers[3]
    calls = [batch[0] for batch in reworded]
    assert len({call["args"]["description"] for call in calls}) == len(calls)
    assert len({stable_key(call["name"], call["args"]) for call in calls}) == 1
    result = challenge.score(reworded)
    assert result.check.loops and result.check.wasted == len(calls) - 1
    assert (result.deerflow.warn_step, result.deerflow.stop_step) == (3, 5) and not result.evaded


def test_10_4_a_cycle_of_nine_is_one_step_too_short_and_ten_is_enough():
    cycle_of_9 = ch10.q4.wrong_answers[4]
    assert len({fingerprint(batch) for batch in cycle_of_9}) == 9
    assert occurrences(cycle_of_9)[fingerprint(cycle_of_9[0])][:3] == [1, 10, 19]
    assert first_step(cycle_of_9, "warn") == 19 and not challenge.score(cycle_of_9).evaded
    assert challenge.score(ch10._EVASIVE[:10] * 2).evaded  # ten different actions: each back only 10 steps later


def test_10_4_respacing_fools_the_fingerprint_but_not_the_tool_budget():
    respaced = ch10.q4.wrong_answers[5]
    assert len({fingerprint(batch) for batch in respaced}) == len(respaced)  # every batch a new fingerprint
    assert challenge.check_loop(respaced).loops                              # and yet the same command each time
    warning = decisions(respaced)[29]
    assert (warning.action, warning.layer, warning.tool) == ("warn", "frequency", "bash")
    assert first_step(respaced, "warn") == DetectorConfig().tool_freq_warn == 30
    assert challenge.score(respaced[:25]).evaded                             # under 30 calls it gets through


def test_10_4_the_spanish_solution_code_is_the_same_program_with_spanish_comments():
    """q4.solution() shows the catalog's Spanish text in the Spanish track: running it must give the same answer."""
    from loopkit.core.language import translations

    spanish = translations("es").gettext(ch10.EVASIVE_TRACE_CODE)
    assert "diez acciones distintas" in spanish and "ten different actions" not in spanish
    assert ch10._run_solution_code(spanish) == ch10.q4.solution_value


# -- 10.5 --------------------------------------------------------------------------------------------------------

EDIT_TEST = DATA / "edit_test_cycle.claude_code.jsonl"


def edit_test_batches():
    """The edit-and-test session as the detector reads it: Claude Code's tool names mapped to DeerFlow's."""
    from loopkit import ToolMap

    claude_code = ToolMap("claude-code")
    return [claude_code.map_batch(batch) for batch in load_trace(EDIT_TEST).batches]


def stop_step(config):
    return next((step for step, d in enumerate(decisions(edit_test_batches(), config), 1) if d.action == "stop"), None)


def test_10_5_the_override_leaves_the_hash_stop_and_a_higher_hard_limit_removes_it():
    override = DetectorConfig(tool_freq_overrides={"bash": (80, 120)})
    answer = (stop_step(override), stop_step(DetectorConfig(hard_limit=6)))
    assert answer == ch10.q5.solution_value == (12, None)
    assert stop_step(DetectorConfig()) == 12  # the override moved nothing: the same step as the defaults
    assert decisions(edit_test_batches())[-1].layer == "hash"


def test_10_5_the_only_repeated_batch_is_the_test_run_and_every_edit_is_new():
    batches = edit_test_batches()
    repeated = {digest: steps for digest, steps in occurrences(batches).items() if len(steps) > 1}
    [(digest, steps)] = repeated.items()
    assert steps == [1, 5, 8, 10, 12] and batches[0][0]["name"] == "bash"
    assert {batch[0]["name"] for batch in batches if fingerprint(batch) != digest} >= {"str_replace", "read_file"}
    assert first_step(batches, "warn") == 8  # the 3rd test run, as the (8, None) slip's feedback says


def test_10_5_each_slip_is_what_a_plausible_wrong_rule_gives():
    assert ch10.q5.verify((None, None)).explanation.startswith("An override does not reach this stop")
    assert not ch10.q5.verify((12, 12)).ok and "only 5 times" in ch10.q5.verify((12, 12)).explanation
    assert ch10.q5.verify([12, None]).ok and not ch10.q5.verify(12).ok
    five_runs = len(occurrences(edit_test_batches())[fingerprint(edit_test_batches()[0])])
    assert five_runs == 5 < 6  # why --hard 6 never stops this session
