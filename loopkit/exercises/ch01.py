"""Chapter 01 exercises: normalization of provider argument shapes."""

from loopkit.normalize import normalize_args

from . import Question, equals, function_cases

q1 = Question(
    "1.1",
    "What does a JSON list become?",
    checker=equals(({}, "[1, 2, 3]"), why="A parsed value that is not a dict becomes the fallback text, re-serialized."),
    solution=({}, "[1, 2, 3]"),
    solution_code='answer = ({}, "[1, 2, 3]")   # normalize_args("[1,2,3]")',
    hint='Parse "[1,2,3]" as JSON. Is the result a dict? If not, what does the model keep, and how is it written?',
    wrong=[({}, "[1,2,3]"), ({"0": 1}, None), ([1, 2, 3], None)],
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
    checker=function_cases(
        [(('{"path": "a"}',), False), (("{oops",), True), (("7",), True), ((None,), False), (({"q": 1},), False),
         (([1],), True)],
        why="Only a dict (given or parsed) is keyed by its fields; everything else except None keys by fallback.",
    ),
    solution=is_fallback,
    hint="Call normalize_args(raw) and look at the second element of what it returns.",
    wrong=[lambda raw: isinstance(raw, str), lambda raw: raw is None, _broken_args_key],
)

q3 = Question(
    "1.3",
    "How many of these five calls crash the detector?",
    checker=equals(0, why="None: every shape gets a key, so one malformed call cannot take the guard down."),
    solution=0,
    hint="Try each raw value in normalize_args. Does any of them raise?",
    wrong=[1, 2, 5],
)
