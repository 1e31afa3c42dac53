"""Chapter 06 exercises: the pinned lifecycle, hook by hook."""

from . import Question, as_tuple, equals, letter_set


q1 = Question(
    "6.1",
    "How many tool messages does the conversation hold when exact_repeat ends under warn 2, hard 4?",
    kind="value",
    checker=equals(3, why="Model calls 1-3 ran their bash call (call 2 warned, but a warning lets the tools run); "
                          "call 4 reached the hard limit, so its call was stripped and never ran: 3 results."),
    solution=3,
    solution_code=("answer = 3   # AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4)))"
                   ".run(patterns.get('exact_repeat'))"),
    hint="A warning does not stop the tools of its turn. Which model call is stopped, and does its call run?",
    wrong=[4, 2, 5, 8],
)

q2 = Question(
    "6.2",
    "Run r1 makes the same call twice; then run r2 of the same thread makes it four times. r2's actions?",
    kind="value",
    checker=equals(("warn", "ok", "stop"),
                   why="At the pinned commit the windows belong to the thread, not the run: r2's first call is the "
                       "third in the thread's window (warn), the fourth is ok (already warned), the fifth stops. "
                       "The stopped run makes no fourth call.",
                   normalize=as_tuple),
    solution=("warn", "ok", "stop"),
    hint="Whose window does r2's first call land in? Count the calls in that window, r1's included.",
    wrong=[("ok", "ok", "warn", "ok"), ("stop",), ("warn", "ok", "stop", "stop"), ("ok", "warn", "ok", "stop")],
)


def _survivors(answer):
    try:
        return letter_set(answer)
    except TypeError:
        return answer


q3 = Question(
    "6.3",
    "Which queued warnings survive before_agent('t1', 'r2')?",
    kind="value",
    checker=equals(frozenset("bc"),
                   why="The pinned before_agent drops the queued warnings of the thread's *other* runs: (t1, r1) "
                       "goes. The run's own queue (t1, r2) and every other thread's queue (t2, r1) stay.",
                   normalize=_survivors),
    solution="bc",
    hint="before_agent protects the run that is starting from stale warnings. Stale warnings of which runs?",
    wrong=["c", "abc", "b", "ac"],
)

def _run_ids(answer):
    """A set of run ids, written as a set, a list, a tuple or a single id."""
    if isinstance(answer, (set, frozenset, list, tuple)):
        return frozenset(answer)
    return frozenset([answer]) if isinstance(answer, int) else answer


q4 = Question(
    "6.4",
    "1005 runs were stopped, nobody consumed a reason, then reset('default'). Which of runs 4 and 5 still have one?",
    kind="value",
    checker=equals(frozenset({5}),
                   why="The FIFO dict of 1000 pushed out runs 0-4 only, and at the pinned commit a reset of one "
                       "thread keeps the stop reasons: run 5's reason is still there, run 4's is gone.",
                   normalize=_run_ids),
    solution={5},
    hint="Which runs did 1005 stops push out of a dict of 1000? And what does reset(thread_id) forget?",
    wrong=[set(), {4, 5}, {4}, 5.0],
)

QUESTIONS = (q1, q2, q3, q4)
