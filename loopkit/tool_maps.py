"""Tool maps: give another agent's tools the names and arguments DeerFlow's detector keys on (chapter 09).

DeerFlow keys a call by its tool and argument names: ``read_file`` by ``path`` and a 200-line bucket of
``start_line``/``end_line``, ``write_file`` and ``str_replace`` by all their arguments, every other tool by the salient
fields ``path``, ``url``, ``query``, ``command``, ``pattern``, ``glob``, ``cmd`` (:mod:`loopkit.keys`). A Claude Code
``Read {file_path, offset, limit}`` replayed unmapped is keyed by none of that, so its verdicts mean something else.
A :class:`ToolMap` renames calls before the replay; the presets and the rule syntax are this workbook's own.

DeerFlow's tool arguments (bytedance/deer-flow ``backend/packages/harness/deerflow/sandbox/tools.py``, the stored
version at commit 026cc1a6, not the pinned f1f4af99, whose copy of this file we could not open):
``read_file(path, start_line, end_line)`` (1-indexed, inclusive), ``write_file(path, content, append)``,
``str_replace(path, old_str, new_str, replace_all)``, ``bash(command)``, ``ls(path)``, ``glob(pattern, path)``,
``grep(pattern, path, glob)``, each with an optional ``description``; and the community tools ``web_search(query)``
and ``web_fetch(url)`` (a ``web_fetch {url}`` call is in DeerFlow's demo thread
``frontend/public/demo/threads/d3e5adaf-084c-4dd5-9d29-94f1d6bccd98/thread.json`` at commit 874d7990).

The presets, from each agent's own tool schemas:

- ``claude-code`` (captured tool list, oneryalcin/agent-schemas ``claude-code/captured/tools_2.1.144.json``):
  ``Read {file_path, offset, limit}`` -> ``read_file {path, start_line: offset, end_line: offset + limit - 1}``
  (``offset`` is the first line, counted from 1); ``Write {file_path, content}`` -> ``write_file``;
  ``Edit {file_path, old_string, new_string, replace_all}`` and ``MultiEdit`` -> ``str_replace``; ``Bash`` -> ``bash``;
  ``Grep``, ``Glob``, ``LS``, ``WebFetch``, ``WebSearch`` -> ``grep``, ``glob``, ``ls``, ``web_fetch``, ``web_search``.
- ``codex`` (openai/codex ``codex-rs/protocol/src/models.rs``): ``shell``, ``shell_command``, ``container.exec`` and
  ``local_shell`` -> ``bash`` (the ``command`` argv list is kept as it is); ``apply_patch`` -> ``str_replace``, its
  patch text kept whole (so a changed patch is a different key, as a changed edit is for DeerFlow).
- ``openhands`` (OpenHands/OpenHands ``openhands/agenthub/codeact_agent/tools/``): ``execute_bash`` -> ``bash``;
  ``str_replace_editor`` by its ``command``: ``view`` -> ``read_file`` (``view_range [a, b]`` -> ``start_line``,
  ``end_line``; ``b = -1`` means to the end), ``create {path, file_text}`` -> ``write_file {path, content}``,
  ``str_replace`` -> ``str_replace``, ``insert`` -> ``str_replace`` (all arguments kept); ``edit_file`` ->
  ``str_replace``.
- ``swe-agent`` (SWE-agent runs each action in its shell; see :mod:`loopkit.adapters.swe_agent`): the ``bash``
  command is parsed with :mod:`shlex`: ``open PATH [LINE]`` and ``str_replace_editor view PATH [--view_range A B]``
  -> ``read_file``; ``create PATH`` and ``str_replace_editor create PATH --file_text T`` -> ``write_file``;
  ``str_replace_editor str_replace PATH --old_str X --new_str Y`` -> ``str_replace``; ``edit`` and other
  ``str_replace_editor`` commands -> ``str_replace`` with the whole command as the argument; the rest stays ``bash``.
- ``gemini-cli`` (google-gemini/gemini-cli ``packages/core/src/tools/definitions/base-declarations.ts``):
  ``read_file {file_path, start_line, end_line}`` (older versions: ``absolute_path``, a 0-based ``offset`` and a
  ``limit``) -> ``read_file``; ``write_file {file_path, content}`` -> ``write_file``; ``replace {file_path,
  old_string, new_string}`` -> ``str_replace``; ``run_shell_command`` -> ``bash``; ``glob``, ``grep_search``
  (``include_pattern`` -> ``glob``), ``list_directory``, ``google_web_search`` -> ``glob``, ``grep``, ``ls``,
  ``web_search``.

User rules (``ToolMap(rules=[...])``, the command line's repeatable ``--map RULE``)::

    OLD=NEW                         rename the tool
    OLD=NEW:a>b,c>d                 ... and rename arguments a to b and c to d
    OLD=NEW:-x                      ... and drop argument x (dropping is always explicit)
    OLD[ARG=VALUE]=NEW:...          only for calls whose argument ARG is the string VALUE

A user rule for a tool replaces the preset's handling of that tool; the first rule that matches a call applies.

Arguments arrive as the provider sent them: a dict, or a JSON string (parsed here, so it can be mapped). Arguments a
rule does not name are kept. A call whose arguments cannot be read as an object is renamed only when its rule
renames no argument; otherwise it is left as it is and counted in :attr:`ToolMap.problems`, never half-mapped.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["DEERFLOW_TOOLS", "PRESETS", "Rule", "ToolMap", "parse_rule", "MapError"]

#: DeerFlow's own sandbox tools: a call already named one of these needs no map.
DEERFLOW_TOOLS = ("read_file", "write_file", "str_replace", "bash", "ls", "glob", "grep", "web_search", "web_fetch")

#: A translation of one call's arguments (always a dict) into ``(new tool name, new arguments)``, or ``None``
#: when it does not apply to these arguments.
Translate = Callable[[dict], "tuple[str, dict] | None"]


class MapError(ValueError):
    """A tool-map rule that cannot be parsed, or a preset that does not exist."""


# -- small translations the presets are made of ---------------------------------------------------------------------


def _renamed(args: dict, renames: Mapping[str, str]) -> dict | None:
    """``args`` with keys renamed; ``None`` when a new name is already taken by another argument."""
    out = {}
    for key, value in args.items():
        new = renames.get(key, key)
        if new in out:
            return None
        out[new] = value
    return out


def rename(tool: str, **renames: str) -> Translate:
    """A translation to ``tool`` that renames some arguments and keeps the others.

    >>> rename("write_file", file_path="path")({"file_path": "a.py", "content": "x"})
    ('write_file', {'path': 'a.py', 'content': 'x'})
    """
    def translate(args: dict):
        out = _renamed(args, renames)
        return None if out is None else (tool, out)
    return translate


def _line(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _lines(args: dict, start_key: str, count_key: str, first: int) -> dict:
    """``args`` with a start line and a line count replaced by DeerFlow's 1-indexed inclusive range; left as they are
    when they are not whole numbers. ``first`` is what line the format counts from (0 or 1)."""
    start, count = _line(args.get(start_key)), _line(args.get(count_key))
    if (start_key in args and start is None) or (count_key in args and count is None):
        return dict(args)
    out = {k: v for k, v in args.items() if k not in (start_key, count_key)}
    begin = (start if start is not None else first) - first + 1
    if start is not None:
        out["start_line"] = begin
    if count is not None:
        out["start_line"] = begin
        out["end_line"] = begin + count - 1
    return out


def _claude_read(args: dict):
    out = _renamed(_lines(args, "offset", "limit", first=1), {"file_path": "path"})
    return None if out is None else ("read_file", out)


def _gemini_read(args: dict):
    out = _renamed(_lines(args, "offset", "limit", first=0), {"file_path": "path", "absolute_path": "path"})
    return None if out is None else ("read_file", out)


def _openhands_editor(args: dict):
    command = args.get("command")
    if command == "view":
        out = {k: v for k, v in args.items() if k != "view_range"}
        span = args.get("view_range")
        if "view_range" in args:
            if not (isinstance(span, list) and len(span) == 2 and all(_line(n) is not None for n in span)):
                return None
            out["start_line"] = span[0]
            if span[1] != -1:
                out["end_line"] = span[1]
        return "read_file", out
    if command == "create":
        return rename("write_file", file_text="content")(args)
    if command in ("str_replace", "insert"):
        return "str_replace", dict(args)
    return None


def _options(words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The positional words and the ``--name value...`` options of a parsed command line."""
    positional, options, current = [], {}, None
    for word in words:
        if word.startswith("--"):
            current = word[2:]
            options[current] = []
        elif current is not None:
            options[current].append(word)
        else:
            positional.append(word)
    return positional, options


def _swe_agent_command(args: dict):
    command = args.get("command")
    if not isinstance(command, str):
        return None
    head = command.strip().split(None, 1)[0] if command.strip() else ""
    if head == "edit":
        return "str_replace", dict(args)
    if head not in ("open", "create", "str_replace_editor"):
        return None
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command line this map can read
        return None
    positional, options = _options(words[1:])
    if head == "open" and positional:
        start = positional[1] if len(positional) > 1 and positional[1].isdigit() else None
        return "read_file", {"path": positional[0], **({"start_line": int(start)} if start else {})}
    if head == "create" and positional:
        return "write_file", {"path": positional[0]}
    if head != "str_replace_editor" or len(positional) < 2:
        return None
    sub, path = positional[0], positional[1]
    if sub == "view":
        span = options.get("view_range", [])
        if len(span) == 2 and all(re.fullmatch(r"-?\d+", n) for n in span):
            end = int(span[1])
            return "read_file", {"path": path, "start_line": int(span[0]), **({"end_line": end} if end != -1 else {})}
        return "read_file", {"path": path}
    if sub == "create":
        return "write_file", {"path": path, "content": " ".join(options.get("file_text", []))}
    if sub == "str_replace" and "old_str" in options:
        return "str_replace", {"path": path, "old_str": " ".join(options["old_str"]),
                               "new_str": " ".join(options.get("new_str", []))}
    return "str_replace", dict(args)


PRESETS: dict[str, dict[str, Translate]] = {
    "claude-code": {
        "Read": _claude_read,
        "Write": rename("write_file", file_path="path"),
        "Edit": rename("str_replace", file_path="path", old_string="old_str", new_string="new_str"),
        "MultiEdit": rename("str_replace", file_path="path"),
        "Bash": rename("bash"),
        "Grep": rename("grep"),
        "Glob": rename("glob"),
        "LS": rename("ls"),
        "WebFetch": rename("web_fetch"),
        "WebSearch": rename("web_search"),
    },
    "codex": {
        "shell": rename("bash"),
        "shell_command": rename("bash"),
        "container.exec": rename("bash"),
        "local_shell": rename("bash"),
        "apply_patch": rename("str_replace"),
    },
    "openhands": {
        "execute_bash": rename("bash"),
        "str_replace_editor": _openhands_editor,
        "edit_file": rename("str_replace"),
    },
    "swe-agent": {
        "bash": _swe_agent_command,
    },
    "gemini-cli": {
        "read_file": _gemini_read,
        "write_file": rename("write_file", file_path="path"),
        "replace": rename("str_replace", file_path="path", old_string="old_str", new_string="new_str"),
        "run_shell_command": rename("bash"),
        "glob": rename("glob", dir_path="path"),
        "grep_search": rename("grep", dir_path="path", include_pattern="glob", include="glob"),
        "search_file_content": rename("grep", include="glob"),
        "list_directory": rename("ls", dir_path="path"),
        "google_web_search": rename("web_search"),
    },
}


# -- user rules ----------------------------------------------------------------------------------------------------

_RULE = re.compile(r"^(?P<old>[^\[\]=:]+)(?:\[(?P<arg>[^\]=]+)=(?P<value>[^\]]*)\])?=(?P<new>[^\[\]=:]+)"
                   r"(?::(?P<args>.*))?$")
_RULE_HELP = "expected OLD=NEW, OLD=NEW:ARG>NEWARG,... or OLD[ARG=VALUE]=NEW, such as Read=read_file:file_path>path"


@dataclass(frozen=True)
class Rule:
    """A user's rule: rename tool ``old`` to ``new`` (only when argument ``when[0]`` is the string ``when[1]``),
    renaming arguments by ``renames`` and dropping those in ``drops``."""

    old: str
    new: str
    renames: tuple[tuple[str, str], ...] = ()
    drops: tuple[str, ...] = ()
    when: tuple[str, str] | None = None

    def translate(self, args: dict):
        """``(new, args)`` for a call this rule applies to; ``None`` when its condition does not hold."""
        if self.when is not None and args.get(self.when[0]) != self.when[1]:
            return None
        out = _renamed({k: v for k, v in args.items() if k not in self.drops}, dict(self.renames))
        return None if out is None else (self.new, out)


def parse_rule(text: str) -> Rule:
    """Parse one ``--map`` rule (see the module docstring); :class:`MapError` says what was wrong.

    >>> parse_rule("str_replace_editor[command=view]=read_file:view_range>range,-security_risk")
    Rule(old='str_replace_editor', new='read_file', renames=(('view_range', 'range'),), drops=('security_risk',), when=('command', 'view'))
    """
    if not isinstance(text, str):
        raise MapError(f"a tool-map rule must be a string, got {type(text).__name__}")
    found = _RULE.match(text.strip())
    if not found:
        raise MapError(f"tool-map rule {text!r}: {_RULE_HELP}")
    old, new = found["old"].strip(), found["new"].strip()
    if not old or not new:
        raise MapError(f"tool-map rule {text!r}: the tool names must not be empty; {_RULE_HELP}")
    renames, drops = [], []
    for part in (found["args"] or "").split(","):
        part = part.strip()
        if not part and found["args"] is not None and not found["args"].strip():
            raise MapError(f"tool-map rule {text!r}: nothing after ':'; expected ARG>NEWARG or -ARG")
        if not part:
            continue
        if part.startswith("-") and len(part) > 1 and ">" not in part:
            drops.append(part[1:])
            continue
        source, sep, target = part.partition(">")
        if not (sep and source.strip() and target.strip()):
            raise MapError(f"tool-map rule {text!r}: {part!r} is not ARG>NEWARG or -ARG")
        renames.append((source.strip(), target.strip()))
    targets = [target for _, target in renames]
    if len(set(targets)) != len(targets):
        raise MapError(f"tool-map rule {text!r}: two arguments renamed to the same name")
    when = (found["arg"].strip(), found["value"]) if found["arg"] is not None else None
    return Rule(old, new, tuple(renames), tuple(drops), when)


# -- the map -------------------------------------------------------------------------------------------------------


def _as_object(args: Any) -> dict | None:
    """The arguments as a dict: a dict, or a JSON string holding an object; ``None`` otherwise."""
    if isinstance(args, Mapping):
        return dict(args)
    if isinstance(args, str):
        try:
            parsed = json.loads(args)
        except (ValueError, RecursionError):
            return None
        return parsed if isinstance(parsed, dict) else None
    return None


class ToolMap:
    """Renames calls with a preset (``claude-code``, ``codex``, ``openhands``, ``swe-agent``, ``gemini-cli``) and the
    user's rules, and counts what it did: ``mapped`` (``"Read -> read_file"``: n), ``unmapped`` (tools no rule
    covered that are not DeerFlow's own names) and ``problems`` (``"Read: ..."``: n, calls a rule could not map).

    >>> tool_map = ToolMap("claude-code")
    >>> tool_map.map_call({"name": "Read", "args": {"file_path": "a.py", "offset": 201, "limit": 100}, "id": "t1"})
    {'name': 'read_file', 'args': {'path': 'a.py', 'start_line': 201, 'end_line': 300}, 'id': 't1'}
    """

    def __init__(self, preset: str | None = None, rules: Iterable[str | Rule] = ()) -> None:
        if preset is not None and preset not in PRESETS:
            raise MapError(f"no tool-map preset {preset!r}; expected one of {', '.join(PRESETS)}")
        if isinstance(rules, (str, Rule)):
            rules = [rules]
        self.preset = preset
        self.rules = [rule if isinstance(rule, Rule) else parse_rule(rule) for rule in rules]
        self._by_tool: dict[str, list[Translate]] = {}
        for rule in self.rules:
            self._by_tool.setdefault(rule.old, []).append(rule.translate)
        for tool, translate in (PRESETS[preset] if preset else {}).items():
            self._by_tool.setdefault(tool, [translate])
        self.mapped: Counter = Counter()
        self.unmapped: Counter = Counter()
        self.problems: Counter = Counter()

    def map_call(self, call: Mapping) -> dict:
        """One call, mapped (a new dict) or, when nothing applies, the same call."""
        name = call.get("name")
        translations = self._by_tool.get(name)
        if not translations:
            if name not in DEERFLOW_TOOLS:
                self.unmapped[name] += 1
            return call
        args = _as_object(call.get("args"))
        if args is None:  # free text or a broken JSON string: only a rule that renames the tool alone applies
            new = self._rename_only(name)
            if new is None:
                self.problems[f"{name}: arguments are not a JSON object, left as they are"] += 1
                return call
            self.mapped[f"{name} -> {new}"] += 1
            return {**call, "name": new}
        for translate in translations:
            result = translate(args)
            if result is not None:
                new, new_args = result
                self.mapped[f"{name} -> {new}"] += 1
                return {**call, "name": new, "args": new_args}
        if name not in DEERFLOW_TOOLS:
            self.problems[f"{name}: no rule fits these arguments, left as they are"] += 1
        return call

    def _rename_only(self, name: str) -> str | None:
        """The new name of ``name`` when its first translation renames the tool and no argument (``None`` else)."""
        user_rules = [rule for rule in self.rules if rule.old == name]
        if user_rules:
            rule = user_rules[0]
            return rule.new if rule.when is None and not rule.renames and not rule.drops else None
        preset = PRESETS.get(self.preset or "", {}).get(name)
        probe = preset({}) if preset is not None else None  # a pure rename maps no arguments to no arguments
        return probe[0] if probe is not None and probe[1] == {} else None

    def map_batch(self, calls: Iterable[Mapping]) -> list:
        """A batch with each call mapped."""
        return [self.map_call(call) for call in calls]

    def describe(self) -> str:
        """One line: what was mapped, and the tools left unmapped (so a reader knows which verdicts are raw)."""
        mapped = ", ".join(f"{what} ({n})" for what, n in self.mapped.most_common()) or "nothing"
        text = f"tool map {self.preset or 'rules only'}: mapped {mapped}"
        if self.unmapped:
            text += "; left unmapped: " + ", ".join(f"{name} ({n})" for name, n in self.unmapped.most_common())
        if self.problems:
            text += "; " + "; ".join(f"{what} ({n})" for what, n in self.problems.most_common())
        return text
