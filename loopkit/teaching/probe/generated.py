"""Reproducible tool-call batches in every argument shape, the input of the probe's claims about digests."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from loopkit.core.checks import require_int

__all__ = ["BATCHES", "SEED", "generated_batches"]

#: Batches the "digest equality" claim generates, and the seed that makes them the same on every run.
BATCHES = 300
SEED = 7

_CALL_TOOLS = ("read_file", "write_file", "str_replace", "bash", "web_search", "grep", "fetch", "lookup")
_WORDS = ("a.py", "src/app.py", "notes.md", "pytest -q", "ls", "loop detection", "TODO", "*.py", "ünïcode", "")


def _random_args(rng: random.Random, tool: str) -> dict:
    pick = rng.choice
    if tool == "read_file":
        lines = [None, 1, 5, 150, 199, 200, 201, 399, 401, 0, -3, "40", "x", 12.5]
        return {"path": pick(_WORDS), "start_line": pick(lines), "end_line": pick(lines)}
    if tool in ("write_file", "str_replace"):
        return {"path": pick(_WORDS), "content": pick(_WORDS), "old": pick([None, "a", "b"])}
    fields = ("command", "query", "pattern", "glob", "url", "path", "cmd", "timeout", "description", "max_results")
    return {f: pick([None, *_WORDS, 3, True]) for f in rng.sample(fields, rng.randint(0, 4))}


def _random_call(rng: random.Random) -> dict:
    tool = rng.choice(_CALL_TOOLS)
    args = _random_args(rng, tool)
    shape = rng.random()
    if shape < 0.35:
        raw: Any = json.dumps(args)
    elif shape < 0.45:
        raw = rng.choice(["{oops", "[1,2]", '["b", {"z": 1, "a": 2}]', '"text"', " 42 ", "null", "", [1, "a"], 7, None])
    else:
        raw = args
    call = {"name": tool, "args": raw, "id": f"call_{rng.randrange(10**6)}"}
    if rng.random() < 0.05:
        del call["args"]
    if rng.random() < 0.03:
        del call["name"]
    return call


def generated_batches(n: int = BATCHES, seed: int = SEED) -> list[list[dict]]:
    """``n`` reproducible tool-call batches of 1-4 calls, in every argument shape, some with repeated calls.

    >>> len(generated_batches(5)), generated_batches(5) == generated_batches(5)
    (5, True)
    """
    require_int("n", n)
    rng = random.Random(seed)
    batches = []
    for _ in range(n):
        batch = [_random_call(rng) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.2:
            batch.append(copy.deepcopy(rng.choice(batch)))
        batches.append(batch)
    return batches
