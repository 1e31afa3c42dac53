"""loopkit.traces.replay on its own: explanations, the tally, reports per run, folders and run selection."""

import json
import pathlib
from types import SimpleNamespace

import pytest

from loopkit import DetectorConfig, PinnedMiddleware
from loopkit.core.detector import Decision, Outcome
from loopkit.traces.adapters import Batch, TraceError
from loopkit.traces.replay import (
    RunReport,
    Tally,
    explain,
    replay_batches,
    report_paths,
    short_where,
    summary_line,
    transcript_files,
)
from loopkit.traces.replay.wording import _verdict
from loopkit.traces.tool_maps import ToolMap

ROOT = pathlib.Path(__file__).resolve().parent.parent


def chat(name, args):
    return {"role": "assistant", "tool_calls": [{"id": "c", "type": "function",
                                                 "function": {"name": name, "arguments": json.dumps(args)}}]}


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_explain_names_the_layer_the_count_and_the_limit_it_met():
    cfg = DetectorConfig(window_size=12, tool_freq_overrides={"bash": (70, 90)})
    assert explain(Decision("ok"), cfg) is None
    assert explain(Decision("warn", "hash", None, 3), cfg) == \
        "hash layer: the same batch 3 times in the last 12 turns (warns at 3)"
    assert explain(Decision("stop", "frequency", "bash", 90), cfg) == (
        "frequency layer: 'bash' called 90 times in the last 90 calls (stops at 90); this is a call budget, not a "
        "repeat. Raise it with --override bash=WARN:HARD")
    assert "(warns at 30)" in explain(Decision("warn", "frequency", "grep", 30), cfg)  # grep has no override


def test_explain_and_the_verdict_speak_spanish_when_asked(spanish):
    cfg = DetectorConfig(window_size=12)
    path = ROOT / "notebooks" / "data" / "coding_loop.openai_chat.jsonl"
    assert explain(Decision("warn", "hash", None, 3), cfg) == \
        "capa de hash: el mismo lote 3 veces en los últimos 12 turnos (avisa al llegar a 3)"
    assert explain(Decision("stop", "frequency", "bash", 50), DetectorConfig()).startswith(
        "capa de frecuencia: 'bash' llamada 50 veces en las últimas 50 llamadas (para al llegar a 50); es un "
        "presupuesto de llamadas")
    assert short_where("t.jsonl:14", "t.jsonl") == "línea 14"
    summary = summary_line(next(report_paths([path])))
    assert "DeerFlow habría avisado 2 veces (la primera, en el paso 6) y después habría parado la ejecución " \
           "en el paso 11 (capa de hash, recuento 5); 9 lotes posteriores nunca se habrían ejecutado. Motivo: " \
           "capa de hash: el mismo lote 5 veces" in summary, summary


def _fake_report(warnings, stop_layer):
    """What the verdict reads from a run's report: its warnings, the stop (a layer, or None) and its batches."""
    tool = "bash" if stop_layer == "frequency" else None
    stop = None if stop_layer is None else SimpleNamespace(step=11, decision=Decision("stop", stop_layer, tool, 5))
    return SimpleNamespace(warnings=warnings, outcome=SimpleNamespace(warn_step=6 if warnings else None), stop=stop,
                           batches=20, why="the reason")


VERDICT_CASES = [(upstream, warnings, layer) for upstream in ("pinned", "run-scoped") for warnings in (0, 1, 2)
                 for layer in (None, "hash", "frequency")]


@pytest.mark.parametrize("upstream, warnings, layer", VERDICT_CASES)
def test_every_verdict_reads_as_before_in_english(upstream, warnings, layer):
    """The verdict is written as whole sentences now; in English each one still reads as the sentence built from
    its parts did (the wording every stored English output shows)."""
    who = "DeerFlow" if upstream == "pinned" else "DeerFlow's later run-scoped contract"
    told = {1: "warned at step 6", 2: "warned 2 times (first at step 6)"}.get(warnings)
    what = {"hash": "hash layer, count 5", "frequency": "frequency layer, 'bash' count 5"}.get(layer)
    if layer is None:
        expected = f"{who} would have {told} and never stopped." if told else f"{who} would neither have warned nor " \
            "stopped."
    else:
        first = (f"{who} would have {told}, then stopped the run at step 11 ({what});" if told
                 else f"{who} would have stopped the run at step 11 ({what});")
        expected = f"{first} 9 later batches would never have run. Why: the reason."
    assert _verdict(_fake_report(warnings, layer), upstream) == expected


@pytest.mark.parametrize("upstream, warnings, layer", VERDICT_CASES)
def test_every_spanish_verdict_is_one_sentence_with_the_glossary_terms(upstream, warnings, layer, spanish):
    """Translated whole: a capital letter where the sentence starts (the run-scoped contract's verdict began in lower
    case when glued), and "capa de hash" / "capa de frecuencia" as the glossary says (the glued verdict said "capa
    hash" and "capa frequency")."""
    verdict = _verdict(_fake_report(warnings, layer), upstream)
    assert verdict[0].isupper(), verdict
    assert "layer" not in verdict and "capa hash" not in verdict and "frequency" not in verdict, verdict
    if layer is not None:
        assert {"hash": "(capa de hash, recuento 5);",
                "frequency": "(capa de frecuencia, 'bash' con recuento 5);"}[layer] in verdict, verdict
        assert "9 lotes posteriores nunca se habrían ejecutado. Motivo: the reason." in verdict, verdict
    if warnings == 2:
        assert "avisado 2 veces (la primera, en el paso 6)" in verdict, verdict


def test_outcome_is_the_one_verdict_vocabulary():
    assert [Outcome("d", w, s).action for w, s in ((None, None), (3, None), (None, 5), (3, 5))] == [
        "ok", "warn", "stop", "stop"]


def test_replay_batches_stops_replaying_at_the_stop_but_reads_on_and_maps_tools():
    read = [{"name": "Read", "args": {"file_path": "a.py", "offset": 1, "limit": 50}}]
    batches = [Batch(k, f"f:{k}", read) for k in range(1, 8)]
    tally = Tally()
    steps = list(replay_batches(batches, PinnedMiddleware(), tool_map=ToolMap("claude-code"), tally=tally))
    assert [s.step for s in steps] == [1, 2, 3, 4, 5] and steps[-1].decision.action == "stop"
    assert steps[0].calls == [{"name": "read_file", "args": {"path": "a.py", "start_line": 1, "end_line": 50}}]
    assert (tally.replayed, tally.warnings, tally.first_warn.step, tally.stop.step) == (5, 1, 3, 5)
    assert tally.outcome() == Outcome("DeerFlow", 3, 5)
    everything = list(replay_batches(batches, PinnedMiddleware(), until_stop=False, with_state=True))
    assert len(everything) == 7 and everything[6].state["hash_counts"] == {everything[6].decision.fingerprint: 7}


def test_an_in_memory_trace_keeps_the_detectors_own_error():
    with pytest.raises(TypeError, match=r"^batch\[0\] must be a mapping with 'name' and 'args', got str$"):
        list(replay_batches([["bash"]], PinnedMiddleware()))
    with pytest.raises(TraceError, match="^f:1: the detector cannot key this batch"):
        list(replay_batches([Batch(1, "f:1", ["bash"])], PinnedMiddleware()))


def test_transcript_files_searches_a_folder_for_transcripts_only(tmp_path):
    (tmp_path / "sub" / ".hidden").mkdir(parents=True)
    for name in ("a.jsonl", "sub/b.json.gz", "sub/c.eval", "sub/.hidden/d.jsonl", ".e.json", "notes.md", "f.txt"):
        (tmp_path / name).write_text("x")
    found = [p[len(str(tmp_path)) + 1:] for p in transcript_files(tmp_path)]
    assert found == ["a.jsonl", "sub/b.json.gz", "sub/c.eval"]


def test_reports_per_run_with_selection_and_errors_that_do_not_stop_the_others(tmp_path):
    runs = tmp_path / "output.jsonl"
    runs.write_text("".join(json.dumps({"instance_id": f"i{k}", "history": []}) + "\n" for k in range(3)))
    write_jsonl(tmp_path / "loop.jsonl", [chat("ls", {})] * 6)
    (tmp_path / "bad.jsonl").write_text("{oops\n")
    reports = list(report_paths([str(tmp_path)]))
    by_file = {}
    for r in reports:
        by_file.setdefault(r.path.rsplit("/", 1)[-1], []).append(r)
    assert [r.exit_code for r in by_file["bad.jsonl"]] == [2] and "bad.jsonl:1: invalid JSON" in by_file[
        "bad.jsonl"][0].error
    assert [(r.stop.step, r.why.startswith("hash layer")) for r in by_file["loop.jsonl"]] == [(5, True)]
    assert [r.label for r in by_file["output.jsonl"]] == ["instance_id=i0", "instance_id=i1", "instance_id=i2"]
    picked = list(report_paths([str(runs)], select={"instance_id": "i1"}))
    assert [r.label for r in picked] == ["instance_id=i1"]
    assert [r.label for r in report_paths([str(runs)], run_number=3)] == ["instance_id=i2"]
    [missing] = report_paths([str(runs)], select={"instance_id": "nobody"})
    assert missing.exit_code == 2 and missing.error.endswith("no run matches instance_id=nobody")
    (tmp_path / "empty_dir").mkdir()
    [empty] = report_paths([str(tmp_path / "empty_dir")])
    assert empty.error.startswith(f"{tmp_path / 'empty_dir'}: a folder with no transcripts")
    assert RunReport("x").exit_code == 0 and RunReport("x", error="bad").exit_code == 2


def test_a_report_counts_unmapped_tools_per_run(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [chat("Read", {"file_path": "a", "offset": 1, "limit": 2}),
                                              chat("Frob", {"x": 1}), chat("Frob", {"x": 2})])
    tool_map = ToolMap("claude-code")
    first, second = (next(report_paths([str(path)], tool_map=tool_map)) for _ in range(2))
    assert first.unmapped == second.unmapped == ("Frob",)
    assert not tool_map.unmapped  # the caller's map is not used up by the replays


# -- the survivors of the mutation run (tools/mutants.py): the "Tools left unmapped" note -------------------------
def test_the_summary_names_the_tools_left_unmapped_with_a_preset_and_without_one(tmp_path):
    mapped = write_jsonl(tmp_path / "mapped.jsonl", [chat("Read", {"file_path": "a.py"}), chat("Frobnicate", {})])
    summary = summary_line(next(report_paths([mapped], tool_map=ToolMap("claude-code"))))
    assert summary.endswith("Tool names mapped to DeerFlow's by the claude-code preset. Tools left unmapped: Frobnicate.")
    raw = write_jsonl(tmp_path / "raw.jsonl", [chat("read_file", {"path": "a.py"}), chat("execute_command", {}),
                                               chat("replace_in_file", {})])
    summary = summary_line(next(report_paths([raw])))  # openai-chat has no preset: nothing is mapped
    assert summary.endswith(" Tools left unmapped: execute_command, replace_in_file. Those are cline's tool names: "
                            "--tool-map cline maps them to DeerFlow's.")
    plain = write_jsonl(tmp_path / "plain.jsonl", [chat("read_file", {"path": "a.py"}), chat("bash", {})])
    assert "unmapped" not in summary_line(next(report_paths([plain])))


def test_the_tally_keeps_the_first_stop_and_each_user_turn_is_its_own_run():
    from loopkit import RunScopedMiddleware
    from loopkit.traces.replay import ReplayedBatch

    tally = Tally()
    for step in (1, 2):
        tally.add(ReplayedBatch(step, f"batch {step}", [{"name": "bash"}], Decision("stop", "hash", None, 5)))
    assert tally.stop.step == 1
    pytest_call = [{"name": "bash", "args": {"command": "pytest"}}]
    batches = [Batch(1, "t:1", pytest_call, 0), Batch(2, "t:2", pytest_call, 0), Batch(3, "t:4", pytest_call, 1)]
    middleware = RunScopedMiddleware(DetectorConfig(warn_threshold=2, hard_limit=3))
    actions = [step.decision.action for step in replay_batches(batches, middleware)]
    assert actions == ["ok", "warn", "ok"]  # the user's second prompt starts a new run: run-scoped counts afresh


def test_select_keeps_only_the_runs_that_match_every_key():
    two_runs = ROOT / "tests" / "data" / "transcripts" / "openhands_output.jsonl"
    (one,) = report_paths([two_runs], select={"instance_id": "notes__notes-102"})
    assert one.error is None and one.label != ""
    (none,) = report_paths([two_runs], select={"instance_id": "notes__notes-102", "model": "x"})
    assert none.error == f"{two_runs}: no run matches instance_id=notes__notes-102 model=x"

# -- issue 26: the tool map's counts reach the report -----------------------------------------------------------------


def test_a_report_holds_its_runs_mapped_counts_and_a_rule_that_never_applied(tmp_path):
    reads = [chat("Read", {"file_path": f"{n}.py", "offset": 1, "limit": 2}) for n in range(3)]
    path = write_jsonl(tmp_path / "t.jsonl", [*reads, chat("Bash", {"command": "ls"})])
    [report] = report_paths([str(path)], tool_map=ToolMap("claude-code", rules=["Nope=bash"]))
    assert report.mapped == {"Read -> read_file": 3, "Bash -> bash": 1}  # three Read lines and one Bash line above
    assert report.map_problems == {"--map Nope=bash: never applied": 1}
    [plain] = report_paths([str(path)], tool_map=ToolMap(None))
    assert plain.mapped == {} and plain.map_problems == {}


def test_replay_options_parse_each_name_once_at_the_door_with_todays_messages():
    import dataclasses

    from loopkit import RunScopedMiddleware
    from loopkit.traces.adapters import get_format
    from loopkit.traces.replay import ReplayOptions

    options = ReplayOptions.from_names(upstream="run-scoped", format="codex", tool_map=None, select={"id": "7"})
    assert options.upstream is RunScopedMiddleware and options.format is get_format("codex")
    assert options.tool_map.preset == "detected" and options.select == (("id", "7"),)
    assert ReplayOptions.from_names().format is None  # auto: detected per run
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.format = None
    with pytest.raises(ValueError, match=r"format must be 'auto' or one of openai-chat, .*; got 'nope'"):
        ReplayOptions.from_names(format="nope")
    with pytest.raises(ValueError, match=r"upstream must be one of 'pinned', 'run-scoped', got 'later'"):
        ReplayOptions.from_names(upstream="later")


def test_a_replay_with_options_is_the_replay_with_names(tmp_path):
    from loopkit.traces.replay import ReplayOptions, replay_paths

    path = write_jsonl(tmp_path / "t.jsonl", [chat("bash", {"command": "pytest"})] * 6)
    by_names = [r.summary() for r in report_paths([str(path)], DetectorConfig(warn_threshold=2), format="openai-chat")]
    options = ReplayOptions.from_names(DetectorConfig(warn_threshold=2), format="openai-chat")
    assert [r.summary() for r in replay_paths([str(path)], options)] == by_names
    assert by_names[0]["first_warn_step"] == 2 and by_names[0]["stop_step"] == 5


def test_a_transcript_held_in_memory_is_replayed_and_named_by_its_stream(tmp_path):
    import io

    from loopkit.traces.replay import ReplayOptions
    from loopkit.traces.replay.reports import report_file

    path = write_jsonl(tmp_path / "t.jsonl", [chat("bash", {"command": "pytest"})] * 5)
    stream = io.BytesIO(path.read_bytes())
    stream.name = "upload.jsonl"
    [in_memory] = report_file(stream, ReplayOptions.from_names())
    [on_disk] = report_paths([str(path)])
    assert (in_memory.path, in_memory.source) == ("upload.jsonl", "upload.jsonl")
    assert {**in_memory.summary(), "file": "", "source": ""} == {**on_disk.summary(), "file": "", "source": ""}
    assert in_memory.stop is not None and in_memory.stop.step == 5  # five identical batches: the hard limit
