"""Chapter 09 exercises: a fingerprint is no credential, trust channels, server-owned keys, the environment scrub,
request-scoped credentials, header values, deployments, and DeerFlow's own sandbox-environment rule at the pinned
commit.

A wrong set of names (9.3, 9.4, 9.8) or a wrong triple of deployments (9.7) that is none of the listed slips still
gets specific feedback: the checker names the first item, in the question's order, that the answer gets wrong, and
why that item goes or stays (:func:`loopkit.teaching.exercises.first_wrong_item`).
"""

import html
import re

from loopkit.core.language import N_, tr
from loopkit.teaching.boundaries import (
    DATA_SOURCES,
    HeaderValueError,
    deerflow_header_refusal,
    frame_untrusted,
    trust_channel,
    validate_header_value,
)
from loopkit.teaching.boundaries.pinned import is_blocked_env_name

from . import Case, Question, ____, equals, first_wrong_item, function_cases, standard_form

__all__ = ["____", "q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "Q3_METADATA", "Q4_NAMES", "Q7_SITUATIONS", "Q8_NAMES"]


def _spellings(answer):
    """A collection of names as the learner wrote them, each without surrounding spaces or quotes."""
    if isinstance(answer, str) or not isinstance(answer, (set, frozenset, list, tuple)):
        raise TypeError(tr("give a collection of names, such as {'PATH', 'HOME'}"))
    return {str(standard_form(str(item))) for item in answer}


def _names(answer):
    """A collection of names as a set of their upper-cased spellings (names are compared in any case)."""
    return frozenset(name.upper() for name in _spellings(answer))


def _name_set_checker(expected, reasons, *, why):
    """A checker for a set of names: right when it is ``expected`` (in any case and order). A wrong set that is none
    of the question's listed slips gets the reason of its first wrong name, from ``reasons`` (each name of the
    question, in the question's order, with why it goes or stays); a name the question does not hold is named."""
    target = _names(expected)
    known = {name.upper() for name in reasons}

    def check(answer):
        try:
            given = _names(answer)
        except TypeError as exc:
            return False, str(exc)
        if given == target:
            return True, tr(why)
        strangers = sorted(name for name in _spellings(answer) if name.upper() not in known)
        if strangers:
            return False, tr("{names} is not one of the names in the question.", names=", ".join(strangers))
        wrong = {name for name in reasons if name.upper() in given ^ target}
        return False, first_wrong_item(wrong, reasons)

    check.normalize = _names
    check.why = why
    return check


# ---------------------------------------------------------------------------------------------------------------
# 9.1: who can compute which tag

q1 = Question(
    "9.1",
    "Who can compute which tag?",
    kind="prediction",
    checker=equals(
        (True, False),
        why="The fingerprint needs only the calls, so anyone who sees them computes it and it grants nothing; the "
        "keyed tag mixes in the server's secret, so without it a client computes some other tag. Neither says who "
        "sent the calls: identity comes from the server's authenticated session.",
    ),
    solution=(True, False),
    hint="Look at the arguments each function takes. Which one needs something a client does not have?",
    wrong={
        (True, True): "The keyed tag mixes in the server's secret. Without it a client computes some other tag, as "
        "the guessed secret in the reveal cell does.",
        (False, False): "The fingerprint takes nothing but the calls: anyone who sees them, in a log or a trace, "
        "computes the same 12 characters.",
        (False, True): "It is the other way round: the fingerprint needs only the calls, the keyed tag needs the "
        "secret as well.",
    },
    reveal=r"^can_compute = {answer}$",
)


# ---------------------------------------------------------------------------------------------------------------
# 9.2: prepare the context

def prepare(source, text):
    if trust_channel(source) == "instructions":
        return text
    return frame_untrusted(source, text)


# Functions a learner plausibly writes instead; each fails on a case whose idea names its mistake.
def _never_frames(source, text):
    return text


def _always_frames(source, text):
    return frame_untrusted(source, text)


def _frames_only_web_pages(source, text):
    return frame_untrusted(source, text) if source == "web_page" else text


def _frames_the_sources_it_was_shown(source, text):
    return frame_untrusted(source, text) if source in ("web_page", "mcp_result", "subagent_report") else text


def _frames_the_known_data_sources(source, text):
    return frame_untrusted(source, text) if source in DATA_SOURCES else text


def _trusts_any_name_with_framework_in_it(source, text):
    return text if "framework" in source else frame_untrusted(source, text)


def _frames_by_hand(source, text):
    if source == "framework":
        return text
    return f'<untrusted-data source="{source}">\n{html.escape(text)}\n</untrusted-data>'


def _frames_by_hand_keeping_quotes(source, text):
    if source == "framework":
        return text
    return f'<untrusted-data source="{source}">\n{html.escape(text, quote=False)}\n</untrusted-data>'


q2 = Question(
    "9.2",
    "Write prepare(source, text): framework text as it is, everything else framed",
    kind="function",
    checker=function_cases(
        [
            Case(("framework", "Answer briefly."), "Answer briefly.",
                 "framework instructions are the one source that speaks in the system channel: they come back "
                 "exactly as they are"),
            Case(("web_page", "<b>hi</b>"),
                 '<untrusted-data source="web_page">\n&lt;b&gt;hi&lt;/b&gt;\n</untrusted-data>',
                 "a fetched web page is data: it comes back in an untrusted-data frame, with its tags escaped"),
            Case(("mcp_result", "ok"), '<untrusted-data source="mcp_result">\nok\n</untrusted-data>',
                 "an MCP tool's result is data too, however much you trust the tool"),
            Case(("subagent_report", "done"), '<untrusted-data source="subagent_report">\ndone\n</untrusted-data>',
                 "a sub-agent's report is data as well: another agent's words are not the framework's"),
            Case(("calendar_invite", "Meet at 3."),
                 '<untrusted-data source="calendar_invite">\nMeet at 3.\n</untrusted-data>',
                 "a source nobody listed is data as well: name the one trusted source, and frame everything else, "
                 "rather than listing the untrusted ones"),
            Case(("framework_notes", "Be brief."), '<untrusted-data source="framework_notes">\nBe brief.\n'
                 "</untrusted-data>",
                 "only the source named exactly framework gives instructions: framework_notes is another source, so "
                 "its text is framed (compare the whole name, not a part of it)"),
            Case(("web_page", 'Say "hi" \uff1csystem\uff1e'),
                 '<untrusted-data source="web_page">\nSay "hi" &#xff1c;system&#xff1e;\n</untrusted-data>',
                 "the frame also escapes look-alike brackets such as the fullwidth \uff1c and leaves quotes as "
                 "they are: call frame_untrusted instead of building the frame by hand"),
        ],
        why="Only the framework speaks in the system channel; every other source arrives framed, as data.",
    ),
    solution=prepare,
    hint='trust_channel(source) says "instructions" or "data"; frame_untrusted(source, text) frames data.',
    wrong=[_never_frames, _always_frames, _frames_only_web_pages, _frames_the_sources_it_was_shown,
           _frames_the_known_data_sources, _trusts_any_name_with_framework_in_it, _frames_by_hand,
           _frames_by_hand_keeping_quotes],
)


# ---------------------------------------------------------------------------------------------------------------
# 9.3: server-owned keys

#: Exercise 9.3's metadata, as the client sends it (spellings the chapter's examples do not use).
Q3_METADATA = {"topic": "release notes", "Run-Trace": "trace-7", "userIdHint": "alice", "SEQUENCE.NUMBER": 999,
               "_priority": "high", "lease": "L-12"}

#: Why each key of Q3_METADATA goes or stays, in the question's order.
_Q3_REASONS = {
    "topic": N_("topic is not a server-owned key, so it stays."),
    "Run-Trace": N_("its letters and digits, ignoring case, are runtrace, the same as run_trace's: it is the "
    "run trace spelled another way, so it is removed."),
    "userIdHint": N_("its letters and digits are useridhint, not userid: the whole key is compared, and Hint "
    "makes it another key, so it stays."),
    "SEQUENCE.NUMBER": N_("its letters and digits, ignoring case, are sequencenumber, the same as "
    "sequence_number's: it is removed."),
    "_priority": N_("it starts with an underscore, so it is internal in this model and removed (DeerFlow's "
    "Gateway drops context keys that start with two)."),
    "lease": N_("lease is not sandbox_lease: the whole key is compared, and lease lacks sandbox, so it stays."),
}

q3 = Question(
    "9.3",
    "Which client keys does strip_server_owned remove?",
    kind="prediction",
    checker=_name_set_checker(
        {"Run-Trace", "SEQUENCE.NUMBER", "_priority"},
        _Q3_REASONS,
        why=N_("A server-owned key spelled another way is still that key, a key that only contains one is not, and "
               "every "
        "_internal key is the server's."),
    ),
    solution={"Run-Trace", "SEQUENCE.NUMBER", "_priority"},
    solution_code='prediction = {"Run-Trace", "SEQUENCE.NUMBER", "_priority"}  # spelled as the client sent them',
    hint="Reduce each key to its letters and digits, in lower case, and compare it whole with userid, sandboxlease, "
    "runtrace and sequencenumber. Keys starting with _ are internal.",
    wrong={
        frozenset({"_priority"}): "Keys are compared by their letters and digits alone, ignoring case: Run-Trace is "
        "run_trace and SEQUENCE.NUMBER is sequence_number, spelled another way.",
        frozenset({"Run-Trace", "SEQUENCE.NUMBER"}): "A key starting with one underscore is internal in this model, "
        "so _priority goes too: a client must not pick its own priority. (DeerFlow's Gateway drops context keys that "
        "start with two underscores; this model needs one.)",
        frozenset({"Run-Trace", "userIdHint", "SEQUENCE.NUMBER", "_priority"}): "userIdHint contains the user id's "
        "letters, but it is not the user id: the whole key is compared, and Hint makes it another key.",
        frozenset({"Run-Trace", "SEQUENCE.NUMBER", "_priority", "lease"}): "lease is only part of sandbox_lease: the "
        "whole key is compared, so lease is another key and stays.",
        frozenset({"topic", "userIdHint", "lease"}): "Those are the keys that stay. The question asks which keys "
        "strip_server_owned removes.",
    },
    reveal=r"^removed = {answer}$",
)


# ---------------------------------------------------------------------------------------------------------------
# 9.4: what survives the scrub

#: Exercise 9.4's environment (names only; the values do not matter to the scrub). Apart from PWD, which the chapter
#: names as one of DEFAULT_ALLOW's, none of them is in the chapter's own examples.
Q4_NAMES = ("PYTHONPATH", "GIT_AUTHOR_NAME", "SLACK_BOT_TOKEN", "NGROK_AUTHTOKEN", "PGPASSFILE", "PWD", "SMTP_PWD",
            "DBUS_SESSION_BUS_ADDRESS")

_Q4_KEPT = frozenset({"PYTHONPATH", "GIT_AUTHOR_NAME", "PGPASSFILE", "PWD"})

#: Why each name of Q4_NAMES goes or stays, in the question's order.
_Q4_REASONS = {
    "PYTHONPATH": N_("it is one word, PYTHONPATH, and it ends with PATH, not with a secret word: PAT counts only "
    "as a word of its own, as in GH_PAT. scrub_env keeps it."),
    "GIT_AUTHOR_NAME": N_("AUTHOR is a word of its own, and AUTH inside it is not a word: scrub_env keeps it."),
    "SLACK_BOT_TOKEN": N_("TOKEN is a word of its own here, so scrub_env removes it."),
    "NGROK_AUTHTOKEN": N_("AUTHTOKEN is a run-together word that ends with TOKEN, like GITHUBTOKEN, so scrub_env "
    "removes it."),
    "PGPASSFILE": N_("it is one word that ends with FILE; PASS in its middle does not count, only a secret word at "
    "the end of a run-together word does. scrub_env keeps it."),
    "PWD": N_("PWD is a secret word (it can mean a password), but this name is the shell's working directory, and "
    "DEFAULT_ALLOW keeps it by its exact name."),
    "SMTP_PWD": N_("PWD is a secret word of its own here, and DEFAULT_ALLOW keeps only the exact names PWD and OLDPWD, "
    "so scrub_env removes it."),
    "DBUS_SESSION_BUS_ADDRESS": N_("SESSION is a secret word of its own here, and this name is not on the "
    "allow-list (only three XDG_SESSION_ names are), so scrub_env removes it, harmless as it is: the rule "
    "reads words, not what a variable is for."),
}

q4 = Question(
    "9.4",
    "Which names survive scrub_env?",
    kind="value",
    checker=_name_set_checker(
        _Q4_KEPT,
        _Q4_REASONS,
        why=N_("Secret words count as words of their own or at the end of a run-together word, and a documented "
        "allow-list keeps a few harmless names by their exact spelling."),
    ),
    solution=set(_Q4_KEPT),
    solution_code='answer = {"PYTHONPATH", "GIT_AUTHOR_NAME", "PGPASSFILE", "PWD"}  # the names that stay',
    hint="Split each name into words at the underscores. Is a word a secret word, or a run-together word that ends "
    "with one (like TOKEN in GITHUBTOKEN)? Then check DEFAULT_ALLOW, which compares exact names.",
    wrong={
        frozenset({"PWD"}): "The scrub reads words, not letters: PAT inside PYTHONPATH, AUTH inside AUTHOR and PASS in "
        "the middle of PGPASSFILE are not secret words of their own.",
        frozenset(): "The scrub reads words, not letters (PAT in PYTHONPATH, AUTH in AUTHOR and PASS in PGPASSFILE do "
        "not count), and DEFAULT_ALLOW keeps PWD, the shell's working directory, by its exact name.",
        frozenset({"PYTHONPATH", "GIT_AUTHOR_NAME", "PGPASSFILE"}): "PWD is a secret word, but DEFAULT_ALLOW keeps the "
        "name PWD, the shell's working directory, by its exact spelling.",
        frozenset(_Q4_KEPT | {"SMTP_PWD"}): "DEFAULT_ALLOW compares exact names: it keeps PWD and OLDPWD, not every "
        "name that holds PWD, so SMTP_PWD goes.",
        frozenset(_Q4_KEPT | {"NGROK_AUTHTOKEN"}): "A run-together word counts when it ends with a secret word: "
        "AUTHTOKEN ends with TOKEN, as GITHUBTOKEN does, so NGROK_AUTHTOKEN goes.",
        frozenset(_Q4_KEPT - {"PGPASSFILE"}): "A run-together word counts only when it ends with a secret word: "
        "PGPASSFILE ends with FILE, and the PASS in its middle does not count.",
        frozenset(_Q4_KEPT | {"DBUS_SESSION_BUS_ADDRESS"}): "SESSION is one of the secret words, and the allow-list "
        "holds only three XDG_SESSION_ names: the rule reads the words of a name, not what the variable is for.",
        frozenset(set(Q4_NAMES) - _Q4_KEPT): "Those are the names scrub_env removes. The question asks which names it "
        "keeps.",
    },
    reveal=r"^kept = {answer}$",
)


# ---------------------------------------------------------------------------------------------------------------
# 9.5: an empty credential

# Why each wrong letter is wrong. "b" is what DeerFlow's sandbox path does at the pinned commit with an empty value,
# and "d" what it does with a missing one, so both get an answer of their own.
_Q5_WRONG = {
    "a": N_("There is no fallback: inject_credentials never reads a declared name from env, and scrub_env has "
    "removed the static token anyway."),
    "b": N_("That is DeerFlow's sandbox path at the pinned commit: an empty string is a string, so it is injected as "
            "it "
    "is. This workbook's model refuses an empty or blank value by name instead; it is never injected."),
    "d": N_("That is what DeerFlow's sandbox path at the pinned commit does with a missing secret: it names it in the "
    "audit record and runs the command without it. Here the value arrives empty, and this workbook's model refuses "
    "it by name, as DeerFlow's later MCP header path (PR #5010) does."),
    "cd": N_("Pick one letter. The model does one thing with an empty declared credential, and does it before any "
    "tool runs."),
}


def _letter(answer):
    """One multiple-choice letter written as "c", "C", "'c'", "c)", "(c)", "c." or "c) the option's text"."""
    text = standard_form(answer, like="c")
    if not isinstance(text, str):
        return text
    match = re.fullmatch(r"\(?\s*([a-z])\s*(?:[).:]\s*.*|\s*)", text.lower(), re.S)
    return match.group(1) if match else text.lower()


def _credential_verdict(answer):
    letter = _letter(answer)
    if letter == "c":
        return True, tr("Default deny: an empty declared credential is refused by name; no static token is used.")
    if letter in _Q5_WRONG:
        return False, tr(_Q5_WRONG[letter])
    return False, tr("Answer with one letter from a to d; {answer} is not one.", answer=repr(answer))


_credential_verdict.normalize = _letter

q5 = Question(
    "9.5",
    "A declared credential arrives empty. What happens?",
    kind="prediction",
    checker=_credential_verdict,
    solution="c",
    hint="Read inject_credentials' policy: what does it do with a blank value, and does it ever look at env?",
    wrong=_Q5_WRONG,
    reveal=r"^outcome = {answer}$",
)


# ---------------------------------------------------------------------------------------------------------------
# 9.6: safe or not

def is_safe(name, value):
    try:
        validate_header_value(name, value)
    except HeaderValueError:
        return False
    return True


# Functions a learner plausibly writes instead; each fails on a case whose idea names its mistake.
def _no_line_feed(name, value):
    return "\n" not in value


def _no_line_break(name, value):
    return "\r" not in value and "\n" not in value


def _printable(name, value):
    return value.isprintable()


def _printable_ascii_and_no_space_in_the_name(name, value):
    return value.isascii() and value.isprintable() and " " not in name


def _every_value_rule_and_no_space_in_the_name(name, value):
    return value.isascii() and value.isprintable() and value == value.strip() and " " not in name


def _deerflows_later_check(name, value):
    return deerflow_header_refusal(value) is None


def _truth_of_the_returned_value(name, value):
    try:
        return bool(validate_header_value(name, value))
    except HeaderValueError:
        return False


def _checks_the_value_only(name, value):
    try:
        validate_header_value("X-Header", value)
    except HeaderValueError:
        return False
    return True


q6 = Question(
    "9.6",
    "Write is_safe(name, value): True when validate_header_value accepts the pair",
    kind="function",
    checker=function_cases(
        [
            Case(("X-Run", "run-42"), True,
                 "a plain printable ASCII value is accepted: answer True when validate_header_value raises nothing"),
            Case(("Authorization", "Bearer abc.def"), True,
                 "a space inside a value is fine (a Bearer token has one); only a space at either end is refused"),
            Case(("X-Run", ""), True,
                 "an empty value holds no bad character, so it is accepted: answer True because nothing was raised, "
                 "not because of what the call returned"),
            Case(("X-Run", "ok\r\nSet-Cookie: admin=1"), False,
                 "a CR LF would end this header and start a forged one, so it is refused"),
            Case(("X-Run", "a\x00b"), False, "a NUL is refused too, not only line breaks"),
            Case(("X-Run", "tab\there"), False,
                 "this workbook's rule refuses a tab anywhere, although HTTP, and DeerFlow's later check, allow one "
                 "inside a value"),
            Case(("X-Run", "bell\x07"), False, "every control character is refused, not only CR, LF, NUL and tab"),
            Case(("X-Run", "café"), False, "non-ASCII text is refused: transports disagree on how to encode it"),
            Case(("X-Run", "token "), False,
                 "a value may not end (or start) with a space: HTTP strips such spaces and strict transports refuse "
                 "them"),
            Case(("X Run", "fine"), False, "the header name is checked too: a name with a space is no HTTP token"),
            Case(("X-Run\r\nX-Admin", "yes"), False,
                 "a line break in the name splits the header as surely as one in the value: call "
                 "validate_header_value, which checks that the name is an HTTP token"),
        ],
        why="Catch the error and answer False; never print the rejected value while handling it.",
    ),
    solution=is_safe,
    hint="Call validate_header_value inside try/except HeaderValueError.",
    wrong=[_no_line_feed, _no_line_break, _printable, _printable_ascii_and_no_space_in_the_name,
           _every_value_rule_and_no_space_in_the_name, _deerflows_later_check, _truth_of_the_returned_value,
           _checks_the_value_only],
)


# ---------------------------------------------------------------------------------------------------------------
# 9.7: three situations

#: Exercise 9.7's three situations, as recommend_deployment's five answers:
#: users, reachable, real_credentials, untrusted_content, persistent_state.
Q7_SITUATIONS = {
    "A": ("several people", True, True, True, True),  # a 40-person workshop on one shared agent service
    "B": ("only me", True, False, False, False),  # one person's demo, on a port the office network reaches
    "C": ("only me", False, False, False, True),  # one person, not reachable, memory kept between sessions
}

_Q7_CHOICES = ("shared", "shared", "isolated")

#: Why each situation gets its deployment, for an answer that is none of the listed slips.
_Q7_REASONS = {
    "A": N_("forty people use one instance, so each needs an identity the server owns: shared."),
    "B": N_("a port others can reach makes every request a stranger's, and reachability decides before anything else: "
    "shared."),
    "C": N_("nobody else uses or reaches it, but its memory must outlive the process, which needs storage of its own: "
    "isolated."),
}


def _deployment(word):
    if not isinstance(word, str):
        raise TypeError(tr("give each deployment as a word such as 'shared', got {kind}", kind=type(word).__name__))
    return standard_form(word).lower().removesuffix(" deployment").removesuffix(" evaluation")


def _deployments(answer):
    """Three answers written as a tuple, a list, or one string such as "shared, local, isolated"."""
    items = answer.split(",") if isinstance(answer, str) else answer
    return tuple(_deployment(item) for item in items)


def _deployment_verdict(answer):
    given = _deployments(answer)
    if given == _Q7_CHOICES:
        return True, tr("Whoever can reach the instance decides first: more than one user or a reachable port makes it "
                        "shared. Only then do credentials, untrusted content and kept state ask for an isolated one.")
    if len(given) != len(_Q7_CHOICES):
        return False, tr("Give three words, one for each of A, B and C; you gave {count}.", count=len(given))
    wrong = {label for label, mine, right in zip(Q7_SITUATIONS, given, _Q7_CHOICES, strict=True) if mine != right}
    return False, first_wrong_item(wrong, _Q7_REASONS)


_deployment_verdict.normalize = _deployments

q7 = Question(
    "9.7",
    "Which deployment does each of three situations need?",
    kind="prediction",
    checker=_deployment_verdict,
    solution=_Q7_CHOICES,
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
        ("shared", "local", "local"): "Two situations need more than local evaluation: B can be reached by others "
        "over the network (shared), and C keeps state that must outlive the process (isolated).",
        ("shared", "isolated", "local"): "Reachability decides first, so B is shared, not isolated; and C's memory "
        "between sessions needs storage of its own, so C is isolated, not local.",
    },
    reveal=r"^choices = {answer}$",
)


# ---------------------------------------------------------------------------------------------------------------
# 9.8: DeerFlow's scrub

#: Exercise 9.8's names, none of them in the chapter's own examples or tables.
Q8_NAMES = ("PASSENGER_APP_ENV", "DOCKER_AUTH_CONFIG", "MONGODB_URI", "POSTGRES_URL_REPLICA", "npm_config__authToken",
            "TZ")
#: What DeerFlow's policy at the pinned commit removes of them (loopkit.teaching.boundaries.pinned, checked against upstream).
_Q8_SCRUBBED = frozenset(name for name in Q8_NAMES if is_blocked_env_name(name))

_WORD_RULE = (N_("That is this workbook's word rule, not DeerFlow's: AUTH is a secret word in scrub_env but no "
                 "fragment "
              "of DeerFlow's, and DeerFlow matches its fragments anywhere (PASS in PASSENGER) and a list of exact "
              "names (MONGODB_URI)."))
_EXACT_NAMES = (N_("DeerFlow also blocks 19 exact names that hold none of its fragments, connection strings among "
                   "them: "
                "MONGODB_URI is one of them."))
_WHOLE_NAMES = (N_("The exact names are compared whole: POSTGRES_URL_REPLICA is not POSTGRES_URL, and it holds none of "
                "the fragments, so it stays."))
_ANYWHERE = (N_("DeerFlow's fragments count anywhere in the upper-cased name, even inside a longer word: PASS in "
             "PASSENGER_APP_ENV."))
_OLDER_RULE = (N_("That is the rule of an older pull-request commit (4f474b53), not of the pinned one: at f1f4af99 "
                  "PASS "
               "and DSN are fragments too, and 19 exact names such as MONGODB_URI are blocked."))
_UPPER_CASED = (N_("The name is upper-cased before it is compared: npm_config__authToken becomes "
                   "NPM_CONFIG__AUTHTOKEN, "
                "which holds TOKEN."))
_NO_AUTH = (N_("AUTH is not one of DeerFlow's six fragments, and DOCKER_AUTH_CONFIG is not an exact name: DeerFlow "
               "keeps "
            "it, although it often holds registry credentials."))

#: Why each name of Q8_NAMES goes or stays, in the question's order.
_Q8_REASONS = {
    "PASSENGER_APP_ENV": N_("upper-cased, it holds PASS (in PASSENGER), and a fragment counts anywhere, even "
    "inside a longer word: DeerFlow removes it."),
    "DOCKER_AUTH_CONFIG": N_("AUTH is not one of the six fragments, and the name is not an exact name: DeerFlow "
    "keeps it."),
    "MONGODB_URI": N_("it holds no fragment, but it is one of the 19 exact names: DeerFlow removes it."),
    "POSTGRES_URL_REPLICA": N_("the exact names are compared whole: it is not POSTGRES_URL, and it holds no "
    "fragment, so DeerFlow keeps it."),
    "npm_config__authToken": N_("the name is upper-cased first, and NPM_CONFIG__AUTHTOKEN holds TOKEN: DeerFlow "
    "removes it."),
    "TZ": N_("it holds no fragment and is no exact name: DeerFlow keeps it."),
}

q8 = Question(
    "9.8",
    "Which names does DeerFlow's sandbox rule scrub?",
    kind="prediction",
    checker=_name_set_checker(
        _Q8_SCRUBBED,
        _Q8_REASONS,
        why=N_("At the pinned commit DeerFlow blocks a name that, upper-cased, holds KEY, SECRET, TOKEN, PASS, "
               "CREDENTIAL "
        "or DSN anywhere, or is one of 19 exact names; DOCKER_AUTH_CONFIG, POSTGRES_URL_REPLICA and TZ are neither."),
    ),
    solution=set(_Q8_SCRUBBED),
    solution_code='prediction = {"PASSENGER_APP_ENV", "MONGODB_URI", "npm_config__authToken"}  # the names DeerFlow\'s '
    "rule removes",
    hint="Upper-case each name. Is it one of the exact names (compared whole), or does it hold KEY, SECRET, TOKEN, "
    "PASS, CREDENTIAL or DSN anywhere inside it?",
    wrong={
        frozenset({"DOCKER_AUTH_CONFIG", "npm_config__authToken"}): _WORD_RULE,
        frozenset({"PASSENGER_APP_ENV", "npm_config__authToken"}): _EXACT_NAMES,
        frozenset({"PASSENGER_APP_ENV", "MONGODB_URI", "POSTGRES_URL_REPLICA", "npm_config__authToken"}): _WHOLE_NAMES,
        frozenset({"MONGODB_URI", "npm_config__authToken"}): _ANYWHERE,
        frozenset({"npm_config__authToken"}): _OLDER_RULE,
        frozenset({"PASSENGER_APP_ENV", "MONGODB_URI"}): _UPPER_CASED,
        frozenset({"PASSENGER_APP_ENV", "DOCKER_AUTH_CONFIG", "MONGODB_URI", "npm_config__authToken"}): _NO_AUTH,
    },
    reveal=r"^blocked = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4, q5, q6, q7, q8)
