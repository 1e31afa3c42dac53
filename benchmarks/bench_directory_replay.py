"""Throughput and memory of `python -m loopkit replay FOLDER` over 200 MB of generated transcripts.

Usage: python benchmarks/bench_directory_replay.py [--files N] [--mb-per-file M]

Generates a folder of transcripts in four formats, half JSON Lines (OpenAI Chat, Claude Code) and half JSON
documents (Anthropic Messages, a DeerFlow/LangGraph thread state), each a coding session of 60-80 model turns
whose tool results are file contents of 1-3 KB, as real sessions are; no file is stopped, so every batch is
replayed. Then it runs the command on the folder in a
subprocess (its files replayed several at once, one process per core: loopkit.traces.replay.parallel) and reports MB/s
(of transcript bytes, per wall second) and the peak RSS of its largest process, and runs it again on a folder of a
quarter as many files of the same size: steady memory means the two peaks are close. The load average and the MB/s
per CPU second of all the command's processes are printed too: a shared, loaded machine slows the first far more
than the second.

The goal (issue 21, after issue 11's 30 MB/s for 100 MB): at least 60 MB/s over 200 MB, in memory that does not grow
with the number of files. The verdict is judged on the figures the result line prints: the MB/s per wall second, no
stop, and flat memory, here a peak RSS at most FLAT_RATIO times that of the folder of a quarter as many files. The
MB/s per CPU second is printed beside it for a loaded machine, and judged by nothing. The two JSON document formats
are 2.2 MB each, so they are parsed whole; benchmarks/bench_file_replay.py measures one 200 MB file, and documents
read piece by piece.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import measure  # noqa: E402
from report import result_line  # noqa: E402

GOAL_MB_S = 60.0
#: "Flat memory": the folder's largest process peaks at most this many times the peak on a quarter of the files.
FLAT_RATIO = 1.5

def _session(rng: random.Random, turns: int) -> list[tuple[str, dict, str]]:
    """(tool, args, result) per turn: reads of a codebase, edits, tests. The calls are varied enough that the
    detector never stops a file, so every batch of every file is replayed (a stop would end the replay early)."""
    calls = []
    for turn in range(turns):
        module = rng.randint(0, 40)
        kind = rng.choice(("read", "read", "grep", "edit", "test"))
        if kind == "read":
            start = rng.randint(1, 4000)
            call = ("read_file", {"path": f"src/pkg/m{module}.py", "start_line": start, "end_line": start + 120})
        elif kind == "grep":
            call = ("grep", {"pattern": f"def f{rng.randint(0, 999)}", "path": "src"})
        elif kind == "edit":
            call = ("str_replace", {"path": f"src/pkg/m{module}.py", "old_str": f"x = {turn}",
                                    "new_str": f"x = {turn + 1}"})
        else:
            call = ("bash", {"command": f"pytest tests/test_m{module}.py -q -k case{turn}"})
        body = "".join(f"line {i}: value = compute({i}, {turn})\n" for i in range(rng.randint(30, 90)))
        calls.append((*call, body))
    return calls


def _openai_chat(session, handle) -> None:
    handle.write(json.dumps({"role": "user", "content": "fix the failing tests"}) + "\n")
    for k, (tool, args, body) in enumerate(session):
        handle.write(json.dumps({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"c{k}", "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}]}) + "\n")
        handle.write(json.dumps({"role": "tool", "tool_call_id": f"c{k}", "content": body}) + "\n")


def _claude_code(session, handle) -> None:
    handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": "fix the failing tests"}}) + "\n")
    for k, (tool, args, body) in enumerate(session):
        block = {"type": "tool_use", "id": f"t{k}", "name": tool, "input": args}
        handle.write(json.dumps({"type": "assistant", "message": {"id": f"m{k}", "role": "assistant",
                                                                  "content": [block]}}) + "\n")
        handle.write(json.dumps({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{k}", "content": body}]}}) + "\n")


def _anthropic(session, handle) -> None:
    messages = [{"role": "user", "content": "fix the failing tests"}]
    for k, (tool, args, body) in enumerate(session):
        messages.append({"role": "assistant", "content": [{"type": "tool_use", "id": f"t{k}", "name": tool,
                                                           "input": args}]})
        messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{k}",
                                                      "content": body}]})
    json.dump({"messages": messages}, handle)


def _thread_state(session, handle) -> None:
    messages = [{"type": "human", "content": "fix the failing tests"}]
    for k, (tool, args, body) in enumerate(session):
        messages.append({"type": "ai", "content": "", "tool_calls": [{"name": tool, "args": args, "id": f"c{k}"}]})
        messages.append({"type": "tool", "tool_call_id": f"c{k}", "content": body})
    json.dump({"values": {"messages": messages}, "metadata": {"thread_id": "t"}}, handle)


WRITERS = (("chat.jsonl", _openai_chat), ("claude.jsonl", _claude_code), ("anthropic.json", _anthropic),
           ("thread.json", _thread_state))


def make_folder(folder: pathlib.Path, files: int, mb_per_file: float, seed: int = 7) -> int:
    """Write ``files`` transcripts of about ``mb_per_file`` MB each; return the total bytes."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    total = 0
    for index in range(files):
        name, write = WRITERS[index % len(WRITERS)]
        path = folder / f"{index:03d}.{name}"
        with open(path, "w") as handle:
            sessions = []
            while sum(len(body) for s in sessions for _, _, body in s) < mb_per_file * 0.85e6:
                sessions.append(_session(rng, rng.randint(60, 80)))
            write([call for session in sessions for call in session], handle)
        total += path.stat().st_size
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=88)
    parser.add_argument("--mb-per-file", type=float, default=2.2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as root:
        big, small = pathlib.Path(root, "big"), pathlib.Path(root, "small")
        total = make_folder(big, args.files, args.mb_per_file)
        make_folder(small, max(1, args.files // 4), args.mb_per_file)
        load = os.getloadavg()[0]
        run, small_run = measure.replay(big), measure.replay(small)
        code, elapsed, cpu, peak, small_peak = run.exit_code, run.wall_s, run.cpu_s, run.peak_mb, small_run.peak_mb
    rate, cpu_rate = total / 1e6 / elapsed, total / 1e6 / cpu
    print(f"{args.files} files, {total / 1e6:.1f} MB: {elapsed:.2f} s -> {rate:.1f} MB/s (exit code {code}; "
          f"load average {load:.1f}); {cpu_rate:.1f} MB/s per CPU second of all its processes ({cpu:.2f} s); "
          f"peak RSS of its largest process {peak:.1f} MB (a folder of {max(1, args.files // 4)} such files: "
          f"{small_peak:.1f} MB)")
    flat = peak <= FLAT_RATIO * small_peak
    missed = [why for why, bad in ((f"{rate:.1f} MB/s per wall second", rate < GOAL_MB_S),
                                   (f"exit code {code}", code != 0),
                                   (f"peak {peak:.1f} MB > {FLAT_RATIO}x {small_peak:.1f} MB", not flat)) if bad]
    goal = (f">= {GOAL_MB_S:.0f} MB/s per wall second with no stop, flat memory (peak <= {FLAT_RATIO}x a quarter "
            "of the files')")
    print(f"goal {goal}: {'ok' if not missed else 'MISSED (' + '; '.join(missed) + ')'}")
    print(result_line(f"{rate:.1f} MB/s (wall) over {total / 1e6:.0f} MB (load {load:.1f}), peak {peak:.1f} MB vs "
                      f"{small_peak:.1f} MB on a quarter", goal, not missed))
    return 0 if code == 0 else 1  # the folder is built never to stop: another exit code is a bug


if __name__ == "__main__":
    sys.exit(main())
