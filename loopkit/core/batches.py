"""A batch: the tool calls of one model turn, and the one check that a trace is a list of them.

A *call* is a mapping with a string ``name`` and its ``args`` (``{"name": "bash", "args": {"command": "ls"}}``);
a *batch* is the list of calls one model turn asked for; a *trace* is the list of batches of a run. What the
calls' arguments hold is checked later, by the fingerprint, which keeps upstream's tolerance for odd values.
The detector asks only :func:`check_batch` of a batch; a trace that the teaching aids replay
(:func:`check_batches`) must also name every tool with a str.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Call", "Batch", "check_batch", "check_batches"]

#: One tool call: ``{"name": ..., "args": ...}`` (an ``id`` and other keys may ride along).
Call = Mapping[str, Any]


@dataclass(frozen=True)
class Batch:
    """One model turn's tool calls, with where they came from.

    ``step`` counts batches from 1; ``where`` is the location of the record that opened the batch (a file and
    line, or ``"batch 3"`` for a trace held in memory); ``turn`` is how many user messages came before it (a new
    user message is a new run in DeerFlow).
    """

    step: int
    where: str
    calls: list = field(hash=False)
    turn: int = 0


def _is_sequence_of(value: Any) -> bool:
    """True for a list-like value: an iterable that is not a string, bytes or a single mapping."""
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping))


def check_batch(calls: Any, *, name: str = "batch") -> list[Call]:
    """``calls`` read once into a list; an error names the first item that is not a call mapping.

    This is all the detector asks of one batch: like upstream, it keys whatever a call's name and arguments hold.

    >>> check_batch(({"name": 5, "args": None},))
    [{'name': 5, 'args': None}]
    """
    if not _is_sequence_of(calls):
        raise TypeError(f"{name} must be a list of tool calls, got {type(calls).__name__}")
    checked = list(calls)
    for k, call in enumerate(checked):
        if not isinstance(call, Mapping):
            raise TypeError(f"{name}[{k}] must be a mapping with 'name' and 'args', got {type(call).__name__}")
    return checked


def check_batches(batches: Any, *, name: str = "batches") -> list[list[Call]]:
    """``batches`` read once into a list of lists of calls, each call named by a str; an error names the first batch
    or call that is not one.

    A one-shot iterable (a generator) works like a list: it is read here, once.

    >>> check_batches(([{"name": "bash", "args": {}}],))
    [[{'name': 'bash', 'args': {}}]]
    >>> check_batches([{"name": "bash", "args": {}}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: batches[0] is a single call (a mapping); a trace is a list of batches, each a list of calls: ...
    """
    if not _is_sequence_of(batches):
        raise TypeError(f"{name} must be a list of batches (each a list of tool calls), got {type(batches).__name__}")
    checked = []
    for index, batch in enumerate(batches):
        if isinstance(batch, Mapping):
            raise TypeError(f"{name}[{index}] is a single call (a mapping); a trace is a list of batches, each a "
                            "list of calls: wrap one call per turn as [[call1], [call2], ...]")
        calls = check_batch(batch, name=f"{name}[{index}]")
        for k, call in enumerate(calls):
            if not isinstance(call.get("name", ""), str):
                raise TypeError(f"{name}[{index}][{k}]['name'] must be a str, got {type(call.get('name')).__name__}")
        checked.append(calls)
    return checked
