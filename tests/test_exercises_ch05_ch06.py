"""The reference answers of chapters 05 and 06 agree with what the pinned middleware does on the question's data,
and the answers listed as misconceptions are the ones a plausible wrong model gives (a later upstream model, a
threshold read as "exceeded", a rule applied to the wrong scope)."""

import pytest

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware
from loopkit.teaching import patterns
from loopkit.teaching.agent_loop import AgentLoop
from loopkit.teaching.exercises import ch05, ch06

PYTEST = [{"name": "bash", "args": {"command": "pytest"}}]


def actions_of(middleware, batch, turns):
    return tuple(middleware.after_model(batch, "t", "r").action for _ in range(turns))


# --- chapter 05 ---------------------------------------------------------------------------------------------

#: Exercise 5.1's thresholds, as its question states them.
Q5_1 = dict(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)


def test_5_1_four_identical_batches_with_both_layers_in_play():
    assert actions_of(PinnedMiddleware(DetectorConfig(**Q5_1)), PYTEST, 4) == ch05.q1.solution_value
    assert ch05.q1.verify(list(ch05.q1.solution_value)).ok


def test_5_1_the_severity_first_answer_is_a_listed_misconception():
    later = actions_of(RunScopedMiddleware(DetectorConfig(**Q5_1)), PYTEST, 4)
    assert later != ch05.q1.solution_value
    assert "PR #5245" in ch05.q1.verify(later).explanation


def test_5_1_the_hash_layer_alone_is_a_listed_misconception():
    hash_only = DetectorConfig(**{**Q5_1, "tool_freq_warn": 99, "tool_freq_hard_limit": 99})
    answer = actions_of(PinnedMiddleware(hash_only), PYTEST, 4)
    assert answer in ch05.q1.wrong_answers and "hash layer alone" in ch05.q1.verify(answer).explanation


def test_5_1_the_hash_layers_hard_limit_taken_for_the_tools_is_a_listed_misconception():
    tool_stop_at_9 = DetectorConfig(**{**Q5_1, "tool_freq_hard_limit": Q5_1["hard_limit"]})
    answer = actions_of(PinnedMiddleware(tool_stop_at_9), PYTEST, 4)
    assert answer != ch05.q1.solution_value and answer in ch05.q1.wrong_answers


def test_5_1_thresholds_read_as_exceeded_is_a_listed_misconception():
    exceeded = DetectorConfig(**{name: value + 1 for name, value in Q5_1.items()})  # "passes 2" is "reaches 3"
    answer = actions_of(PinnedMiddleware(exceeded), PYTEST, 4)
    assert answer != ch05.q1.solution_value
    assert "reached, not exceeded" in ch05.q1.verify(answer).explanation


def burst_outcome(middleware):
    """(read_file calls counted, action) after the one batch of read_burst."""
    [burst] = patterns.get("read_burst").batches
    decision = middleware.after_model(burst, "t", "r")
    return middleware.snapshot("t", "r")["tool_counts"]["read_file"], decision.action


def test_5_2_read_burst_counts_thirty_reads_and_warns():
    assert burst_outcome(PinnedMiddleware()) == ch05.q2.solution_value


def test_5_2_the_severity_first_answer_is_a_listed_misconception():
    answer = burst_outcome(RunScopedMiddleware())
    assert answer in ch05.q2.wrong_answers and "PR #5245" in ch05.q2.verify(answer).explanation


def test_5_2_the_other_listed_slips_are_what_their_wrong_models_give():
    [burst] = patterns.get("read_burst").batches
    action = burst_outcome(PinnedMiddleware())[1]
    assert (len(burst), action) in ch05.q2.wrong_answers            # every read counted before deciding
    defaults = DetectorConfig()
    exceeded = DetectorConfig(tool_freq_warn=defaults.tool_freq_warn + 1,
                              tool_freq_hard_limit=defaults.tool_freq_hard_limit + 1)
    answer = burst_outcome(PinnedMiddleware(exceeded))
    assert "reached, not exceeded" in ch05.q2.verify(answer).explanation
    warn_taken_for_stop = DetectorConfig(tool_freq_warn=defaults.tool_freq_warn,
                                         tool_freq_hard_limit=defaults.tool_freq_warn)
    answer = burst_outcome(PinnedMiddleware(warn_taken_for_stop))
    assert answer in ch05.q2.wrong_answers and "a warning is not a stop" in ch05.q2.verify(answer).explanation
    # the chapter's three-read example, whose thresholds are not this burst's
    strict = PinnedMiddleware(DetectorConfig(tool_freq_warn=2, tool_freq_hard_limit=3))
    three_reads = [{"name": "read_file", "args": {"path": p}} for p in ("a.py", "b.py", "c.py")]
    decision = strict.after_model(three_reads, "t", "r")
    example = (strict.snapshot("t", "r")["tool_counts"]["read_file"], decision.action)
    assert example in ch05.q2.wrong_answers and "three-read example" in ch05.q2.verify(example).explanation


@pytest.mark.parametrize("case", ch05.Q3_CASES, ids=lambda case: str(case.args))
def test_5_3_every_hidden_case_is_what_detector_config_says(case):
    window_size, hard, overrides = case.args
    config = DetectorConfig(window_size=window_size, tool_freq_warn=1, tool_freq_hard_limit=hard,
                            tool_freq_overrides=overrides)
    assert config.freq_window == case.expected


def test_5_3_the_solution_passes_and_every_known_wrong_function_fails():
    assert ch05.q3.verify(ch05.freq_window).ok
    assert ch05.q3.verify(lambda w, h, o: DetectorConfig(window_size=w, tool_freq_warn=1, tool_freq_hard_limit=h,
                                                         tool_freq_overrides=o).freq_window).ok
    assert all(not ch05.q3.verify(wrong).ok for wrong in ch05.q3.wrong_answers)


def first_failing_case(function):
    for case in ch05.q3.cases:
        try:
            if function(*case.args) != case.expected:
                return case
        except Exception:
            return case
    return None


def test_5_3_every_case_is_the_first_to_catch_some_known_wrong_function():
    """No case is dead weight: each is where some plausible wrong function is first caught, and the feedback names
    that case's idea."""
    caught_first = set()
    for wrong in ch05.q3.wrong_answers:
        case = first_failing_case(wrong)
        assert case is not None and case.idea in ch05.q3.verify(wrong).explanation
        caught_first.add(ch05.q3.cases.index(case))
    assert [case.args for i, case in enumerate(ch05.q3.cases) if i not in caught_first] == []


def test_5_3_a_wrong_rule_written_here_is_caught_on_the_idea_it_misses():
    forgot_overrides = ch05.q3.verify(lambda window_size, hard, overrides: max(window_size, hard))
    assert "returned 40, expected 70" in forgot_overrides.explanation and "override's hard limit" in \
        forgot_overrides.explanation
    only_bash = ch05.q3.verify(lambda w, h, o: max(w, h, o["bash"][1]) if "bash" in o else max(w, h))
    assert "not only bash's" in only_bash.explanation


def runaway_stopped(override, calls=80):
    runaway = PinnedMiddleware(DetectorConfig(tool_freq_overrides={"bash": override}))
    return "stop" in [runaway.after_model([{"name": "bash", "args": {"command": f"retry {i}"}}], "t", "r").action
                      for i in range(calls)]


def pipeline_quiet(override):
    pipeline = PinnedMiddleware(DetectorConfig(tool_freq_overrides={"bash": override}))
    return {pipeline.after_model(b, "t", "r").action for b in patterns.get("bash_pipeline").batches} == {"ok"}


def test_5_4_the_override_check_has_the_right_edges():
    for override in [(41, 80), (40, 80), (41, 81), (60, 80), (80, 80), (41, 41)]:
        assert ch05.q4.verify(override).ok == (pipeline_quiet(override) and runaway_stopped(override)), override
    assert ch05.q4.verify([60, 80]).ok and ch05.q4.verify(ch05.q4.solution_value).ok
    assert "defaults" in ch05.q4.verify((30, 50)).explanation
    assert "41 or more" in ch05.q4.verify((40, 80)).explanation


def test_5_4_the_demonstrated_override_is_a_listed_slip_because_it_never_stops_80_calls():
    assert pipeline_quiet((60, 90)) and not runaway_stopped((60, 90))
    assert (60, 90) in ch05.q4.wrong_answers and not ch05.q4.verify((60, 90)).ok


# --- chapter 06 ---------------------------------------------------------------------------------------------

Q6_1 = DetectorConfig(warn_threshold=2, hard_limit=4)


def tool_messages(run):
    return sum(message["type"] == "tool" for message in run.messages)


def test_6_1_tool_messages_of_reordered_batch():
    run = AgentLoop(PinnedMiddleware(Q6_1)).run(patterns.get("reordered_batch"))
    assert tool_messages(run) == ch06.q1.solution_value


def test_6_1_the_listed_slips_are_what_their_wrong_models_count():
    batches = patterns.get("reordered_batch").batches
    calls_per_turn = len(batches[0])
    run = AgentLoop(PinnedMiddleware(Q6_1)).run(batches)
    ran_turns = sum(action != "stop" for action in run.actions)
    warnings = sum(message.get("name") == "loop_warning" for message in run.messages)
    assert ran_turns * calls_per_turn == ch06.q1.solution_value
    assert len(run.actions) * calls_per_turn in ch06.q1.wrong_answers  # the stopped turn's calls counted too
    assert ran_turns in ch06.q1.wrong_answers  # one tool message per turn
    assert len(run.actions) in ch06.q1.wrong_answers  # one per turn, the stopped turn included
    assert tool_messages(run) + warnings in ch06.q1.wrong_answers  # the warning counted as a tool message
    assert len(batches) * calls_per_turn in ch06.q1.wrong_answers  # every rotated batch taken as new
    warned_turns = sum(action == "warn" for action in run.actions)
    assert (ran_turns - warned_turns) * calls_per_turn in ch06.q1.wrong_answers  # a warning taken to strip calls


def second_run_actions(middleware):
    """r2's actions after r1 made the same call twice, in one thread (the question's story)."""
    loop = AgentLoop(middleware)
    loop.run([PYTEST] * 2, run_id="r1")
    return tuple(loop.run([PYTEST] * 4, run_id="r2").actions)


def test_6_2_a_second_run_of_the_thread():
    assert second_run_actions(PinnedMiddleware()) == ch06.q2.solution_value


def test_6_2_the_run_scoped_answer_is_a_listed_misconception():
    answer = second_run_actions(RunScopedMiddleware())
    assert answer != ch06.q2.solution_value and "PR #5344" in ch06.q2.verify(answer).explanation


def test_6_2_thresholds_read_as_exceeded_is_a_listed_misconception():
    defaults = DetectorConfig()
    exceeded = DetectorConfig(warn_threshold=defaults.warn_threshold + 1, hard_limit=defaults.hard_limit + 1)
    answer = second_run_actions(PinnedMiddleware(exceeded))
    assert answer != ch06.q2.solution_value and "reached, not exceeded" in ch06.q2.verify(answer).explanation


def test_6_2_a_run_that_went_on_after_its_stop_is_a_listed_misconception():
    middleware = PinnedMiddleware()
    for _ in range(2):
        middleware.after_model(PYTEST, "default", "r1")
    went_on = tuple(middleware.after_model(PYTEST, "default", "r2").action for _ in range(4))
    assert went_on[:3] == ch06.q2.solution_value and went_on in ch06.q2.wrong_answers


LETTERS = {("t1", "r1"): "a", ("t1", "r2"): "b", ("t2", "r1"): "c"}


def survivors_of_before_agent(middleware):
    for (thread, run), letter in LETTERS.items():  # a new fingerprint each time, so each one warns
        middleware.after_model([{"name": "bash", "args": {"command": letter}}], thread, run)
    assert set(middleware.pending) == set(LETTERS)
    middleware.before_agent("t1", "r2")
    return "".join(sorted(LETTERS[key] for key in middleware.pending))


def test_6_3_before_agent_survivors():
    assert survivors_of_before_agent(PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=9))) == \
        ch06.q3.solution_value


def test_6_3_the_later_before_agent_answer_is_a_listed_misconception():
    answer = survivors_of_before_agent(RunScopedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=9)))
    assert answer == "abc" and "PR #5344" in ch06.q3.verify(answer).explanation


def test_6_3_the_pinned_rule_written_out_keeps_what_loopkit_keeps():
    # the pinned rule: the starting thread's other runs lose their warnings, everything else stays
    kept = "".join(sorted(letter for (thread, run), letter in LETTERS.items() if thread != "t1" or run == "r2"))
    assert kept == survivors_of_before_agent(PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=9)))


WRONG_BEFORE_AGENT_RULES = {
    "the whole starting thread cleared": lambda thread, run: thread != "t1",
    "everything but the starting run cleared": lambda thread, run: (thread, run) == ("t1", "r2"),
    "the starting run's own queue cleared": lambda thread, run: (thread, run) != ("t1", "r2"),
    "the other threads cleared": lambda thread, run: thread == "t1",
}


@pytest.mark.parametrize("rule", WRONG_BEFORE_AGENT_RULES, ids=str)
def test_6_3_each_wrong_scope_for_before_agent_is_a_listed_misconception(rule):
    keeps = WRONG_BEFORE_AGENT_RULES[rule]
    kept = "".join(sorted(letter for (thread, run), letter in LETTERS.items() if keeps(thread, run)))
    assert kept in ch06.q3.wrong_answers and not ch06.q3.verify(kept).ok


def reasons_after_thread_reset(middleware):
    for run in range(1005):
        middleware.after_model(PYTEST, "default", run)
    middleware.reset("default")
    return middleware.consume_stop_reason(4), middleware.consume_stop_reason(5)


def test_6_4_a_thread_reset_keeps_unconsumed_stop_reasons():
    answer = reasons_after_thread_reset(PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=1)))
    assert answer == ch06.q4.solution_value
    assert ch06.q4.verify(list(answer)).ok


def test_6_4_the_later_reset_answer_is_a_listed_misconception():
    answer = reasons_after_thread_reset(RunScopedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=1)))
    assert answer == (None, None) and "PR #5344" in ch06.q4.verify(answer).explanation


def test_6_4_an_unbounded_store_of_stop_reasons_is_a_listed_misconception():
    unbounded = {run: "loop_capped" for run in range(1005)}
    answer = (unbounded.get(4), unbounded.get(5))
    assert answer in ch06.q4.wrong_answers and "bounded at 1000" in ch06.q4.verify(answer).explanation


def test_6_4_none_written_as_text_is_named_as_such():
    right = ch06.q4.solution_value
    as_text = tuple("None" if reason is None else reason for reason in right)
    assert as_text != right and "without quotes" in ch06.q4.verify(as_text).explanation


def test_5_4_its_own_checker_answers_in_spanish(spanish):
    assert ch05.q4.verify((45, 95)).explanation == (
        "80 comandos bash distintos seguidos no se detienen nunca: el límite estricto es demasiado alto.")
    assert ch05.q4.verify((39, 80)).explanation == "La cadena de 40 pasos sigue recibiendo un aviso."
    assert ch05.q4.verify((20, 30)).explanation == "La cadena de 40 pasos sigue recibiendo una parada."
    assert ch05.q4.verify((1, 2, 3)).explanation == "Responde con una tupla (warn, hard), como (45, 70)."
    assert ch05.q4.verify((90, 70)).explanation.startswith("Ese ajuste por herramienta no es válido: ")
    assert ch05.q4.verify((41, 80)).explanation.startswith("La cadena de pasos (40 llamadas) queda por debajo de warn")
