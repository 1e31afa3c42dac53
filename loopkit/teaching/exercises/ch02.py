"""Chapter 02 exercises: read buckets (sorting, clamping, bucketing) and what they cost."""

from . import Case, Question, ____, equals, function_cases

__all__ = ["____", "q1", "q2", "q3", "q4", "PAGES_BY_30"]

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
        [Case((1,), 0, "line 1, the first line of a file, is in bucket 0"),
         Case((199,), 0, "a line well inside the first 200 is in bucket 0"),
         Case((200,), 0, "line 200 is the last line of bucket 0: subtract 1 before dividing, (200 - 1) // 200 = 0"),
         Case((201,), 1, "line 201 is the first line of bucket 1"),
         Case((400,), 1, "the same edge one bucket later: line 400 is the last line of bucket 1"),
         Case((401,), 2, "line 401 is the first line of bucket 2"),
         Case((0,), 0, "a line below 1 counts as line 1, as upstream clamps both ends before dividing"),
         Case((-7,), 0, "a negative line counts as line 1 too: clamp first, then divide"),
         Case((-450,), 0, "a line below 1 is not a distance to measure: however far below, it counts as line 1, so "
              "clamp with max(line, 1), not abs(line)"),
         Case((1000,), 4, "far into a file the same rule holds: (1000 - 1) // 200 = 4")],
        why="Lines 1 to 200 are bucket 0: subtract 1 before dividing, and clamp to line 1 first.",
    ),
    solution=bucket_of,
    hint="Line 200 is still in bucket 0 and line 201 is in bucket 1. What about line 0 or -7? Clamp them to 1.",
    wrong=[lambda line: line // 200, lambda line: (line - 1) // 200, lambda line: max(line // 200, 0),
           lambda line: (abs(line) - 1) // 200 if line else 0],
)


#: Exercise 2.4: an agent pages through a.py 30 lines at a time (pages that do not line up with line 200).
PAGES_BY_30 = tuple((start, start + 29) for start in range(1, 600, 30))

q4 = Question(
    "2.4",
    "An agent pages through a.py 30 lines at a time: 1-30, 31-60, ..., 571-600. How many of its 20 reads get the "
    "key a.py:0-0, and what key does the first read that leaves it get?",
    kind="value",
    checker=equals(
        (6, "a.py:0-1"),
        why="The six pages that end at line 180 or before share a.py:0-0. Page 181-210 straddles line 200, so its "
        "ends fall in buckets 0 and 1: its key is a.py:0-1.",
    ),
    solution=(6, "a.py:0-1"),
    hint="Which pages end at line 200 or before? The first page that does not starts in bucket 0: what are the "
    "buckets of its two ends?",
    wrong={
        (7, "a.py:0-1"): "Page 181-210 starts in bucket 0 but ends in bucket 1, so its key is a.py:0-1, not a.py:0-0: "
        "only the pages that end at line 200 or before share a.py:0-0, and 30-line pages end at 180, then 210.",
        (6, "a.py:1-1"): "The first page to leave bucket 0 is 181-210, and it straddles line 200: the key holds the "
        "bucket of each end, 0 and 1, so it is a.py:0-1. Only page 211-240 is a.py:1-1.",
        (5, "a.py:1-1"): "Five was the chapter's count for 40-line pages, whose pages line up with line 200. Pages of 30 "
        "lines do not: count the pages that end at line 200 or before (30, 60, ..., 180).",
        (1, "a.py:0-1"): "Each page is a different range, but the key keeps only the buckets of its ends: every page "
        "inside lines 1-200 gets a.py:0-0, so several reads share it.",
    },
)

q1 = Question(
    "2.1",
    "Predict: a read of a.py starts at line 350. What is the smallest end_line whose key is no longer a.py:1-1?",
    kind="prediction",
    checker=equals(401, why="Line 400 is the last line of bucket 1, since (400 - 1) // 200 = 1; ending at 401 "
                       "reaches bucket 2 (key a.py:1-2)."),
    solution=401,
    hint="Line 350 is in bucket 1: (350 - 1) // 200 = 1. Which is the last line of bucket 1, and which the first "
    "of bucket 2?",
    wrong={
        400: "(400 - 1) // 200 is 1: line 400 is the last line of bucket 1, not the first of bucket 2. Subtracting 1 "
        "before dividing is what makes each bucket end at a multiple of 200.",
        399: "Line 399 is inside bucket 1, and so is line 400. The key changes when the end reaches bucket 2.",
        550: "Buckets are fixed slices of the file (1-200, 201-400, ...), not windows of 200 lines from the start "
        "of the read: the key changes as soon as the end crosses line 400.",
        600: "Line 600 is the last line of bucket 2, but the key changes at the first line of bucket 2: the key holds "
        "the bucket of each end, so 1-2 already differs from 1-1.",
        201: "Line 201 starts bucket 1, where this read already begins: line 350 is in bucket 1, so the key is "
        "a.py:1-1 from the start, and it changes when the end leaves bucket 1.",
    },
    responses={
        400:
            "Work out (400 - 1) // 200 and (401 - 1) // 200 together: subtracting 1 is what keeps line 400 in "
            "bucket 1.",
        399:
            "Ask which bucket lines 399 and 400 are in: both in bucket 1, so the key cannot change yet.",
        550:
            "Draw the file as fixed slices 1-200, 201-400, 401-600 and mark the read on it: buckets do not start "
            "where a read starts.",
        600:
            "Ask for the key at end_line 401: a.py:1-2 already differs from a.py:1-1, so the key changes at a "
            "bucket's first line.",
        201:
            "Ask which bucket the start, line 350, is in: bucket 1, so the key is a.py:1-1 from the start and "
            "line 201 lies behind it.",
    },
    reveal=r"^first_new = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4)
