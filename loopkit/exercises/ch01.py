"""Chapter 01 exercises: normalization of provider argument shapes, and the fallback key."""

from loopkit.normalize import normalize_args

from . import Question, as_tuple, equals, function_cases

q1 = Question(
    "1.1",
    'What does normalize_args("[1,2,3]") return?',
    kind="value",
    checker=equals(
        ({}, "[1, 2, 3]"),
        why="A parsed value that is not a dict becomes the fallback text, re-serialized.",
        normalize=as_tuple,
    ),
    solution=({}, "[1, 2, 3]"),
    solution_code='answer = ({}, "[1, 2, 3]")   # normalize_args("[1,2,3]")',
    hint='Parse "[1,2,3]" as JSON. Is the result a dict? If not, what does the model keep, and how is it written?',
    wrong=[({}, "[1,2,3]"), ({"0": 1}, None), ([1, 2, 3], None), ({}, None), [{}, "[1,2,3]"], ({}, [1, 2, 3]),
           '({}, "[1, 2, 3]")'],
)


def _broken_args_key(raw):
    args, fallback = normalize_args(raw)
    return fallback if fallback is not None else "dict"


def is_fallback(raw):
    args, fallback = normalize_args(raw)
    return fallback is not None


q2 = Question(
    "1.2",
    "Write is_fallback(raw): True when the call will be keyed by its fallback text",
    kind="function",
    checker=function_cases(
        [(('{"path": "a"}',), False), (("{oops",), True), (("7",), True), ((None,), False), (({"q": 1},), False),
         (([1],), True), (("null",), True)],
        why="Only a dict (given or parsed) is keyed by its fields, and None means no arguments; every other shape, "
        'even the JSON text "null", keys by its fallback.',
    ),
    solution=is_fallback,
    hint="Call normalize_args(raw) and look at the second element of what it returns.",
    wrong=[lambda raw: isinstance(raw, str), lambda raw: raw is None, _broken_args_key,
           lambda raw: not isinstance(raw, (dict, str)) and raw is not None],
)

q3 = Question(
    "1.3",
    "What entry does a read_file call with the cut-off arguments '{\"path\": \"a.py\", \"start_line\": 1' add "
    "to its batch?",
    kind="value",
    checker=equals(
        'read_file:{"path": "a.py", "start_line": 1',
        why="The text does not parse, so there is no path and no line range to bucket: the raw text itself is the "
        "key. The same broken call repeated still gets the same entry, so it is still counted.",
    ),
    solution='read_file:{"path": "a.py", "start_line": 1',
    solution_code="answer = 'read_file:{\"path\": \"a.py\", \"start_line\": 1'   # call_entry of the broken call",
    hint="Normalize the arguments first. With a fallback, does read_file still compute a bucket? "
    "You can check with loopkit.call_entry({'name': 'read_file', 'args': ...}).",
    wrong=["read_file:a.py:0-0", "read_file::0-0", "read_file:{}", '{"path": "a.py", "start_line": 1'],
)

q4 = Question(
    "1.4",
    "How many of the six rows in this chapter's first table (the five shapes) make normalize_args raise?",
    kind="value",
    checker=equals(0, why="None: every shape gets a key, so one malformed call cannot take the guard down."),
    solution=0,
    hint="Look at the table again: did any row print an error instead of a result?",
    wrong=[1, 2, 5, 6],
)

QUESTIONS = (q1, q2, q3, q4)
