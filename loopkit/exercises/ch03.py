"""Chapter 03 exercises: salient fields, full-argument keys, order and multiplicity, and what 12 hex can carry."""

from loopkit.fingerprint import call_entry
from loopkit.normalize import normalize_args

from . import Question, equals, function_cases

q1 = Question(
    "3.1",
    "How many different fingerprints do the five batches A to E have?",
    kind="value",
    checker=equals(
        3,
        why="A, B and C are one fingerprint (order, line jitter inside a bucket and an incidental field do not "
        "count); D adds a duplicate call and E reads into a second bucket, so each is new.",
    ),
    solution=3,
    hint="Write each call's entry (name:key), sort each batch's entries, and count the different sorted lists. "
    "Keep duplicates: a list with an entry twice differs from the list with it once.",
    wrong=[5, 1, 2, 4],
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


def _call(name, args):
    return {"name": name, "args": args}


def _write(content):
    return _call("write_file", {"path": "a.py", "content": content})


def _read(start, end):
    return _call("read_file", {"path": "a.py", "start_line": start, "end_line": end})


q2 = Question(
    "3.2",
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

q3 = Question(
    "3.3",
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
    wrong=[(40, 40), (10, 5), (80, 40), (40, 10)],
)

q4 = Question(
    "3.4",
    "How many different actions does the detector see in the three run_sql calls?",
    kind="value",
    checker=equals(
        1,
        why="query is a salient field, so the key keeps only the query text and drops params: three different "
        "lookups look like one action repeated three times. A custom tool can lose its meaning this way.",
    ),
    solution=1,
    hint="run_sql is not read_file, write_file or str_replace. Which of its argument names are in "
    "loopkit.SALIENT_FIELDS, and what happens to the others?",
    wrong=[3, 2],
)

QUESTIONS = (q1, q2, q3, q4)
