"""Chapter 02 exercises: read buckets (sorting, clamping, bucketing) and what they cost."""

from . import Question, equals, function_cases

q1 = Question(
    "2.1",
    'What is read_bucket("a.py", 350, 150)?',
    kind="value",
    checker=equals(
        "a.py:0-1",
        why="The ends are sorted first (150, 350): line 150 is in bucket 0, line 350 in bucket 1.",
    ),
    solution="a.py:0-1",
    hint="Sort the two line numbers first, then find the bucket of each: (line - 1) // 200.",
    wrong=["a.py:1-0", "a.py:0-0", "a.py:1-1", "a.py:150-350"],
)


def bucket_of(line):
    return (max(line, 1) - 1) // 200


q2 = Question(
    "2.2",
    "Write bucket_of(line): the 200-line bucket a single line number falls in, clamped like upstream",
    kind="function",
    checker=function_cases(
        [((1,), 0), ((199,), 0), ((200,), 0), ((201,), 1), ((400,), 1), ((401,), 2), ((0,), 0), ((-7,), 0),
         ((1000,), 4)],
        why="Lines 1 to 200 are bucket 0: subtract 1 before dividing, and clamp to line 1 first.",
    ),
    solution=bucket_of,
    hint="Line 200 is still in bucket 0 and line 201 is in bucket 1. What about line 0 or -7? Clamp them to 1.",
    wrong=[lambda line: line // 200, lambda line: (line - 1) // 200, lambda line: max(line // 200, 0)],
)


q3 = Question(
    "2.3",
    "An agent pages through a.py 50 lines at a time: 1-50, 51-100, ..., 951-1000. How many of its 20 reads get "
    "the key a.py:0-0?",
    kind="value",
    checker=equals(
        4,
        why="Pages 1-50, 51-100, 101-150 and 151-200 all land in bucket 0: four honest reads look like one "
        "action repeated four times.",
    ),
    solution=4,
    hint="Which pages end at or before line 200? Only those stay inside bucket 0.",
    wrong=[1, 5, 20, 3],
)

q4 = Question(
    "2.4",
    "A read starts at line 150. What is the smallest end_line whose key is no longer a.py:0-0?",
    kind="value",
    checker=equals(201, why="Line 200 is the last line of bucket 0; ending at 201 reaches bucket 1 (key a.py:0-1)."),
    solution=201,
    hint="Try read_bucket('a.py', 150, end) for end = 199, 200, 201, 202.",
    wrong=[200, 199, 250, 350],
)

QUESTIONS = (q1, q2, q3, q4)
