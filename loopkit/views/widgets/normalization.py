"""Chapter 01's view: type a tool call's raw arguments, see what normalization, the key and the fingerprint make
of them.

The same text can reach the detector in different transport shapes: as a JSON string (OpenAI-style
``arguments``), as an already parsed object (Anthropic-style ``input``), or not at all (``None``).

The view speaks the learner's language (:func:`loopkit.core.language.tr`): its labels, the transport names it lists,
the rule and the step names in its table. The values stay English: :data:`TRANSPORTS` and the keys of
:func:`explain_args` are what code passes around.
"""

from __future__ import annotations

import json
from typing import Any

from loopkit.core.fingerprint import fingerprint
from loopkit.core.keys import stable_key
from loopkit.core.language import N_, tr
from loopkit.core.normalize import normalize_args

__all__ = ["TRANSPORTS", "raw_value", "rule", "explain_args", "render_normalize", "normalize_explorer"]

#: The transport choices the view offers, in the order it lists them.
TRANSPORTS = (N_("JSON string (OpenAI-style)"), N_("parsed object (Anthropic-style)"), N_("None (no arguments)"))


def raw_value(text: str, transport: str) -> Any:
    """The value a provider in ``transport`` style would hand over for the typed ``text``.

    >>> raw_value('{"a": 1}', TRANSPORTS[0]), raw_value('{"a": 1}', TRANSPORTS[1]), raw_value("x", TRANSPORTS[2])
    ('{"a": 1}', {'a': 1}, None)
    """
    if transport == TRANSPORTS[0]:
        return text
    if transport == TRANSPORTS[1]:
        try:
            return json.loads(text)
        except ValueError as exc:
            raise ValueError(
                f"text: a parsed object needs text that parses as JSON ({exc}); choose the JSON string transport "
                "to see what the detector does with text that does not parse"
            ) from None
    if transport == TRANSPORTS[2]:
        return None
    raise ValueError(f"transport must be one of {list(TRANSPORTS)}, got {transport!r}")


_JSON_KINDS = {list: N_("an array"), str: N_("a string"), int: "a number", float: "a number", bool: N_("a boolean"),
               type(None): N_("null")}


def rule(raw: Any) -> str:
    """Which branch of normalization ``raw`` takes, in words (in the learner's language).

    >>> rule("{oops")
    'a string that is not JSON: the text itself is the fallback'
    """
    if isinstance(raw, dict):
        return tr("a dict: used as it is")
    if raw is None:
        return tr("None: no arguments, no fallback")
    if isinstance(raw, str):
        try:
            parsed = json.loads(raw)
        except (ValueError, RecursionError):
            return tr("a string that is not JSON: the text itself is the fallback")
        if isinstance(parsed, dict):
            return tr("a JSON string holding an object: parsed into a dict")
        return tr("a JSON string holding {kind}: re-serialized into the fallback", kind=tr(_JSON_KINDS[type(parsed)]))
    return tr("a value of type {kind}: serialized into the fallback", kind=type(raw).__name__)


def explain_args(name: str, text: str, transport: str) -> dict[str, str]:
    """Every step from typed text to fingerprint for one call of tool ``name``, as printable strings.

    >>> explain_args("read_file", '{"path": "a.py", "start_line": 5}', TRANSPORTS[0])["stable key"]
    'a.py:0-0'
    """
    raw = raw_value(text, transport)
    args, fallback = normalize_args(raw)
    key = stable_key(name, args, fallback)
    return {
        N_("raw"): repr(raw),
        N_("rule"): rule(raw),
        N_("args"): repr(args),
        N_("fallback"): repr(fallback),
        N_("stable key"): key,
        "entry": f"{name}:{key}",
        N_("fingerprint"): fingerprint([{"name": name, "args": raw}]),
    }


def render_normalize(name: str, text: str, transport: str) -> str:
    """The panel of :func:`normalize_explorer`: :func:`explain_args` as a two-column table, step names translated."""
    from ._base import table_html

    steps = explain_args(name, text, transport)
    return table_html([{N_("step"): tr(step), "value": value} for step, value in steps.items()])


def normalize_explorer(name: str = "read_file", text: str = '{"path": "a.py", "start_line": 1, "end_line": 120}'):
    """A view: a tool name, the raw arguments text and a transport; shows normalization, key and fingerprint."""
    import ipywidgets as W

    from ._base import View

    # (label, value) pairs: the label is shown in the learner's language, the value stays the English transport.
    transports = [(tr(transport), transport) for transport in TRANSPORTS]
    style = {"description_width": "110px"}  # room for the Spanish "enviado como"
    controls = {
        "name": W.Text(value=name, description=tr("tool"), style=style),
        "text": W.Textarea(value=text, description=tr("arguments"), style=style,
                           layout=W.Layout(width="600px", height="70px")),
        "transport": W.Dropdown(options=transports, value=TRANSPORTS[0], description=tr("sent as"), style=style),
    }
    return View(controls, render_normalize, title=tr("normalize_args: what the detector makes of raw arguments"))
