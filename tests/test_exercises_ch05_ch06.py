"""The reference answers of chapters 05 and 06 agree with what the pinned middleware does on the question's data,
and the answers that reflect a misconception are the ones a plausible wrong model would give."""

from loopkit import AgentLoop, DetectorConfig, PinnedMiddleware, RunScopedMiddleware, patterns
from loopkit.exercises import ch05, ch06

PYTEST = [{"name": "bash", "args": {"command": "pytest"}}]


def test_5_1_four_identical_batches():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4, tool_freq_warn=3, tool_freq_hard_limit=9))
    actions = tuple(m.after_model(PYTEST, "t", "r").action for _ in range(4))
    assert actions == ch05.q1.solution_value
    later = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4, tool_freq_warn=3,
                                               tool_freq_hard_limit=9))
    counted_everything = tuple(later.after_model(PYTEST, "t", "r").action for _ in range(4))
    assert counted_everything in ch05.q1.wrong_answers  # the severity-first answer is a listed misconception


def test_5_2_read_burst_counts_thirty_reads_and_warns():
    m = PinnedMiddleware()
    [burst] = patterns.get("read_burst").batches
    decision = m.after_model(burst, "t", "r")
    assert (m.snapshot("t", "r")["tool_counts"]["read_file"], decision.action) == ch05.q2.solution_value
    assert (60, RunScopedMiddleware().after_model(burst, "t", "r").action) == (60, "stop")
    assert (50, "stop") in ch05.q2.wrong_answers


def test_5_3_window_is_the_largest_hard_limit():
    cfg = DetectorConfig(window_size=25, tool_freq_warn=20, tool_freq_hard_limit=40,
                         tool_freq_overrides={"grep": (10, 30), "bash": (60, 70)})
    assert cfg.freq_window == ch05.q3.solution_value


def test_5_4_the_override_check_has_the_right_edges():
    assert ch05.q4.verify((41, 80)).ok and ch05.q4.verify([60, 80]).ok
    assert not ch05.q4.verify((40, 80)).ok  # the pipeline's 40th call would warn
    assert not ch05.q4.verify((41, 81)).ok  # 80 runaway calls never reach 81


def test_6_1_tool_messages_of_exact_repeat():
    loop = AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4)))
    run = loop.run(patterns.get("exact_repeat"))
    assert sum(m["type"] == "tool" for m in run.messages) == ch06.q1.solution_value


def test_6_2_a_second_run_of_the_thread():
    loop = AgentLoop(PinnedMiddleware())
    loop.run([PYTEST] * 2, run_id="r1")
    assert tuple(loop.run([PYTEST] * 4, run_id="r2").actions) == ch06.q2.solution_value
    scoped = AgentLoop(RunScopedMiddleware())
    scoped.run([PYTEST] * 2, run_id="r1")
    assert tuple(scoped.run([PYTEST] * 4, run_id="r2").actions) in ch06.q2.wrong_answers


def test_6_3_before_agent_survivors():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=9))
    letters = {("t1", "r1"): "a", ("t1", "r2"): "b", ("t2", "r1"): "c"}
    for (thread, run), letter in letters.items():  # a new fingerprint each time, so each one warns
        m.after_model([{"name": "bash", "args": {"command": letter}}], thread, run)
    assert set(m.pending) == set(letters)
    m.before_agent("t1", "r2")
    assert "".join(sorted(letters[key] for key in m.pending)) == ch06.q3.solution_value


def test_6_4_a_thread_reset_keeps_unconsumed_stop_reasons():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=1, hard_limit=1))
    for run in range(1005):
        m.after_model(PYTEST, "default", run)
    m.reset("default")
    kept = {run for run in (4, 5) if m.consume_stop_reason(run) is not None}
    assert kept == ch06.q4.solution_value
    assert set() in ch06.q4.wrong_answers  # what a reset that dropped the stop reasons would leave
    assert ch06.q4.verify([5]).ok and ch06.q4.verify(5).ok and not ch06.q4.verify("5").ok
