"""Shared readers for the notebook-level tests."""

from __future__ import annotations

import ast
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")


def chapters() -> list[pathlib.Path]:
    return sorted(p for p in NOTEBOOK_DIR.glob("*.ipynb") if CHAPTER_NAME.match(p.name))


def load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


EXERCISE_HEADING = re.compile(r"### Exercise (\d+\.\d+): (.+)")


def exercise_headings(nb: dict) -> list[tuple[int, str, str]]:
    """``(cell index, exercise id, title)`` for each markdown cell that opens with an exercise heading."""
    found = []
    for index, cell in enumerate(nb["cells"]):
        match = EXERCISE_HEADING.match(source(cell)) if cell["cell_type"] == "markdown" else None
        if match:
            found.append((index, match.group(1), match.group(2).strip()))
    return found


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code" and source(c).strip()]


def tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def imported_modules(code: str) -> set[str]:
    """Top-level module names imported by ``code`` (IPython magics and shell lines are skipped)."""
    lines = [line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))]
    names = set()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names
