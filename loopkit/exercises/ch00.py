"""Chapter 00 practice question: how the self-checks work."""

from . import Question, equals

#: The agent trace chapter 00 prints: one tool call per turn, as "tool target".
TRACE = (
    "read_file app.py",
    "bash pytest",
    "read_file app.py",
    "bash pytest",
    "read_file app.py",
    "bash pytest",
)

q1 = Question(
    "0.1",
    "How many of the agent's six calls repeat a call it had already made?",
    checker=equals(
        4,
        why="Only turns 1 and 2 were new; turns 3 to 6 redo them. Two thirds of this run was spent going in circles.",
    ),
    solution=4,
    solution_code="answer = 4   # turns 3, 4, 5 and 6 each repeat turn 1 or turn 2",
    hint="Go through the trace turn by turn and ask: has this exact call appeared before? Count the yeses.",
    wrong=[6, 3, 2, "4 calls"],
)
