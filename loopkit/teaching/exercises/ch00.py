"""Chapter 00 questions: where DeerFlow's detector stops a stuck session, and what counts as a repeat.

A chapter imports them all at once, with the blank its answers replace: ``from loopkit.teaching.exercises.ch00
import *`` (see ``__all__``).
"""

from . import Question, ____, equals, letter_set

__all__ = ["____", "q1", "q2", "q3", "q4", "TRACE", "TRACE_2", "TESTS_CALL", "CANDIDATES"]


def _call(name, **args):
    return {"name": name, "args": args}


# Exercise 0.1 asks about chapter 00's stuck session, notebooks/data/stuck_task.openai_chat.json, replayed through the
# pinned detector at its defaults (warn at the 3rd time a batch comes back in the last 20, stop at the 5th). Its test
# run comes at steps 1, 4, 6, 8, 9 and 11, its read of src/notes/cli.py at steps 2, 5, 7, 10 and 12
# (tests/test_exercises_ch00_ch01.py replays the file).
q1 = Question(
    "0.1",
    "Predict: at which step does DeerFlow's detector stop the stuck session?",
    kind="prediction",
    checker=equals(
        9,
        why="The test run comes back at steps 1, 4, 6, 8 and 9. Its third time, step 6, gets a warning; its fifth "
        "time, step 9, stops the run.",
    ),
    solution=9,
    solution_code="prediction = 9   # the test run's 5th time: steps 1, 4, 6, 8, 9",
    hint="Follow one call: at which steps does the session run pytest -q tests/test_cli.py? Count them up to five.",
    wrong={
        6: "Step 6 is the test run's third time: there the detector warns the model. It stops the run only at the "
        "fifth time.",
        11: "You counted five repeats after the first run. The first run counts too: the fifth time the same call "
        "appears is step 9.",
        12: "Step 12 is the fifth read of cli.py, but the test run reaches its fifth time first, at step 9, and the "
        "run ends there.",
        8: "Step 8 is the test run's fourth time: one short of the stop.",
        5: "The detector counts how often the same call comes back, not the steps: step 5 is only the second read.",
    },
    responses={
        6: "Ask what the detector does at the third time and what at the fifth: a warning first, the stop later.",
        11: "Write the steps of the test run on the board, 1, 4, 6, 8, 9, and number them from 1: the first run is "
        "the first time.",
        12: "Ask which of the two repeated calls reaches its fifth time first: the run stops at the first one.",
        8: "Count the test run's steps out loud, 1, 4, 6, 8, 9: step 8 is only the fourth.",
        5: "Ask what the detector counts: not steps, but how often one step's calls come back.",
    },
    reveal=r"^stop_step = {answer}$",
)

#: The agent trace of exercise 0.4: one tool call per turn.
TRACE = (
    _call("web_search", query="loop detection"),
    _call("read_file", path="notes.md"),
    _call("web_search", query="loop detection"),
    _call("web_search", query="loop detection"),
    _call("read_file", path="notes.md"),
    _call("write_file", path="summary.md", content="loops"),
)

q4 = Question(
    "0.4",
    "Predict: how many of the agent's six calls repeat a call it had already made?",
    kind="prediction",
    checker=equals(
        3,
        why="Turns 3, 4 and 5 redo turns 1 and 2. Half of this run was spent on work it had already done.",
    ),
    solution=3,
    solution_code="prediction = 3   # turns 3 and 4 repeat turn 1, turn 5 repeats turn 2",
    hint="Go through the trace turn by turn and ask: has this exact call appeared before? Count the yeses.",
    wrong={
        5: "You counted every turn whose call occurs more than once, first occurrences included. Turn 1 was new "
        "work when it ran: only the later copies repeat it.",
        2: "You counted the calls that get repeated (web_search and read_file), not the turns that repeat them. "
        "web_search alone is redone twice.",
        1: "You counted only a repeat that comes right after its original (turn 4). A repeat need not be "
        "back-to-back: turn 5 redoes turn 2 three turns later.",
        6: "Every turn is a tool call, but not every call is a repeat: the first time a call is made it is new work.",
    },
    responses={
        5:
            "Number the six turns on the board, cross out each call's first occurrence (turns 1, 2 and 6), and "
            "count what is left.",
        2:
            "Ask how many turns were wasted, not which calls came back: web_search came back twice, read_file "
            "once.",
        1:
            "Point at turn 5 and ask whether it is new work, three turns after turn 2 made the same call.",
        6:
            "Ask what turn 1 repeats: nothing yet; a repeat needs an earlier copy of the same call.",
    },
    reveal=r"^repeats = {answer}$",
)

#: The agent trace of exercise 0.2: one tool call per turn.
TRACE_2 = (
    _call("read_file", path="README.md"),
    _call("bash", command="ls"),
    _call("read_file", path="setup.py"),
    _call("bash", command="pytest"),
    _call("read_file", path="setup.py"),
    _call("bash", command="ls"),
)

q2 = Question(
    "0.2",
    "In the second trace, which turn is the first to repeat a call the agent had already made?",
    kind="value",
    checker=equals(
        5,
        why="Turn 5 reads setup.py again, as turn 3 did. Turn 3 is new: a tool used before, read_file, with a "
        "different argument is a different call.",
    ),
    solution=5,
    solution_code="answer = 5   # turn 5 repeats turn 3 (read_file setup.py); turn 6 repeats turn 2",
    hint="A call is the tool AND its argument. Turn 3 uses the same tool as turn 1, but does it read the same file?",
    wrong={
        3: "Turn 3 uses read_file again, but on another file. A call is the tool and its arguments: the same tool "
        "with a different path is new work.",
        4: "Turn 4 is the second bash call, but it runs pytest, not ls: another command is another call.",
        6: "Turn 6 does repeat turn 2, but it is not the first repeat: look one turn earlier.",
    },
    reveal=r"^first_repeat = {answer}$",
)

#: Exercise 0.3: a call that runs the tests ...
TESTS_CALL = _call("bash", command="pytest")

#: ... and four later calls. Which ones does the detector count as that same action again?
CANDIDATES = {
    "A": _call("bash", command="pytest", description="run the tests again"),
    "B": _call("bash", command="pytest -x"),
    "C": _call("shell", command="pytest"),
    "D": _call("bash", command="pytest", timeout=60),
}

q3 = Question(
    "0.3",
    "Predict: which of the calls A to D does the detector count as a repeat of TESTS_CALL?",
    kind="prediction",
    checker=equals(
        frozenset("ad"),
        why="A call is keyed by its tool name and the fields that say what it does (here the command), not by "
        "a description or a timeout: A and D are the same action reworded. B runs another command and C is "
        "another tool, so both are new. Chapter 03 shows which fields count.",
        normalize=letter_set,
        item_reasons={
            "A": "A only adds a description, which says why the call is made, not what it does: the same action.",
            "B": "B runs pytest -x, another command: the command is what the call does, so B is new work.",
            "C": "C calls shell, another tool: the tool name is part of every key, so C is new work.",
            "D": "D only adds a timeout, which limits the call but does not change what it does: the same action.",
        },
    ),
    solution={"A", "D"},
    solution_code='prediction = {"A", "D"}   # fingerprint([CANDIDATES[x]]) == fingerprint([TESTS_CALL])',
    hint="Which arguments say what the call does, and which only describe it or limit it? The tool name counts too.",
    wrong={
        "": "You required the calls to be identical. The detector ignores fields that do not change what a call "
        "does, such as a description or a timeout, so a model cannot dodge it by rewording.",
        "A": "Right about A, but the timeout of D is as incidental as A's description: D runs the same command.",
        "D": "Right about D, but A's description only says why the call is made; the command is the same.",
        "ABD": "B is another command: pytest -x is not pytest. The command is what the call does, so it counts.",
        "ACD": "C is another tool. The tool name is part of every key: shell and bash are different actions.",
        "ABCD": "B runs another command and C is another tool: only incidental fields (description, timeout) "
        "are ignored.",
    },
    reveal=r"^repeats = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4)
