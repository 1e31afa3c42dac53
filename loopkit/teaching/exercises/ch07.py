"""Chapter 07 exercises: how the detector changed after the pinned commit, and why."""

from loopkit.core.middleware import thread_key

from . import Case, Question, ____, equals, function_cases

__all__ = ["____", "q1", "q2", "q3"]

q1 = Question(
    "7.1",
    "the whole batch",
    kind="prediction",
    checker=equals(("stop", "bash", 3),
                   why="The later model counts the whole batch: bash reaches 2 (a warning candidate), grep 1, then "
                       "bash 3, its hard limit, and a hard stop wins. The pinned model would have warned at the "
                       "second call and let all four run."),
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
        ("ok", None, None): "The four commands differ, so no batch repeats (the hash layer), but the frequency layer "
                            "counts calls by tool name, whatever the arguments: bash is called three times.",
        ("stop", "read_file", 3): "That is the decision for the issue's batch of three read_file calls. This batch "
                                  "has no read_file: count its calls by their own names.",
        ("stop", "frequency", 3): "frequency is the layer that decided; the decision also names the tool whose count "
                                  "reached the limit, and that tool is what the prediction asks for.",
        ("stop", "bash", 2): "At 2, bash reaches tool_freq_warn, a warning candidate. The stop comes at the hard limit, "
                             "3, with bash's third call, the fourth of the batch.",
    },
    reveal=r"^RunScopedMiddleware +{answer}",
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
        2: "hard_limit=5 stops at the 5th occurrence of the batch, the first included (the 4th repeat), not at the "
           "5th repeat: turn 5 holds the 5th copy, so turns 5, 6 and 7 are stopped.",
        4: "The hard limit is 5: turns 1 to 4 bring the count to 4, so the first stop is at turn 5. The warning at "
           "turn 3 is no stop: the call still runs.",
        5: "From turn 3 on the count is at or above the warn threshold, but a warning is no stop, and it is given "
           "once per fingerprint: turn 4 is ok. Only the turns at the hard limit 5 or above are stopped.",
    },
    reveal=r"^PinnedMiddleware .*stopped = {answer}$",
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
        [Case(("pinned", "t1", "r1"), "t1",
              "at the pinned commit the state belongs to the thread: the key is the thread's id alone"),
         Case(("pinned", "t1", "r2"), "t1",
              "two runs of one thread share one key at the pinned commit: the run id plays no part"),
         Case(("run-scoped", "t1", "r1"), ("t1", "r1"),
              "after PR #5344 the state belongs to the pair (thread key, run id), a tuple, so it can key a dict"),
         Case(("pinned", None, "r1"), "default",
              "a missing thread id is the thread 'default', as upstream reads it: thread_key does that"),
         Case(("pinned", "", "r9"), "default",
              "an empty thread id is 'default' too: use thread_key, not a test for None"),
         Case(("pinned", 7, "r1"), "7",
              "a thread id that is not text becomes text (thread_key(7) is '7'), so 7 and '7' are one thread"),
         Case(("run-scoped", None, "r2"), ("default", "r2"),
              "in the pair the thread is read as at the pinned commit: a missing thread id is 'default'"),
         Case(("run-scoped", "", "r3"), ("default", "r3"),
              "an empty thread id is 'default' in the pair too"),
         Case(("run-scoped", "t1", None), ("t1", None),
              "a run id of None stays None, a key of its own: only the thread id gets a default")],
        why="At the pinned commit the state belongs to the thread (a missing or empty id is 'default'); after "
            "PR #5344 it belongs to the (thread, run) pair, and a run id of None is a key of its own."),
    solution=scope_key,
    hint="loopkit.core.middleware.thread_key turns a thread id into the thread's key. Which version adds the run id?",
    wrong=[lambda version, thread_id, run_id: (thread_id, run_id),
           lambda version, thread_id, run_id: thread_id if version == "pinned" else (thread_id, run_id),
           lambda version, thread_id, run_id: thread_key(thread_id),
           lambda version, thread_id, run_id: (thread_key(thread_id), run_id) if version == "pinned"
           else thread_key(thread_id),
           lambda version, thread_id, run_id: thread_key(thread_id) if version == "pinned" else (thread_id, run_id),
           lambda version, thread_id, run_id: thread_key(thread_id) if version == "pinned"
           else [thread_key(thread_id), run_id],
           lambda version, thread_id, run_id: thread_key(thread_id) if version == "pinned"
           else (thread_key(thread_id), run_id or "default"),
           lambda version, thread_id, run_id: thread_key(thread_id) if version == "pinned"
           else (thread_key(thread_id), str(run_id)),
           lambda version, thread_id, run_id: (thread_id or "default") if version == "pinned"
           else (thread_key(thread_id), run_id),
           lambda version, thread_id, run_id: ("default" if thread_id is None else str(thread_id))
           if version == "pinned" else (thread_key(thread_id), run_id)],
)

QUESTIONS = (q1, q2, q3)
