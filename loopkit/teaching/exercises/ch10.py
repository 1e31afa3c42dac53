"""Chapter 10 exercises: an adapter of your own, two predictions (tighter thresholds, the peers), the
evade-the-detector challenge, and a prediction on a real-looking session (does an override help?)."""

from loopkit.core.language import N_
from loopkit.teaching.challenge import score

from . import Case, Question, Wrong, ____, equals, function_cases

__all__ = ["____", "q1", "q2", "q3", "q4", "q5"]


def _drop_repeated_turns(messages):
    """A known-wrong adapter: it drops a turn that repeats the one before, hiding the very repeat the detector
    counts."""
    batches = []
    for message in messages:
        if message.get("speaker") == "agent" and message.get("actions"):
            batch = [{"name": a["tool"], "args": a.get("input", {}), "id": None} for a in message["actions"]]
            if not batches or batches[-1] != batch:
                batches.append(batch)
    return batches


def to_batches(messages):
    batches = []
    for message in messages:
        if message.get("speaker") == "agent" and message.get("actions"):
            batches.append([{"name": a["tool"], "args": a.get("input", {}), "id": None}
                            for a in message["actions"]])
    return batches


def _act(tool, **given):
    """One action as the made-up exporter writes it (no "input" key when it has no arguments)."""
    return {"tool": tool, "input": given} if given else {"tool": tool}


def _call(name, **args):
    """One call as the detector reads it."""
    return {"name": name, "args": args, "id": None}


_AGENT_LS = {"speaker": "agent", "text": "Let me look.", "actions": [_act("ls", path=".")]}
_AGENT_READ = {"speaker": "agent", "actions": [_act("read_file", path="a.py")]}
_USER = {"speaker": "user", "text": "tidy up"}
_USER_SHELL = {"speaker": "user", "text": "!git status", "actions": [_act("bash", command="git status")]}
_PARALLEL = {"speaker": "agent", "actions": [_act("read_file", path="a.py"), _act("bash", command="pytest")]}
_TALK = {"speaker": "agent", "text": "Done.", "actions": []}
_THINK = {"speaker": "agent", "text": "Hmm, the test still fails."}
_NO_INPUT = {"speaker": "agent", "actions": [_act("ls")]}
_TWICE_IN_ONE = {"speaker": "agent", "actions": [_act("ls", path="."), _act("ls", path=".")]}

_LS, _READ, _PYTEST = _call("ls", path="."), _call("read_file", path="a.py"), _call("bash", command="pytest")

q1 = Question(
    "10.1",
    "Write an adapter for a made-up exporter",
    kind="function",
    checker=function_cases(
        [
            Case(([_AGENT_LS],), [[_LS]], "one agent message with one action is one batch of one call, written "
                 '{"name": tool, "args": input, "id": None}'),
            Case(([_USER, _AGENT_LS],), [[_LS]], "a user message is no batch, and it may have no \"actions\" key "
                 "at all"),
            Case(([_AGENT_LS, _AGENT_READ],), [[_LS], [_READ]], "two agent messages that act are two batches, one "
                 "per turn: the detector counts turns"),
            Case(([_PARALLEL],), [[_READ, _PYTEST]], "two actions in one agent message are one batch, in the order "
                 "given: a parallel turn is not split"),
            Case(([_PARALLEL, _TALK, _THINK],), [[_READ, _PYTEST]], "an agent message that only talks (its "
                 "\"actions\" empty or missing) adds no batch: no empty batches"),
            Case(([_USER, _TALK],), [], "a conversation without any action gives no batches at all"),
            Case(([_NO_INPUT],), [[_call("ls")]], 'an action without "input" is a call without arguments: args {}'),
            Case(([_AGENT_LS, _AGENT_LS],), [[_LS], [_LS]], "the same turn twice is two batches: finding the repeat "
                 "is the detector's job, not the adapter's"),
            Case(([_TWICE_IN_ONE],), [[_LS, _LS]], "the same action twice in one turn stays twice: a fingerprint "
                 "counts how many times each call occurs (chapter 03)"),
            Case(([_USER_SHELL, _AGENT_LS],), [[_LS]], "a command the user ran (\"!git status\") is not the agent's "
                 "tool call: only agent messages become batches"),
        ],
        why="One batch per agent turn that acts, the calls in the order given, and no empty batches: that is all an "
            "adapter owes the detector.",
    ),
    solution=to_batches,
    hint="Loop over the messages; for an agent message with actions, append one list: a dict per action with "
         "name=action['tool'], args=action.get('input', {}) and id=None.",
    wrong=[
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {}), "id": None}]
                          for m in messages for a in m.get("actions", [])],  # one batch per call: parallel split
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {}), "id": None} for a in m.get("actions", [])]
                          for m in messages if m.get("speaker") == "agent"],  # keeps the empty batch of "Done."
        lambda messages: [],
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {}), "id": None}
                           for m in messages if m.get("speaker") == "agent" for a in m.get("actions", [])]]
        if any(m.get("actions") for m in messages if m.get("speaker") == "agent") else [],  # one batch for all turns
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {}), "id": None} for a in m["actions"]]
                          for m in messages if m.get("speaker") == "agent" and m["actions"]],  # needs "actions"
        lambda messages: [[{"name": a["tool"], "args": a["input"], "id": None} for a in m["actions"]]
                          for m in messages if m.get("speaker") == "agent" and m.get("actions")],  # needs "input"
        lambda messages: [[{"name": a["tool"], "args": a.get("input"), "id": None} for a in m["actions"]]
                          for m in messages if m.get("speaker") == "agent" and m.get("actions")],  # args None
        lambda messages: [sorted(({"name": a["tool"], "args": a.get("input", {}), "id": None} for a in m["actions"]),
                                 key=lambda call: call["name"])
                          for m in messages if m.get("speaker") == "agent" and m.get("actions")],  # sorts the calls
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {})} for a in m["actions"]]
                          for m in messages if m.get("speaker") == "agent" and m.get("actions")],  # no "id"
        lambda messages: [[{"name": a["tool"], "args": a.get("input", {}), "id": None} for a in m["actions"]]
                          for m in messages if m.get("actions")],  # the user's own commands too
        lambda messages: [list({repr(a): {"name": a["tool"], "args": a.get("input", {}), "id": None}
                                for a in m["actions"]}.values())
                          for m in messages if m.get("speaker") == "agent" and m.get("actions")],  # drops a twin call
        _drop_repeated_turns,
    ],
)


def _evades(answer):
    result = score(answer)
    return result.evaded, str(result)


# The reference answer is written once, as the text q4.solution() shows (so its comments can be translated like
# any hand-written solution); the answer checked is what running that text computes, so the two cannot differ.
EVASIVE_TRACE_CODE = N_('''\
def evasive_trace():
    cycle = [  # ten different actions: each comes back only every ten steps
        {"name": "read_file", "args": {"path": "src/a.py", "start_line": 1, "end_line": 100}},
        {"name": "bash", "args": {"command": "pytest -x"}},
        {"name": "grep", "args": {"pattern": "TODO", "path": "src"}},
        {"name": "read_file", "args": {"path": "src/b.py"}},
        {"name": "bash", "args": {"command": "make lint"}},
        {"name": "ls", "args": {"path": "src"}},
        {"name": "read_file", "args": {"path": "src/a.py", "start_line": 201, "end_line": 300}},
        {"name": "web_search", "args": {"query": "iso week python"}},
        {"name": "glob", "args": {"pattern": "**/*.py"}},
        {"name": "bash", "args": {"command": "git status"}},
    ]
    # 30 steps, 20 wasted; a 20-batch window holds each action at most twice, and read_file has 9 of 30 calls.
    # Another way in: vary what the fingerprint keys but the work does not ("pytest  -x", "./src/a.py").
    return [[call] for call in cycle * 3]


answer = evasive_trace()''')


def _run_solution_code(code: str):
    """The ``answer`` that ``code`` (a solution as shown to the learner) computes."""
    namespace: dict = {}
    exec(code, namespace)  # the module's own literal, never a learner's text
    return namespace["answer"]


q2 = Question(
    "10.2",
    "Predict the stop of the looping session with --warn 2 --hard 4",
    kind="prediction",
    checker=equals(9, why="The read of dates.py (every window in bucket 0-0, one fingerprint) comes at steps 2, 5, 6 "
                          "and 9, the test run at steps 1, 4, 8 and 10. With --hard 4 the stop is the first 4th "
                          "occurrence: the read's, at step 9, two steps before the default stop."),
    solution=9,
    solution_code='answer = 9   # main(["replay", "data/coding_loop.openai_chat.jsonl", "--warn", "2", "--hard", "4"])',
    hint="Two batches come back in the listing: the test run and the read of src/calendar/dates.py, whose shifting "
         "windows all fall in bucket 0-0. With --hard 4 the run stops at the first step where either of them occurs "
         "for the 4th time in the window: count both.",
    wrong={
        11: "11 is the stop with upstream's defaults (hard limit 5): the read's 5th occurrence. The hard limit counts "
            "occurrences, the first one included, so --hard 4 stops at a 4th occurrence, not at a 4th repeat.",
        10: "Step 10 is the 4th occurrence of the test run (steps 1, 4, 8 and 10). The read of dates.py gets there "
            "first (steps 2, 5, 6 and 9): the stop comes at whichever batch reaches its 4th occurrence first.",
        6: "Step 6 is where the default replay warned: the read's 3rd occurrence. --hard 4 needs a 4th.",
        5: "At step 5 the read occurs for the 2nd time: with --warn 2 that is a warning, and a warning does not stop "
           "the run.",
        4: "4 is the hard limit, a count of occurrences, not a step (and at step 4 the test run's 2nd occurrence only "
           "warns). At which step does a batch occur for the 4th time?",
        8: "Step 8 is the test run's 3rd occurrence, where the default replay warned on it. A warning never stops the "
           "run: the stop needs a 4th occurrence.",
        12: "Step 12 is the test run's 5th occurrence: that counts --hard 4 as four repeats after the first, and "
            "follows the wrong batch. The hard limit counts occurrences, and the read of dates.py reaches its 4th first.",
    },
    reveal=r"^stop_step = {answer}$",
)

q3 = Question(
    "10.3",
    "Predict how many of the five peer models notice the looping session",
    kind="prediction",
    checker=equals(0, why="None of the five: the session never sends the same exact call twice in a row; its reads "
                          "differ in their exact lines, so when the test run and a read take turns no pair and no "
                          "cycle comes back (OpenHands, Gemini CLI); and OpenCode looks only inside one response. Only "
                          "DeerFlow's read buckets and its 20-batch window see the repetition."),
    solution=0,
    solution_code="answer = 0   # [p.run(loop.batches).action for p in peers.PEERS] is all 'ok'",
    hint="Every peer here compares calls exactly (name and arguments, sometimes the result), in a row or in a short "
         "cycle. Does the looping session ever send the same exact calls back?",
    wrong={
        5: "Each peer compares calls exactly, and the session never makes the same exact call twice in a row: its "
           "reads ask for 1-120, then 60-180, then 40-130. Only DeerFlow's 200-line buckets make them one action.",
        4: "Four would leave out only OpenCode, which looks inside one response. But the other four need the very "
           "same calls back, in a row, in a strict alternation or in a short cycle, and every read of dates.py asks "
           "for other lines.",
        1: "Perhaps you counted OpenHands or Gemini CLI: from step 8 the test run and a read take turns. Their "
           "alternation and cycle checks need the same calls to come back, and each read asks for other lines, so "
           "no pair comes back.",
        2: "None of the peers buckets line ranges as DeerFlow does, so the shifting reads look like new work to all "
           "five, not only to some.",
        3: "Three would be the peers that count identical calls in a row (Roo Code, Cline, Gemini CLI). They need "
           "the exact same call in a row, which this session never sends.",
        6: "Six counts DeerFlow too, and it does stop the session; the question asks about the five peer models in "
           "peers.PEERS, and those see no repeat.",
    },
    reveal=r"^noticed = {answer}$",
)

_REPEAT = [[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12
_PROGRESS = [[{"name": "read_file", "args": {"path": f"src/m{i}.py"}}] for i in range(12)]
_SHORT_CYCLE = [[{"name": "bash", "args": {"command": c}}] for c in ("pytest", "make", "git diff") * 5]
_REWORDED = [[{"name": "bash", "args": {"command": "pytest -x", "description": f"run the tests, try {n}"}}]
             for n in range(1, 13)]
_RESPACED_40 = [[{"name": "bash", "args": {"command": "pytest" + " " * n + "-x"}}] for n in range(1, 41)]

_EVASIVE = _run_solution_code(EVASIVE_TRACE_CODE)
_CYCLE_OF_9 = _EVASIVE[:9] * 3  # the same actions, one fewer in the cycle

q4 = Question(
    "10.4",
    "Evade the detector: a trace that truly loops but never trips DeerFlow",
    kind="value",
    checker=_evades,
    solution=_EVASIVE,
    solution_code=EVASIVE_TRACE_CODE,
    hint="DeerFlow warns when one fingerprint occurs 3 times within 20 batches, or one tool 30 times within 50 "
         "calls. How far apart must the repeats of an action be? And the checker normalizes paths, spacing and "
         "quoting, while the fingerprint does not.",
    wrong=[
        Wrong(_REPEAT, "The same batch every turn is exactly what the hash layer counts: its 3rd occurrence within "
                       "20 batches warns. Repeats must come back less often than that."),
        Wrong(_PROGRESS, "DeerFlow stays quiet, but the checker sees new work at every step: this is progress, not "
                         "a loop. The challenge needs a trace that truly wastes its steps."),
        Wrong(_SHORT_CYCLE, "A short cycle still brings each batch back every third turn, so each fingerprint "
                            "reaches 3 within the 20-batch window. Make the cycle longer than that."),
        Wrong(_REWORDED, "A new description every turn does not make a new action: bash is keyed by its command "
                         "alone, so the detector sees the same batch and warns at its 3rd occurrence. The checker "
                         "agrees: only what the call does counts, and it does the same thing each time."),
        Wrong(_CYCLE_OF_9, "Nine different actions bring each one back every ninth step, so steps 1, 10 and 19 hold "
                           "it three times within one window of 20 batches: a warning at step 19. Each action must "
                           "come back at least 10 steps later."),
        Wrong(_RESPACED_40, "Respacing the command does fool the fingerprint, but every call is still a bash call: "
                            "the frequency layer warns at the 30th call of one tool within 50 calls. Stay under 30 "
                            "calls of each tool, or mix tools."),
    ],
)

q5 = Question(
    "10.5",
    "Predict where two replays of the edit-and-test session stop: with a bash override, and with --hard 6",
    kind="prediction",
    checker=equals((12, None), why="The stop is the hash layer's: the test run's 5th occurrence in the window, at "
                                   "step 12. A per-tool override sets that tool's frequency limits only, and the session "
                                   "calls bash 6 times in all, far below them, so the stop stays at step 12. With --hard 6 "
                                   "the hash layer needs a 6th occurrence, and the session runs its test 5 times: it "
                                   "warns at step 8 and is never stopped."),
    solution=(12, None),
    solution_code="answer = (12, None)   # next(report_paths([EDIT_TEST], config)).outcome.stop_step for each config",
    hint="Which layer stopped the session, and which of the two settings does that layer read? Then count the test "
         "runs: how many occurrences does --hard 6 need?",
    wrong={
        (None, None): "An override does not reach this stop. The middleware reads tool_freq_overrides only in the "
                      "frequency layer; the stop comes from the hash layer, which compares the test run's count with "
                      "the global hard_limit, whatever the tool.",
        (12, 12): "--hard 6 needs a 6th occurrence of the same batch in the window, and this session runs its test "
                  "only 5 times: it warns at step 8 and is never stopped.",
        (None, 12): "Both are the other way round: the override changes nothing here (it sets bash's frequency "
                    "limits, and this stop is the hash layer's), while --hard 6 needs a 6th test run, which never "
                    "comes.",
        (8, None): "Step 8 is the warning, the test run's 3rd occurrence; a warning lets the batch run. The stop is "
                   "the 5th occurrence, at step 12, and the override does not move it.",
        12: "Give both steps, as a pair: the stop with the override first, then the stop with --hard 6 (None if "
            "that replay never stops).",
    },
    responses={
        (None, None): "Ask which layer made the stop (the summary says hash), and which layer reads "
                      "tool_freq_overrides.",
        (12, 12): "Count the test runs in the listing together: five. How many does a hard limit of 6 need?",
        (None, 12): "Take one replay at a time: first the layer of the stop, then the number of test runs.",
        (8, None): "Ask what a warning does to the batch that earned it: it lets it run.",
    },
    reveal=r"^stop_steps = {answer}$",
)

QUESTIONS = (q1, q2, q3, q4, q5)
