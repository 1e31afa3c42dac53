"""The room view: what a hub's learners answered, counted for the instructor, with no answer text anywhere.

Off by default. A hub turns it on for every learner by setting one environment variable, ``LOOPKIT_ROOM``, to a
folder all learners' kernels can write to (docs/jupyterhub.md, "The room view"). Then each checked answer appends
one :class:`Record` to the learner's own file in that folder, ``<learner id>.jsonl``: an anonymous learner id, the
exercise id, right or wrong, the label of the known misconception the answer matched (``"m2"``: the second known
wrong answer the exercise lists), and the time. The answer itself is never written: a record has no field for it.

Why these choices (the workbook's own design, not a standard):

- **An environment variable** is the one setting a hub can give every learner without touching their home
  (``c.Spawner.environment``, or ``singleuser.extraEnv`` on Kubernetes), and one that Binder and a laptop never
  have, so the view stays off there. Its value is the folder, so there is nothing else to configure.
- **A random id kept in the learner's home** (``~/.loopkit/room-id``, 16 hex digits), not a hash of the user
  name: a hash that every learner's kernel can compute could be recomputed by anyone for each name on the room's
  list, salt or not, since the salt would have to be readable by every kernel. A random id says nothing about whose
  it is. It is stable: every kernel of that learner reads the same file.
- **One file per learner, appended with one ``write`` per record** (``O_APPEND``): two learners never write the
  same file, so twenty learners at once cannot interleave, even on a network file system, where ``O_APPEND`` is
  not atomic between machines (a Kubernetes hub's shared volume is often NFS). A learner's own kernels, on one
  machine, append whole lines: the local kernel moves to the end and writes in one step.
- **Bounded**: a learner's file stops growing at :data:`MAX_FILE_BYTES` (about 2,000 records); the reader reads no
  more than that of any file and keeps counts, not records.

Recording never stands in the learner's way: :func:`record_answer` catches every failure, prints it once per
kernel in the learner's language, and returns; ``check()`` has already printed its feedback.

>>> counts = count([Record("a1", "2.1", False, "m1", "t"), Record("b2", "2.1", True, None, "t")])
>>> [(c.exercise, c.answered, c.right, c.misconception) for c in counts]
[('2.1', 2, 1, 'm1')]
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

from loopkit.core.language import tr

__all__ = ["ID_FILE", "MAX_FILE_BYTES", "ROOM_VARIABLE", "ExerciseCount", "Reading", "Record", "append", "count",
           "format_table", "learner_id", "misconception_cell", "read_room", "record_answer", "room_folder"]

#: The one setting: the shared folder's absolute path. Unset or empty, nothing is recorded.
ROOM_VARIABLE = "LOOPKIT_ROOM"
#: Where a learner's random id is kept, under their home folder.
ID_FILE = pathlib.Path(".loopkit") / "room-id"
#: A learner's file stops growing here: 256 KiB, about 2,000 records of about 130 bytes.
MAX_FILE_BYTES = 256 * 1024

_ID = re.compile(r"[0-9a-f]{16}")
_EXERCISE = re.compile(r"\d+\.\d+")
_MISCONCEPTION = re.compile(r"m\d+")
_FIELDS = ("learner", "exercise", "correct", "misconception", "time")

# What this kernel has already reported (one line per kind of failure), and the ids it has read, by home.
_reported: set[str] = set()
_learner_ids: dict[pathlib.Path, str] = {}


@dataclass(frozen=True)
class Record:
    """One checked answer: who (an anonymous id), which exercise, right or wrong, which known slip, and when.

    >>> line = Record("0123456789abcdef", "2.1", False, "m1", "2026-12-02T10:00:00Z").to_line()
    >>> sorted(json.loads(line).items())[:3], line.endswith("}\\n")
    ([('correct', False), ('exercise', '2.1'), ('learner', '0123456789abcdef')], True)
    """

    learner: str
    exercise: str
    correct: bool
    misconception: str | None  # "m2": the exercise's second known wrong answer; None when right or no known slip
    time: str  # UTC, ISO 8601, to the second: "2026-12-02T10:00:00Z"

    def to_line(self) -> str:
        fields = {name: getattr(self, name) for name in _FIELDS}
        return json.dumps(fields, ensure_ascii=True) + "\n"


def _record_from(value: object) -> Record:
    """A :class:`Record` from one parsed line, or a ValueError saying what is wrong with it."""
    if not isinstance(value, dict) or sorted(value) != sorted(_FIELDS):
        raise ValueError(f"expected an object with the fields {', '.join(_FIELDS)}")
    if not isinstance(value["learner"], str) or not value["learner"]:
        raise ValueError("learner must be a non-empty string")
    if not isinstance(value["exercise"], str) or not _EXERCISE.fullmatch(value["exercise"]):
        raise ValueError(f"exercise must be an id like '2.1', got {value['exercise']!r}")
    if not isinstance(value["correct"], bool):
        raise ValueError(f"correct must be true or false, got {value['correct']!r}")
    label = value["misconception"]
    if label is not None and not (isinstance(label, str) and _MISCONCEPTION.fullmatch(label)):
        raise ValueError(f"misconception must be null or a label like 'm2', got {label!r}")
    if not isinstance(value["time"], str):
        raise ValueError("time must be a string")
    return Record(**value)


# ---------------------------------------------------------------------------------------------------------------
# Writing: the learner's side


def room_folder(environ: dict | None = None) -> pathlib.Path | None:
    """The shared folder ``LOOPKIT_ROOM`` names, or None when the room view is off (unset or empty).

    >>> room_folder({}) is None, room_folder({"LOOPKIT_ROOM": "/srv/loopkit-room"})
    (True, PosixPath('/srv/loopkit-room'))
    """
    value = (os.environ if environ is None else environ).get(ROOM_VARIABLE, "")
    if not value:
        return None
    folder = pathlib.Path(value)
    if not folder.is_absolute():
        raise ValueError(f"{ROOM_VARIABLE} must be an absolute path, got {value!r}")
    return folder


def learner_id(home: pathlib.Path) -> str:
    """This learner's anonymous id: read from ``home/.loopkit/room-id``, or made (16 random hex digits) and kept
    there the first time. Two kernels that make one at the same moment agree: the file appears whole or not at all
    (``os.link`` of a finished file), and the one that loses the race reads the winner's."""
    path = home / ID_FILE
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        draft = path.with_name(f"room-id.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(8) + "\n", encoding="ascii")
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    text = path.read_text(encoding="ascii", errors="replace").strip()
    if not _ID.fullmatch(text):
        raise ValueError(f"{path}: expected 16 hex digits (the room view's learner id), found {text[:40]!r}; "
                         "delete the file and a new id is made")
    return text


def append(folder: pathlib.Path, record: Record) -> bool:
    """Append ``record`` as one line to ``folder/<learner>.jsonl`` in a single ``write``; False, and nothing written,
    when that file already holds :data:`MAX_FILE_BYTES`. Raises OSError when the folder cannot be written."""
    line = record.to_line().encode("ascii")
    # O_APPEND: the kernel moves to the end and writes in one step, so a learner's two kernels never overwrite
    # each other's lines.
    fd = os.open(folder / f"{record.learner}.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            # The file is for the instructor, who owns the folder, to read: 0o644 whatever the learner's umask. Some
            # network file systems refuse a mode change; the record still counts then, and read_room names a file
            # it cannot open.
            with contextlib.suppress(OSError):
                os.fchmod(fd, 0o644)
        if size + len(line) > MAX_FILE_BYTES:
            return False
        written = os.write(fd, line)
        if written != len(line):
            raise OSError(f"only {written} of {len(line)} bytes were written")
    finally:
        os.close(fd)
    return True


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _report_once(kind: str, message: str) -> None:
    if kind not in _reported:
        _reported.add(kind)
        print(message)


def record_answer(exercise: str, correct: bool, misconception: str | None) -> None:
    """Record one checked answer when the room view is on; do nothing when it is off. Never raises: a failure is
    printed once per kernel, in the learner's language, and the learner's feedback stands."""
    try:
        folder = room_folder()
        if folder is None:
            return
        home = pathlib.Path.home()
        if home not in _learner_ids:
            _learner_ids[home] = learner_id(home)
        record = Record(_learner_ids[home], exercise, bool(correct), misconception, _now())
        if not append(folder, record):
            _report_once("full", tr("(Room view: your file in the room's folder is full, so your next answers are "
                                    "not recorded for the instructor. They are checked as usual.)"))
    except Exception as failure:  # a room that cannot be written must not break the learner's check()
        reason = f"{type(failure).__name__}: {failure}"
        _report_once("failed", tr("(Room view: this answer was not recorded for the instructor ({reason}). It was "
                                  "checked as usual; tell your instructor if this goes on.)", reason=reason))


# ---------------------------------------------------------------------------------------------------------------
# Reading and counting: the instructor's side


@dataclass(frozen=True)
class ExerciseCount:
    """One exercise, across the room: how many learners answered it, how many got it right at least once, and the
    known misconception the most learners fell into (``None`` when no one did), with how many learners that is."""

    exercise: str
    answered: int
    right: int
    misconception: str | None
    misconception_learners: int


@dataclass(frozen=True)
class Reading:
    """What :func:`read_room` found: the counts per exercise (in exercise order), how many learners and records it
    read, and each line it could not use, as ``FILE:LINE: why``."""

    counts: tuple[ExerciseCount, ...]
    learners: int
    records: int
    problems: tuple[str, ...]


def _exercise_order(exercise: str) -> tuple[int, ...]:
    return tuple(int(part) for part in exercise.split("."))


def _label_order(label: str) -> int:
    return int(label[1:])


def count(records: Iterable[Record]) -> tuple[ExerciseCount, ...]:
    """Per exercise, learners who answered, learners right at least once, and the misconception most learners hit
    (a learner who gives the same slip three times counts once; a tie goes to the slip the exercise lists first).
    Memory: one set of ids per exercise and per misconception, never the records."""
    answered: dict[str, set[str]] = {}
    right: dict[str, set[str]] = {}
    slips: dict[str, dict[str, set[str]]] = {}
    for record in records:
        answered.setdefault(record.exercise, set()).add(record.learner)
        if record.correct:
            right.setdefault(record.exercise, set()).add(record.learner)
        if record.misconception is not None:
            slips.setdefault(record.exercise, {}).setdefault(record.misconception, set()).add(record.learner)
    counts = []
    for exercise in sorted(answered, key=_exercise_order):
        by_label = slips.get(exercise, {})
        top = min(by_label, key=lambda label: (-len(by_label[label]), _label_order(label)), default=None)
        counts.append(ExerciseCount(exercise, len(answered[exercise]), len(right.get(exercise, ())), top,
                                    len(by_label[top]) if top else 0))
    return tuple(counts)


def _records_in(path: pathlib.Path, problems: list[str]) -> Iterator[Record]:
    """The records of one learner's file, at most :data:`MAX_FILE_BYTES` of it; each unusable line goes to
    ``problems`` as ``FILE:LINE: why``."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as why:  # a file its learner made unreadable: named, and the rest of the room still counts
        problems.append(f"{path.name}: cannot be read ({why.strerror or why})")
        return
    if len(data) > MAX_FILE_BYTES:
        problems.append(f"{path.name}: larger than {MAX_FILE_BYTES} bytes; only the first {MAX_FILE_BYTES} are read")
        data = data[:MAX_FILE_BYTES]
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            yield _record_from(json.loads(raw))
        except (ValueError, UnicodeDecodeError) as why:
            problems.append(f"{path.name}:{number}: {why}")


def read_room(folder: pathlib.Path) -> Reading:
    """Read every ``*.jsonl`` file in the room's folder and count it (:func:`count`). Other files are not read.

    A line that is not a record is named in ``problems`` and left out of the counts; the last line of a file that a
    kernel is writing at this instant can be one, and is read whole at the next refresh.
    """
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"the room's folder {folder} does not exist (or is not a folder)")
    problems: list[str] = []
    learners: set[str] = set()
    seen = 0

    try:
        # iterdir, not glob: glob answers an unlistable folder with no files, which would show an empty room
        paths = sorted(path for path in folder.iterdir() if path.suffix == ".jsonl")
    except PermissionError:
        raise PermissionError(f"cannot list the room's folder {folder}: only its owner (the instructor, on a hub "
                              "set up as docs/jupyterhub.md says) may") from None

    def every_record() -> Iterator[Record]:
        nonlocal seen
        for path in paths:
            for record in _records_in(path, problems):
                seen += 1
                learners.add(record.learner)
                yield record

    counts = count(every_record())
    return Reading(counts, len(learners), seen, tuple(problems))


def format_table(reading: Reading, describe: Callable[[str, str], str] | None = None) -> str:
    """The counts as a plain-text table, one exercise a line, headed in the learner's language; ``describe(exercise,
    label)``, when given, adds a few words after each misconception's label and learner count.

    >>> print(format_table(Reading((ExerciseCount("2.1", 3, 1, "m2", 2),), 3, 5, ())))
    exercise  answered  right  most common misconception
    2.1              3      1  m2 (2)
    """
    heads = (tr("exercise"), tr("answered"), tr("right"), tr("most common misconception"))
    rows = [(c.exercise, str(c.answered), str(c.right), misconception_cell(c, describe)) for c in reading.counts]
    widths = [max(len(row[i]) for row in [heads, *rows]) for i in range(3)]
    return "\n".join(f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  {row[3]}".rstrip()
                     for row in [heads, *rows])


def misconception_cell(count: ExerciseCount, describe: Callable[[str, str], str] | None = None) -> str:
    """The table's last cell: ``"-"``, or the label and how many learners, then ``describe``'s words if given.

    >>> misconception_cell(ExerciseCount("2.1", 3, 1, "m2", 2), lambda exercise, label: "399")
    'm2 (2): 399'
    """
    if count.misconception is None:
        return "-"
    shown = f"{count.misconception} ({count.misconception_learners})"
    return f"{shown}: {describe(count.exercise, count.misconception)}" if describe else shown
