"""Chapter 03 exercises: salient fields, full-argument keys, order and multiplicity, and what 12 hex can carry."""

from loopkit.fingerprint import call_entry
from loopkit.normalize import normalize_args

from . import Question, equals, function_cases

def _call(name, args):
    return {"name": name, "args": args}


def _read(start, end):
    return _call("read_file", {"path": "a.py", "start_line": start, "end_line": end})


_TESTS = _call("bash", {"command": "pytest"})

#: Exercise 3.2: five batches (model turns) of an agent.
BATCHES = {
    "A": (_read(1, 50), _TESTS),
    "B": (_TESTS, _read(20, 80)),
    "C": (_read(1, 50), _call("bash", {"command": "pytest", "description": "again"})),
    "D": (_read(1, 50), _TESTS, _TESTS),
    "E": (_read(150, 250), _TESTS),
}

q2 = Question(
    "3.2",
    "Predict: how many different fingerprints do the five batches A to E have?",
    kind="prediction",
    checker=equals(
        3,
        why="A, B and C are one fingerprint (order, line jitter inside a bucket and an incidental field do not "
        "count); D adds a duplicate call and E reads into a second bucket, so each is new.",
    ),
    solution=3,
    solution_code="prediction = 3   # A = B = C; D (tests twice) and E (lines 150-250) differ",
    hint="Write each call's entry (name:key), sort each batch's entries, and count the different sorted lists. "
    "Keep duplicates: a list with an entry twice differs from the list with it once.",
    wrong={
        5: "Each batch differs as written, but the fingerprint forgets the order of the calls, the exact lines "
        "inside a bucket and incidental fields such as a description: A, B and C are one action.",
        2: "D is not A: the entries are sorted but not de-duplicated, so running the tests twice in one turn is a "
        "different batch from running them once.",
        4: "Check B and C again: B only lists the calls in another order and reads lines inside the same bucket, "
        "and C only adds a description. Both are A's fingerprint.",
        1: "Multiplicity and buckets still count: D runs the tests twice, and E's range 150-250 crosses line 200 "
        "into a second bucket.",
    },
)


def same_action(call_a, call_b):
    return call_entry(call_a) == call_entry(call_b)


def _exact_same(call_a, call_b):
    return call_a == call_b


def _same_name(call_a, call_b):
    return call_a.get("name") == call_b.get("name")


def _same_parsed_args(call_a, call_b):
    return call_a.get("name") == call_b.get("name") and normalize_args(call_a.get("args")) == normalize_args(
        call_b.get("args")
    )


def _write(content):
    return _call("write_file", {"path": "a.py", "content": content})


q3 = Question(
    "3.3",
    "Write same_action(call_a, call_b): True when the detector counts the two calls as the same action",
    kind="function",
    checker=function_cases(
        [
            ((_call("bash", {"command": "ls", "description": "list"}), _call("bash", {"command": "ls"})), True),
            ((_write("v1"), _write("v2")), False),
            ((_write("v1"), _call("write_file", {"content": "v1", "path": "a.py"})), True),
            ((_read(1, 50), _read(120, 180)), True),
            ((_read(1, 50), _read(1, 250)), False),
            ((_call("web_search", '{"query": "loops", "max_results": 3}'), _call("web_search", {"query": "loops"})),
             True),
            ((_call("grep", {"pattern": "TODO"}), _call("glob", {"pattern": "TODO"})), False),
        ],
        why="Two calls are the same action exactly when their entries (tool name plus stable key) are equal.",
    ),
    solution=same_action,
    hint="loopkit.call_entry(call) gives the 'name:key' string a call contributes to its batch. Compare those.",
    wrong=[_exact_same, _same_name, _same_parsed_args],
)

q4 = Question(
    "3.4",
    "A 10-hex-character prefix: how many bits, and 2 to which power is its birthday bound?",
    kind="value",
    checker=equals(
        (40, 20),
        why="Each hex character is 4 bits, so 10 characters are 40 bits, and collisions become likely after "
        "about the square root of 2**40 labels: 2**20, roughly a million batches.",
        normalize=tuple,
    ),
    solution=(40, 20),
    hint="One hex character holds 4 bits. The birthday bound is about the square root of the number of labels.",
    wrong={
        (40, 40): "40 bits give 2**40 labels, but collisions among *some two* batches come much sooner: the birthday "
        "bound is about the square root, 2**20.",
        (10, 5): "Each hex character holds 4 bits, not 1: 10 characters are 40 bits.",
        (80, 40): "A hex character holds 4 bits (16 values), not 8: that would be a byte, two hex characters.",
        (40, 10): "The square root of 2**40 is 2**20 (halve the exponent), not 2**10.",
    },
)

#: Exercise 3.1: three calls of a custom SQL tool, one lookup each.
SQL_CALLS = tuple(_call("run_sql", {"query": "SELECT * FROM orders WHERE id = ?", "params": [n]}) for n in (1, 2, 3))

q1 = Question(
    "3.1",
    "Predict: how many different actions does the detector see in the three run_sql calls?",
    kind="prediction",
    checker=equals(
        1,
        why="query is a salient field, so the key keeps only the query text and drops params: three different "
        "lookups look like one action repeated three times. A custom tool can lose its meaning this way.",
    ),
    solution=1,
    hint="run_sql is not read_file, write_file or str_replace. Which of its argument names are in "
    "loopkit.SALIENT_FIELDS, and what happens to the others?",
    solution_code="prediction = 1   # query is salient, params is not: one entry for all three",
    wrong={
        3: "Three different lookups would be three actions if every argument counted. For a tool other than "
        "read_file, write_file and str_replace, only the salient fields count: query is one, params is not.",
        2: "The calls differ only in params, which is not a salient field, so all three share one key: there is "
        "no way for two of them to differ and the third not.",
        0: "The calls are still counted, as one action seen three times: for the detector that is a repeat, a "
        "false loop.",
    },
)

QUESTIONS = (q1, q2, q3, q4)
