"""Chapter 09 exercises: a fingerprint is no credential, trust channels, server-owned keys, the environment scrub,
request-scoped credentials, header values, deployments, and DeerFlow's own sandbox-environment rule at the pinned
commit."""

import re

from loopkit.boundaries import (HeaderValueError, frame_untrusted, is_blocked_env_name, trust_channel,
                                validate_header_value)
from loopkit.language import tr

from . import Question, as_tuple, equals, function_cases


def _letter(answer):
    """Read one multiple-choice letter written as "c", "C", "c)", "(c)", "c." or "c) the option's text"."""
    match = re.fullmatch(r"\s*\(?\s*([a-z])\s*(?:[).:]\s*.*|\s*)", answer.lower(), re.S)
    return match.group(1) if match else answer


def _names(answer):
    if isinstance(answer, str):
        raise TypeError(tr("give a collection of names, such as {'PATH', 'HOME'}"))
    return {str(item).strip() for item in answer}


q1 = Question(
    "9.1",
    "Who can compute which tag?",
    kind="prediction",
    checker=equals(
        (True, False),
        normalize=as_tuple,
        why="The fingerprint needs only the calls, so it grants nothing; a keyed tag needs the server's secret.",
    ),
    solution=(True, False),
    hint="Look at the arguments each function takes. Which one needs something a client does not have?",
    wrong={
        (True, True): "The keyed tag mixes in the server's secret. Without it a client computes some other tag, as "
        "the guessed secret in the next cell does.",
        (False, False): "The fingerprint takes nothing but the calls: anyone who sees them, in a log or a trace, "
        "computes the same 12 characters.",
        (False, True): "It is the other way round: the fingerprint needs only the calls, the keyed tag needs the "
        "secret as well.",
    },
)


def prepare(source, text):
    if trust_channel(source) == "instructions":
        return text
    return frame_untrusted(source, text)


def _frames_only_web_pages(source, text):
    return frame_untrusted(source, text) if source == "web_page" else text


q2 = Question(
    "9.2",
    "Write prepare(source, text): framework text as it is, everything else framed",
    kind="function",
    checker=function_cases(
        [
            (("framework", "Answer briefly."), "Answer briefly."),
            (("web_page", "<b>hi</b>"), '<untrusted-data source="web_page">\n&lt;b&gt;hi&lt;/b&gt;\n</untrusted-data>'),
            (("mcp_result", "ok"), '<untrusted-data source="mcp_result">\nok\n</untrusted-data>'),
            (("subagent_report", "done"), '<untrusted-data source="subagent_report">\ndone\n</untrusted-data>'),
        ],
        why="Only the framework speaks in the system channel; every other source arrives framed, as data.",
    ),
    solution=prepare,
    hint='trust_channel(source) says "instructions" or "data"; frame_untrusted(source, text) frames data.',
    wrong=[lambda source, text: text, lambda source, text: frame_untrusted(source, text), _frames_only_web_pages],
)

#: Exercise 9.3's metadata, as the client sends it.
Q3_METADATA = {"topic": "release notes", "User-ID": "alice", "sequence_number": 999, "_billing_tier": "free",
               "run_trace_note": "see ticket 12"}

q3 = Question(
    "9.3",
    "Which client keys does strip_server_owned remove?",
    kind="prediction",
    checker=equals(
        {"User-ID", "sequence_number", "_billing_tier"},
        normalize=_names,
        why="A differently spelled user id is still the user id, and every _internal key is the server's.",
    ),
    solution={"User-ID", "sequence_number", "_billing_tier"},
    solution_code='answer = {"User-ID", "sequence_number", "_billing_tier"}',
    hint="Compare keys by their letters and digits only, ignoring case: user_id, User-ID and userId are one key. "
    "Keys starting with _ are internal.",
    wrong={
        frozenset({"User-ID"}): "The sequence number is server-owned as well, and so is every key that starts with "
        "an underscore.",
        frozenset({"User-ID", "sequence_number"}): "A key starting with an underscore is internal to the server in "
        "this model, so _billing_tier goes too: a client must not pick its own billing tier.",
        frozenset({"User-ID", "sequence_number", "_billing_tier", "run_trace_note"}): "run_trace_note is not "
        "run_trace: keys are compared by all their letters and digits, and 'note' makes it another key.",
        frozenset({"sequence_number", "_billing_tier"}): "User-ID is the user id spelled differently. The model "
        "compares letters and digits only, ignoring case, so a client cannot slip it past with a hyphen.",
    },
)

#: Exercise 9.4's environment (names only; the values do not matter to the scrub).
Q4_NAMES = ("PATH", "HOME", "GITHUB_TOKEN", "KEYBOARD_LAYOUT", "OPENAI_API_KEY", "XDG_SESSION_TYPE", "DB_PASSWORD",
            "AUTHOR_NAME", "SSH_AUTH_SOCK")

q4 = Question(
    "9.4",
    "Which names survive scrub_env?",
    kind="value",
    checker=equals(
        {"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME", "XDG_SESSION_TYPE"},
        normalize=_names,
        why="Secret words count only as whole words, and a documented allow-list keeps harmless session names.",
    ),
    solution={"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME", "XDG_SESSION_TYPE"},
    solution_code='answer = {"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME", "XDG_SESSION_TYPE"}',
    hint="Split each name at the underscores. Is any piece a secret word, or does it end with one (like TOKEN in "
    "GITHUBTOKEN)? Then check DEFAULT_ALLOW.",
    wrong={
        frozenset({"PATH", "HOME"}): "The scrub reads words, not letters: KEY inside KEYBOARD and AUTH inside AUTHOR "
        "are not words of their own, and XDG_SESSION_TYPE is on the allow-list.",
        frozenset({"PATH", "HOME", "XDG_SESSION_TYPE"}): "KEYBOARD_LAYOUT and AUTHOR_NAME hold no secret word: KEY "
        "inside KEYBOARD and AUTH inside AUTHOR are only parts of other words.",
        frozenset({"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME"}): "XDG_SESSION_TYPE holds the word SESSION, "
        "but DEFAULT_ALLOW keeps it by its exact name.",
        frozenset({"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME", "XDG_SESSION_TYPE", "SSH_AUTH_SOCK"}): "AUTH is "
        "a secret word of its own in SSH_AUTH_SOCK, so the scrub removes it (that socket lets a process sign as you).",
    },
)

# Why each wrong letter is wrong. "b" is what DeerFlow's sandbox path does at the pinned commit with an empty value,
# and "d" what it does with a missing one, so both get an answer of their own.
_Q5_WRONG = {
    "a": "There is no fallback: inject_credentials never reads a declared name from env, and scrub_env has "
    "removed the static token anyway.",
    "b": "That is DeerFlow's sandbox path at the pinned commit: an empty string is a string, so it is injected as it "
    "is. This workbook's model refuses an empty or blank value by name instead; it is never injected.",
    "d": "That is what DeerFlow's sandbox path at the pinned commit does with a missing secret: it names it in the "
    "audit record and runs the command without it. Here the value arrives empty, and this workbook's model refuses "
    "it by name, as DeerFlow's later MCP header path (PR #5010) does.",
    "cd": "Pick one letter. The model does one thing with an empty declared credential, and does it before any "
    "tool runs.",
}


def _credential_verdict(answer):
    letter = _letter(answer) if isinstance(answer, str) else None
    if letter == "c":
        return True, tr("Default deny: an empty declared credential is refused by name; no static token is used.")
    if letter in _Q5_WRONG:
        return False, tr(_Q5_WRONG[letter])
    return False, tr("Answer with one letter from a to d; {answer} is not one.", answer=repr(answer))


q5 = Question(
    "9.5",
    "A declared credential arrives empty. What happens?",
    kind="prediction",
    checker=_credential_verdict,
    solution="c",
    hint="Read inject_credentials' policy: what does it do with a blank value, and does it ever look at env?",
    wrong=_Q5_WRONG,
)


def is_safe(name, value):
    try:
        validate_header_value(name, value)
    except HeaderValueError:
        return False
    return True


q6 = Question(
    "9.6",
    "Write is_safe(name, value): True when validate_header_value accepts the pair",
    kind="function",
    checker=function_cases(
        [
            (("X-Run", "run-42"), True),
            (("X-Run", "ok\r\nSet-Cookie: admin=1"), False),
            (("X-Run", "a\x00b"), False),
            (("X-Run", "tab\there"), False),
            (("X Run", "fine"), False),
            (("Authorization", "Bearer abc.def"), True),
        ],
        why="Catch the error and answer False; never print the rejected value while handling it.",
    ),
    solution=is_safe,
    hint="Call validate_header_value inside try/except HeaderValueError.",
    wrong=[
        lambda name, value: "\n" not in value,
        lambda name, value: "\r" not in value and "\n" not in value,
        lambda name, value: value.isprintable(),
    ],
)

#: Exercise 9.7's three situations, as recommend_deployment's five answers:
#: users, reachable, real_credentials, untrusted_content, persistent_state.
Q7_SITUATIONS = {
    "A": ("several people", True, True, True, True),  # a 40-person workshop on one shared agent service
    "B": ("only me", True, False, False, False),  # one person's demo, on a port the office network reaches
    "C": ("only me", False, False, False, True),  # one person, not reachable, memory kept between sessions
}


def _deployment(word):
    if not isinstance(word, str):
        raise TypeError(tr("give each deployment as a word such as 'shared', got {kind}", kind=type(word).__name__))
    return word.strip().lower().removesuffix(" deployment").removesuffix(" evaluation")


def _deployments(answer):
    """Three answers written as a tuple, a list, or one string such as "shared, local, isolated"."""
    items = answer.split(",") if isinstance(answer, str) else answer
    return tuple(_deployment(item) for item in items)


q7 = Question(
    "9.7",
    "Which deployment does each of three situations need?",
    kind="prediction",
    checker=equals(
        ("shared", "shared", "isolated"),
        normalize=_deployments,
        why="Whoever can reach the instance decides first: more than one user or a reachable port makes it shared. "
        "Only then do credentials, untrusted content and kept state ask for an isolated one.",
    ),
    solution=("shared", "shared", "isolated"),
    hint="recommend_deployment's policy: who uses it and who can reach it first; then credentials, untrusted "
    "content and state that must persist.",
    wrong={
        ("shared", "isolated", "isolated"): "B has one intended user, but others can reach it over the network: "
        "every request then comes from a client you do not control, so identity must be the server's (shared).",
        ("shared", "local", "isolated"): "B uses only recorded traces, which alone would be local. But a port others "
        "reach makes every request a stranger's: reachability decides before anything else (shared).",
        ("shared", "shared", "local"): "C keeps memory between sessions: state that must outlive the process needs "
        "storage of its own, which makes it at least isolated.",
        ("isolated", "shared", "isolated"): "A is forty people on one instance: each needs an identity the server "
        "owns, so it is shared.",
    },
)

#: Exercise 9.8's names.
Q8_NAMES = ("KEYBOARD_LAYOUT", "SSH_AUTH_SOCK", "GH_PAT", "COMPASS_HEADING", "DATABASE_URL", "DATABASE_URL_RO", "HOME")
#: What DeerFlow's policy at the pinned commit removes of them (loopkit.boundaries.pinned, checked against upstream).
_Q8_SCRUBBED = frozenset(name for name in Q8_NAMES if is_blocked_env_name(name))
_WORD_RULE = ("That is this workbook's word rule, not DeerFlow's: AUTH and PAT are secret words in scrub_env, while "
              "DeerFlow matches fragments anywhere (KEY in KEYBOARD, PASS in COMPASS) and a list of exact names.")
_EXACT_NAMES = ("DeerFlow also blocks 19 exact names that hold none of its fragments, connection strings and tokens "
                "among them: DATABASE_URL and GH_PAT are two of them.")
_WHOLE_NAMES = ("The exact names are compared whole: DATABASE_URL_RO is not DATABASE_URL, and it holds none of the "
                "fragments, so it stays.")
_ANYWHERE = ("DeerFlow's fragments count anywhere in the name, even inside a longer word: KEY in KEYBOARD_LAYOUT and "
             "PASS in COMPASS_HEADING.")
_OLDER_RULE = ("That is the rule of an older pull-request commit (4f474b53), not of the pinned one: at f1f4af99 PASS and "
               "DSN are fragments too, and 19 exact names such as DATABASE_URL and GH_PAT are blocked.")


def _pinned_rule_verdict(answer):
    try:
        given = frozenset(name.upper() for name in _names(answer))
    except TypeError as exc:
        return False, str(exc)
    if given == _Q8_SCRUBBED:
        return True, tr("At the pinned commit DeerFlow blocks a name that holds KEY, SECRET, TOKEN, PASS, CREDENTIAL "
                        "or DSN anywhere, or that is one of 19 exact names; SSH_AUTH_SOCK, DATABASE_URL_RO and HOME "
                        "are neither.")
    return False, tr("Your answer {answer} is not the set DeerFlow's rule removes.", answer=sorted(given))


# Names are compared upper-cased, so a listed misconception is found however the learner cased the names.
_pinned_rule_verdict.normalize = lambda answer: frozenset(name.upper() for name in _names(answer))

q8 = Question(
    "9.8",
    "Which names does DeerFlow's sandbox rule scrub?",
    kind="prediction",
    checker=_pinned_rule_verdict,
    solution=set(_Q8_SCRUBBED),
    solution_code='answer = {"KEYBOARD_LAYOUT", "GH_PAT", "COMPASS_HEADING", "DATABASE_URL"}',
    hint="Upper-case each name. Is it one of the exact names (compared whole), or does it hold KEY, SECRET, TOKEN, "
    "PASS, CREDENTIAL or DSN anywhere inside it?",
    wrong={
        frozenset({"SSH_AUTH_SOCK", "GH_PAT"}): _WORD_RULE,
        frozenset({"KEYBOARD_LAYOUT", "COMPASS_HEADING"}): _EXACT_NAMES,
        frozenset({"KEYBOARD_LAYOUT", "GH_PAT", "COMPASS_HEADING", "DATABASE_URL", "DATABASE_URL_RO"}): _WHOLE_NAMES,
        frozenset({"GH_PAT", "DATABASE_URL"}): _ANYWHERE,
        frozenset({"KEYBOARD_LAYOUT"}): _OLDER_RULE,
    },
)

QUESTIONS = (q1, q2, q3, q4, q5, q6, q7, q8)
