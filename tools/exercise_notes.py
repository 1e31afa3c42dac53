"""The instructor's notes on every exercise, written from the exercises themselves (``loopkit/teaching/exercises/chNN.py``).

For each exercise: what it asks, its answer, what to say first (its hint), and each likely wrong answer with what it
means, which is also what ``check`` tells a learner who gives it. A function exercise lists the ideas its test cases
check instead, in the order they run. Nothing is written twice: a new misconception in an exercise module reaches the
guide with ``--write``, in both languages.

- English: ``docs/instructor.md``, between ``<!-- exercise-notes -->`` and ``<!-- /exercise-notes -->``;
- Spanish: ``docs/es/notas-ejercicios.md``, between the same markers, in the translations of ``loopkit/core/locales/es``.

    python tools/exercise_notes.py           # print the English notes
    python tools/exercise_notes.py --write   # rewrite both files where they differ
    python tools/exercise_notes.py --check   # exit 1 and name each file that differs
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from loopkit.core.language import set_language, tr  # noqa: E402
from loopkit.teaching.exercises import all_questions  # noqa: E402

TARGETS = {"en": ROOT / "docs" / "instructor.md", "es": ROOT / "docs" / "es" / "notas-ejercicios.md"}
BLOCK = re.compile(r"(<!-- exercise-notes -->\n).*?(<!-- /exercise-notes -->)", re.S)

#: The words of the notes, in each language (the guide's own words, not loopkit's, so they live here).
WORDS = {
    "en": {"answer": "Answer", "say": "Say first", "wrong": "likely wrong answer", "means": "what it means, and what "
           "to say", "ideas": "What its cases check, in order",
           "items": "Why each choice is in the answer or not", "kind": {"value": "value", "prediction": "prediction",
                                                                          "function": "function"}},
    "es": {"answer": "Respuesta", "say": "Di primero", "wrong": "respuesta errónea probable",
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
            parts.append(f"#### {question.qid} · {tr(question.title)} ({words['kind'][question.kind]})\n")
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


def rewritten(path: pathlib.Path, language: str) -> tuple[str, str]:
    """``path``'s text as it is, and with its notes block replaced by today's notes."""
    text = path.read_text(encoding="utf-8")
    if not BLOCK.search(text):
        raise SystemExit(f"{path.relative_to(ROOT)}: no <!-- exercise-notes --> ... <!-- /exercise-notes --> block")
    return text, BLOCK.sub(lambda m: m.group(1) + "\n" + notes(language) + "\n" + m.group(2), text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the notes in both guides")
    group.add_argument("--check", action="store_true", help="exit 1 when a guide's notes are out of date")
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
