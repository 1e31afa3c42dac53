"""Chapter 06 exercises: decision order, where a warning goes, run scopes, and stop reasons."""

from . import Question, equals

q1 = Question(
    "6.1",
    "When does the early-return ordering stop [A] * 6?",
    checker=equals(6, why="Batch 2's hash warning returned before bash was counted, so every frequency decision "
                          "comes one batch later: warn at 4, stop at 6 (the current ordering stops at 5)."),
    solution=6,
    solution_code="answer = 6   # EarlyReturnLoopDetector(warn_threshold=2, hard_limit=9, tool_freq_warn=3, "
                  "tool_freq_hard_limit=5)",
    hint="With warn_threshold=2 the hash layer warns at batch 2. In the early-return ordering, what happens to "
         "that batch's bash call?",
    wrong=[5, 4, None],
)

q2 = Question(
    "6.2",
    "How many warning messages are in the conversation when exact_repeat is stopped?",
    checker=equals(1, why="The hash layer warns once at batch 3 (a hash is warned once while it stays in the "
                          "window); the warning is delivered before model call 4; batch 5 is stopped."),
    solution=1,
    hint="Count the user-role messages after the task. How often does one fingerprint warn before it is stopped?",
    wrong=[0, 2, 3],
)

q3 = Question(
    "6.3",
    "Run r1 makes the same call 4 times; then run r2 of the same thread makes it 4 more times. r2's actions?",
    checker=equals(("ok", "ok", "warn", "ok"),
                   why="The budget belongs to (thread_id, run_id): r2 starts with an empty window, so the same "
                       "loop gets a fresh allowance. Only reusing r1 would have stopped it at once.",
                   normalize=lambda a: tuple(a) if isinstance(a, (list, tuple)) else a),
    solution=("ok", "ok", "warn", "ok"),
    hint="Which key do the windows live under? Is (thread, 'r2') the same scope as (thread, 'r1')?",
    wrong=[("stop", "stop", "stop", "stop"), ("stop",), ("ok", "ok", "ok", "ok")],
)

q4 = Question(
    "6.4",
    "1001 runs were stopped and nobody consumed a reason. What does consume_stop_reason(first run) return?",
    checker=equals(None, why="Stop reasons live in a FIFO dict of 1000: the 1001st stop evicted the oldest, "
                             "so the first run's reason is gone.",
                   normalize=lambda a: None if isinstance(a, str) and a.strip().casefold() == "none" else a),
    solution=None,
    hint="How many stop reasons does the detector keep, and which one goes first when it is full?",
    wrong=["loop_capped", 1000, 1],
)
