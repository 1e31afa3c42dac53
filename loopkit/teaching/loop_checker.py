"""Does a trace truly loop? A checker that knows nothing about fingerprints (the challenge's referee, chapter 10).

"Truly loops" is decided by :func:`check_loop`. It replays the
trace against a tiny model of the workspace and calls a step *wasted* when every call in it learns or changes
nothing new:

- a ``read_file`` whose lines were all read already since the file last changed (paths are normalized, so
  ``./src/a.py`` is ``src/a.py``; no ``end_line`` means the whole file);
- a ``write_file`` of the content the file already has; a ``str_replace`` that changes nothing or repeats an edit
  already made since the last full write (undoing and redoing an edit is going in circles);
- a web lookup (a ``url``, or a ``query`` to a tool named like ``web_search`` or ``fetch``) already made (case and
  spacing do not matter): a local edit cannot change what the web says;
- any other call (``bash``, ``grep``, ``search_code``...) made again with the same meaning (quoting and spacing do
  not matter) while no file has changed since it last ran. Re-running a test or a code search after an edit is
  progress.

"The same call" means what it means to the detector's keys (:func:`loopkit.core.keys.stable_key`, chapter 03): a call
that has salient fields (``command``, ``path``, ``pattern``...) is identified by them alone, so a rerun that changes
only its ``description``, a ``timeout`` or a ``cwd`` is the same action again; a call without any is identified by
all its arguments.

Reads, writes and edits may name their arguments ``path`` or ``file_path``, ``content`` or ``text``, ``old_str``
or ``old_string`` (and so on: see ``_ALIASES``). A read with arguments the checker does not know (an ``offset``, a
``limit``) may read other lines than its ``start_line`` and ``end_line`` say, so it is judged like any other call,
by all of its arguments; a write or edit the checker cannot read is assumed to change the file.

The checker is deliberately conservative: when in doubt, a step counts as progress. A trace *loops* when at least
:data:`MIN_WASTED` of its steps, and at least half of them, are wasted.
"""

from __future__ import annotations

import math
import posixpath
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from loopkit.core.batches import check_batches
from loopkit.core.keys import SALIENT_FIELDS
from loopkit.core.language import tr
from loopkit.core.normalize import canonical_json, normalize_args

__all__ = ["MIN_WASTED", "MAX_STEPS", "MAX_CALLS", "LoopCheck", "check_loop"]

#: A trace loops when at least this many steps (and at least half of all steps) are wasted.
MIN_WASTED = 10
#: Limits that keep the challenge about cleverness, not size.
MAX_STEPS = 200
MAX_CALLS = 10

_WEB_TOOLS = ("web", "fetch", "browse", "internet", "http")  # a tool named so, given a query, asks the outside world
_COMMANDS = ("command", "cmd")
_PATHS = ("path", "file_path", "pattern", "glob")


def _path(value: Any) -> str:
    text = str(value).replace("\\", "/").strip()
    return posixpath.normpath(text) if text else ""


def _command(value: Any) -> str:
    text = str(value)
    try:
        return " ".join(shlex.split(text))
    except ValueError:  # unbalanced quotes: compare by words
        return " ".join(text.split())


def _lookup(value: Any) -> str:
    return " ".join(str(value).split()).casefold().rstrip("/")


def _line(value: Any, default: float) -> float:
    if value is None:
        return default
    try:
        return max(int(value), 1)
    except (TypeError, ValueError, OverflowError):
        return default


class _Workspace:
    """What the agent has learned and changed so far."""

    def __init__(self) -> None:
        self.version = 0  # bumps on every real change to any file
        self.read: dict[str, list[tuple[float, float]]] = {}  # path -> line ranges read since it last changed
        self.content: dict[str, str] = {}  # path -> content of its last full write
        self.edits: dict[str, set] = {}  # path -> str_replace edits made since its last full write
        self.ran: dict[str, int] = {}  # command key -> workspace version when it last ran
        self.looked_up: set[str] = set()

    def _changed(self, path: str) -> None:
        self.version += 1
        self.read.pop(path, None)

    def call(self, call: Mapping) -> tuple[bool, str]:
        """Apply one call; return ``(wasted, why)``."""
        name = str(call.get("name", ""))
        args, fallback = normalize_args(call.get("args"))
        if fallback is not None:
            args = {"raw": fallback}
        if name == "read_file":
            read = _fields(args, _READ)
            if read is not None and "path" in read:
                return self._read(_path(read["path"]), read.get("start_line"), read.get("end_line"))
        elif name == "write_file":
            write = _fields(args, _WRITE)
            if write is not None and {"path", "content"} <= write.keys():
                return self._write(_path(write["path"]), canonical_json(write["content"]))
            return self._unknown_change(name, args)
        elif name == "str_replace":
            edit = _fields(args, _EDIT)
            if edit is not None and {"path", "old", "new"} <= edit.keys():
                return self._edit(_path(edit["path"]), canonical_json(edit["old"]), canonical_json(edit["new"]))
            return self._unknown_change(name, args)
        elif _is_external(name, args):
            field = "url" if args.get("url") is not None else "query"
            key = f"{name}:{field}:{_lookup(args[field])}"
            if key in self.looked_up:
                return True, tr("{name} {value} was already looked up", name=name, value=repr(args[field]))
            self.looked_up.add(key)
            return False, tr("new {name} lookup", name=name)
        return self._run(name, args)

    def _read(self, path: str, start: Any, end: Any) -> tuple[bool, str]:
        lo, hi = _line(start, 1), _line(end, math.inf)
        lo, hi = min(lo, hi), max(lo, hi)
        ranges = self.read.setdefault(path, [])
        if _covered(ranges, lo, hi):
            return True, tr("lines {span} of {path} were already read", span=_span(lo, hi), path=path)
        ranges.append((lo, hi))
        return False, tr("new lines {span} of {path}", span=_span(lo, hi), path=path)

    def _write(self, path: str, content: str) -> tuple[bool, str]:
        if self.content.get(path) == content and not self.edits.get(path):
            return True, tr("{path} already has this content", path=path)
        self.content[path], self.edits[path] = content, set()
        self._changed(path)
        return False, tr("wrote {path}", path=path)

    def _edit(self, path: str, old: str, new: str) -> tuple[bool, str]:
        if old == new:
            return True, tr("the edit of {path} changes nothing", path=path)
        done = self.edits.setdefault(path, set())
        if (old, new) in done:
            return True, tr("this edit of {path} was already made", path=path)
        done.add((old, new))
        self._changed(path)
        return False, tr("edited {path}", path=path)

    def _unknown_change(self, name: str, args: dict) -> tuple[bool, str]:
        """A write or edit whose arguments the checker cannot read: assume it changed something (progress)."""
        for alias in _ALIASES["path"]:
            if args.get(alias) is not None:
                path = _path(args[alias])
                self.content.pop(path, None)
                self.edits.pop(path, None)
                self._changed(path)
                return False, tr("{name} with arguments the checker cannot read: assumed to change {path}", name=name,
                                  path=path)
        self.version += 1
        self.read.clear()  # which file changed is unknown, so no read is known to be current
        return False, tr("{name} with arguments the checker cannot read: assumed to change a file", name=name)

    def _run(self, name: str, args: dict) -> tuple[bool, str]:
        key = _command_key(name, args)
        before = self.ran.get(key)
        if before == self.version:
            return True, tr("{name} ran with the same meaning and nothing changed since", name=name)
        self.ran[key] = self.version
        if before is None:
            return False, tr("ran {name}", name=name)
        return False, tr("ran {name} again after a change", name=name)


#: The argument names the checker reads, per meaning: the first of each tuple that a call uses counts.
_ALIASES = {
    "path": ("path", "file_path", "filename"),
    "content": ("content", "text", "contents", "file_text"),
    "old": ("old_str", "old_string"),
    "new": ("new_str", "new_string"),
    "start_line": ("start_line",),
    "end_line": ("end_line",),
}
_READ = ("path", "start_line", "end_line")
_WRITE = ("path", "content")
_EDIT = ("path", "old", "new")


def _fields(args: dict, meanings: tuple) -> dict | None:
    """``args`` renamed to ``meanings`` (aliases allowed), or ``None`` when the shape is unknown: an argument the
    checker does not know, or two names for one meaning. Arguments set to ``None`` are ignored."""
    names = {alias: meaning for meaning in meanings for alias in _ALIASES[meaning]}
    out: dict = {}
    for arg, value in args.items():
        if value is None:
            continue
        meaning = names.get(arg)
        if meaning is None or meaning in out:
            return None
        out[meaning] = value
    return out


def _is_external(name: str, args: dict) -> bool:
    """A lookup of the outside world (a URL, or a query to a web tool): local edits cannot change its answer."""
    if args.get("url") is not None:
        return True
    folded = name.casefold()
    return args.get("query") is not None and any(word in folded for word in _WEB_TOOLS)


def _identifying_args(name: str, args: dict) -> dict:
    """The arguments that say which call this is, picked as the detector's key picks them (``stable_key``, chapter
    03): the salient fields when the call has any, else all of its arguments (``None`` values aside).

    A ``read_file`` gets here only when it has arguments the checker does not know, and those may choose its lines
    (an ``offset``, a ``limit``), so it keeps them all.
    """
    given = {field: value for field, value in args.items() if value is not None}
    if name == "read_file":
        return given
    salient = {field: value for field, value in given.items() if field in SALIENT_FIELDS}
    return salient or given


def _command_key(name: str, args: dict) -> str:
    """A call's identity: its name and its identifying arguments, each written in one form per meaning (spacing and
    quoting of a command, ``./`` in a path)."""
    parts = {}
    for field, value in _identifying_args(name, args).items():
        if field in _COMMANDS:
            parts[field] = _command(value)
        elif field in _PATHS:
            parts[field] = _path(value)
        else:
            parts[field] = value
    return f"{name}:{canonical_json(parts)}"


def _covered(ranges: list, lo: float, hi: float) -> bool:
    """Whether ``ranges`` (possibly overlapping; ``inf`` ends mean "to the end") cover every line ``lo``-``hi``."""
    reach = lo  # the first line not yet known to be covered
    for start, end in sorted(ranges):
        if start > reach:
            break
        reach = max(reach, end + 1)
    return reach > hi or reach == math.inf


def _span(lo: float, hi: float) -> str:
    return tr("{lo}-end", lo=lo) if hi == math.inf else f"{lo}-{hi}"


@dataclass(frozen=True)
class LoopCheck:
    """The checker's verdict: how many steps were wasted, whether that makes a loop, and why, step by step."""

    loops: bool
    wasted: int
    steps: int
    reasons: tuple  # (step, wasted, why) per step

    def __str__(self) -> str:
        if self.loops:
            return tr("{steps} steps, {wasted} wasted: it truly loops.", steps=self.steps, wasted=self.wasted)
        need = max(MIN_WASTED, (self.steps + 1) // 2)
        return tr("{steps} steps, {wasted} wasted: not a loop (a loop needs at least {need} wasted steps).",
                  steps=self.steps, wasted=self.wasted, need=need)


def check_loop(batches: Any) -> LoopCheck:
    """Decide whether a trace truly loops: count the steps whose every call learns or changes nothing new.

    >>> run_tests = [{"name": "bash", "args": {"command": "pytest -x"}}]
    >>> print(check_loop([run_tests] * 12))
    12 steps, 11 wasted: it truly loops.
    >>> print(check_loop([[{"name": "read_file", "args": {"path": f"f{i}.py"}}] for i in range(12)]))
    12 steps, 0 wasted: not a loop (a loop needs at least 10 wasted steps).
    """
    batches = check_batches(batches)
    if not batches:
        raise ValueError("batches is empty: the challenge needs at least one step")
    if len(batches) > MAX_STEPS:
        raise ValueError(f"batches has {len(batches)} steps; the challenge allows at most {MAX_STEPS}")
    world = _Workspace()
    reasons = []
    for step, batch in enumerate(batches, 1):
        if not 1 <= len(batch) <= MAX_CALLS:
            raise ValueError(f"batch {step} has {len(batch)} calls; each step needs 1 to {MAX_CALLS} tool calls")
        for k, call in enumerate(batch):
            if not isinstance(call.get("name"), str) or not call.get("name"):
                raise ValueError(f"batch {step}, call {k} needs a non-empty string 'name'")
        results = [world.call(call) for call in batch]
        wasted = all(w for w, _ in results)
        why = "; ".join(text for w, text in results if w == wasted)
        reasons.append((step, wasted, why))
    count = sum(1 for _, w, _ in reasons if w)
    loops = count >= MIN_WASTED and 2 * count >= len(batches)
    return LoopCheck(loops, count, len(batches), tuple(reasons))
