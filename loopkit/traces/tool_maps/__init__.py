"""Tool maps: give another agent's tools the names and arguments DeerFlow's detector keys on (chapter 10).

DeerFlow keys a call by its tool and argument names: ``read_file`` by ``path`` and a 200-line bucket of
``start_line``/``end_line``, ``write_file`` and ``str_replace`` by all their arguments, every other tool by the salient
fields ``path``, ``url``, ``query``, ``command``, ``pattern``, ``glob``, ``cmd`` (:mod:`loopkit.core.keys`). A Claude Code
``Read {file_path, offset, limit}`` replayed unmapped is keyed by none of that, so its verdicts mean something else.
A :class:`ToolMap` renames calls before the replay; the presets and the rule syntax are this workbook's own.

DeerFlow's tool arguments (bytedance/deer-flow ``backend/packages/harness/deerflow/sandbox/tools.py``, the stored
version at commit 026cc1a6, not the pinned f1f4af99, whose copy of this file we could not open):
``read_file(path, start_line, end_line)`` (1-indexed, inclusive), ``write_file(path, content, append)``,
``str_replace(path, old_str, new_str, replace_all)``, ``bash(command)``, ``ls(path)``, ``glob(pattern, path)``,
``grep(pattern, path, glob)``, each with an optional ``description``; and the community tools ``web_search(query)``
and ``web_fetch(url)`` (a ``web_fetch {url}`` call is in DeerFlow's demo thread
``frontend/public/demo/threads/d3e5adaf-084c-4dd5-9d29-94f1d6bccd98/thread.json`` at commit 874d7990).

The presets live in :mod:`loopkit.traces.tool_maps.presets` (each agent's tools and where their schemas come from), the
user's rules in :mod:`loopkit.traces.tool_maps.rules` (``OLD=NEW:a>b,-c``, ``OLD[ARG=VALUE]=NEW``), and what both are made
of in :mod:`loopkit.traces.tool_maps.translations`. A user rule for a tool replaces the preset's handling of that tool; the
first rule that matches a call applies.

By default a replay applies the preset of the format it reads (``ToolMap(DETECTED)``, :func:`preset_for`): a Claude
Code session is keyed by DeerFlow's names unless asked otherwise (``ToolMap(None)``, ``--tool-map none``).

Arguments arrive as the provider sent them: a dict, or a JSON string (parsed here, so it can be mapped). Arguments a
rule does not name are kept. A call whose arguments cannot be read as an object is renamed only when its rule
renames no argument; otherwise it is left as it is and counted in :attr:`ToolMap.problems`, never half-mapped.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .presets import FILE_PRESETS, FORMAT_PRESETS, POLLS, PRESETS
from .rules import MapError, Rule, parse_rule
from .translations import Translate

__all__ = ["DEERFLOW_TOOLS", "DEERFLOW_OWN_TOOLS", "PRESETS", "FORMAT_PRESETS", "DETECTED", "Rule", "ToolMap",
           "parse_rule", "MapError", "preset_for", "presets_naming", "is_poll"]

#: DeerFlow's own sandbox tools: a call already named one of these needs no map.
DEERFLOW_TOOLS = ("read_file", "write_file", "str_replace", "bash", "ls", "glob", "grep", "web_search", "web_fetch")

#: DeerFlow's other tools at the pinned commit f1f4af99, which a DeerFlow thread calls by these names: nothing to map,
#: so never "unmapped". The built-ins (``backend/packages/harness/deerflow/tools/builtins/``: ``ask_clarification``,
#: ``present_files``, ``task``, ``view_image``, ``setup_agent``, ``update_agent``, ``review_skill_package``,
#: ``invoke_acp_agent``, ``list_background_tasks``, ``cancel_background_task``, ``list_uploaded_files``; ``tool_search``
#: in ``tool_search.py``), ``skill_manage`` (``tools/skill_manage_tool.py``), the memory tools
#: (``agents/memory/tools.py``), and the community tools besides web search and fetch (``community/``:
#: ``image_search``, ``web_capture`` and the ``browser_*`` tools of ``browser_automation/tools.py``).
DEERFLOW_OWN_TOOLS = ("ask_clarification", "present_files", "task", "view_image", "setup_agent", "update_agent",
                      "review_skill_package", "invoke_acp_agent", "list_background_tasks", "cancel_background_task",
                      "list_uploaded_files", "tool_search", "skill_manage", "memory_search", "memory_add",
                      "memory_update", "memory_delete", "image_search", "web_capture", "browser_navigate",
                      "browser_snapshot", "browser_click", "browser_type", "browser_get_text", "browser_back",
                      "browser_screenshot", "browser_close")

#: ``ToolMap(DETECTED)``: the preset of the transcript's format, settled for each run by :meth:`ToolMap.for_run`.
DETECTED = "detected"


def preset_for(format: str | None, path: str = "") -> str | None:
    """The preset a run applies by default: its file name's (Cline's task history), else its format's, else none.

    >>> preset_for("claude-code"), preset_for("anthropic", "tasks/17/api_conversation_history.json"), preset_for("openai-chat")
    ('claude-code', 'cline', None)
    """
    name = os.path.basename(str(path).split("[", 1)[0]).lower()
    name = name[:-3] if name.endswith(".gz") else name
    return FILE_PRESETS.get(name) or FORMAT_PRESETS.get(format or "")


def presets_naming(tools: Iterable[str]) -> list[str]:
    """The presets that know at least two of ``tools`` and are the only ones to know them (a hint, never applied).

    >>> presets_naming(["replace_in_file", "execute_command", "Frobnicate"])
    ['cline']
    """
    names = set(tools) - set(DEERFLOW_TOOLS)
    known = {preset: names & set(table) for preset, table in PRESETS.items()}
    return [preset for preset, found in known.items() if len(found) >= 2
            and not any(found <= other for name, other in known.items() if name != preset and other)]


def is_poll(call: Mapping) -> bool:
    """Does ``call`` poll a process already running, rather than act (:data:`~.presets.POLLS`)?

    >>> is_poll({"name": "write_stdin", "args": '{"session_id": 3, "chars": ""}'}), is_poll({"name": "bash", "args": {}})
    (True, False)
    """
    name = call.get("name")
    if not isinstance(name, str) or name not in POLLS:
        return False
    args = _as_object(call.get("args"))
    return args is not None and POLLS[name](args)


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
    """Renames calls with a preset (``claude-code``, ``codex``, ``openhands``, ``swe-agent``, ``gemini-cli``,
    ``cline``, ``kimi-code``, ``opencode``; :data:`DETECTED` for the run's own, settled by :meth:`for_run`) and the
    user's rules, and counts what it did: ``mapped`` (``"Read -> read_file"``: n), ``unmapped`` (tools no rule covered
    that are not DeerFlow's own names, :data:`DEERFLOW_TOOLS` and :data:`DEERFLOW_OWN_TOOLS`) and ``problems``
    (``"Read: ..."``: n, calls a rule could not map).

    >>> tool_map = ToolMap("claude-code")
    >>> tool_map.map_call({"name": "Read", "args": {"file_path": "a.py", "offset": 201, "limit": 100}, "id": "t1"})
    {'name': 'read_file', 'args': {'path': 'a.py', 'start_line': 201, 'end_line': 300}, 'id': 't1'}
    """

    def __init__(self, preset: str | None = None, rules: Iterable[str | Rule] = ()) -> None:
        if preset is not None and preset != DETECTED and preset not in PRESETS:
            raise MapError(f"no tool-map preset {preset!r}; expected one of {', '.join(PRESETS)}")
        if isinstance(rules, (str, Rule)):
            rules = [rules]
        self.preset = preset
        self.rules = [rule if isinstance(rule, Rule) else parse_rule(rule) for rule in rules]
        self._by_tool: dict[str, list[tuple[Rule | None, Translate]]] = {}  # a preset's translation has no rule
        for rule in self.rules:
            self._by_tool.setdefault(rule.old, []).append((rule, rule.translate))
        for tool, translate in PRESETS.get(preset or "", {}).items():
            self._by_tool.setdefault(tool, [(None, translate)])
        self.mapped: Counter = Counter()
        self.unmapped: Counter = Counter()
        self.problems: Counter = Counter()
        self.applied: Counter = Counter()  # rule -> calls it mapped

    def __reduce__(self):
        # What a map is, not what it counted: a worker process gets the preset and the rules, and counts afresh.
        return (ToolMap, (self.preset, self.rules))

    def never_applied(self) -> list[str]:
        """The user's rules that mapped no call yet, as written (``--map`` syntax), in the order given.

        >>> tool_map = ToolMap(rules=["run=bash", "fetch=web_fetch"])
        >>> _ = tool_map.map_call({"name": "run", "args": {"command": "ls"}, "id": "1"})
        >>> tool_map.never_applied()
        ['fetch=web_fetch']
        """
        return [str(rule) for rule in self.rules if not self.applied[rule]]

    def for_run(self, format: str | None, path: str = "") -> ToolMap:
        """A fresh map (its own counts) for one run: :data:`DETECTED` becomes the run's preset (or none).

        >>> ToolMap(DETECTED).for_run("codex").preset, ToolMap("cline").for_run("codex").preset
        ('codex', 'cline')
        """
        preset = preset_for(format, path) if self.preset == DETECTED else self.preset
        return ToolMap(preset, self.rules)

    def map_call(self, call: Mapping) -> Mapping:
        """One call, mapped (a new dict) or, when nothing applies, the same call."""
        name = call.get("name")
        translations = self._by_tool.get(name) if isinstance(name, str) else None  # a map's tools are names
        if not isinstance(name, str) or not translations:
            if name not in DEERFLOW_TOOLS and name not in DEERFLOW_OWN_TOOLS:
                self.unmapped[name] += 1
            return call
        args = _as_object(call.get("args"))
        if args is None:  # free text or a broken JSON string: only a rule that renames the tool alone applies
            rule, new = self._rename_only(name)
            if new is None:
                self.problems[f"{name}: arguments are not a JSON object, left as they are"] += 1
                return call
            self._count(name, new, rule)
            return {**call, "name": new}
        for rule, translate in translations:
            result = translate(args)
            if result is not None:
                new, new_args = result
                self._count(name, new, rule)
                return {**call, "name": new, "args": new_args}
        if name not in DEERFLOW_TOOLS:
            self.problems[f"{name}: no rule fits these arguments, left as they are"] += 1
        return call

    def _count(self, name: str, new: str, rule: Rule | None) -> None:
        self.mapped[f"{name} -> {new}"] += 1
        if rule is not None:
            self.applied[rule] += 1

    def _rename_only(self, name: str) -> tuple[Rule | None, str | None]:
        """The rule (None: the preset's) and the new name of ``name`` when its first translation renames the tool
        and no argument (new name ``None`` else)."""
        user_rules = [rule for rule in self.rules if rule.old == name]
        if user_rules:
            rule = user_rules[0]
            return rule, (rule.new if rule.when is None and not rule.renames and not rule.drops else None)
        preset = PRESETS.get(self.preset or "", {}).get(name)
        probe = preset({}) if preset is not None else None  # a pure rename maps no arguments to no arguments
        return None, (probe[0] if probe is not None and probe[1] == {} else None)

    def map_batch(self, calls: Iterable[Mapping]) -> list[Mapping]:
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
