"""Chapter 00 practice question: how the self-checks work."""

from . import Question, equals

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
    checker=equals(
        3,
        why="Turns 3, 4 and 5 redo turns 1 and 2. Half of this run was spent on work it had already done.",
    ),
    solution=3,
    solution_code="answer = 3   # turns 3 and 4 repeat turn 1, turn 5 repeats turn 2",
    hint="Go through the trace turn by turn and ask: has this exact call appeared before? Count the yeses.",
    wrong=[6, 4, 2, 5, "3"],
)
