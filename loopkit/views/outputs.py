"""Long printed outputs, cut to the lines a chapter discusses, with the rest folded in a ``<details>`` element.

A command such as ``python -m loopkit replay`` prints a table of every batch that warned or stopped, then its summary
line. When the prose discusses only the summary, the chapter shows :func:`folded_run`: the summary lines and the exit
code stay in view (and in the plain text that nbval compares), and the table waits one click away. Nothing is
dropped: the folded lines are in the same output.
"""

from __future__ import annotations

import contextlib
import html
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from loopkit.core.language import ntr, tr

__all__ = ["Folded", "fold", "folded_run"]

_PRE = "white-space:pre-wrap;overflow-wrap:anywhere;margin:0.2em 0"  # long lines wrap inside the output area


@dataclass(frozen=True)
class Folded:
    """An output in two parts: ``shown`` (the lines discussed) and ``folded`` (the rest, opened on request)."""

    shown: tuple[str, ...]
    folded: tuple[str, ...]

    def label(self) -> str:
        count = len(self.folded)
        return ntr("{n} more line of output", "{n} more lines of output", count)

    def __repr__(self) -> str:  # the plain text: the shown lines, and how many are folded
        tail = [f"({self.label()})"] if self.folded else []
        return "\n".join([*self.shown, *tail])

    def _repr_html_(self) -> str:
        shown = f'<pre style="{_PRE}">{html.escape(chr(10).join(self.shown))}</pre>'
        if not self.folded:
            return shown
        return (f"{shown}<details><summary>{html.escape(self.label())}</summary>"
                f'<pre style="{_PRE}">{html.escape(chr(10).join(self.folded))}</pre></details>')


def fold(text: str, keep: str) -> Folded:
    """Show the lines of ``text`` that start with ``keep``; fold the others.

    >>> fold("step 1 warn\\nrun.jsonl: stopped at 5\\nexit code: 1", keep="run.jsonl")
    run.jsonl: stopped at 5
    (2 more lines of output)
    """
    if not isinstance(keep, str) or not keep:
        raise ValueError(f"keep must be the non-empty start of the lines to show, got {keep!r}")
    lines = text.splitlines()
    return Folded(tuple(line for line in lines if line.startswith(keep)),
                  tuple(line for line in lines if not line.startswith(keep)))


def folded_run(main: Callable[[Sequence[str]], int], args: Sequence[str], *, keep: str) -> Folded:
    """Run ``main(args)`` (a command's entry point, such as ``loopkit.cli.main``), and show the lines of what it
    printed that start with ``keep``, then its exit code (in the learner's language, as the chapters print it); the
    other lines are folded."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        code = main(list(args))
    out = fold(buffer.getvalue(), keep)
    return Folded((*out.shown, tr("exit code: {code}", code=code)), out.folded)
