"""Chapter 07 exercises: how the detector changed after the pinned commit, and why."""

from loopkit.middleware import thread_key

from . import Question, as_tuple, equals, function_cases

q1 = Question(
    "7.1",
    "the whole batch",
    kind="prediction",
    checker=equals(("stop", "bash", 3),
                   why="The later model counts the whole batch: bash reaches 2 (a warning candidate), grep 1, then "
                       "bash 3, its hard limit, and a hard stop wins. The pinned model would have warned at the "
                       "second call and let all four run.",
                   normalize=as_tuple),
    solution=("stop", "bash", 3),
    hint="Count every call of the batch in order, each under its own name. Does a warning candidate end the scan "
         "in the later model?",
    wrong={
        ("warn", "bash", 2): "That is the pinned model (f1f4af99), which returns at the first warning. PR #5245 "
                             "counts the whole batch first, and a hard stop anywhere in it wins.",
        ("stop", "bash", 4): "The count is bash's calls, not the position in the batch: grep is counted under its "
                             "own name, so the fourth call is bash's third.",
        ("warn", "bash", 3): "At 3, bash reaches tool_freq_hard_limit: that is a stop, and it wins over the warning "
                             "candidate at 2.",
    },
)

q2 = Question(
    "7.2",
    "seven turns",
    kind="prediction",
    checker=equals(3, why="At the pinned commit the seven calls share the thread's hash window: the count reaches "
                          "the hard limit 5 at turn 5 and stays at or above it, so turns 5, 6 and 7 are stopped. "
                          "The later model keeps each run's own window and stops none."),
    solution=3,
    solution_code="answer = 3   # turns 5, 6 and 7: the thread's window holds 5, 6 and 7 copies",
    hint="Whose window does each turn's call land in at the pinned commit? When does its count first reach 5, and "
         "does a stop empty the window?",
    wrong={
        1: "A stop strips the call but does not empty the window: the stopped batch still counts, and turns 6 and "
           "7 find 6 and 7 copies, at or above the hard limit.",
        0: "That is the later, run-scoped model (PR #5344). At the pinned commit f1f4af99 every turn's call lands "
           "in the thread's one window, whatever its run id.",
        4: "The hard limit is 5: turns 1 to 4 bring the count to 4, so the first stop is at turn 5.",
    },
)


def scope_key(version, thread_id, run_id):
    if version == "pinned":
        return thread_key(thread_id)
    return (thread_key(thread_id), run_id)


q3 = Question(
    "7.3",
    "whose state is it?",
    kind="function",
    checker=function_cases(
        [(("pinned", "t1", "r1"), "t1"),
         (("pinned", None, "r1"), "default"),
         (("pinned", "", "r9"), "default"),
         (("pinned", 7, "r1"), "7"),
         (("run-scoped", "t1", "r1"), ("t1", "r1")),
         (("run-scoped", "t1", None), ("t1", None)),
         (("run-scoped", None, "r2"), ("default", "r2"))],
        why="At the pinned commit the state belongs to the thread (a missing or empty id is 'default'); after "
            "PR #5344 it belongs to the (thread, run) pair, and a run id of None is a key of its own."),
    solution=scope_key,
    hint="loopkit.middleware.thread_key turns a thread id into the thread's key. Which version adds the run id?",
    wrong=[lambda version, thread_id, run_id: (thread_id, run_id),
           lambda version, thread_id, run_id: thread_id if version == "pinned" else (thread_id, run_id),
           lambda version, thread_id, run_id: thread_key(thread_id)],
)

QUESTIONS = (q1, q2, q3)
