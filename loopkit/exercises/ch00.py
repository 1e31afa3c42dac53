"""Chapter 00 practice questions: how the self-checks work, and what counts as a repeat."""

from . import Question, equals, letter_set

#: The agent trace of exercise 0.1: one tool call per turn, as "tool argument".
TRACE = (
    'web_search "loop detection"',
    "read_file notes.md",
    'web_search "loop detection"',
    'web_search "loop detection"',
    "read_file notes.md",
    "write_file summary.md",
)

q1 = Question(
    "0.1",
    "How many of the agent's six calls repeat a call it had already made?",
    kind="value",
    checker=equals(
        3,
        why="Turns 3, 4 and 5 redo turns 1 and 2. Half of this run was spent on work it had already done.",
    ),
    solution=3,
    solution_code="answer = 3   # turns 3 and 4 repeat turn 1, turn 5 repeats turn 2",
    hint="Go through the trace turn by turn and ask: has this exact call appeared before? Count the yeses.",
    wrong=[6, 4, 2, 5, "3"],
)

#: The agent trace of exercise 0.2: one tool call per turn, as "tool argument".
TRACE_2 = (
    "read_file README.md",
    "bash ls",
    "read_file setup.py",
    "bash pytest",
    "read_file setup.py",
    "bash ls",
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
    wrong=[3, 4, 6, 2, "5"],
)

#: Exercise 0.3: the call of chapter 00's stuck run that runs the tests ...
TESTS_CALL = {"name": "bash", "args": {"command": "pytest"}}

#: ... and four later calls. Which ones does the detector count as that same action again?
CANDIDATES = {
    "A": {"name": "bash", "args": {"command": "pytest", "description": "run the tests again"}},
    "B": {"name": "bash", "args": {"command": "pytest -x"}},
    "C": {"name": "shell", "args": {"command": "pytest"}},
    "D": {"name": "bash", "args": {"command": "pytest", "timeout": 60}},
}


q3 = Question(
    "0.3",
    "Which of the calls A to D does the detector count as a repeat of TESTS_CALL?",
    kind="value",
    checker=equals(
        frozenset("ad"),
        why="A call is keyed by its tool name and the fields that say what it does (here the command), not by "
        "a description or a timeout: A and D are the same action reworded. B runs another command and C is "
        "another tool, so both are new. Chapter 03 shows which fields count.",
        normalize=letter_set,
    ),
    solution={"A", "D"},
    solution_code='answer = {"A", "D"}   # fingerprint([CANDIDATES[x]]) == fingerprint([TESTS_CALL])',
    hint="Compare fingerprints: fingerprint([CANDIDATES['A']]) == fingerprint([TESTS_CALL]), and so on for B, C, D.",
    wrong=[{"A"}, {"D"}, "ABD", {"A", "C", "D"}, "ABCD", "", 4],
)

QUESTIONS = (q1, q2, q3)
