"""A user's tool-map rules (``ToolMap(rules=[...])``, the command line's repeatable ``--map RULE``).

The syntax::

    OLD=NEW                         rename the tool
    OLD=NEW:a>b,c>d                 ... and rename arguments a to b and c to d
    OLD=NEW:-x                      ... and drop argument x (dropping is always explicit)
    OLD[ARG=VALUE]=NEW:...          only for calls whose argument ARG is the string VALUE

A user rule for a tool replaces the preset's handling of that tool; the first rule that matches a call applies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .translations import renamed

__all__ = ["MapError", "Rule", "parse_rule"]


class MapError(ValueError):
    """A tool-map rule that cannot be parsed, or a preset that does not exist."""


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

    def __str__(self) -> str:
        """The rule in the syntax it is parsed from (renames, then drops): ``parse_rule(str(rule)) == rule``."""
        when = f"[{self.when[0]}={self.when[1]}]" if self.when is not None else ""
        args = [f"{a}>{b}" for a, b in self.renames] + [f"-{a}" for a in self.drops]
        return f"{self.old}{when}={self.new}" + (":" + ",".join(args) if args else "")

    def translate(self, args: dict):
        """``(new, args)`` for a call this rule applies to; ``None`` when its condition does not hold."""
        if self.when is not None and args.get(self.when[0]) != self.when[1]:
            return None
        out = renamed({k: v for k, v in args.items() if k not in self.drops}, dict(self.renames))
        return None if out is None else (self.new, out)


def parse_rule(text: str) -> Rule:
    """Parse one ``--map`` rule (the syntax is above); :class:`MapError` says what was wrong.

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
