"""replay_table.replay and the pattern table: one row per batch, counts and decisions as worked out by hand (the pinned
ordering unless a test says otherwise)."""

import pandas as pd
import pytest

from loopkit import DetectorConfig, PinnedMiddleware, RunScopedMiddleware, fingerprint
from loopkit.teaching import patterns, replay_table


def call(name, **args):
    return {"name": name, "args": args}


A = [call("bash", command="pytest")]


def test_columns_and_one_row_per_batch():
    batches = [A, [call("read_file", path="a"), call("read_file", path="b")], A]
    df = replay_table.replay(batches)
    # read_file reaches 2 in the window, bash 2: ties keep first-seen order
    assert list(df.columns) == ["step", "n_calls", "fingerprint", "hash_count", "calls:bash", "calls:read_file",
                                "action", "layer", "tool", "count"]
    assert df["step"].tolist() == [1, 2, 3]
    assert df["n_calls"].tolist() == [1, 2, 1]
    assert df["fingerprint"].tolist() == [fingerprint(A), fingerprint(batches[1]), fingerprint(A)]
    assert df["hash_count"].tolist() == [1, 1, 2]
    assert df["calls:bash"].tolist() == [1, 1, 2]
    assert df["calls:read_file"].tolist() == [0, 2, 2]
    assert df["layer"].tolist() == [None, None, None] and df["tool"].tolist() == [None, None, None]


def test_most_called_tool_column_comes_first():
    # first seen: bash, grep, awk, ls; by name: awk, bash, grep, ls; most called: grep (3), awk (2), then bash and ls
    # (1 each, in the order first seen). Only the last order passes.
    names = ["bash", "grep", "grep", "awk", "grep", "awk", "ls"]
    batches = [[call(name, command=str(i))] for i, name in enumerate(names)]
    assert replay_table.tool_columns(replay_table.replay(batches)) == ["grep", "awk", "bash", "ls"]


def test_decisions_of_both_layers_are_recorded():
    cfg = DetectorConfig(tool_freq_warn=3, tool_freq_hard_limit=5)
    sweep = [[call("read_file", path=f"f{i}.py")] for i in range(6)]
    df = replay_table.replay(sweep, cfg)
    assert df["action"].tolist() == ["ok", "ok", "warn", "ok", "stop", "stop"]
    assert df["layer"].tolist() == [None, None, "frequency", None, "frequency", "frequency"]
    assert df["tool"].tolist() == [None, None, "read_file", None, "read_file", "read_file"]
    assert df["count"].tolist() == [pd.NA, pd.NA, 3, pd.NA, 5, 6]  # empty for ok, the tool's count otherwise
    assert df["hash_count"].tolist() == [1] * 6


def test_hash_stop_row_keeps_the_window_counts():
    df = replay_table.replay(patterns.get("exact_repeat").batches)
    assert df["action"].tolist() == ["ok", "ok", "warn", "ok", "stop", "stop", "stop", "stop"]
    assert df["hash_count"].tolist() == [1, 2, 3, 4, 5, 6, 7, 8]
    # pinned: the new hash warning of batch 3 and every hash stop return before bash is counted
    assert df["calls:bash"].tolist() == [1, 2, 2, 3, 3, 3, 3, 3]


def test_until_stop_ends_at_the_first_stop():
    df = replay_table.replay(patterns.get("exact_repeat").batches, until_stop=True)
    assert df["step"].tolist() == [1, 2, 3, 4, 5] and df["action"].iloc[-1] == "stop"


def test_a_pattern_object_replays_like_its_batches_and_empty_batches_are_rows():
    assert replay_table.replay(patterns.get("polling")).equals(replay_table.replay(patterns.get("polling").batches))
    df = replay_table.replay([[], A])
    assert df["n_calls"].tolist() == [0, 1] and df["fingerprint"].tolist() == [None, fingerprint(A)]
    assert df["action"].tolist() == ["ok", "ok"] and df["hash_count"].tolist() == [0, 1]


def test_a_middleware_passed_in_keeps_its_state_between_replays():
    m = PinnedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    replay_table.replay([A], middleware=m)
    assert replay_table.replay([A, A], middleware=m)["action"].tolist() == ["warn", "stop"]  # the thread holds one A
    scoped = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    replay_table.replay([A], middleware=scoped)
    assert replay_table.replay([A, A], middleware=scoped)["action"].tolist() == ["warn", "stop"]  # one run, one scope


def test_the_two_upstream_orderings_replay_the_contrast():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=9, tool_freq_warn=3, tool_freq_hard_limit=5)
    pinned = replay_table.replay([A] * 6, cfg)
    later = replay_table.replay([A] * 6, cfg, upstream="run-scoped")
    assert replay_table.first_steps(pinned) == (2, 6)
    assert pinned["calls:bash"].tolist() == [1, 1, 2, 3, 4, 5]  # batch 2 returned before counting bash
    assert replay_table.first_steps(later) == (2, 5)
    assert later["calls:bash"].tolist() == [1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError, match="upstream must be one of"):
        replay_table.replay([A], upstream="newest")


def test_config_travels_with_the_table():
    cfg = DetectorConfig(warn_threshold=2, hard_limit=4, tool_freq_overrides={"bash": (60, 80)})
    df = replay_table.replay([A], cfg)
    assert replay_table.config_of(df) == cfg
    assert replay_table.config_of(df[["step", "action"]]) == cfg  # survives pandas operations
    assert replay_table.config_of(df.drop(columns="count").iloc[:0]) == cfg
    replayed = replay_table.replay([A], middleware=PinnedMiddleware(cfg))
    assert replayed.attrs["config"]["tool_freq_overrides"] == {"bash": (60, 80)}


@pytest.mark.parametrize("bad, message", [
    (A, r"batches\[0\] is a single call \(a mapping\)"),
    ("bash", "batches must be a list of batches"),
    (5, "batches must be a list of batches"),
    ([A, 7], r"batches\[1\] must be a list of tool calls, got int"),
    ([A, "ls"], r"batches\[1\] must be a list of tool calls, got str"),
])
def test_bad_traces_name_the_problem(bad, message):
    with pytest.raises(TypeError, match=message):
        replay_table.replay(bad)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="either config or middleware"):
        replay_table.replay([A], DetectorConfig(), middleware=PinnedMiddleware())
    with pytest.raises(TypeError, match="config must be a DetectorConfig"):
        replay_table.replay([A], {"warn_threshold": 2})
    with pytest.raises(TypeError, match="middleware must be a PinnedMiddleware or RunScopedMiddleware"):
        replay_table.replay([A], middleware="x")
    with pytest.raises(TypeError, match=r"batches\[0\]\[0\] must be a mapping"):
        replay_table.replay([["bash"]])


def test_first_steps_and_verdict():
    df = replay_table.replay(patterns.get("sequential_paging"))
    assert replay_table.first_steps(df) == (3, None) and replay_table.verdict(df) == "warn"
    df = replay_table.replay(patterns.get("read_burst"))
    assert replay_table.first_steps(df) == (1, None) and replay_table.verdict(df) == "warn"
    df = replay_table.replay(patterns.get("write_new_content"))
    assert replay_table.first_steps(df) == (None, None) and replay_table.verdict(df) == "ok"


def test_pattern_table_under_the_defaults():
    table = replay_table.pattern_table()
    rows = {r.pattern: (r.first_warn, r.first_stop, r.detector, r.agrees) for r in table.itertuples()}
    na = None
    expected = {
        "exact_repeat": (3, 5, "stop", True),
        "read_jitter": (3, 5, "stop", True),
        "sequential_paging": (3, na, "warn", False),  # a false alarm: four 50-line pages share a bucket
        "edit_test_same_failure": (6, 10, "stop", True),  # the test repeats every other turn
        "abc_cycle": (7, 13, "stop", True),
        "cross_file_sweep": (30, 50, "stop", False),  # the frequency layer stops an honest sweep
        "write_new_content": (na, na, "ok", True),
        "write_same_content": (3, 5, "stop", True),
        "retry_changing_flags": (na, na, "ok", False),  # a miss: every retry is a new command
        "reordered_batch": (3, 5, "stop", True),
        "identical_in_batch": (na, na, "ok", False),
        "polling": (3, 5, "stop", False),
        "read_bash_interleaved": (na, na, "ok", True),  # 25 of each tool in a 50-call window
        "read_burst": (1, na, "warn", False),  # pinned: the 30th read of the one batch warns and returns
        "bash_pipeline": (30, na, "warn", False),
    }
    got = {k: tuple(None if pd.isna(v) else int(v) for v in vals[:2]) + vals[2:] for k, vals in rows.items()}
    assert got == expected


def test_pattern_table_with_a_bash_override_and_a_subset():
    cfg = DetectorConfig(tool_freq_overrides={"bash": (60, 80)})
    table = replay_table.pattern_table(cfg, names=["bash_pipeline", "exact_repeat"])
    assert table["pattern"].tolist() == ["bash_pipeline", "exact_repeat"]
    assert table["detector"].tolist() == ["ok", "stop"] and table["agrees"].tolist() == [True, True]
    with pytest.raises(KeyError, match="no pattern named 'nope'"):
        replay_table.pattern_table(names=["nope"])


def test_pattern_table_takes_one_name_as_a_string():
    table = replay_table.pattern_table(names="exact_repeat")
    assert table["pattern"].tolist() == ["exact_repeat"] and table["first_stop"].tolist() == [5]
    with pytest.raises(KeyError, match="no pattern named 'exact'"):
        replay_table.pattern_table(names="exact")
    with pytest.raises(TypeError, match="names must be a pattern name or a list of pattern names, got int"):
        replay_table.pattern_table(names=3)
