"""Peer detector models against the rules read at their pinned commits (issue 14), on hand-written traces.

Every expected step below is counted by hand from the stated rule, not computed by the code under test."""

import json
import pathlib
import re

import pandas as pd
import pytest

from loopkit.core.detector import DetectorConfig, Outcome
from loopkit.teaching.peers import (
    DETECTORS,
    PEERS,
    SIMPLIFIED,
    Cline,
    DeerFlow,
    GeminiCLI,
    OpenCode,
    OpenHands,
    RooCode,
    compare,
)


def call(name, **args):
    return {"name": name, "args": args}


A = call("read_file", path="a.py")
B = call("bash", command="pytest")
C = call("grep", pattern="TODO")
D = call("ls", path=".")
E = call("web_search", query="x")
F = call("glob", pattern="*.py")


def one_per_batch(calls):
    return [[c] for c in calls]


def distinct(n, name="read_file"):
    return [call(name, path=f"f{i}.py") for i in range(n)]


def run(model, calls):
    r = model.run(one_per_batch(calls))
    return r.warn_step, r.stop_step


# -- labels ---------------------------------------------------------------------------------------------------


def test_every_peer_is_labelled_a_simplified_model():
    assert [p.name for p in PEERS] == ["Gemini CLI", "OpenHands", "Roo Code", "Cline", "OpenCode"]
    for peer in PEERS:
        assert peer.note == SIMPLIFIED and "not the real implementation" in peer.note
        assert "simplified model" in repr(peer)
    assert [d.name for d in DETECTORS] == ["DeerFlow"] + [p.name for p in PEERS]


@pytest.mark.parametrize("model", DETECTORS, ids=lambda m: m.name)
def test_every_model_names_the_commit_and_file_it_models(model):
    assert re.fullmatch(r"[0-9a-f]{40}", model.commit), f"{model.name}: commit must be a full 40-hex hash"
    assert model.path.strip() and not model.path.startswith("/"), f"{model.name}: path must be a repository path"
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", model.repo), f"{model.name}: repo must be owner/name"
    assert model.rule and ". " not in model.rule and "\n" not in model.rule, f"{model.name}: rule is one sentence"
    assert model.source == f"{model.repo}@{model.commit[:8]}:{model.path}"


def test_the_pins_are_the_checked_commits():
    # the commits whose files were read in git snapshots of each project for issue 33 (OpenCode's for issue 14)
    assert {m.name: m.commit[:8] for m in DETECTORS} == {
        "DeerFlow": "f1f4af99", "Gemini CLI": "5411f113", "OpenHands": "d6fab190", "Roo Code": "cb836567",
        "Cline": "21cb8d25", "OpenCode": "9c094ad5"}


PINS = json.loads((pathlib.Path(__file__).parent / "data" / "peer-pins.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("model", DETECTORS, ids=lambda m: m.name)
def test_each_pin_was_on_its_projects_default_branch_in_the_snapshot_read(model):
    """tests/data/peer-pins.json records `git merge-base --is-ancestor COMMIT HEAD` run on a snapshot of each
    project: a pin from a pull-request branch (the old Gemini CLI, Roo Code and Cline pins) records false."""
    record = next((r for r in PINS["peers"] if r["peer"] == model.name), None)
    assert record is not None, f"{model.name} has no record in tests/data/peer-pins.json"
    assert (record["repo"], record["commit"], record["path"]) == (model.repo, model.commit, model.path)
    if record.get("unverified"):
        assert model.name == "OpenCode" and record["is_ancestor"] is None  # the one peer no snapshot could be read for
        return
    assert record["default_branch"] == "main" and re.fullmatch(r"[0-9a-f]{40}", record["snapshot_head"])
    assert record["is_ancestor"] is True, f"{model.name}: {record['commit'][:8]} is not on {record['default_branch']}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}[+-]\d\d:\d\d", record["snapshot_head_date"])


def test_the_replaced_pins_were_branch_commits():
    replaced = {r["peer"]: r["replaced"] for r in PINS["peers"] if r["replaced"]}
    assert {peer: (old["commit"][:8], old["is_ancestor"]) for peer, old in replaced.items()} == {
        "Gemini CLI": ("022f913d", False), "OpenHands": ("331a1a43", None), "Roo Code": ("37479466", False),
        "Cline": ("60c5f9f2", False)}
    assert PINS["checked"] == "2026-12-05"


# -- Roo Code: the 4th consecutive identical call is blocked -------------------------------------------------


def test_roo_blocks_the_fourth_consecutive_identical_call():
    assert run(RooCode(), [A] * 3) == (None, None)
    assert run(RooCode(), [A] * 4) == (None, 4)
    assert run(RooCode(), [B, A, A, A, A]) == (None, 5)


def test_roo_compares_only_with_the_previous_call():
    assert run(RooCode(), [A, A, A, B, A, A, A, B] * 3) == (None, None)  # never 4 in a row
    assert run(RooCode(), [A, B] * 20) == (None, None)  # an alternation is invisible to it


def test_roo_ignores_key_order_and_counts_parallel_calls_in_order():
    x1 = {"name": "bash", "args": '{"command": "make", "cwd": "."}'}
    x2 = {"name": "bash", "args": '{"cwd": ".", "command": "make"}'}
    assert run(RooCode(), [x1, x2, x1, x2]) == (None, 4)
    assert RooCode().run([[A, A], [A, A]]).stop_step == 2  # the 4th identical call is in batch 2


# -- Cline: notice at 3, stop at 5 ------------------------------------------------------------------------


def test_cline_notices_at_three_and_stops_at_five():
    assert run(Cline(), [A] * 2) == (None, None)
    assert run(Cline(), [A] * 3) == (3, None)
    assert run(Cline(), [A] * 4) == (3, None)
    assert run(Cline(), [A] * 5) == (3, 5)
    assert run(Cline(), [B, B, A, A, A, A, A]) == (5, 7)
    assert Cline().run([[A] * 5]) == Outcome("Cline", 1, 1)  # the notice and the stop in one batch


def test_cline_needs_consecutive_calls_and_ignores_key_order():
    assert run(Cline(), [A, A, B, A, A, B, A, A]) == (None, None)
    x1 = {"name": "bash", "args": {"command": "make", "cwd": "."}}
    x2 = {"name": "bash", "args": {"cwd": ".", "command": "make"}}
    assert run(Cline(), [x1, x2, x1, x2, x1]) == (3, 5)


def test_cline_counts_every_parameter_and_sorts_nested_keys():
    steps = [call("read_file", path="a.py", task_progress=f"- [x] step {i}") for i in range(5)]
    assert run(Cline(), steps) == (None, None)  # the SDK's check keeps task_progress, which changes every call
    nested1 = call("edit", path="a.py", range={"start": 1, "end": 9})
    nested2 = {"name": "edit", "args": {"range": {"end": 9, "start": 1}, "path": "a.py"}}
    assert run(Cline(), [nested1, nested2, nested1]) == (3, None)
    assert run(RooCode(), [nested1, nested2, nested1, nested2]) == (None, 4)  # safe-stable-stringify sorts nested keys


# -- OpenCode: 3 identical calls in a row within one response (key order counts) ---------------------------------


def test_opencode_acts_on_three_identical_calls_in_one_response():
    assert OpenCode().run([[A, A]]).stop_step is None
    assert OpenCode().run([[A, A, A]]).stop_step == 1
    assert OpenCode().run([[B], [A, B, A, A, A]]).stop_step == 2
    assert OpenCode().run([[A, A, B, A, A]]).stop_step is None


def test_opencode_never_sees_a_repeat_across_responses():
    assert run(OpenCode(), [A] * 10) == (None, None)  # step-finish and step-start parts sit between responses
    assert OpenCode().run([[A, A], [A, A]]).stop_step is None


def test_opencode_is_key_order_sensitive():
    x1 = {"name": "bash", "args": '{"command": "make", "cwd": "."}'}
    x2 = {"name": "bash", "args": '{"cwd": ".", "command": "make"}'}
    assert OpenCode().run([[x1, x2, x1, x2, x1, x2]]).stop_step is None
    assert OpenCode().run([[x1, x2, x2, x2]]).stop_step == 1


# -- Gemini CLI: the 5th identical call in a row; feedback, then a halt --------------------------------------------


def test_gemini_fifth_identical_call_gives_feedback_the_sixth_halts():
    assert run(GeminiCLI(), [A] * 4) == (None, None)
    assert run(GeminiCLI(), [A] * 5) == (5, None)
    assert run(GeminiCLI(), [A] * 6) == (5, 6)  # clearing the detection keeps the repeat count
    assert run(GeminiCLI(), [A] * 5 + [B] + [A] * 4) == (5, None)  # a different call restarts the count at 1
    assert run(GeminiCLI(), [A] * 5 + [B] + [A] * 5) == (5, 11)


def test_gemini_catches_a_cycle_of_up_to_five_calls_repeated_five_times():
    assert run(GeminiCLI(), [A, B] * 4 + [A]) == (None, None)  # 9 calls: the alternation needs 10
    assert run(GeminiCLI(), [A, B] * 5) == (10, None)
    assert run(GeminiCLI(), [A, B] * 10) == (10, 11)  # the 11th call continues the cycle: the second detection
    assert run(GeminiCLI(), [A, B, C] * 10) == (15, 16)
    assert run(GeminiCLI(), [A, B, C, D, E] * 6) == (25, 26)
    assert run(GeminiCLI(), [A, B, C, D, E, F] * 10) == (None, None)  # a cycle of six is longer than it looks for
    assert run(GeminiCLI(), [A, B, C] * 4 + [D] + [A, B, C] * 4) == (None, None)  # D breaks it: 12 and 12 calls


def test_gemini_feedback_then_the_next_call_of_the_cycle_halts():
    assert run(GeminiCLI(), [A, B, C] * 5 + [D] + [A, B, C] * 4) == (15, None)  # D breaks it; four rounds are not five
    assert run(GeminiCLI(), [A, B] * 5 + [C] + [A, B] * 5) == (10, 21)


def test_gemini_detection_ends_the_response():
    # 5 identical calls in one response: a detection at the 5th; the 6th of that response never arrives
    assert GeminiCLI().run([[A] * 7]) == Outcome("Gemini CLI", 1, None)
    assert GeminiCLI().run([[A] * 7, [A]]) == Outcome("Gemini CLI", 1, 2)


def test_gemini_is_key_order_sensitive():
    x1 = {"name": "bash", "args": {"command": "make", "cwd": "."}}
    x2 = {"name": "bash", "args": {"cwd": ".", "command": "make"}}
    assert run(GeminiCLI(), [x1, x2, x1, x2, x1]) == (None, None)  # five identical calls, if key order did not count
    assert run(GeminiCLI(), [x1] * 5) == (5, None)


# -- OpenHands: four conditions ----------------------------------------------------------------------------------


def test_openhands_four_identical_action_observation_pairs():
    assert run(OpenHands(), [A] * 3) == (None, None)
    assert run(OpenHands(), [A] * 4) == (None, 4)
    same = [dict(A, observation="line 1") for _ in range(4)]
    assert run(OpenHands(), same) == (None, 4)
    changing = [dict(A, observation=f"tail {i}") for i in range(8)]
    assert run(OpenHands(), changing) == (None, None)  # same action, new observation each time: progress


def test_openhands_three_identical_actions_that_error():
    failing = [dict(B, error=True, observation=f"FAILED after {i}s") for i in range(3)]
    assert run(OpenHands(), failing) == (None, 3)
    assert run(OpenHands(), failing[:2] + [dict(B, observation="passed")]) == (None, None)


def test_openhands_three_identical_agent_messages_without_observation():
    msg = {"message": "I will now fix the test."}
    assert run(OpenHands(), [msg, msg]) == (None, None)
    assert run(OpenHands(), [msg, msg, msg]) == (None, 3)
    assert run(OpenHands(), [msg, msg, A, msg]) == (None, None)  # a tool observation came between
    # messages are OpenHands-only; the other models skip them
    assert run(Cline(), [A, A, msg, A]) == (4, None)  # the 3rd A is in batch 4


def test_openhands_alternation_over_six_pairs():
    assert run(OpenHands(), [A, B] * 2 + [A]) == (None, None)
    assert run(OpenHands(), [A, B] * 3) == (None, 6)
    assert run(OpenHands(), [C, A, B, A, B, A, B]) == (None, 7)
    assert run(OpenHands(), [A, B, C] * 6) == (None, None)
    same_call = [dict(A, observation=f"view {k % 2}") for k in range(6)]  # one action, two alternating views
    assert run(OpenHands(), same_call) == (None, 6)


def test_openhands_compares_a_command_by_its_exit_code_not_its_output():
    poll = [dict(B, observation=f"status: {s}", exit_code=0) for s in ("queued", "running", "running", "done")]
    assert run(OpenHands(), poll) == (None, 4)  # new output each time, same exit code: stuck at d6fab190
    assert run(OpenHands(), [dict(B, observation=f"status {i}") for i in range(4)]) == (None, None)
    assert run(OpenHands(), [dict(B, exit_code=c) for c in (0, 1, 0, 1, 0)]) == (None, None)


# -- DeerFlow as a column ----------------------------------------------------------------------------------------


def test_deerflow_column_uses_the_detector_per_batch():
    assert DeerFlow().run(one_per_batch([A] * 6)) == Outcome("DeerFlow", 3, 5)
    assert DeerFlow(DetectorConfig(warn_threshold=2, hard_limit=4)).run(one_per_batch([A] * 6)) == \
        Outcome("DeerFlow", 2, 4)
    # a parallel batch counts once per batch for the hash layer, unlike the per-call peers
    assert DeerFlow().run([[A, B]] * 3).warn_step == 3
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        DeerFlow({"warn_threshold": 2})


def test_bad_batches_are_named():
    with pytest.raises(TypeError, match="batches must be a list of batches"):
        Cline().run("read_file")
    with pytest.raises(TypeError, match=r"batches\[1\] is a single call \(a mapping\)"):
        Cline().run([[A], A])
    with pytest.raises(TypeError, match=r"batches\[0\]\[0\] must be a mapping"):
        OpenCode().run([["read_file"]])


# -- compare -----------------------------------------------------------------------------------------------------


def test_compare_table_rows_and_verdicts():
    patterns = {
        "exact repeat": ([[A]] * 6, "loop"),
        "ping-pong": (one_per_batch([A, B] * 6), "loop"),
        "reads": (one_per_batch(distinct(6)), "progress"),
    }
    df = compare(patterns, [DeerFlow(), RooCode(), OpenHands()])
    assert list(df.columns) == ["pattern", "label", "detector", "warn_step", "stop_step", "action", "verdict", "cell"]
    assert len(df) == 9
    table = {(r.pattern, r.detector): (r.cell, r.verdict) for r in df.itertuples()}
    assert table[("exact repeat", "DeerFlow")] == ("warn 3, stop 5", "caught")
    assert table[("exact repeat", "Roo Code")] == ("stop 4", "caught")
    assert table[("ping-pong", "Roo Code")] == ("-", "missed (false negative)")
    assert table[("ping-pong", "OpenHands")] == ("stop 6", "caught")
    assert table[("ping-pong", "DeerFlow")] == ("warn 5, stop 9", "caught")  # A at steps 1, 3, 5, 7, 9
    assert table[("reads", "DeerFlow")] == ("-", "quiet")
    assert str(df["warn_step"].dtype) == "Int64"


def test_compare_accepts_pattern_objects_and_rejects_junk():
    class P:
        def __init__(self, name, batches, label):
            self.name, self.batches, self.label = name, batches, label

    df = compare([P("rerun", [[B]] * 4, "loop")], [Cline()])
    assert df.loc[0, "cell"] == "warn 3" and df.loc[0, "verdict"] == "caught"
    df = compare({"unlabelled": [[B]] * 2}, [Cline()])
    assert df.loc[0, "verdict"] == "" and df.loc[0, "label"] is None
    with pytest.raises(TypeError, match="patterns must be a mapping"):
        compare("exact repeat")
    with pytest.raises(TypeError, match=r"patterns\[0\] must have 'name' and 'batches'"):
        compare([[[A]]])
    with pytest.raises(TypeError, match="detectors must be PeerModel instances"):
        compare({"x": [[A]]}, ["Cline"])


# -- the pattern library (loopkit.teaching.patterns) ----------------------------------------------------------------------

# Worked out by hand from each pattern's definition and each model's pinned rule; every pattern and peer not listed
# never acts. Repeats of one call, one per turn (exact_repeat, write_same_content, polling): Gemini CLI's 5th in a row
# is its first detection and the 6th its second; OpenHands and Roo Code act on call 4; Cline warns at 3 and stops at
# 5; OpenCode never sees them, since each call comes in its own response. identical_in_batch puts five identical
# searches in batch 1, so every per-call rule fires there; Gemini's detection cuts that response short and the next
# call differs. abc_cycle repeats A, B, C, one call per turn: Gemini CLI's cycle check (length 3, five times) fires at
# call 15 and again at 16; no call comes twice in a row and no two calls alternate, so the other peers miss it.
# reordered_batch rotates its three calls inside each turn, so the 18 calls in model order never repeat one cycle of
# 1 to 5 calls five times.
SAME_CALL = {"Gemini CLI": (5, 6), "OpenHands": (None, 4), "Roo Code": (None, 4), "Cline": (3, 5)}
LIBRARY = {
    "exact_repeat": SAME_CALL,
    "write_same_content": SAME_CALL,
    "polling": SAME_CALL,
    "identical_in_batch": {"Gemini CLI": (1, None), "OpenHands": (None, 1), "Roo Code": (None, 1), "Cline": (1, 1),
                           "OpenCode": (None, 1)},
    "abc_cycle": {"Gemini CLI": (15, 16)},
}


def test_peers_on_the_pattern_library():
    from loopkit.teaching.patterns import PATTERNS

    assert len(PATTERNS) >= 14
    df = compare(PATTERNS, PEERS)
    got = {(r.pattern, r.detector): tuple(None if pd.isna(v) else int(v) for v in (r.warn_step, r.stop_step))
           for r in df.itertuples()}
    for name in PATTERNS:
        for peer in PEERS:
            want = LIBRARY.get(name, {}).get(peer.name, (None, None))
            assert got[(name, peer.name)] == want, f"{peer.name} on {name}"


def test_deerflow_column_on_contrasting_patterns():
    from loopkit.teaching.patterns import PATTERNS

    df = compare({n: PATTERNS[n] for n in ("identical_in_batch", "read_burst", "reordered_batch")}, [DeerFlow()])
    cells = dict(zip(df["pattern"], df["cell"]))
    # five identical calls in one batch are one fingerprint once; in 60 reads of one batch the pinned detector
    # warns at the 30th and returns (the rest are never counted); a rotated batch has the same order-free
    # fingerprint every turn
    assert cells == {"identical_in_batch": "-", "read_burst": "warn 1", "reordered_batch": "warn 3, stop 5"}
    verdicts = dict(zip(df["pattern"], df["verdict"]))
    assert verdicts["identical_in_batch"] == "missed (false negative)"
    assert verdicts["read_burst"] == "false alarm (false positive)"


def test_compare_reads_a_one_shot_pattern_once_for_every_detector():
    loop = [[A]] * 6
    df = compare({"g": (batch for batch in loop)}, [DeerFlow(), RooCode(), Cline()])
    assert dict(zip(df["detector"], df["cell"])) == {"DeerFlow": "warn 3, stop 5", "Roo Code": "stop 4",
                                                     "Cline": "warn 3, stop 5"}
    df = compare({"g": ((batch for batch in loop), "loop")}, [RooCode(), OpenCode()])
    assert df["cell"].tolist() == ["stop 4", "-"] and df["verdict"].tolist() == ["caught", "missed (false negative)"]
    with pytest.raises(TypeError, match=r"batches\[1\] is a single call"):
        compare({"bad": iter([[A], A])}, [RooCode()])


# -- in Spanish ----------------------------------------------------------------------------------------------------



def test_rules_and_verdicts_speak_spanish_while_the_data_stays_english(spanish):
    assert RooCode().rule == ("bloquea la 4.ª llamada idéntica seguida (nombre + parámetros con sus claves ordenadas) "
                              "y pregunta al usuario")
    assert all(model.rule != model.english_rule for model in DETECTORS)
    df = compare({"rerun": ([[A]] * 6, "loop"), "ping-pong": ([[A], [B]] * 3, "loop"),
                  "two reads": ([[A]] * 2, "progress"), "paging": ([[A]] * 3, "progress")}, [RooCode(), DeerFlow()])
    verdicts = {(r.pattern, r.detector): r.verdict for r in df.itertuples()}
    assert verdicts == {
        ("rerun", "Roo Code"): "detectado", ("rerun", "DeerFlow"): "detectado",
        ("ping-pong", "Roo Code"): "no detectado (falso negativo)", ("ping-pong", "DeerFlow"): "detectado",
        ("two reads", "Roo Code"): "en silencio", ("two reads", "DeerFlow"): "en silencio",
        ("paging", "Roo Code"): "en silencio", ("paging", "DeerFlow"): "falsa alarma (falso positivo)",
    }
    assert set(df["action"]) == {"ok", "warn", "stop"} and set(df["label"]) == {"loop", "progress"}
