"""Babel's extraction method for loopkit's modules (babel.cfg names it; `make messages` runs it).

Babel's own Python extractor reads a call's arguments by position only, so it cannot see the ``context=`` keyword of
``tr(text, context=..., **fields)``. This method reads the module with :mod:`ast` instead and yields the messages in
Babel's shape (``gettext``, ``ngettext``, ``pgettext``, ``npgettext``):

* ``tr(text, context=...)`` and ``N_(text, context=...)`` (the marker for a text translated elsewhere): one message;
* ``ntr(singular, plural, n, context=...)``: one plural message;
* the exercise framework's texts (loopkit/teaching/exercises): a ``Question``'s title (its second argument), ``hint``,
  ``solution_code``, the misconceptions of ``wrong`` (a dict's values, or ``Wrong(answer, why)``) and the instructor's
  ``responses`` (a dict's values); ``equals`` and ``function_cases``'s ``why`` and ``item_reasons``; a ``Case``'s idea
  (its third argument).

Only literal strings are messages (implicit concatenation included); a text held in a variable is marked with ``N_``
where it is written. Standard library only.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

#: The exercise framework's constructors: the positions and keywords whose literal strings are messages.
EXERCISE_TEXTS = {
    "Question": ({1}, {"hint", "solution_code", "wrong", "responses"}),
    "Wrong": ({1}, {"why"}),
    "Case": ({2}, {"idea"}),
    "equals": (set(), {"why", "item_reasons"}),
    "function_cases": (set(), {"why"}),
}


def _text(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _context(call: ast.Call) -> str | None:
    return next((_text(keyword.value) for keyword in call.keywords if keyword.arg == "context"), None)


def _name(call: ast.Call) -> str | None:
    return getattr(call.func, "id", None) or getattr(call.func, "attr", None)


def _texts_in(node: ast.AST) -> Iterator[str]:
    """A literal string, or each literal value of a dict (a ``wrong=`` or ``item_reasons=`` mapping)."""
    if _text(node) is not None:
        yield _text(node)
    elif isinstance(node, ast.Dict):
        yield from (text for value in node.values if (text := _text(value)) is not None)


def messages(source: str) -> Iterator[tuple[int, str, str | tuple[str | None, ...]]]:
    """(line, Babel function name, message) for each message the module's source writes.

    >>> list(messages('tr("warned", context="participle"); ntr("{n} call", "{n} calls", n)'))
    [(1, 'pgettext', ('participle', 'warned')), (1, 'ngettext', ('{n} call', '{n} calls'))]
    """
    for call in sorted((node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)),
                       key=lambda node: (node.lineno, node.col_offset)):
        name, args = _name(call), call.args
        if name in ("tr", "N_") and args and _text(args[0]) is not None:
            context = _context(call)
            yield (call.lineno, "gettext", args[0].value) if context is None else (
                call.lineno, "pgettext", (context, args[0].value))
        elif name == "ntr" and len(args) >= 2 and _text(args[0]) is not None and _text(args[1]) is not None:
            context = _context(call)
            yield (call.lineno, "ngettext", (args[0].value, args[1].value)) if context is None else (
                call.lineno, "npgettext", (context, args[0].value, args[1].value))
        elif name in EXERCISE_TEXTS:
            positions, keywords = EXERCISE_TEXTS[name]
            chosen = [arg for index, arg in enumerate(args) if index in positions]
            chosen += [keyword.value for keyword in call.keywords if keyword.arg in keywords]
            for node in chosen:
                for text in _texts_in(node):
                    yield node.lineno, "gettext", text


def extract(fileobj, keywords, comment_tags, options):
    """Babel's extraction-method interface: (line, function name, message, translator comments)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for line, function, message in messages(source):
        yield line, function, message, []
