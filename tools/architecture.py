"""loopkit's floors, read from its folders and its imports, and the diagram of docs/architecture.md drawn from them.

A module's floor is the top-level folder it lives in (``loopkit/traces/replay/steps.py`` is on ``traces``). The
floors, from the bottom, are listed once, in :data:`FLOORS`; a module imports only from its own floor or the floors
below it, which ``tests/test_architecture.py`` checks with the reader here. The diagram between the page's
``architecture`` markers is generated: a floor per row, each folder and module on it, and how many imports run from
each floor to each floor below.

    python tools/architecture.py           # print the diagram
    python tools/architecture.py --write   # rewrite it in docs/architecture.md (make architecture)
    python tools/architecture.py --check   # exit 1 when the page's diagram is stale
"""

from __future__ import annotations

import argparse
import ast
import collections
import pathlib
import sys
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "loopkit"
PAGE = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- architecture:begin -->", "<!-- architecture:end -->"

#: The floors from the bottom, each with what it holds. The package's own ``__init__.py`` (the public names) and
#: ``__main__.py`` (``python -m loopkit``) stand outside them, on the roof.
FLOORS = {
    "core": "upstream's loop detection, modelled: helpers, detector, middleware",
    "traces": "other agents' transcripts: adapters, tool maps, the replay",
    "teaching": "the chapters' aids: patterns, exercises, boundary models, peers",
    "views": "ipywidgets views and matplotlib plots (the only floor that imports them)",
    "cli": "the command line: parses options and prints (python -m loopkit replay ...)",
}
ROOF = "roof"


def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    """``loopkit/core/keys.py`` -> ``loopkit.core.keys``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor_of(dotted: str) -> str:
    """``loopkit.traces.replay.steps`` -> ``traces``; ``loopkit`` and ``loopkit.__main__`` -> the roof."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FLOORS else ROOF


def rank(floor: str) -> int:
    """0 for the bottom floor, one more per floor up; the roof is above them all."""
    return list(FLOORS).index(floor) if floor in FLOORS else len(FLOORS)


def imports(path: pathlib.Path, root: pathlib.Path = ROOT) -> Iterator[tuple[int, str]]:
    """``(line, imported module)`` for every import of ``path``, inside functions too, relative ones resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            if node.module:
                yield node.lineno, ".".join([*base, node.module])
            else:  # from . import a, b: each name is a module of the package
                yield from ((node.lineno, ".".join([*base, alias.name])) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module


def modules(package: pathlib.Path = PACKAGE) -> list[pathlib.Path]:
    """Every Python file of the package, in path order."""
    return sorted(package.rglob("*.py"))


def floor_arrows(package: pathlib.Path = PACKAGE) -> collections.Counter:
    """How many imports run from each floor to each other floor: ``{("traces", "core"): 41, ...}``."""
    root = package.parent
    arrows: collections.Counter = collections.Counter()
    for path in modules(package):
        source = floor_of(module_name(path, root))
        for _, target in imports(path, root):
            if target == "loopkit" or target.startswith("loopkit."):
                destination = floor_of(target)
                if destination != source:
                    arrows[source, destination] += 1
    return arrows


def rooms(floor: str, package: pathlib.Path = PACKAGE) -> list[str]:
    """What stands on a floor: its modules (``keys``) and its folders (``detector/``), in name order."""
    folder = package / floor
    found = []
    for entry in sorted(folder.iterdir()):
        if entry.is_dir() and (entry / "__init__.py").exists():
            found.append(entry.name + "/")
        elif entry.suffix == ".py" and entry.name != "__init__.py":
            found.append(entry.stem)
    return found


def wrapped(words: list[str], indent: int, width: int = 116) -> list[str]:
    """``words`` joined by two spaces, in lines no longer than ``width``, each continuation indented."""
    lines, line = [], ""
    for word in words:
        if line and len(line) + 2 + len(word) > width - indent:
            lines.append(line)
            line = word
        else:
            line = f"{line}  {word}" if line else word
    return [*lines, line]


def diagram(package: pathlib.Path = PACKAGE) -> str:
    """The floors from the top down, what stands on each, and the imports each floor makes of the floors below."""
    arrows = floor_arrows(package)
    out = []
    for floor in reversed(FLOORS):
        label = f"loopkit/{floor}/"
        out.append(f"{label:<18}{FLOORS[floor]}")
        out.extend(" " * 18 + line for line in wrapped(rooms(floor, package), 18))
        below = [f"{target} {arrows[floor, target]}" for target in reversed(FLOORS)
                 if (floor, target) in arrows and rank(target) < rank(floor)]
        if below:
            out.append(" " * 6 + "| imports: " + ", ".join(below))
        out.append("")
    upward = sorted(f"{source} -> {target} {count}" for (source, target), count in arrows.items()
                    if source != ROOF and rank(target) > rank(source))
    out.append("imports that run up a floor: " + (", ".join(upward) if upward else "none"))
    return "\n".join(out)


def page_block(text: str) -> str:
    """The diagram as the page holds it, between its two markers, without the code fence."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{PAGE.relative_to(ROOT)}: the markers {BEGIN} and {END} are missing")
    block = text.split(BEGIN, 1)[1].split(END, 1)[0].strip("\n")
    return block.removeprefix("```\n").removesuffix("\n```")


def with_diagram(text: str, drawn: str) -> str:
    """The page's text with ``drawn`` between its markers."""
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    return f"{head}{BEGIN}\n```\n{drawn}\n```\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", action="store_true", help="rewrite the diagram in docs/architecture.md")
    action.add_argument("--check", action="store_true", help="exit 1 when docs/architecture.md's diagram is stale")
    options = parser.parse_args(argv)
    drawn = diagram()
    if options.write:
        PAGE.write_text(with_diagram(PAGE.read_text(encoding="utf-8"), drawn), encoding="utf-8")
    elif options.check:
        if page_block(PAGE.read_text(encoding="utf-8")) != drawn:
            print("docs/architecture.md: the diagram is stale; run `make architecture`", file=sys.stderr)
            return 1
    else:
        print(drawn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
