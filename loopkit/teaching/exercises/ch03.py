"""Chapter 03 exercises: salient fields, full-argument keys, order and multiplicity, and what 12 hex can carry."""

from loopkit.core.fingerprint import call_entry
from loopkit.core.keys import FULL_ARGS_TOOLS, SALIENT_FIELDS
from loopkit.core.normalize import normalize_args

from . import Case, Question, ____, equals, function_cases

__all__ = ["____", "q1", "q2", "q3", "q4", "SQL_CALLS", "BATCHES"]


def _call(name, args):
    return {"name": name, "args": args}


def _read(start, end):
    return _call("read_file", {"path": "a.py", "start_line": start, "end_line": end})


_TESTS = _call("bash", {"command": "pytest"})

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
        3: "Three different lookups would be three actions if every argument counted, or if run_sql had no salient "
        "field at all (then the key falls back to every argument). But query is a salient field, so for this tool "
        "only query counts, and params is dropped.",
        2: "The calls differ only in params, which is not a salient field, so all three share one key: there is "
        "no way for two of them to differ and the third not.",
        0: "The calls are still counted, as one action seen three times: for the detector the 2nd and 3rd calls "
        "are repeats, a false loop.",
    },
    responses={
        3:
            "Print SALIENT_FIELDS and ask which of run_sql's arguments is on it: only query counts, and params is "
            "dropped.",
        2:
            "Ask which argument differs between the three calls: only params, which is not salient, so all three "
            "keys are equal.",
        0:
            "Ask what the detector does with three equal keys: it counts one action three times, so two honest "
            "lookups look like repeats.",
    },
    reveal=r"^different_actions = {answer}$",
)

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
        2: "Two would need D or E to share A's fingerprint. D does not: the entries are sorted but not "
        "de-duplicated, so running the tests twice in one turn differs from running them once. E does not either: "
        "its read ends at line 250, in bucket 1, so its key is a.py:0-1, not a.py:0-0.",
        4: "Check B and C again: B only lists the calls in another order and reads lines inside the same bucket, "
        "and C only adds a description. Both are A's fingerprint.",
        1: "Multiplicity and buckets still count: D runs the tests twice, and E's range 150-250 crosses line 200 "
        "into a second bucket.",
    },
    responses={
        5: "Ask which differences the detector keeps: put A and B side by side, and ask whether the order of two "
        "calls changes what the agent did.",
        2: "Write D's sorted entries on the board next to A's: the duplicate entry stays, so the lists differ.",
        4: "Ask what C adds to A: only a description. Is a description part of the action, or a note about it?",
        1: "Ask whether running the tests twice in one turn is the same action as running them once.",
    },
    reveal=r"^different_fingerprints = {answer}$",
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


def _same_key_any_tool(call_a, call_b):
    """The key compared without the tool name in front of it."""
    return call_entry(call_a).split(":", 1)[1] == call_entry(call_b).split(":", 1)[1]


def _salient_without_fallback(call_a, call_b):
    """Salient fields for every ordinary tool, but nothing at all for a tool that has none."""
    def entry(call):
        args, _ = normalize_args(call.get("args"))
        if call.get("name") == "read_file" or call.get("name") in FULL_ARGS_TOOLS:
            return call_entry(call)
        return call.get("name"), {field: args[field] for field in SALIENT_FIELDS if args.get(field) is not None}

    return entry(call_a) == entry(call_b)


def _salient_none_kept(call_a, call_b):
    """Salient fields kept even when their value is None."""
    def entry(call):
        args, _ = normalize_args(call.get("args"))
        salient = {field: args[field] for field in SALIENT_FIELDS if field in args}
        if call.get("name") == "read_file" or call.get("name") in FULL_ARGS_TOOLS or not salient:
            return call_entry(call)
        return call.get("name"), salient

    return entry(call_a) == entry(call_b)


def _write(content):
    return _call("write_file", {"path": "a.py", "content": content})


def _mail(body):
    return _call("send_email", {"to": "ops@example.com", "body": body})


q3 = Question(
    "3.3",
    "Write same_action(call_a, call_b): True when the detector counts the two calls as the same action",
    kind="function",
    checker=function_cases(
        [
            Case((_call("bash", {"command": "ls", "description": "list"}), _call("bash", {"command": "ls"})), True,
                 "an incidental field such as description is not part of the key: for bash only command counts"),
            Case((_call("grep", {"pattern": "TODO"}), _call("glob", {"pattern": "TODO"})), False,
                 "the tool name is part of the entry: two tools called with the same arguments are two actions"),
            Case((_call("web_search", '{"query": "loops", "max_results": 3}'), _call("web_search", {"query": "loops"})),
                 True, "arguments sent as a JSON string are parsed first, and max_results is not a salient field"),
            Case((_write("v1"), _write("v2")), False,
                 "write_file is keyed by every argument: the same path with new content is progress, not a repeat"),
            Case((_write("v1"), _call("write_file", {"content": "v1", "path": "a.py"})), True,
                 "a write's arguments are compared as a dict: the order of its keys does not matter"),
            Case((_read(1, 50), _read(120, 180)), True,
                 "read_file is keyed by its 200-line buckets: lines 1-50 and 120-180 both lie in bucket 0"),
            Case((_read(1, 50), _read(1, 250)), False,
                 "a read that ends past line 200 reaches bucket 1, so its key changes"),
            Case((_mail("deployed"), _mail("rolled back")), False,
                 "a tool with no salient field is keyed by all of its arguments, so two different mails differ"),
            Case((_call("grep", {"pattern": "TODO", "path": None}), _call("grep", {"pattern": "TODO"})), True,
                 "a salient field whose value is None is left out of the key"),
        ],
        why="Two calls are the same action exactly when their entries (tool name plus stable key) are equal.",
    ),
    solution=same_action,
    hint="loopkit.call_entry(call) gives the 'name:key' string a call contributes to its batch. Compare those.",
    wrong=[_exact_same, _same_name, _same_parsed_args, _same_key_any_tool, _salient_without_fallback,
           _salient_none_kept],
)

q4 = Question(
    "3.4",
    "A 10-hex-character prefix: how many bits, and 2 to which power is its birthday bound?",
    kind="value",
    checker=equals(
        (40, 20),
        why="Each hex character is 4 bits, so 10 characters are 40 bits, and collisions become likely after "
        "about the square root of 2**40 labels: 2**20, roughly a million batches.",
    ),
    solution=(40, 20),
    hint="One hex character holds 4 bits. The birthday bound is about the square root of the number of labels.",
    wrong={
        (40, 40): "40 bits give 2**40 labels, but collisions among *some two* batches come much sooner: the birthday "
        "bound is about the square root, 2**20.",
        (40, 39): "2**39 is half of the 2**40 labels, as if an even chance needed half of them. That is close to the "
        "wait for a batch to match one *given* label; some two batches share a label far sooner, after about the "
        "square root, 2**20.",
        (48, 24): "Those are the numbers of the full 12-character fingerprint. This prefix keeps 10 characters: "
        "10 x 4 = 40 bits, and half of that exponent.",
        (40, 24): "40 bits is right, but 2**24 is the birthday bound of 48 bits, the full fingerprint. For 40 bits "
        "halve 40: 2**20.",
        (40, 2**20): "That is the number 2**20 itself (1,048,576); the question asks for the power of 2: 20.",
        (10, 5): "Each hex character holds 4 bits, not 1: 10 characters are 40 bits.",
        (20, 10): "Each hex character holds 4 bits (one of 16 values), not 2: 10 characters are 40 bits.",
        (80, 40): "A hex character holds 4 bits (16 values), not 8: that would be a byte, two hex characters.",
        (40, 10): "The square root of 2**40 is 2**20 (halve the exponent), not 2**10.",
    },
    reveal=r"^\(bits, power\) = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4)
