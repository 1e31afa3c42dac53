"""The replay command streams JSON Lines: peak memory does not grow with the transcript.

A generated 200k-line transcript (~40 MB) goes through `python -m loopkit replay` in a subprocess, and its peak
RSS is compared with a 2k-line run. Reading the file whole, or keeping a row per batch, would add tens of MB; a
streamed replay adds almost nothing. This is a memory assertion, not a timing one (throughput lives in
benchmarks/bench_cli_replay.py).
"""

import json
import subprocess
import sys

# Each child's peak RSS is measured by a fresh wrapper process, so nothing else this test session ran (notebook
# kernels, other subprocesses) can leak into RUSAGE_CHILDREN.
WRAPPER = """
import resource, subprocess, sys
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
print(code.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code.stderr.decode()[-300:])
"""

TOOLS = ("read_file", "bash", "grep", "web_search", "ls")
PADDING = "x" * 60  # realistic line length: each line is about 200 bytes


def write_transcript(path, lines):
    """Half assistant turns, half tool results; mostly distinct calls over five tools, with a short repeat every
    97 turns (warnings, never a stop), so the detector runs over the whole file."""
    with open(path, "w") as handle:
        for turn in range(lines // 2):
            n = turn - turn % 97 if turn % 97 < 3 else turn  # three identical batches every 97 turns
            tool = TOOLS[n % len(TOOLS)]
            args = {"path": f"src/m{n}.py", "command": f"run {n}", "pattern": f"p{n}", "query": f"q{n}"}
            handle.write(json.dumps({"role": "assistant", "content": PADDING, "tool_calls": [
                {"id": f"c{turn}", "type": "function", "function": {"name": tool, "arguments": json.dumps(args)}}]})
                + "\n")
            handle.write(json.dumps({"role": "tool", "tool_call_id": f"c{turn}", "content": PADDING}) + "\n")


def peak_kb(path):
    out = subprocess.run([sys.executable, "-c", WRAPPER, sys.executable, "-m", "loopkit", "replay", str(path)],
                         capture_output=True, text=True, check=True, timeout=600)
    code, peak, rest = out.stdout.split(" ", 2)
    assert code == "0", f"replay failed: {rest}"
    return int(peak)


def test_200k_line_jsonl_replays_in_steady_memory(tmp_path):
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    write_transcript(small, 2_000)
    write_transcript(big, 200_000)
    assert sum(1 for _ in open(big)) == 200_000 and big.stat().st_size > 30_000_000
    small_kb, big_kb = peak_kb(small), peak_kb(big)
    file_kb = big.stat().st_size // 1024
    # Loading the file whole (as text, then as parsed records) would add more than the file's own size; streaming
    # adds next to nothing, whatever the interpreter's own footprint on this machine.
    assert big_kb - small_kb < file_kb // 3, f"peak RSS grew from {small_kb} KB to {big_kb} KB for a {file_kb} KB file"
