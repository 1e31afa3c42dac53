"""Chapter 02 exercises: read buckets (sorting, clamping, bucketing) and what they cost."""

from . import Question, equals, function_cases

q2 = Question(
    "2.2",
    'Predict: what is read_bucket("src/app.py", 400, 150)?',
    kind="prediction",
    checker=equals(
        "src/app.py:0-1",
        why="The ends are sorted first (150, 400): line 150 is in bucket 0, and line 400 is the last line of "
        "bucket 1, since (400 - 1) // 200 = 1.",
    ),
    solution="src/app.py:0-1",
    solution_code='prediction = "src/app.py:0-1"   # read_bucket("src/app.py", 400, 150)',
    hint="Sort the two line numbers first, then find the bucket of each: (line - 1) // 200.",
    wrong={
        "src/app.py:1-0": "The ends are sorted before bucketing: the smaller line comes first, whichever order the "
        "model sent them in. A reversed range gets the same key as the forward one.",
        "src/app.py:0-2": "Line 400 is the last line of bucket 1, not the first of bucket 2: subtract 1 before "
        "dividing, (400 - 1) // 200 = 1.",
        "src/app.py:150-400": "The key holds the buckets of the two ends, not the lines themselves: that is what "
        "lets a jittered range keep its key.",
    },
)


def bucket_of(line):
    return (max(line, 1) - 1) // 200


q3 = Question(
    "2.3",
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


#: Exercise 2.4: an agent pages through a.py 50 lines at a time.
PAGES_BY_50 = tuple((start, start + 49) for start in range(1, 1000, 50))

q4 = Question(
    "2.4",
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
    wrong={
        3: "Page 151-200 stays in bucket 0: line 200 is its last line, since (200 - 1) // 200 = 0.",
        5: "Five was the chapter's count for 40-line pages. With 50 lines a page, page 201-250 already starts "
        "bucket 1: only pages ending at line 200 or before share a.py:0-0.",
        1: "Each page is a different range, but the key keeps only the buckets of its ends: every page inside lines "
        "1-200 gets a.py:0-0, so several reads share it.",
        20: "Only pages inside lines 1-200 are in bucket 0; later pages get a.py:1-1, a.py:2-2, and so on.",
    },
)

q1 = Question(
    "2.1",
    "Predict: a read starts at line 150. What is the smallest end_line whose key is no longer a.py:0-0?",
    kind="prediction",
    checker=equals(201, why="Line 200 is the last line of bucket 0; ending at 201 reaches bucket 1 (key a.py:0-1)."),
    solution=201,
    hint="Bucket 0 holds lines 1 to 200: (line - 1) // 200. Which is the first line of bucket 1?",
    wrong={
        200: "(200 - 1) // 200 is 0: line 200 is the last line of bucket 0, not the first of bucket 1. That "
        "subtraction is what makes bucket 0 hold lines 1 to 200.",
        199: "Line 199 is well inside bucket 0, as is line 200. The key changes when the end reaches bucket 1.",
        350: "Buckets are fixed slices of the file (1-200, 201-400, ...), not windows of 200 lines from the start "
        "of the read: the key changes as soon as the end crosses line 200.",
        400: "Line 400 is the last line of bucket 1, but the key changes at the first line of bucket 1: the key "
        "holds the bucket of each end, so 0-1 already differs from 0-0.",
    },
)

QUESTIONS = (q1, q2, q3, q4)
