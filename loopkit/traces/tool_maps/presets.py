"""The tool-map presets: each agent's own tools translated to DeerFlow's names and arguments.

Each preset was checked against the tool names and arguments that the agent's own source (or, for Claude Code, whose
source is not public, a captured tool list) defines, at the commit named:

- ``claude-code`` (oneryalcin/agent-schemas ``claude-code/captured/tools_2.1.144.json`` at commit f9678602, the tools
  of Claude Code 2.1.144): ``Read {file_path, offset, limit}`` -> ``read_file {path, start_line: offset, end_line:
  offset + limit - 1}`` (``offset`` is the first line, counted from 1); ``Write {file_path, content}`` ->
  ``write_file``; ``Edit {file_path, old_string, new_string, replace_all}`` -> ``str_replace``; ``Bash {command}`` ->
  ``bash``; ``Grep {pattern, path, glob}``, ``Glob {pattern, path}``, ``WebFetch {url, prompt}``, ``WebSearch
  {query}`` -> ``grep``, ``glob``, ``web_fetch``, ``web_search``. ``MultiEdit`` and ``LS`` are not in that list (older
  versions had them) and keep their mappings to ``str_replace`` and ``ls``.
- ``codex`` (openai/codex: ``codex-rs/core/src/tools/spec.rs`` at commit b8a1c8f8 for ``shell {command: [argv]}``,
  ``shell_command {command}`` and ``exec_command {cmd}``; ``codex-rs/protocol/src/models.rs`` at 152e7cae for
  ``container.exec``; the ``local_shell`` item): all -> ``bash``, with ``cmd`` -> ``command`` (an argv list is kept as
  it is); ``apply_patch`` -> ``str_replace``, its patch text kept whole (so a changed patch is a different key, as a
  changed edit is for DeerFlow).
- ``openhands`` (OpenHands/OpenHands at commit 156d0686: ``openhands/agenthub/codeact_agent/tools/`` and
  ``openhands/llm/tool_names.py``): ``execute_bash {command}`` -> ``bash``; ``str_replace_editor`` by its
  ``command``: ``view`` -> ``read_file`` (``view_range [a, b]`` -> ``start_line``, ``end_line``; ``b = -1`` means to
  the end), ``create {path, file_text}`` -> ``write_file {path, content}``, ``str_replace``, ``insert`` and
  ``undo_edit`` -> ``str_replace``; ``edit_file {path, content, start, end}`` -> ``str_replace``. The editor's
  ``security_risk`` is dropped, as OpenHands drops it before the edit (``function_calling.py``). And the calls of
  events recorded without their model response (:mod:`loopkit.traces.adapters.openhands`), named for their action type:
  ``run {command}`` -> ``bash``; ``read {path, start, end, view_range}`` -> ``read_file`` (``start`` counts from 0,
  ``end`` is the last line; ``openhands/runtime/utils/files.py``); ``write {path, content}`` -> ``write_file``;
  ``edit`` -> ``str_replace``.
- ``swe-agent`` (SWE-agent runs each action in its shell, see :mod:`loopkit.traces.adapters.swe_agent`; the tool bundles of
  SWE-agent/SWE-agent at commit 3ea751c0, ``tools/windowed``, ``tools/edit_anthropic`` and ``tools/windowed_edit_*``):
  the ``bash`` command is parsed with :mod:`shlex`: ``open "<path>" [<line_number>]`` and ``str_replace_editor view
  PATH [--view_range A B]`` -> ``read_file``; ``create <filename>`` and ``str_replace_editor create PATH --file_text
  T`` -> ``write_file``; ``str_replace_editor str_replace PATH --old_str X --new_str Y`` -> ``str_replace``; ``edit``,
  ``insert`` and the other ``str_replace_editor`` commands -> ``str_replace`` with the whole command as the argument;
  the rest stays ``bash``.
- ``gemini-cli`` (google-gemini/gemini-cli: the names in ``packages/core/src/tools/definitions/base-declarations.ts``
  at commit 04fbf507, the arguments in ``model-family-sets/gemini-3.ts`` at e8c5d625): ``read_file {file_path,
  offset, limit}`` (``offset`` counts from 0; older versions said ``absolute_path``) -> ``read_file``; ``write_file
  {file_path, content}`` -> ``write_file``; ``replace {file_path, old_string, new_string, expected_replacements}`` ->
  ``str_replace``, its ``instruction`` (a description of the edit for the human) dropped; ``run_shell_command`` ->
  ``bash``; ``glob {pattern, dir_path}``, ``grep_search {pattern, dir_path, include}``, ``list_directory
  {dir_path}``, ``google_web_search {query}`` -> ``glob``, ``grep``, ``ls``, ``web_search``.
- ``openhands``, for today's OpenHands (the software-agent SDK, OpenHands/software-agent-sdk at commit 611629e6:
  ``openhands-tools/openhands/tools/<tool>/definition.py``, each tool named after its class by
  ``openhands-sdk/openhands/sdk/tool/tool.py``): ``terminal {command, is_input, timeout, reset}`` -> ``bash``;
  ``file_editor`` and ``planning_file_editor`` by their ``command``, as ``str_replace_editor`` above; ``grep {pattern,
  path, include}`` -> ``grep {pattern, path, glob}``; ``glob {pattern, path}`` -> ``glob``; ``apply_patch {patch}``
  -> ``str_replace``; the Gemini-style tools ``read_file {file_path, offset, limit}`` (``offset`` counts from 0) ->
  ``read_file``, ``write_file {file_path, content}`` -> ``write_file``, ``edit {file_path, old_string, new_string,
  expected_replacements}`` -> ``str_replace``, ``list_directory {dir_path, recursive}`` -> ``ls``. The SDK's model
  may add ``security_risk`` and ``summary`` to every call's arguments (``llm_convertible/action.py``): both are
  dropped, since they describe the call rather than say what it does.
- ``kimi-code`` (MoonshotAI/kimi-code at commit d723cc47, ``packages/agent-core-v2/src/agent/tools/``; and the
  Python Kimi CLI's names, MoonshotAI/kimi-cli at 4a550eff ``src/kimi_cli/tools/``, which a migrated session keeps):
  ``Read`` and ``ReadFile {path, line_offset, n_lines}`` (``line_offset`` counts from 1; a negative one reads from
  the end, which no DeerFlow range says, so such a call is left as it is) -> ``read_file``; ``Write`` and
  ``WriteFile {path, content, mode}`` -> ``write_file`` (``mode: "append"`` as ``append: true``); ``Edit {path,
  old_string, new_string, replace_all}`` -> ``str_replace``; ``StrReplaceFile {path, edit}`` -> ``str_replace``, its
  edits whole; ``Bash`` and ``Shell {command, ...}`` -> ``bash``; ``Glob {pattern, path | directory}`` -> ``glob``;
  ``Grep {pattern, path, glob, ...}`` -> ``grep``; ``FetchURL {url}`` -> ``web_fetch``; ``WebSearch`` and
  ``SearchWeb {query}`` -> ``web_search``.
- ``opencode`` (anomalyco/opencode, formerly sst/opencode, ``packages/opencode/src/tool/``: ``read.ts`` and
  ``edit.ts`` at 00937b92, ``write.ts`` at 0761b3a1, ``grep.ts`` at 082eeb96, ``glob.ts`` at 047bb15b, ``ls.ts`` at
  13453451, ``webfetch.ts`` at a63173da): ``read {filePath, offset, limit}`` (``offset`` counts from 1) ->
  ``read_file``; ``write {filePath, content}`` -> ``write_file``; ``edit {filePath, oldString, newString,
  replaceAll}`` -> ``str_replace``; ``bash {command, ...}`` -> ``bash``; ``glob {pattern, path}`` -> ``glob``;
  ``grep {pattern, path, include}`` -> ``grep {pattern, path, glob}``; ``list {path, ignore}`` -> ``ls``; ``webfetch
  {url, format, timeout}`` -> ``web_fetch``.
- ``cline`` (cline/cline at commit 60c5f9f2: ``src/shared/tools.ts`` and ``src/core/prompts/system-prompt/tools/``,
  each tool in its model-family variants): ``read_file {path}`` -> ``read_file``; ``write_to_file {path |
  absolutePath, content}`` -> ``write_file``; ``replace_in_file {path | absolutePath, diff}`` -> ``str_replace``
  (the diff whole, so different edits of one file are different calls); ``apply_patch {input}`` -> ``str_replace``;
  ``execute_command {command, requires_approval, timeout}`` -> ``bash``; ``search_files {path, regex,
  file_pattern}`` -> ``grep {path, pattern, glob}``; ``list_files {path, recursive}`` -> ``ls``; ``web_fetch {url,
  prompt}`` and ``web_search {query}`` keep their names. Every tool's optional ``task_progress`` checklist is
  dropped: it changes as the task goes on, not with what the call does (Cline's own loop check ignores it too,
  ``src/core/task/loop-detection.ts``).

:data:`FORMAT_PRESETS` names the preset each transcript format applies by default; a file named as Cline names a task's
history (:data:`FILE_PRESETS`, ``api_conversation_history.json``) applies Cline's. Cline's forks (Roo Code, Kilo
Code) use that name too, with tools partly of their own: the ones the preset does not know are left unmapped, and the
summary names them.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from .translations import Translate, line_range, rename, renamed, whole_number

__all__ = ["PRESETS", "FORMAT_PRESETS", "FILE_PRESETS", "POLLS"]


def _claude_read(args: dict):
    out = renamed(line_range(args, "offset", "limit", first=1), {"file_path": "path"})
    return None if out is None else ("read_file", out)


def _gemini_read(args: dict):
    out = renamed(line_range(args, "offset", "limit", first=0), {"file_path": "path", "absolute_path": "path"})
    return None if out is None else ("read_file", out)


def _view_range(out: dict, span) -> dict | None:
    """``view_range [a, b]`` (1-indexed, ``b = -1`` to the end) as DeerFlow's ``start_line``/``end_line``."""
    if not (isinstance(span, list) and len(span) == 2 and all(whole_number(n) is not None for n in span)):
        return None
    out["start_line"] = span[0]
    if span[1] != -1:
        out["end_line"] = span[1]
    return out


def _without(args: dict, *keys: str) -> dict:
    return {k: v for k, v in args.items() if k not in keys}


def _openhands_editor(args: dict):
    command = args.get("command")
    args = _without(args, "security_risk")
    if command == "view":
        out = _without(args, "view_range")
        read = _view_range(out, args["view_range"]) if "view_range" in args else out
        return None if read is None else ("read_file", read)
    if command == "create":
        return rename("write_file", file_text="content")(args)
    if command in ("str_replace", "insert", "undo_edit"):
        return "str_replace", args
    return None


def _openhands_read(args: dict):
    """A ``read`` action: ``view_range`` as the editor's, else ``start`` (from 0) and ``end`` (-1: to the end)."""
    if "view_range" in args and args["view_range"] is not None:
        out = _view_range(_without(args, "view_range", "start", "end"), args["view_range"])
        return None if out is None else ("read_file", out)
    start, end = whole_number(args.get("start", 0)), whole_number(args.get("end", -1))
    if start is None or end is None:
        return None
    out = _without(args, "view_range", "start", "end")
    if start:
        out["start_line"] = start + 1
    if end != -1:
        out.setdefault("start_line", 1)
        out["end_line"] = end
    return "read_file", out


def _options(words: list[str]) -> tuple[list[str], dict[str, list[str]]]:
    """The positional words and the ``--name value...`` options of a parsed command line."""
    positional: list[str] = []
    options: dict[str, list[str]] = {}
    current: str | None = None
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
    if head in ("edit", "insert"):
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


#: What the OpenHands SDK's model adds to a call's arguments about the call (its risk, a one-line summary).
_ABOUT_THE_CALL = ("security_risk", "summary")


def _sdk_editor(args: dict):
    """An OpenHands SDK ``file_editor`` call: the V0 ``str_replace_editor`` under another name, plus a summary."""
    return _openhands_editor(_without(args, *_ABOUT_THE_CALL))


def _sdk_read(args: dict):
    out = renamed(line_range(_without(args, *_ABOUT_THE_CALL), "offset", "limit", first=0), {"file_path": "path"})
    return None if out is None else ("read_file", out)


def _kimi_read(args: dict):
    """Kimi's ``Read {path, line_offset, n_lines}``: from line ``line_offset`` (from 1); a negative offset counts from
    the end of the file, a range DeerFlow cannot say, so the call is left as it is."""
    offset = whole_number(args.get("line_offset"))
    if offset is not None and offset < 1:
        return None
    return "read_file", line_range(args, "line_offset", "n_lines", first=1)


def _kimi_write(args: dict):
    """Kimi's ``Write {path, content, mode}``: ``mode`` ``append`` is DeerFlow's ``append: true``."""
    out = _without(args, "mode")
    if "mode" in args:
        if args["mode"] not in ("overwrite", "append"):
            return None
        out["append"] = args["mode"] == "append"
    return "write_file", out


def _opencode_read(args: dict):
    out = renamed(line_range(args, "offset", "limit", first=1), {"filePath": "path"})
    return None if out is None else ("read_file", out)


def _cline(tool: str, **renames: str) -> Translate:
    """A Cline tool: renamed, ``absolutePath`` read as ``path``, and its ``task_progress`` checklist dropped."""
    return rename(tool, drop=("task_progress",), absolutePath="path", **renames)


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
        "exec_command": rename("bash", cmd="command"),
        "container.exec": rename("bash"),
        "local_shell": rename("bash"),
        "apply_patch": rename("str_replace"),
    },
    "openhands": {
        "execute_bash": rename("bash", drop=("security_risk",)),
        "str_replace_editor": _openhands_editor,
        "edit_file": rename("str_replace", drop=("security_risk",)),
        "run": rename("bash"),
        "read": _openhands_read,
        "write": rename("write_file"),
        "edit": rename("str_replace", drop=_ABOUT_THE_CALL, file_path="path", old_string="old_str",
                       new_string="new_str"),
        "terminal": rename("bash", drop=_ABOUT_THE_CALL),
        "file_editor": _sdk_editor,
        "planning_file_editor": _sdk_editor,
        "grep": rename("grep", drop=_ABOUT_THE_CALL, include="glob"),
        "glob": rename("glob", drop=_ABOUT_THE_CALL),
        "apply_patch": rename("str_replace", drop=_ABOUT_THE_CALL),
        "read_file": _sdk_read,
        "write_file": rename("write_file", drop=_ABOUT_THE_CALL, file_path="path"),
        "list_directory": rename("ls", drop=_ABOUT_THE_CALL, dir_path="path"),
    },
    "kimi-code": {
        "Read": _kimi_read,
        "ReadFile": _kimi_read,
        "Write": _kimi_write,
        "WriteFile": _kimi_write,
        "Edit": rename("str_replace", old_string="old_str", new_string="new_str"),
        "StrReplaceFile": rename("str_replace"),
        "Bash": rename("bash"),
        "Shell": rename("bash"),
        "Glob": rename("glob", directory="path"),
        "Grep": rename("grep"),
        "FetchURL": rename("web_fetch"),
        "WebSearch": rename("web_search"),
        "SearchWeb": rename("web_search"),
    },
    "opencode": {
        "read": _opencode_read,
        "write": rename("write_file", filePath="path"),
        "edit": rename("str_replace", filePath="path", oldString="old_str", newString="new_str",
                       replaceAll="replace_all"),
        "bash": rename("bash"),
        "glob": rename("glob"),
        "grep": rename("grep", include="glob"),
        "list": rename("ls"),
        "webfetch": rename("web_fetch"),
    },
    "swe-agent": {
        "bash": _swe_agent_command,
    },
    "gemini-cli": {
        "read_file": _gemini_read,
        "write_file": rename("write_file", file_path="path"),
        "replace": rename("str_replace", drop=("instruction",), file_path="path", old_string="old_str",
                          new_string="new_str"),
        "run_shell_command": rename("bash"),
        "glob": rename("glob", dir_path="path"),
        "grep_search": rename("grep", dir_path="path", include_pattern="glob", include="glob"),
        "search_file_content": rename("grep", include="glob"),
        "list_directory": rename("ls", dir_path="path"),
        "google_web_search": rename("web_search"),
    },
    "cline": {
        "read_file": _cline("read_file"),
        "write_to_file": _cline("write_file"),
        "replace_in_file": _cline("str_replace"),
        "apply_patch": _cline("str_replace"),
        "execute_command": _cline("bash"),
        "search_files": _cline("grep", regex="pattern", file_pattern="glob"),
        "list_files": _cline("ls"),
        "web_fetch": _cline("web_fetch"),
        "web_search": _cline("web_search"),
    },
}

#: The preset each transcript format applies by default (``--tool-map none`` turns it off). mini-swe-agent's one
#: tool is already DeerFlow's ``bash {command}``; the message formats say nothing about the agent.
FORMAT_PRESETS: dict[str, str] = {"claude-code": "claude-code", "codex": "codex", "openhands": "openhands",
                                  "swe-agent": "swe-agent", "gemini-cli": "gemini-cli",
                                  "gemini-cli-stream": "gemini-cli", "kimi-code": "kimi-code", "cline": "cline",
                                  "opencode": "opencode"}

#: Calls that poll a process already running rather than act: Codex's ``write_stdin`` with nothing to write
#: ("Bytes to write to stdin (may be empty to poll)", openai/codex ``codex-rs/core/src/tools/spec.rs`` at b8a1c8f8).
#: A detector sees them as repeats; the verdict says they were waiting.
POLLS: dict[str, Callable[[dict], bool]] = {"write_stdin": lambda args: not args.get("chars")}

#: File names an agent gives its transcripts, and its preset: Cline keeps a task's messages in
#: ``api_conversation_history.json`` (cline/cline ``src/core/storage/disk.ts`` at commit 60c5f9f2).
FILE_PRESETS: dict[str, str] = {"api_conversation_history.json": "cline"}
