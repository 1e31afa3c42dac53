"""Chapter 07 exercises: how the detector changed after the pinned commit, and why."""

from loopkit.middleware import thread_key

from . import Question, as_tuple, equals, function_cases

q1 = Question(
    "7.1",
    "What does the later model decide for [bash, bash, grep, bash] with tool_freq_warn=2, tool_freq_hard_limit=3?",
    kind="value",
    checker=equals(("stop", "bash", 3),
                   why="The later model counts the whole batch: bash reaches 2 (a warning candidate), grep 1, then "
                       "bash 3, its hard limit, and a hard stop wins. The pinned model would have warned at the "
                       "second call and let all four run.",
                   normalize=as_tuple),
    solution=("stop", "bash", 3),
    hint="Count every call of the batch in order. Does a warning candidate end the scan in the later model?",
    wrong=[("warn", "bash", 2), ("stop", "bash", 4), ("warn", "grep", 1)],
)

q2 = Question(
    "7.2",
    "Seven user turns, one identical call each, fresh run ids, one thread: how many turns does the pinned model stop?",
    kind="value",
    checker=equals(3, why="At the pinned commit the seven calls share the thread's hash window: the count reaches "
                          "the hard limit 5 at turn 5 and stays at or above it, so turns 5, 6 and 7 are stopped. "
                          "The later model keeps each run's own window and stops none."),
    solution=3,
    solution_code="answer = 3   # turns 5, 6 and 7: the thread's window holds 5, 6 and 7 copies",
    hint="Whose window does each turn's call land in at the pinned commit? When does its count first reach 5?",
    wrong=[1, 0, 2, 7],
)


def scope_key(version, thread_id, run_id):
    if version == "pinned":
        return thread_key(thread_id)
    return (thread_key(thread_id), run_id)


q3 = Question(
    "7.3",
    "Write scope_key(version, thread_id, run_id): the key the detector's state lives under",
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
