"""The batch builder (chapter 03): edit a batch of tool calls, shuffle or duplicate them, watch the fingerprint.

Controls: ``batch`` (a Textarea, one call per line: the tool name, a space, then its arguments as JSON text, the way
OpenAI-style providers send them; a name alone means no arguments) and ``pinned`` (a fingerprint to compare with).
Buttons (``view.buttons``): ``shuffle`` reorders the calls, ``duplicate`` repeats the last call, ``pin`` copies the
current fingerprint into ``pinned``, ``reset`` restores the starting batch. The panel shows each call's entry,
the sorted entries that are hashed, the fingerprint, and whether it equals the pinned one.
"""

from __future__ import annotations

import html
import itertools
import random
from dataclasses import dataclass
from typing import Any, Literal

import ipywidgets as W

from loopkit.core.fingerprint import call_entry, fingerprint
from loopkit.core.language import N_, tr
from loopkit.core.normalize import normalize_args

from ._base import View, table_html

__all__ = ["DEFAULT_BATCH", "BatchReading", "batch_builder", "duplicate_last", "parse_batch", "read_batch", "render_batch",
           "shuffle_calls"]

#: A three-call turn: a read, a test run, a search, each with an incidental field the key ignores.
DEFAULT_BATCH = "\n".join(
    [
        'read_file {"path": "src/app.py", "start_line": 1, "end_line": 120}',
        'bash {"command": "pytest -q", "description": "run the tests"}',
        'web_search {"query": "python loop detection", "max_results": 5}',
    ]
)


def _call_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def parse_batch(text: str) -> list[dict]:
    """Turn the builder's text into tool calls: ``NAME ARGS`` per line, ``ARGS`` kept as the raw JSON text.

    Arguments that are not valid JSON are kept too: the detector keys such a call by its raw text (chapter 01).

    >>> parse_batch('bash {"command": "ls"}\\n\\nnoop')
    [{'name': 'bash', 'args': '{"command": "ls"}'}, {'name': 'noop', 'args': {}}]
    """
    if not isinstance(text, str):
        raise TypeError(f"batch must be a str with one call per line, got {type(text).__name__}")
    calls: list[dict[str, Any]] = []
    for line in _call_lines(text):
        name, _, args = line.partition(" ")
        calls.append({"name": name, "args": args.strip() or {}})
    return calls


def shuffle_calls(text: str, seed: int) -> str:
    """The same calls in another order (seeded, so it is repeatable). If the calls differ, the order changes.

    >>> shuffle_calls("a\\nb\\nc", seed=0) != "a\\nb\\nc", sorted(shuffle_calls("a\\nb\\nc", seed=0).split())
    (True, ['a', 'b', 'c'])
    """
    lines = _call_lines(text)
    shuffled = list(lines)
    random.Random(seed).shuffle(shuffled)
    if shuffled == lines and len(set(lines)) > 1:
        shuffled = shuffled[1:] + shuffled[:1]  # a shuffle that changed nothing would teach nothing
    return "\n".join(shuffled)


def duplicate_last(text: str) -> str:
    """The batch with its last call repeated (an empty batch stays empty).

    >>> duplicate_last("a\\nb")
    'a\\nb\\nb'
    """
    lines = _call_lines(text)
    return "\n".join(lines + lines[-1:])


@dataclass(frozen=True)
class BatchReading:
    """What the builder shows for a batch: a row per call, the sorted entries that are hashed, the fingerprint, and
    how it compares with the pinned one (``"none"`` pinned, ``"same"`` or ``"differs"``)."""

    rows: list[dict]
    hashed: list[str]
    fingerprint: str
    pinned: Literal["none", "same", "differs"]


def read_batch(batch: str, pinned: str = "") -> BatchReading | None:
    """The builder's reading of ``batch`` (``None`` for an empty one): each call's entry, the sorted entries, the
    fingerprint, and whether it equals ``pinned``. The note on a call is in the learner's language.

    >>> reading = read_batch('bash {"command": "ls", "description": "list"}\\nbash [1]')
    >>> [row["entry"] for row in reading.rows], reading.rows[1]["note"], reading.pinned
    (['bash:{"command": "ls"}', 'bash:[1]'], 'keyed by its raw text (not a JSON object)', 'none')
    """
    calls = parse_batch(batch)
    if not calls:
        return None
    rows: list[dict[str, Any]] = []
    for number, call in enumerate(calls, start=1):
        _, fallback = normalize_args(call["args"])
        note = tr("keyed by its raw text (not a JSON object)") if fallback is not None else ""
        rows.append({"#": number, N_("call"): f"{call['name']} {call['args'] or ''}".strip(),
                     N_("entry"): call_entry(call), N_("note"): note})
    digest = fingerprint(calls)
    pinned = pinned.strip()
    verdict: Literal["none", "same", "differs"] = "none" if not pinned else "same" if pinned == digest else "differs"
    return BatchReading(rows, sorted(row["entry"] for row in rows), digest, verdict)


def render_batch(batch: str, pinned: str = "") -> str:
    """The panel's HTML for :func:`read_batch`: the fingerprint and its verdict, the rows, the sorted entries."""
    reading = read_batch(batch, pinned)
    if reading is None:
        example = '<code>bash {"command": "ls"}</code>'
        return "<i>" + tr("The batch is empty: write one call per line, e.g. {example}.", example=example) + "</i>"
    shown = f"<code>{html.escape(pinned.strip())}</code>"
    verdict = {"none": tr("Nothing pinned: press <b>Pin</b> to keep this fingerprint for comparison."),
               "same": tr("<b>same</b> as the pinned fingerprint {shown}", shown=shown),
               "differs": tr("<b>differs</b> from the pinned fingerprint {shown}", shown=shown)}[reading.pinned]
    hashed = "<br>".join(f"<code>{html.escape(entry)}</code>" for entry in reading.hashed)
    summary = tr("{count} call(s). Fingerprint: {fingerprint}, {verdict}.", count=len(reading.rows),
                 fingerprint=f"<code><b>{reading.fingerprint}</b></code>", verdict=verdict)
    return (
        f"<p>{summary}</p>"
        + table_html(reading.rows, ["#", "call", "entry", "note"])
        + f"<p>{tr('Sorted entries (what is hashed):')}<br>{hashed}</p>"
    )


def batch_builder(batch: str = DEFAULT_BATCH) -> View:
    """An editable batch with Shuffle, Duplicate, Pin and Reset buttons; the starting fingerprint is pinned."""
    controls = {
        "batch": W.Textarea(value=batch, description=tr("batch"), rows=6, layout=W.Layout(width="44em")),
        "pinned": W.Text(value=fingerprint(parse_batch(batch)),
                         description=tr("pinned", context="a pinned fingerprint")),
    }
    buttons = {
        "shuffle": W.Button(description=tr("Shuffle calls")),
        "duplicate": W.Button(description=tr("Duplicate last call")),
        "pin": W.Button(description=tr("Pin fingerprint")),
        "reset": W.Button(description=tr("Reset")),
    }
    view = View(controls, render_batch, title=tr("Batch builder: order does not count, repeats do"),
                buttons=list(buttons.values()))
    view.buttons = buttons
    shuffles = itertools.count(1)

    def on_shuffle(_):
        controls["batch"].value = shuffle_calls(controls["batch"].value, next(shuffles))

    def on_duplicate(_):
        controls["batch"].value = duplicate_last(controls["batch"].value)

    def on_pin(_):
        controls["pinned"].value = fingerprint(parse_batch(controls["batch"].value))

    def on_reset(_):
        controls["batch"].value = batch

    for name, handler in (("shuffle", on_shuffle), ("duplicate", on_duplicate), ("pin", on_pin), ("reset", on_reset)):
        buttons[name].on_click(handler)
    view.add_class("loopkit-batch-builder")
    view.panel.add_class("loopkit-panel")
    return view
