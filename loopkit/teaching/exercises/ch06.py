"""Chapter 06 exercises: the pinned lifecycle, hook by hook."""

from . import Question, ____, equals, letter_set

__all__ = ["____", "q1", "q2", "q3", "q4"]

q1 = Question(
    "6.1",
    "what ran?",
    kind="prediction",
    checker=equals(9, why="reordered_batch makes the same three calls every turn, in a rotating order: one "
                          "fingerprint. Turns 1-3 run their three calls (turn 2 warned, and a warning lets the tools "
                          "run); turn 4 reaches the hard limit, so its calls are stripped: 3 turns x 3 calls = 9."),
    solution=9,
    solution_code=("answer = 9   # AgentLoop(PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=4)))"
                   ".run(patterns.get('reordered_batch'))"),
    hint="Does the order of the calls change a batch's fingerprint (chapter 03)? Which turn is stopped, and do the "
         "calls of a warned turn run?",
    wrong={
        12: "A stop strips the calls of its turn: the fourth turn's three calls never run, so they leave no tool "
            "messages.",
        3: "Every call gets its own tool message, paired with it by call id: three per turn that ran.",
        6: "A warning strips nothing: the warned turn's calls run as usual, and the warning reaches the model at its "
           "next call. Only a stop removes calls.",
        10: "The warning is delivered as a human message named loop_warning, not as a tool message.",
        18: "The order of the calls does not change the fingerprint (chapter 03): the rotated batches are one "
            "action, warned at turn 2 and stopped at turn 4.",
        4: "A tool message answers one call, not one turn, and a stopped turn runs no call at all: count the calls "
           "of the turns that ran.",
    },
    reveal=r"^tool_messages = {answer}$",
)

q2 = Question(
    "6.2",
    "a second run in the same thread",
    kind="prediction",
    checker=equals(("warn", "ok", "stop"),
                   why="At the pinned commit the windows belong to the thread, not the run: r2 starts where r1 "
                       "left off, with two calls already in the window. Its first call is the third occurrence in "
                       "the thread's window (warn), the fourth is ok (already warned), the fifth stops. The stopped "
                       "run makes no fourth call."),
    solution=("warn", "ok", "stop"),
    hint="Whose window does r2's first call land in? Count the calls in that window, r1's included.",
    wrong={
        ("ok", "ok", "warn", "ok"):
            "That is a run-scoped budget, as in the later model (PR #5344). At the pinned commit f1f4af99 the "
            "windows belong to the thread, so r2 starts where r1 left off.",
        ("stop",):
            "r1 made the call only twice: r2's first call is the third occurrence in the thread's window, which "
            "warns. A stop needs the fifth occurrence.",
        ("warn", "warn", "stop"):
            "A fingerprint is warned once while it stays in the window: the fourth call in the thread is ok.",
        ("warn", "ok", "stop", "stop"):
            "A stop ends the run: the stopped call's message is the run's final answer, so there is no fourth "
            "model call.",
        ("ok", "warn", "ok", "stop"):
            "Thresholds are reached, not exceeded: r2's first call is the third occurrence in the thread's window, "
            "which equals warn_threshold=3 and warns; the fifth occurrence equals hard_limit=5 and stops.",
    },
    reveal=r"^r2_actions = {answer}$",
)


def _survivors(answer):
    try:
        return letter_set(answer)
    except TypeError:
        return answer


q3 = Question(
    "6.3",
    "which warnings survive?",
    kind="prediction",
    checker=equals(frozenset("bc"),
                   why="The pinned before_agent drops the queued warnings of the thread's *other* runs: (t1, r1) "
                       "goes. The run's own queue (t1, r2) and every other thread's queue (t2, r1) stay.",
                   normalize=_survivors),
    solution="bc",
    hint="before_agent protects the run that is starting from stale warnings. Stale warnings of which runs?",
    wrong={
        "abc": "That is the later model, where before_agent does nothing (PR #5344). At the pinned commit f1f4af99 "
               "it drops the queued warnings of the thread's other runs.",
        "c": "The starting run's own queue stays: it is not stale, it is the run's own. Only the thread's other "
             "runs lose theirs.",
        "b": "before_agent looks only at the thread that is starting: thread t2's queue is not touched.",
        "ac": "Dropping a run's own warnings is after_agent's job, at the end of that run, not before_agent's.",
        "ab": "before_agent looks only at the thread that is starting: another thread's queue (c) is not its "
              "business. Inside thread t1 it drops the other runs' warnings, so a goes.",
    },
    reveal=r"^survivors = {answer}$",
)

q4 = Question(
    "6.4",
    "an unclaimed stop reason",
    kind="prediction",
    checker=equals((None, "loop_capped"),
                   why="The FIFO dict of 1000 pushed out runs 0-4 only, and at the pinned commit a reset of one "
                       "thread keeps the stop reasons: they belong to runs, and their readers may not have come "
                       "yet. Run 5's reason is still there, run 4's is gone."),
    solution=(None, "loop_capped"),
    hint="Which runs did 1005 stops push out of a dict of 1000? And what does reset(thread_id) forget?",
    wrong={
        (None, None): "That is the later model, whose reset(thread_id) also clears the thread's unconsumed stop "
                      "reasons (PR #5344). At the pinned commit f1f4af99 a thread reset keeps them.",
        ("loop_capped", "loop_capped"): "The dict is bounded at 1000 entries: 1005 stops push the five oldest out.",
        ("loop_capped", None): "First in, first out: the oldest runs (0 to 4) are pushed out, and the newest stay.",
        ("None", "loop_capped"):
            "Right pair, but write None without quotes: consume_stop_reason returns the value None for a run it has "
            "no reason for, not the text 'None'.",
    },
    reveal=r"^\(reason_4, reason_5\) = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4)
