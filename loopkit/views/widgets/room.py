"""The instructor's room view: per exercise, how many learners answered, how many got it right, and the known
misconception most of them fell into, read live from the hub's room folder (:mod:`loopkit.teaching.room`).

Control: ``folder`` (a Text box: the room's folder, ``LOOPKIT_ROOM`` by default). Button: ``refresh`` reads the
folder again. The plain function :func:`room_rows` gives the rows; :func:`room_summary` the same as text, for a
notebook cell that prints it. A misconception is shown by its label and the wrong answer the exercise lists for it
(``m1 (3): 400``): the exercise's own text, never a learner's.
"""

from __future__ import annotations

import html
import pathlib

from loopkit.core.language import tr
from loopkit.teaching import room
from loopkit.teaching.exercises import all_questions

from ._base import View, table_html

__all__ = ["misconception_answer", "room_rows", "room_summary", "room_view"]


def misconception_answer(exercise: str, label: str, width: int = 40) -> str:
    """The known wrong answer behind ``label`` in ``exercise``, as the exercise lists it (shortened to ``width``);
    ``"?"`` when this loopkit has no such exercise or label (a hub that runs another version of the workbook).

    >>> misconception_answer("2.1", "m1")
    '400'
    """
    question = all_questions().get(exercise)
    position = int(label[1:])
    if question is None or not 1 <= position <= len(question.misconceptions):
        return "?"
    text = repr(question.misconceptions[position - 1][0])
    return text if len(text) <= width else text[: width - 3] + "..."


def room_rows(folder: pathlib.Path) -> list[dict]:
    """One row per exercise answered in the room, in exercise order; the keys are English, the values as shown.

    >>> room_rows(pathlib.Path(__file__).parents[3] / "notebooks" / "instructor" / "sample-room")[0]["exercise"]
    '0.1'
    """
    return _rows(room.read_room(folder))


def _rows(reading: room.Reading) -> list[dict]:
    return [{"exercise": c.exercise, "answered": c.answered, "right": c.right,
             "most common misconception": room.misconception_cell(c, misconception_answer)} for c in reading.counts]


def room_summary(folder: pathlib.Path) -> str:
    """What the room view shows, as text: how many learners and answers, the table, and any unreadable line."""
    reading = room.read_room(folder)
    lines = [tr("{learners} learners, {records} answers recorded.", learners=reading.learners,
                records=reading.records)]
    if reading.counts:
        lines.append(room.format_table(reading, misconception_answer))
    lines += [tr("Not counted: {problem}", problem=problem) for problem in reading.problems]
    return "\n".join(lines)


def render_room(folder: str) -> str:
    """The panel: the counts as a table, or why the folder cannot be read."""
    try:
        reading = room.read_room(pathlib.Path(folder))
    except OSError as why:
        return f"<pre style='color:#b00'>{html.escape(str(why))}</pre>"
    head = html.escape(tr("{learners} learners, {records} answers recorded.", learners=reading.learners,
                          records=reading.records))
    problems = "".join(f"<li>{html.escape(tr('Not counted: {problem}', problem=p))}</li>" for p in reading.problems)
    return f"<p>{head}</p>{table_html(_rows(reading))}" + (f"<ul>{problems}</ul>" if problems else "")


def room_view(folder: str | pathlib.Path | None = None):
    """The live view: the room's folder (``LOOPKIT_ROOM`` unless given) and a Refresh button that reads it again."""
    import ipywidgets as W

    start = folder if folder is not None else (room.room_folder() or "")
    box = W.Text(value=str(start), description=tr("folder"), layout=W.Layout(width="60%"))
    refresh = W.Button(description=tr("Refresh"), icon="refresh")
    view = View({"folder": box}, render_room, title=tr("The room: who answered what, so far"), buttons=[refresh])
    refresh.on_click(lambda _: view.refresh())
    view.buttons = {"refresh": refresh}
    return view
