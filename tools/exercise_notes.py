"""The notes on the exercises, written from the exercises themselves (``loopkit/teaching/exercises/chNN.py``), as a
file of their own beside each instructor guide: ``docs/exercise-notes.md`` in English, ``docs/es/notas-por-ejercicio.md``
in Spanish (in the translations of ``loopkit/core/locales/es``). The guides link to them; nobody edits them by hand.

Each file has two parts:

- **the live exercises**: for each exercise a workshop plan (notebooks/course.toml, tools/plans.py) does together,
  the common wrong answers, what each reveals (the misconception ``check`` prints to a learner who gives it) and a
  one-line response for the room (the question's ``responses``). A plan that runs an exercise live without a
  response to each of its wrong answers cannot be written: the error names the exercise, the plan and the answers.
- **every exercise**: what it asks, its answer, what to say first (its hint), and each likely wrong answer with what
  it means. A function exercise lists the ideas its test cases check instead, in the order they run.

Nothing is written twice: a new misconception or response in an exercise module reaches both files with ``--write``.

    python tools/exercise_notes.py           # print the English notes
    python tools/exercise_notes.py --write   # rewrite both files where they differ
    python tools/exercise_notes.py --check   # exit 1 and name each file that differs
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loopkit.core.language import set_language, tr  # noqa: E402
from loopkit.teaching.exercises import all_questions  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
import plans  # noqa: E402  (tools/plans.py: which exercises each plan does live)

TARGETS = {"en": ROOT / "docs" / "exercise-notes.md", "es": ROOT / "docs" / "es" / "notas-por-ejercicio.md"}

#: The words of the notes, in each language (the guide's own words, not loopkit's, so they live here).
WORDS = {
    "en": {"live in": "Done live in", "live header": "| wrong answer | what it reveals | say to the room |",
           "answer": "Answer", "say": "Say first", "wrong": "likely wrong answer", "means": "what it means, and what "
           "to say", "ideas": "What its cases check, in order",
           "items": "Why each choice is in the answer or not", "kind": {"value": "value", "prediction": "prediction",
                                                                          "function": "function"}},
    "es": {"live in": "En directo en", "live header": "| respuesta errónea | qué revela | qué decir a la sala |",
           "answer": "Respuesta", "say": "Di primero", "wrong": "respuesta errónea probable",
           "means": "qué significa y qué decir", "ideas": "Qué comprueban sus casos, en orden",
           "items": "Por qué cada opción está en la respuesta o no",
           "kind": {"value": "valor", "prediction": "predicción", "function": "función"}},
}


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _shown(value) -> str:
    """``repr(value)``, with a set's items sorted, so the notes are the same on every run (string hashes vary)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_shown, value))) + "}" if value else "set()"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(map(_shown, value)) + ("," if isinstance(value, tuple) and len(value) == 1 else "")
        return f"({inner})" if isinstance(value, tuple) else f"[{inner}]"
    return repr(value)


#: An answer longer than this is shortened in the notes (a trace of thirty batches, say): its start says enough.
LONGEST = 120


def _code(value) -> str:
    text = _shown(value)
    if len(text) > LONGEST:
        text = text[: LONGEST - 1] + "…"
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def notes(language: str = "en") -> str:
    """The notes on every exercise, in chapter order, as Markdown."""
    words = WORDS[language]
    set_language(language)
    try:
        parts = []
        for question in all_questions().values():
            parts.append(f"### {question.qid} · {tr(question.title)} ({words['kind'][question.kind]})\n")
            if question.kind == "function":
                ideas = [f"{n}. {tr(case.idea)}" for n, case in enumerate(question.cases, start=1) if case.idea]
                parts.append(f"{words['say']}: {tr(question._hint)}\n\n{words['ideas']}:\n\n" + "\n".join(ideas) + "\n")
                continue
            parts.append(f"{words['answer']}: {_code(question.solution_value)}. {words['say']}: {tr(question._hint)}\n")
            rows = [f"| {words['wrong']} | {words['means']} |", "|---|---|"]
            rows += [f"| {_cell(_code(answer))} | {_cell(tr(why))} |" for answer, why in question.misconceptions if why]
            parts.append("\n".join(rows) + "\n")
            if question.item_reasons:
                parts.append(f"{words['items']}:\n\n" + "\n".join(
                    f"- `{item}`: {tr(reason)}" for item, reason in question.item_reasons.items()) + "\n")
        return "\n".join(parts)
    finally:
        set_language("en")


def _chapter_order(qid: str) -> tuple[int, ...]:
    return tuple(int(part) for part in qid.split("."))


def live_exercises() -> list[str]:
    """The exercises some plan does live, in chapter order."""
    return sorted({qid for plan in plans.PLANS for qid in plan.live_exercises()}, key=_chapter_order)


def live_notes(language: str = "en") -> str:
    """For each live exercise: which plans do it, its answer, and each wrong answer with what it reveals and the
    one-line response for the room. Raises ValueError when a live exercise lacks a response to a wrong answer."""
    words = WORDS[language]
    questions = all_questions()
    set_language(language)
    try:
        parts = []
        for qid in live_exercises():
            question = questions[qid]
            where = [plan for plan in plans.PLANS if qid in plan.live_exercises()]
            missing = [answer for answer, why in question.misconceptions if why and question.response_to(answer) is None]
            if missing:
                raise ValueError(f"exercise {qid} is run live in the {where[0].name} plan but has no response to "
                                 f"{missing}: add them to its question's responses")
            titles = ", ".join(plan.title(language) or plan.name for plan in where)
            parts.append(f"### {qid} · {tr(question.title)} ({words['kind'][question.kind]})\n")
            parts.append(f"{words['live in']}: {titles}. {words['answer']}: {_code(question.solution_value)}.\n")
            rows = [words["live header"], "|---|---|---|"]
            rows += [f"| {_cell(_code(answer))} | {_cell(tr(why))} | {_cell(tr(question.response_to(answer)))} |"
                     for answer, why in question.misconceptions if why]
            parts.append("\n".join(rows) + "\n")
        return "\n".join(parts)
    finally:
        set_language("en")


#: The frame of each notes file, in its language: title, what it is, and the two parts' headings and introductions.
PAGE = {
    "en": {
        "title": "# Notes on the exercises",
        "about": "For instructors, beside the guide ([instructor.md](instructor.md)). This file is written from "
                 "`loopkit/teaching/exercises/` by `python tools/exercise_notes.py --write`: do not edit it by hand. "
                 "The Spanish notes are in [es/notas-por-ejercicio.md](es/notas-por-ejercicio.md).",
        "live": "## The exercises done live",
        "live about": "For each exercise a plan does together: the wrong answers the room is likely to give, what "
                      "each one reveals (the same explanation `check` prints to a learner who gives it) and one line "
                      "to say or do with the whole room. When two or three learners give the same wrong answer, use "
                      "its line before you run `check` on the projector.",
        "every": "## Every exercise",
        "every about": "What each exercise asks, its answer, what to say first (its hint), and the wrong answers "
                       "learners are likely to give, with what each means.",
    },
    "es": {
        "title": "# Notas sobre los ejercicios",
        "about": "Para quien enseña, junto a la guía ([notas-ejercicios.md](notas-ejercicios.md)). Este archivo se "
                 "escribe a partir de `loopkit/teaching/exercises/` con `python tools/exercise_notes.py --write`: no "
                 "lo edites a mano. Las notas en inglés están en [../exercise-notes.md](../exercise-notes.md).",
        "live": "## Los ejercicios en directo",
        "live about": "Para cada ejercicio que un plan hace en grupo: las respuestas erróneas que es probable oír en "
                      "la sala, qué revela cada una (la misma explicación que `check` imprime a quien la da) y una "
                      "línea que decir o hacer con toda la sala. Cuando dos o tres personas den la misma respuesta "
                      "errónea, usa su línea antes de ejecutar `check` en el proyector.",
        "every": "## Cada ejercicio",
        "every about": "Qué pide cada ejercicio, su respuesta, qué decir primero (su pista) y las respuestas "
                       "erróneas probables, con lo que significa cada una.",
    },
}


def page(language: str) -> str:
    """The whole notes file in ``language``."""
    words = PAGE[language]
    return "\n\n".join([words["title"], words["about"], words["live"], words["live about"],
                         live_notes(language).rstrip("\n"), words["every"], words["every about"],
                         notes(language).rstrip("\n")]) + "\n"


def rewritten(path: pathlib.Path, language: str) -> tuple[str, str]:
    """``path``'s text as it is (empty when it does not exist yet), and as it should be."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return old, page(language)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite both notes files")
    group.add_argument("--check", action="store_true", help="exit 1 when a notes file is out of date")
    args = parser.parse_args(argv)
    if not (args.write or args.check):
        print(notes("en"))
        return 0
    stale = []
    for language, path in TARGETS.items():
        old, new = rewritten(path, language)
        if old != new:
            stale.append(path.relative_to(ROOT).as_posix())
            if args.write:
                path.write_text(new, encoding="utf-8")
    if args.check and stale:
        print("out of date (run python tools/exercise_notes.py --write): " + ", ".join(stale), file=sys.stderr)
        return 1
    for name in stale:
        print(f"rewrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
