"""Chapter 01 exercises: normalization of provider argument shapes, and the fallback key."""

from loopkit.core.normalize import normalize_args

from . import Case, Question, ____, equals, function_cases, letter_set

__all__ = ["____", "q1", "q2", "q3", "q4", "CUT_OFF", "EMPTY_ARGS"]

q1 = Question(
    "1.1",
    'Predict: normalize_args("[1,2,3]") returns a pair (args, fallback). What is its fallback?',
    kind="prediction",
    checker=equals(
        "[1, 2, 3]",
        why="A parsed value that is not a dict becomes the fallback, serialized again by json.dumps (which puts a "
        "space after each comma), so two spellings of the same array get the same fallback. args is {}.",
    ),
    solution="[1, 2, 3]",
    solution_code='prediction = "[1, 2, 3]"   # normalize_args("[1,2,3]") == ({}, "[1, 2, 3]")',
    hint='Parse "[1,2,3]" as JSON. Is the result a dict? If not, the parsed value is written out again: how does '
    "json.dumps write a list?",
    wrong={
        "[1,2,3]": "Close: the fallback is not the raw text when the text parses. The parsed array is serialized "
        "again, and json.dumps writes a space after each comma: '[1, 2, 3]'.",
        None: "There is no fallback only for None or a dict. This text parses to an array, which has no argument "
        "names, so args stays {} and the array, written out again, is the fallback.",
        (1, 2, 3): "The fallback is always a string (the key is built from it), so the parsed array is serialized "
        "again: '[1, 2, 3]'.",
        "{}": "{} is the first element of the pair, args. The fallback is the second: the array written out again.",
    },
    # The pair as normalize_args prints it, with the fallback quoted: the tuple (1, 2, 3) printed as a list would
    # read "[1, 2, 3]" too, but never "'[1, 2, 3]'".
    responses={
        '[1,2,3]':
            "Run json.dumps([1,2,3]) on the projector: the space after each comma comes from the serializer, not "
            "from the input.",
        None:
            "Ask what the argument names of a list would be: it has none, so args is {} and the list must be kept "
            "as text.",
        (1, 2, 3):
            'Ask what a key is built from, then print type(normalize_args("[1,2,3]")[1]): it is text.',
        '{}':
            "Write the pair as (args, fallback) on the board and ask which half the question asks for.",
    },
    reveal=r"^\(\{\}, {answer}\)$",
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
        [Case(({"q": 1},), False, "a dict is used as it is: it is keyed by its fields, with no fallback"),
         Case(('{"path": "a"}',), False, "a JSON string holding an object is parsed, and the dict is used"),
         Case((None,), False, "None means no arguments at all: an empty dict and no fallback"),
         Case(("{oops",), True, "text that does not parse as JSON is keyed by the raw text itself"),
         Case(("7",), True, "JSON that parses to something other than an object, here a number, is keyed by its "
              "fallback"),
         Case(([1],), True, "a value that is neither a dict nor a string, such as a list, is written out as its "
              "fallback"),
         Case(("null",), True, "the JSON text null parses to None, but only a dict is used as arguments: null "
              "becomes the fallback"),
         Case(("",), True, "an empty string does not parse, so the empty text is the fallback: check for None, "
              "not for an empty string")],
        why="Only a dict (given or parsed) is keyed by its fields, and None means no arguments; every other shape, "
        'even the JSON text "null" or an empty string, keys by its fallback.',
    ),
    solution=is_fallback,
    hint="Call normalize_args(raw) and look at the second element of what it returns.",
    wrong=[lambda raw: isinstance(raw, str), lambda raw: raw is None, _broken_args_key,
           lambda raw: not isinstance(raw, (dict, str)) and raw is not None,
           lambda raw: bool(normalize_args(raw)[1])],
)

#: Exercise 1.3: a read_file call whose arguments were cut off before the closing brace.
CUT_OFF = '{"path": "a.py", "start_line": 1'

q3 = Question(
    "1.3",
    "Predict: what entry does a read_file call with the cut-off arguments CUT_OFF add to its batch?",
    kind="prediction",
    checker=equals(
        'read_file:{"path": "a.py", "start_line": 1',
        why="The text does not parse, so there is no path and no line range to bucket: the raw text itself is the "
        "key. The same broken call repeated still gets the same entry, so it is still counted.",
    ),
    reveal=r"^{answer}$",
    solution='read_file:{"path": "a.py", "start_line": 1',
    # Built from CUT_OFF: the literal answer holds a lone "{", which the catalog tests read as a broken {field}.
    solution_code='prediction = "read_file:" + CUT_OFF   # name:key, where the key is the raw text (call_entry of the '
    "broken call)",
    hint="Normalize the arguments first. With a fallback, is there still a path and a start line to bucket?",
    wrong={
        "read_file:a.py:0-0": "That is the key of the call its author meant. But the text does not parse, so "
        "normalize_args has no dict to read a path or a line from: the raw text is the key.",
        "read_file::0-0": "That is the key of a read with no arguments (None). A broken text is not nothing: it "
        "becomes the fallback, and the fallback becomes the key.",
        "read_file:{}": "args is {} here, but the key of a call with a fallback is the fallback text, not the "
        "empty dict.",
        '{"path": "a.py", "start_line": 1': "That is the key; the entry puts the tool name in front: name:key.",
    },
)

#: Exercise 1.4: five ways to send read_file no arguments, next to None.
EMPTY_ARGS = {"A": "null", "B": {}, "C": "{}", "D": "[]", "E": ""}

q4 = Question(
    "1.4",
    "Predict: which of the argument values A to E give read_file the same entry as None (no arguments)?",
    kind="prediction",
    checker=equals(
        frozenset("bc"),
        why="An empty dict, given or parsed from '{}', is a dict with no path: the same key as None. 'null', '[]' "
        "and '' are not dicts, so each is keyed by its own fallback text.",
        normalize=letter_set,
        item_reasons={
            "A": "'null' parses to None, but only a dict is used as arguments: null becomes the fallback 'null'.",
            "B": "{} is a dict, with no path in it: it is keyed like None, read_file::0-0.",
            "C": "'{}' parses to an empty dict, which is used like the dict {}: the same entry as None.",
            "D": "'[]' parses to an array, not an object: the array is the fallback, read_file:[].",
            "E": "'' does not parse as JSON at all: the empty text itself is the fallback, read_file: with nothing after.",
        },
    ),
    solution={"B", "C"},
    solution_code='prediction = {"B", "C"}   # call_entry({"name": "read_file", "args": v}) for each v',
    hint="Run each through normalize_args: which ones come back with fallback None?",
    wrong={
        "ABC": "'null' parses to None, but only a dict is used as arguments: any other parsed value, null too, "
        "becomes the fallback 'null', a key of its own.",
        "B": "The JSON string '{}' parses to an empty dict, which is used like the dict {}: same key as None.",
        "ABCDE": "Only dicts count as arguments. 'null', '[]' and '' are kept as fallback text, each its own key.",
        "BCD": "An empty array is not an empty dict: it parses, but it is not an object, so '[]' is the fallback.",
        "BCE": "An empty string is not JSON at all: it does not parse, so the empty text itself is the fallback, "
        "and the key is not the key of None.",
    },
    reveal=r"^same = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4)
