"""Chapter 10 exercises: replaying your own trace, the peer detectors, and the evade-the-detector challenge."""

import inspect

from loopkit.challenge import score

from . import Question, equals, function_cases

q1 = Question(
    "10.1",
    "Tighter thresholds on the looping session",
    kind="value",
    checker=equals(9, why="With --warn 2 --hard 4 the re-read of src/calendar/dates.py (bucket 0-0 at steps 2, 5, "
                          "6 and 9) reaches the hard limit at step 9, two steps earlier than the defaults."),
    solution=9,
    solution_code='answer = 9   # main(["replay", "data/coding_loop.openai_chat.jsonl", "--warn", "2", "--hard", "4"])',
    hint='Run main(["replay", LOOP, "--warn", "2", "--hard", "4"]) and read the step of the "stop" row.',
    wrong=[11, 10, 6, 4],
)

q2 = Question(
    "10.2",
    "How many peer models notice the looping session?",
    kind="value",
    checker=equals(0, why="None of the five: the session never repeats a call back to back, its reads differ in "
                          "their exact lines, and it has no short cycle. Only DeerFlow's read buckets and its "
                          "20-batch window see the repetition."),
    solution=0,
    solution_code="answer = 0   # [p.run(loop.batches).action for p in peers.PEERS] is all 'ok'",
    hint="Run each model in peers.PEERS on the looping session's batches and count the actions that are not 'ok'.",
    wrong=[5, 1, 2, 3],
)


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

q3 = Question(
    "10.3",
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


_REPEAT = [[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12
_PROGRESS = [[{"name": "read_file", "args": {"path": f"src/m{i}.py"}}] for i in range(12)]
_SHORT_CYCLE = [[{"name": "bash", "args": {"command": c}}] for c in ("pytest", "make", "git diff") * 5]

q4 = Question(
    "10.4",
    "Evade the detector: a trace that truly loops but never trips DeerFlow",
    kind="value",
    checker=_evades,
    solution=evasive_trace(),
    solution_code=inspect.getsource(evasive_trace) + "\n\nanswer = evasive_trace()",
    hint="DeerFlow warns when one fingerprint comes 3 times within 20 batches, or one tool 30 times within 50 "
         "calls. How far apart must the repeats of an action be? And the checker normalizes paths, spacing and "
         "quoting, while the fingerprint does not.",
    wrong=[_REPEAT, _PROGRESS, _SHORT_CYCLE],
)

QUESTIONS = (q1, q2, q3, q4)
