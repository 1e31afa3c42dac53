"""The tool-map presets: each agent's own tools translated to DeerFlow's names and arguments.

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
"""

from __future__ import annotations

import re
import shlex

from .translations import Translate, line_range, rename, renamed, whole_number

__all__ = ["PRESETS"]


def _claude_read(args: dict):
    out = renamed(line_range(args, "offset", "limit", first=1), {"file_path": "path"})
    return None if out is None else ("read_file", out)


def _gemini_read(args: dict):
    out = renamed(line_range(args, "offset", "limit", first=0), {"file_path": "path", "absolute_path": "path"})
    return None if out is None else ("read_file", out)


def _openhands_editor(args: dict):
    command = args.get("command")
    if command == "view":
        out = {k: v for k, v in args.items() if k != "view_range"}
        span = args.get("view_range")
        if "view_range" in args:
            if not (isinstance(span, list) and len(span) == 2 and all(whole_number(n) is not None for n in span)):
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
