"""The benchmark workloads: deterministic streams of tool-call batches with a realistic mix.

Most calls are distinct (reads of many files and line ranges, shell commands, searches, writes with new
content); a minority are loops (the same batch repeated a few turns running), as in a real agent trace.
"""

from __future__ import annotations

import random

TOOLS = ("read_file", "bash", "grep", "web_search", "write_file", "str_replace", "list_dir")


def _distinct_call(rng: random.Random, i: int) -> dict:
    tool = rng.choices(TOOLS, weights=(30, 25, 12, 10, 8, 8, 7))[0]
    if tool == "read_file":
        start = rng.randint(1, 2000)
        args = {"path": f"src/pkg{rng.randint(0, 40)}/mod_{rng.randint(0, 300)}.py", "start_line": start,
                "end_line": start + rng.randint(20, 300)}
    elif tool == "bash":
        args = {"command": f"pytest tests/test_{rng.randint(0, 500)}.py -k case_{i % 97}", "timeout": 120}
    elif tool == "grep":
        args = {"pattern": f"def handler_{rng.randint(0, 5000)}", "path": "src", "glob": "*.py"}
    elif tool == "web_search":
        args = {"query": f"python error code {rng.randint(0, 10**6)}", "max_results": 5}
    elif tool == "write_file":
        args = {"path": f"notes/n{rng.randint(0, 50)}.md", "content": f"draft {i}: " + "x" * rng.randint(10, 200)}
    elif tool == "str_replace":
        args = {"path": f"src/m{rng.randint(0, 80)}.py", "old_str": f"v = {i}", "new_str": f"v = {i + 1}"}
    else:
        args = {"path": f"src/pkg{rng.randint(0, 40)}"}
    return {"name": tool, "args": args}


def batches(n: int, size: int, *, seed: int = 2024, loop_share: float = 0.15) -> list[list[dict]]:
    """``n`` batches of ``size`` calls: fresh calls, except that ``loop_share`` of the turns repeat a recent batch."""
    rng = random.Random(seed)
    out: list[list[dict]] = []
    i = 0
    while len(out) < n:
        if out and rng.random() < loop_share:
            # a loop: the same batch again for 2-6 turns
            batch = out[-1]
            for _ in range(rng.randint(2, 6)):
                out.append([dict(call, args=dict(call["args"])) for call in batch])
        else:
            out.append([_distinct_call(rng, i + k) for k in range(size)])
            i += size
    return out[:n]
