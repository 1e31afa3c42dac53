"""Shared readers for the notebook-level tests."""

from __future__ import annotations

import ast
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")


#: The language tracks and their folders: the English chapters, and their Spanish twins (tools/tracks.py).
TRACK_DIRS = {"en": NOTEBOOK_DIR, "es": NOTEBOOK_DIR / "es"}


def chapters(track: str = "en") -> list[pathlib.Path]:
    return sorted(p for p in TRACK_DIRS[track].glob("*.ipynb") if CHAPTER_NAME.match(p.name))


def all_chapters() -> list[pathlib.Path]:
    """Every chapter of both tracks, English first."""
    return [path for track in TRACK_DIRS for path in chapters(track)]


def chapter_id(path: pathlib.Path) -> str:
    """A test id that tells the tracks apart: ``05_detector.ipynb`` or ``es/05_detector.ipynb``."""
    return path.relative_to(NOTEBOOK_DIR).as_posix()


#: The words of the chapter template (DESIGN.md, "A chapter") in each track.
TEMPLATE = {
    "en": {
        "time line": r"Time: \d+ min \(teaching \d+, exercises \d+; core path \d+\)",
        "title words": ("objectives", "Prerequisites", "question"),
        "takeaways": "Key takeaways",
        "checklist": "checklist",
        "exercise": "Exercise",
        "unanswered": "not answered yet",
        "closing sections": r"## (Exercises|Key takeaways|Checklist|Summary|What's next)",
    },
    "es": {
        "time line": r"Tiempo: \d+ min \(enseñanza \d+, ejercicios \d+; ruta básica \d+\)",
        "title words": ("objetivos", "Requisitos previos", "pregunta"),
        "takeaways": "Ideas clave",
        "checklist": "lista de comprobación",
        "exercise": "Ejercicio",
        "unanswered": "aún no tiene respuesta",
        "closing sections": r"## (Ejercicios|Ideas clave|Lista de comprobación|Resumen|Qué sigue)",
    },
}


def track_of(path: pathlib.Path) -> str:
    """"es" for a chapter in notebooks/es/, else "en"."""
    return "es" if path.parent == TRACK_DIRS["es"] else "en"


def load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


EXERCISE_HEADING = re.compile(r"### (?:Exercise|Ejercicio) (\d+\.\d+): (.+)")


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


#: The tag of a cell that reveals a prediction: committed without output or execution count, run by the learner
#: after answering, and checked under nbval against the answer loopkit computes (root conftest.py).
REVEAL_TAG = "reveal"
ANY_HEADING = re.compile(r"#{1,6} ")


def is_reveal(cell: dict) -> bool:
    return cell.get("cell_type") == "code" and REVEAL_TAG in tags(cell)


def exercise_sections(nb: dict) -> dict[str, range]:
    """Each exercise id with the range of cell indices its section spans: from its heading to the next heading."""
    cells = nb["cells"]
    sections = {}
    for index, qid, _ in exercise_headings(nb):
        end = next((i for i in range(index + 1, len(cells))
                    if cells[i]["cell_type"] == "markdown" and ANY_HEADING.match(source(cells[i]))), len(cells))
        sections[qid] = range(index, end)
    return sections


def exercise_of_cell(nb: dict, index: int) -> str | None:
    """The id of the exercise whose section holds cell ``index``, or None."""
    return next((qid for qid, span in exercise_sections(nb).items() if index in span), None)


def reveal_problem(nb: dict, cell: dict, printed: str) -> str | None:
    """Why a reveal cell's output fails its exercise, or None when it shows the answer and nothing else."""
    from loopkit.teaching.exercises import all_questions

    index = next(i for i, c in enumerate(nb["cells"]) if c is cell)
    qid = exercise_of_cell(nb, index)
    if qid is None:
        return f"cell {index} is tagged reveal but lies in no exercise's section"
    question = all_questions()[qid]
    if not question.shown_in(printed):
        return (f"exercise {qid}'s reveal cell {index} does not show the answer {question.solution_value!r} as "
                f"{question.reveal!r} says; it printed:\n{printed}")
    answer = question._normalize(question.solution_value)
    shown_wrong = [wrong for wrong in question.wrong_answers
                   if question._normalize(wrong) != answer and question.shown_in(printed, wrong)]
    if shown_wrong:
        return f"exercise {qid}'s reveal cell {index} also shows wrong answers as the answer: {shown_wrong!r}"
    return None


def printed_text(outputs: list) -> str:
    """What a list of nbformat outputs shows as text: streams and plain-text results."""
    parts = []
    for output in outputs:
        text = output.get("text") if output.get("output_type") == "stream" else output.get("data", {}).get(
            "text/plain", "")
        parts.append("".join(text) if isinstance(text, list) else (text or ""))
    return "".join(parts)
