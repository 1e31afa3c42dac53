"""Replaying a folder's files several at once (loopkit.traces.replay.parallel) gives exactly the reports of replaying them
one after another (loopkit.traces.replay.report_paths, the definition), in the same order; and the command prints the same
rows and aggregate whatever --jobs says."""

import json
import pathlib
import subprocess
import sys

from loopkit.traces.replay import report_paths
from loopkit.traces.replay.parallel import report_paths_at_once
from loopkit.traces.tool_maps import ToolMap

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = [str(ROOT / "tests" / "data" / "transcripts"), str(ROOT / "notebooks" / "data")]


def summaries(reports):
    return [(r.summary(), r.description) for r in reports]


def test_the_reports_are_those_of_the_files_one_after_another(tmp_path):
    (tmp_path / "broken.jsonl").write_text('{"role": "user", "content": "hi"}\nnot json\n')
    (tmp_path / "empty").mkdir()
    paths = [*FOLDERS, str(tmp_path / "broken.jsonl"), str(tmp_path / "empty")]
    one_by_one = summaries(report_paths(paths))
    assert len(one_by_one) > 30 and any(s["error"] for s, _ in one_by_one)
    assert summaries(report_paths_at_once(paths, jobs=2)) == one_by_one
    mapped = dict(tool_map=ToolMap(None, ["Read=read_file:file_path>path"]), select={"epoch": "1"})
    assert summaries(report_paths_at_once(FOLDERS, jobs=3, **mapped)) == summaries(report_paths(FOLDERS, **mapped))


def replay(*args):
    return subprocess.run([sys.executable, "-m", "loopkit", "replay", *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def test_the_command_prints_the_same_whatever_jobs_says(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"role": "user", "content": "hi"}) + "\nnot json\n")
    outs = [replay(*FOLDERS, bad, "--skip-bad-records", "--jobs", n) for n in ("1", "2")]
    assert outs[0].returncode == outs[1].returncode == 1
    assert outs[0].stdout == outs[1].stdout and outs[0].stdout.splitlines()[-1].startswith("45 runs in 41 files")
    assert outs[0].stderr == outs[1].stderr == f"loopkit replay: skipped a bad record: {bad}:2: invalid JSON " \
                                               f"(Expecting value at column 1); expected one message object per line\n"
    assert replay(ROOT / "README.md", "--jobs", "0").returncode == 2


def test_standard_input_among_the_files_is_read_by_the_command_itself():
    chat = ROOT / "notebooks" / "data" / "coding_loop.openai_chat.jsonl"
    out = subprocess.run([sys.executable, "-m", "loopkit", "replay", "-", str(chat), "--jobs", "2"],
                         input=chat.read_text(), capture_output=True, text=True, timeout=300)
    rows = out.stdout.splitlines()
    assert out.returncode == 1 and rows[1].startswith("<stdin>") and rows[-1].startswith("2 runs in 2 files: 2 stopped")
