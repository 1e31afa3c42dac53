"""The reference answers of chapters 05 and 06 agree with what the pinned middleware does on the question's data,
and the answers listed as misconceptions are the ones a plausible wrong model gives."""

import pytest

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware, patterns
from loopkit.agent_loop import AgentLoop
from loopkit.exercises import ch05, ch06

PYTEST = [{"name": "bash", "args": {"command": "pytest"}}]


def actions_of(middleware, batch, turns):
    return tuple(middleware.after_model(batch, "t", "r").action for _ in range(turns))


# --- chapter 05 ---------------------------------------------------------------------------------------------

Q5_1 = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=2, tool_freq_hard_limit=3)


def test_5_1_four_identical_batches_with_both_layers_in_play():
    assert actions_of(PinnedMiddleware(Q5_1), PYTEST, 4) == ch05.q1.solution_value
    assert ch05.q1.verify(list(ch05.q1.solution_value)).ok


def test_5_1_the_severity_first_answer_is_a_listed_misconception():
    later = actions_of(RunScopedMiddleware(Q5_1), PYTEST, 4)
    assert later != ch05.q1.solution_value
    assert "PR #5245" in ch05.q1.verify(later).explanation


def test_5_1_the_hash_layer_alone_is_a_listed_misconception():
    hash_only = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=99, tool_freq_hard_limit=99)
    answer = actions_of(PinnedMiddleware(hash_only), PYTEST, 4)
    assert answer in ch05.q1.wrong_answers and not ch05.q1.verify(answer).ok


def test_5_2_read_burst_counts_thirty_reads_and_warns():
    [burst] = patterns.get("read_burst").batches
    pinned = PinnedMiddleware()
    decision = pinned.after_model(burst, "t", "r")
    assert (pinned.snapshot("t", "r")["tool_counts"]["read_file"], decision.action) == ch05.q2.solution_value


def test_5_2_the_severity_first_answer_is_a_listed_misconception():
    [burst] = patterns.get("read_burst").batches
    later = RunScopedMiddleware()
    decision = later.after_model(burst, "t", "r")
    answer = (later.snapshot("t", "r")["tool_counts"]["read_file"], decision.action)
    assert answer in ch05.q2.wrong_answers and "PR #5245" in ch05.q2.verify(answer).explanation


@pytest.mark.parametrize("case", ch05.Q3_CASES, ids=str)
def test_5_3_every_hidden_case_is_what_detector_config_says(case):
    (window_size, hard, overrides), expected = case
    config = DetectorConfig(window_size=window_size, tool_freq_warn=1, tool_freq_hard_limit=hard,
                            tool_freq_overrides=overrides)
    assert config.freq_window == expected


def test_5_3_each_known_wrong_function_fails_on_a_different_blind_spot():
    wrong = ch05.q3.wrong_answers
    assert ch05.q3.verify(ch05.freq_window).ok
    assert all(not ch05.q3.verify(f).ok for f in wrong)
    assert "returned 40, expected 70" in ch05.q3.verify(wrong[0]).explanation  # forgot the overrides


def test_5_4_the_override_check_has_the_right_edges():
    assert ch05.q4.verify((41, 80)).ok and ch05.q4.verify([60, 80]).ok
    assert not ch05.q4.verify((40, 80)).ok  # the pipeline's 40th call would warn
    assert not ch05.q4.verify((41, 81)).ok  # 80 runaway calls never reach 81
    assert "defaults" in ch05.q4.verify((30, 50)).explanation


def test_5_4_the_demonstrated_override_is_a_listed_slip_because_it_never_stops_80_calls():
    runaway = PinnedMiddleware(DetectorConfig(tool_freq_overrides={"bash": (60, 90)}))
    actions = [runaway.after_model([{"name": "bash", "args": {"command": f"retry {i}"}}], "t", "r").action
               for i in range(80)]
    assert "stop" not in actions
    assert (60, 90) in ch05.q4.wrong_answers and not ch05.q4.verify((60, 90)).ok


# --- chapter 06 ---------------------------------------------------------------------------------------------


def tool_messages(run):
    return sum(message["type"] == "tool" for message in run.messages)


def test_6_1_tool_messages_of_reordered_batch():
    run = AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4))).run(
        patterns.get("reordered_batch"))
    assert tool_messages(run) == ch06.q1.solution_value


def test_6_1_the_listed_slips_are_what_their_wrong_models_count():
    batches = patterns.get("reordered_batch").batches
    calls_per_turn = len(batches[0])
    run = AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4))).run(batches)
    ran_turns = sum(action != "stop" for action in run.actions)
    warnings = sum(message.get("name") == "loop_warning" for message in run.messages)
    assert ran_turns * calls_per_turn == ch06.q1.solution_value
    assert len(run.actions) * calls_per_turn in ch06.q1.wrong_answers  # the stopped turn's calls counted too
    assert ran_turns in ch06.q1.wrong_answers  # one tool message per turn
    assert tool_messages(run) + warnings in ch06.q1.wrong_answers  # the warning counted as a tool message
    assert len(batches) * calls_per_turn in ch06.q1.wrong_answers  # every rotated batch taken as new


def test_6_2_a_second_run_of_the_thread():
    loop = AgentLoop(PinnedMiddleware())
    loop.run([PYTEST] * 2, run_id="r1")
    assert tuple(loop.run([PYTEST] * 4, run_id="r2").actions) == ch06.q2.solution_value


def test_6_2_the_run_scoped_answer_is_a_listed_misconception():
    scoped = AgentLoop(RunScopedMiddleware())
    scoped.run([PYTEST] * 2, run_id="r1")
    answer = tuple(scoped.run([PYTEST] * 4, run_id="r2").actions)
    assert answer != ch06.q2.solution_value and "PR #5344" in ch06.q2.verify(answer).explanation


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



def test_5_4_its_own_checker_answers_in_spanish(spanish):
    assert ch05.q4.verify((45, 95)).explanation == (
        "80 comandos bash distintos seguidos no se detienen nunca: el límite estricto es demasiado alto.")
    assert ch05.q4.verify((39, 80)).explanation == "La cadena de 40 pasos sigue recibiendo un aviso."
    assert ch05.q4.verify((20, 30)).explanation == "La cadena de 40 pasos sigue recibiendo una parada."
    assert ch05.q4.verify((1, 2, 3)).explanation == "Responde con una tupla (warn, hard), como (45, 70)."
    assert ch05.q4.verify((90, 70)).explanation.startswith("Ese ajuste por herramienta no es válido: ")
    assert ch05.q4.verify((41, 80)).explanation.startswith("La cadena de pasos (40 llamadas) queda por debajo de warn")
