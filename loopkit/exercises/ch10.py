"""Chapter 10 exercises: an adapter of your own, two predictions (tighter thresholds, the peers), and the
evade-the-detector challenge."""

from loopkit.challenge import score

from . import Question, Wrong, equals, function_cases

def to_batches(messages):
    batches = []
    for message in messages:
        if message.get("speaker") == "agent" and message.get("actions"):
            batches.append([{"name": a["tool"], "args": a.get("input", {}), "id": None}
                            for a in message["actions"]])
    return batches


_AGENT_LS = {"speaker": "agent", "actions": [{"tool": "ls", "input": {"path": "."}}]}
_USER = {"speaker": "user", "text": "tidy up"}
_PARALLEL = {"speaker": "agent", "actions": [{"tool": "read_file", "input": {"path": "a.py"}},
                                             {"tool": "bash", "input": {"command": "pytest"}}]}
_TALK = {"speaker": "agent", "text": "Done.", "actions": []}

q1 = Question(
    "10.1",
    "Write an adapter for a made-up exporter",
    kind="function",
    checker=function_cases(
        [
            (([_USER, _AGENT_LS],), [[{"name": "ls", "args": {"path": "."}, "id": None}]]),
            (([_PARALLEL, _TALK],), [[{"name": "read_file", "args": {"path": "a.py"}, "id": None},
                                      {"name": "bash", "args": {"command": "pytest"}, "id": None}]]),
            (([_USER, _TALK],), []),
            (([{"speaker": "agent", "actions": [{"tool": "ls"}]}],), [[{"name": "ls", "args": {}, "id": None}]]),
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
    ],
)


def _evades(answer):
    result = score(answer)
    return result.evaded, str(result)


# The reference answer is written once, as the text q4.solution() shows (so its comments can be translated like
# any hand-written solution); the answer checked is what running that text computes, so the two cannot differ.
EVASIVE_TRACE_CODE = '''\
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


answer = evasive_trace()'''


def _run_solution_code(code: str):
    """The ``answer`` that ``code`` (a solution as shown to the learner) computes."""
    namespace: dict = {}
    exec(code, namespace)  # the module's own literal, never a learner's text
    return namespace["answer"]


q2 = Question(
    "10.2",
    "Predict the stop of the looping session with --warn 2 --hard 4",
    kind="prediction",
    checker=equals(9, why="The read of bucket 0-0 comes at steps 2, 5, 6 and 9; with --hard 4 its fourth time, at "
                          "step 9, is the stop, two steps earlier than with upstream's defaults (hard limit 5)."),
    solution=9,
    solution_code='answer = 9   # main(["replay", "data/coding_loop.openai_chat.jsonl", "--warn", "2", "--hard", "4"])',
    hint="The read of src/calendar/dates.py falls in bucket 0-0 every time it comes back. With the defaults its 3rd "
         "time (the warning) was step 6 and its 5th (the stop) step 11. Which step is its 4th time?",
    wrong={
        11: "11 is the stop with upstream's defaults (hard limit 5). A lower hard limit is reached earlier: the "
            "fourth time the same batch comes back, not the fifth.",
        6: "Step 6 is where the default replay warned: the read's third time. The stop needs the fourth.",
        4: "4 is the hard limit, a count of repeats, not a step. Count the read's appearances: at which step does "
           "it come for the fourth time?",
        5: "At step 5 the read comes for the second time: with --warn 2 that is a warning, not the stop.",
        10: "Nothing comes back at step 10: a stop happens at a step where the same batch arrives again.",
    },
)

q3 = Question(
    "10.3",
    "Predict how many of the five peer models notice the looping session",
    kind="prediction",
    checker=equals(0, why="None of the five: the session never repeats a call back to back, its reads differ in "
                          "their exact lines, and OpenCode looks only inside one response. Only DeerFlow's read "
                          "buckets and its 20-batch window see the repetition."),
    solution=0,
    solution_code="answer = 0   # [p.run(loop.batches).action for p in peers.PEERS] is all 'ok'",
    hint="Every peer here compares calls exactly (name and arguments, sometimes the result), and most only in a "
         "row. Does the looping session ever send the same exact call twice in a row?",
    wrong={
        5: "Each peer compares calls exactly, and the session never makes the same exact call twice in a row: its "
           "reads ask for 1-120, then 60-180, then 40-130. Only DeerFlow's 200-line buckets make them one action.",
        1: "Perhaps you thought of Gemini CLI's hash of each call. It counts identical calls in a row, and the "
           "session's reads change their lines every time.",
        2: "None of the peers buckets line ranges as DeerFlow does, so the shifting reads look like new work to all "
           "five, not only to some.",
        3: "Three would be the peers that count identical calls in a row (Roo Code, Cline, Gemini CLI). They need "
           "the exact same call in a row, which this session never sends.",
    },
)

_REPEAT = [[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12
_PROGRESS = [[{"name": "read_file", "args": {"path": f"src/m{i}.py"}}] for i in range(12)]
_SHORT_CYCLE = [[{"name": "bash", "args": {"command": c}}] for c in ("pytest", "make", "git diff") * 5]

q4 = Question(
    "10.4",
    "Evade the detector: a trace that truly loops but never trips DeerFlow",
    kind="value",
    checker=_evades,
    solution=_run_solution_code(EVASIVE_TRACE_CODE),
    solution_code=EVASIVE_TRACE_CODE,
    hint="DeerFlow warns when one fingerprint comes 3 times within 20 batches, or one tool 30 times within 50 "
         "calls. How far apart must the repeats of an action be? And the checker normalizes paths, spacing and "
         "quoting, while the fingerprint does not.",
    wrong=[
        Wrong(_REPEAT, "The same batch every turn is exactly what the hash layer counts: its third time within 20 "
                       "batches warns. Repeats must come back less often than that."),
        Wrong(_PROGRESS, "DeerFlow stays quiet, but the checker sees new work at every step: this is progress, not "
                         "a loop. The challenge needs a trace that truly wastes its steps."),
        Wrong(_SHORT_CYCLE, "A short cycle still brings each batch back every third turn, so each fingerprint "
                            "reaches 3 within the 20-batch window. Make the cycle longer than that."),
    ],
)

QUESTIONS = (q1, q2, q3, q4)
