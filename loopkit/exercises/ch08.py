"""Chapter 08 exercises: evidence levels, trust channels, server-owned identity, credentials, headers, deployments,
and one prediction about DeerFlow's own sandbox-environment rule."""

import re

from loopkit.boundaries import (DEERFLOW_ENV_FRAGMENTS, HeaderValueError, frame_untrusted, trust_channel,
                                validate_header_value)

from . import Question, as_tuple, equals, function_cases, letter_set


def _letter(answer):
    """Read one multiple-choice letter written as "c", "C", "c)", "(c)", "c." or "c) the option's text"."""
    match = re.fullmatch(r"\s*\(?\s*([a-z])\s*(?:[).:]\s*.*|\s*)", answer.lower(), re.S)
    return match.group(1) if match else answer


def _names(answer):
    if isinstance(answer, str):
        raise TypeError("give a collection of names, such as {'PATH', 'HOME'}")
    return {str(item).strip() for item in answer}


q1 = Question(
    "8.1",
    "What does the probe's all-agree table prove?",
    kind="value",
    checker=equals(
        {"a", "c"},
        normalize=letter_set,
        why="The probe runs the pinned helpers and the pinned BoundedDict; no hook, sandbox or provider is involved.",
    ),
    solution={"a", "c"},
    solution_code='answer = {"a", "c"}',
    hint="The probe extracts four definitions and calls them directly. Which statements need anything more?",
    wrong=[{"a"}, {"a", "b", "c"}, {"a", "b", "c", "d", "e"}, "b"],
)

q2 = Question(
    "8.2",
    "Who can compute which tag?",
    kind="value",
    checker=equals(
        (True, False),
        normalize=as_tuple,
        why="The fingerprint needs only the calls, so it grants nothing; a keyed tag needs the server's secret.",
    ),
    solution=(True, False),
    hint="Look at the arguments each function takes. Which one needs something a client does not have?",
    wrong=[(True, True), (False, False), (False, True), [True, True]],
)


def prepare(source, text):
    if trust_channel(source) == "instructions":
        return text
    return frame_untrusted(source, text)


def _frames_only_web_pages(source, text):
    return frame_untrusted(source, text) if source == "web_page" else text


q3 = Question(
    "8.3",
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

q4 = Question(
    "8.4",
    "Which client keys does strip_server_owned remove?",
    kind="value",
    checker=equals(
        {"User-ID", "sequence_number", "_billing_tier"},
        normalize=_names,
        why="A differently spelled user id is still the user id, and every _internal key is the server's.",
    ),
    solution={"User-ID", "sequence_number", "_billing_tier"},
    solution_code='answer = {"User-ID", "sequence_number", "_billing_tier"}',
    hint="Compare keys by their letters and digits only, ignoring case: user_id, User-ID and userId are one key. "
    "Keys starting with _ are internal.",
    wrong=[
        {"User-ID"},
        {"User-ID", "sequence_number"},
        {"User-ID", "sequence_number", "_billing_tier", "run_trace_note"},
        {"sequence_number", "_billing_tier"},
    ],
)

q5 = Question(
    "8.5",
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
    wrong=[
        {"PATH", "HOME"},
        {"PATH", "HOME", "XDG_SESSION_TYPE"},
        {"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME"},
        {"PATH", "HOME", "KEYBOARD_LAYOUT", "AUTHOR_NAME", "XDG_SESSION_TYPE", "SSH_AUTH_SOCK"},
    ],
)

# Why each wrong letter is wrong; "d" is what DeerFlow's own sandbox path does, so it deserves its own answer.
_Q6_WRONG = {
    "a": "There is no fallback: inject_credentials never reads a declared name from env, and scrub_env has "
    "removed the static token anyway.",
    "b": "An empty or blank value is refused by name; it is never injected.",
    "d": "That is DeerFlow's sandbox path at 023cd27d: it logs the missing name and runs the command without it. "
    "This workbook's model denies instead, as DeerFlow's MCP header path does.",
}


def _credential_verdict(answer):
    letter = _letter(answer) if isinstance(answer, str) else None
    if letter == "c":
        return True, "Default deny: an empty declared credential is refused by name; no static token is used."
    return False, _Q6_WRONG.get(letter, f"Answer with one letter from a to d; {answer!r} is not one.")


q6 = Question(
    "8.6",
    "A declared credential arrives empty. What happens?",
    kind="value",
    checker=_credential_verdict,
    solution="c",
    hint="Read inject_credentials' policy: what does it do with a blank value, and does it ever look at env?",
    wrong=["a", "b", "d", "(a)", "cd"],
)


def is_safe(name, value):
    try:
        validate_header_value(name, value)
    except HeaderValueError:
        return False
    return True


q7 = Question(
    "8.7",
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

q8 = Question(
    "8.8",
    "Which deployment does a 40-person workshop with one shared agent service need?",
    kind="value",
    checker=equals(
        "shared",
        normalize=lambda answer: answer.strip().lower().removesuffix(" deployment"),
        why="Many people on one instance: identity, memory and credentials must all be server-owned and per user.",
    ),
    solution="shared",
    hint="Run recommend_deployment with the workshop's answers, or try them in the advisor widget.",
    wrong=["isolated", "local", "local evaluation"],
)


_Q9_NAMES = ("KEYBOARD_LAYOUT", "SSH_AUTH_SOCK", "GH_PAT", "TOKENIZERS_PARALLELISM", "DB_PASSWORD", "HOME")
_Q9_SCRUBBED = {"KEYBOARD_LAYOUT", "TOKENIZERS_PARALLELISM", "DB_PASSWORD"}


def _fragment_verdict(answer):
    try:
        given = {name.upper() for name in _names(answer)}
    except TypeError as exc:
        return False, str(exc)
    if given == _Q9_SCRUBBED:
        return True, ("DeerFlow looks for six fragments anywhere in the name, so KEY in KEYBOARD and TOKEN in "
                      "TOKENIZERS count, while AUTH and PAT are not among them.")
    if given & {"SSH_AUTH_SOCK", "GH_PAT"}:
        return False, ("AUTH and PAT are secret words in this workbook's scrub_env, but not among DeerFlow's "
                       f"fragments {', '.join(DEERFLOW_ENV_FRAGMENTS)}.")
    if given < _Q9_SCRUBBED:
        return False, ("DeerFlow's rule matches a fragment anywhere in the name, not a whole word: look again at "
                       "the names where KEY or TOKEN sits inside a longer word.")
    return False, f"Your answer {sorted(given)} is not the set DeerFlow's rule removes."


q9 = Question(
    "8.9",
    "Which names does DeerFlow's sandbox rule scrub?",
    kind="value",
    checker=_fragment_verdict,
    solution=_Q9_SCRUBBED,
    solution_code='answer = {"KEYBOARD_LAYOUT", "TOKENIZERS_PARALLELISM", "DB_PASSWORD"}',
    hint="Upper-case each name and look for KEY, SECRET, TOKEN, PASSWORD, PASSWD or CREDENTIAL anywhere inside it.",
    wrong=[
        {"DB_PASSWORD"},
        {"KEYBOARD_LAYOUT", "DB_PASSWORD"},
        {"DB_PASSWORD", "SSH_AUTH_SOCK", "GH_PAT"},
        {"KEYBOARD_LAYOUT", "TOKENIZERS_PARALLELISM", "DB_PASSWORD", "SSH_AUTH_SOCK"},
        set(_Q9_NAMES),
    ],
)

QUESTIONS = (q1, q2, q3, q4, q5, q6, q7, q8, q9)
