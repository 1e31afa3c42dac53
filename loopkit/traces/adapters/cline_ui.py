"""Cline's UI task export (``ui_messages.json``, beside ``api_conversation_history.json`` in a task's folder): a JSON
array of the messages Cline showed, each ``{"ts", "type": "say" | "ask", "say" | "ask": <kind>, "text", "partial"}``
(cline/cline at commit 60c5f9f2: ``src/shared/ExtensionMessage.ts``, ``ClineMessage``, ``ClineSay``, ``ClineAsk``;
the file name in ``src/core/storage/disk.ts``).

The UI shows each tool call once, as a ``say`` when it was approved by itself or an ``ask`` when it waited for the
person (``src/core/task/tools/handlers/``): both are the model's call. The record keeps no arguments field of its own,
so the call is rebuilt from the fields that say what it asked for, under the name the model called it by (Cline's
``src/shared/tools.ts``), so that the ``cline`` tool map applies:

- ``tool``: its text is a JSON ``ClineSayTool``: ``readFile`` -> ``read_file {path}``; ``listFilesTopLevel`` and
  ``listFilesRecursive`` -> ``list_files {path, recursive}``; ``listCodeDefinitionNames`` ->
  ``list_code_definition_names {path}``; ``searchFiles`` -> ``search_files {path, regex, file_pattern}``;
  ``newFileCreated`` -> ``write_to_file {path, content}``; ``editedExistingFile`` -> ``replace_in_file {path, diff}``
  (the UI does not say whether ``write_to_file`` or ``replace_in_file`` changed an existing file; its diff is what
  changed); ``webFetch`` -> ``web_fetch {url}``; ``webSearch`` -> ``web_search {query}``; another kind is named as it
  is, with its ``path``. A result the record also holds (a file's content, a listing) is never an argument.
- ``command``: its text is the command (an ``ask`` may end with ``REQ_APP``, Cline's mark of a command the model asked
  approval for) -> ``execute_command {command}``.
- ``use_mcp_server``: a JSON ``ClineAskUseMcpServer`` -> ``use_mcp_tool {server_name, tool_name, arguments}`` or
  ``access_mcp_resource {server_name, uri}``.
- ``browser_action_launch`` (a URL) and ``browser_action`` (a JSON action) -> ``browser_action``.
- ``followup`` (``ask``) -> ``ask_followup_question {question}``; ``completion_result`` (``say``) ->
  ``attempt_completion {result}``; ``plan_mode_respond`` (``ask``) -> ``plan_mode_respond {response}``.

Batches: ``say: "api_req_started"`` opens each request to the model, so the calls shown between two of them are one
model turn. A person's words start a run: the ``task`` and their ``user_feedback``. A message still ``partial`` when
the file was saved is a call the model never finished writing: skipped and counted. Everything else (text,
reasoning, command output, checkpoints...) is skipped and counted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .base import Format, Message, Skipped, TraceError, is_map

__all__ = ["FORMAT", "read", "call_of"]

#: ``ClineSayTool.tool`` -> the tool the model called, and the fields of the record that are its arguments.
TOOL_KINDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "readFile": ("read_file", ("path",)),
    "listFilesTopLevel": ("list_files", ("path",)),
    "listFilesRecursive": ("list_files", ("path",)),
    "listCodeDefinitionNames": ("list_code_definition_names", ("path",)),
    "searchFiles": ("search_files", ("path", "regex", "filePattern")),
    "newFileCreated": ("write_to_file", ("path", "content")),
    "editedExistingFile": ("replace_in_file", ("path", "content", "diff")),
    "webFetch": ("web_fetch", ("path",)),
    "webSearch": ("web_search", ("path",)),
}
#: How a record's field is called among the model's arguments, per tool (the UI reuses ``path`` and ``content``).
ARGUMENT_NAMES = {("search_files", "filePattern"): "file_pattern", ("replace_in_file", "content"): "diff",
                  ("web_fetch", "path"): "url", ("web_search", "path"): "query"}
#: What the person typed.
PROMPTS = ("task", "user_feedback")
#: ``COMMAND_REQ_APP_STRING``, appended to a command that asked for approval (``src/shared/combineCommandSequences.ts``).
REQ_APP = "REQ_APP"


def _json_text(record: Mapping, where: str, what: str) -> Mapping:
    try:
        value = json.loads(record.get("text") or "")
    except (ValueError, RecursionError):
        raise TraceError(f"{where}: a Cline {what} message whose text is not JSON; expected the JSON object Cline "
                         f"writes there") from None
    if not is_map(value):
        raise TraceError(f"{where}: a Cline {what} message whose text is JSON {type(value).__name__}; expected an "
                         f"object")
    return value


def _tool_call(fields: Mapping) -> tuple[str, dict]:
    kind = str(fields.get("tool"))
    name, keys = TOOL_KINDS.get(kind, (kind, ("path",)))
    args = {ARGUMENT_NAMES.get((name, key), key): fields[key] for key in keys if fields.get(key) is not None}
    if kind.startswith("listFiles"):
        args["recursive"] = kind == "listFilesRecursive"
    return name, args


def _mcp_call(fields: Mapping) -> tuple[str, dict]:
    if fields.get("type") == "access_mcp_resource":
        return "access_mcp_resource", {"server_name": fields.get("serverName"), "uri": fields.get("uri")}
    return "use_mcp_tool", {"server_name": fields.get("serverName"), "tool_name": fields.get("toolName"),
                            "arguments": fields.get("arguments")}


def call_of(kind: str, record: Mapping, where: str) -> tuple[str, Any] | None:
    """The call (tool name, arguments) a UI message of ``kind`` shows, or ``None`` when it shows none.

    >>> call_of("command", {"type": "ask", "ask": "command", "text": "pytest -q REQ_APP"}, "ui_messages.json")
    ('execute_command', {'command': 'pytest -q'})
    """
    text = record.get("text") or ""
    if kind == "tool":
        return _tool_call(_json_text(record, where, "tool"))
    if kind == "command":
        command = text[:-len(REQ_APP)] if text.endswith(REQ_APP) else text
        return "execute_command", {"command": command.rstrip()}
    if kind == "use_mcp_server":
        return _mcp_call(_json_text(record, where, "use_mcp_server"))
    if kind == "browser_action_launch":
        return "browser_action", {"action": "launch", "url": text}
    if kind == "browser_action":
        return "browser_action", dict(_json_text(record, where, "browser_action"))
    if kind == "followup" and record.get("type") == "ask":
        question = _json_text(record, where, "followup").get("question") if text.lstrip().startswith("{") else text
        return "ask_followup_question", {"question": question}
    if kind == "plan_mode_respond" and record.get("type") == "ask":
        response = _json_text(record, where, "plan_mode_respond").get("response") if text.lstrip().startswith("{") \
            else text
        return "plan_mode_respond", {"response": response}
    if kind == "completion_result" and record.get("type") == "say":
        return "attempt_completion", {"result": text}
    return None


def read(record: Mapping, where: str) -> Message | Skipped | None:
    """A UI message: a call, a prompt, the start of a request to the model, or a skipped message; ``None`` for a
    record of another format.

    >>> read({"ts": 1, "type": "say", "say": "tool", "text": '{"tool": "readFile", "path": "a.py", "content": "/w/a.py"}'},
    ...      "ui_messages.json: message index 3").calls
    [{'name': 'read_file', 'args': {'path': 'a.py'}, 'id': None}]
    """
    side = record.get("type")
    if side not in ("say", "ask") or not isinstance(record.get(side), str) or not isinstance(record.get("ts"), int):
        return None
    kind = record[side]
    if side == "say" and kind == "api_req_started":
        return Message()  # a new request to the model: the calls before it were one turn
    if side == "say" and kind in PROMPTS:
        return Message(user_prompt=True)
    found = call_of(kind, record, where)
    if found is None:
        return Skipped(f"{side} {kind[:40]}")
    if record.get("partial"):
        return Skipped(f"{side} {kind[:40]} still partial (a call never finished)")
    name, args = found
    return Message([{"name": name, "args": args, "id": None}])


FORMAT = Format("cline", read, call_keys=("say", "ask"), batching="consecutive", distinctive=True)
