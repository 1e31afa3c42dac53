"""The English and Spanish tracks: which chapters are twins, and which cells of each Spanish twin are up to date.

Every Spanish chapter ``notebooks/es/NN_*.ipynb`` translates the English chapter with the same number, cell for
cell: the twins have the same cells in the same order (their cell ids differ). The Spanish chapter's metadata names
the English file it translates, and each Spanish cell's metadata records the SHA-256 of the English cell it
translates, over that cell's kind and source (not its outputs, so re-running the English chapter makes nothing
stale)::

    notebook:  "loopkit": {"language": "es", "translates": "notebooks/05_detector.ipynb"}
    cell 12:   "loopkit": {"translates_sha256": "..."}     # the hash of English cell 12 when it was translated

A one-word fix in one English cell makes that one Spanish cell stale, and ``tests/test_tracks.py`` names it until
the translation is updated and stamped again:

    python tools/tracks.py                        # list each pair, and the stale cells by number and heading
    python tools/tracks.py stamp notebooks/es/05_detector.ipynb              # every cell of the twin
    python tools/tracks.py stamp notebooks/es/05_detector.ipynb --cells 12 40   # only these cells

Cells are numbered from 1, in order, as the listing shows them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TRACKS = {"en": NOTEBOOKS, "es": NOTEBOOKS / "es"}
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")
HEADING = re.compile(r"^#{1,6} +(.+)$", re.MULTILINE)


def chapters(track: str = "en") -> list[pathlib.Path]:
    """The chapter notebooks of one track, in order."""
    return sorted(p for p in TRACKS[track].glob("*.ipynb") if CHAPTER_NAME.match(p.name))


def twins() -> list[tuple[pathlib.Path, pathlib.Path | None]]:
    """Each English chapter with its Spanish twin (None when the twin is missing)."""
    spanish = {path.name[:2]: path for path in chapters("es")}
    return [(english, spanish.get(english.name[:2])) for english in chapters("en")]


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _cells(path: pathlib.Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def cell_sha256(cell: dict) -> str:
    """The hash of one cell's kind and source (its outputs, id and metadata left out).

    >>> cell_sha256({"cell_type": "markdown", "source": "# Hi"}) == cell_sha256({"cell_type": "code", "source": "# Hi"})
    False
    """
    kind_and_text = [cell["cell_type"], _text(cell)]
    return hashlib.sha256(json.dumps(kind_and_text, ensure_ascii=False).encode("utf-8")).hexdigest()


def recorded(spanish: pathlib.Path) -> dict:
    """What a Spanish chapter's metadata says it translates (empty when it says nothing)."""
    return json.loads(spanish.read_text(encoding="utf-8"))["metadata"].get("loopkit", {})


def _stamp_of(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("loopkit", {}).get("translates_sha256")


@dataclass(frozen=True)
class StaleCell:
    """A Spanish cell whose English cell changed (or appeared) after it was translated."""

    number: int      # from 1, in the order of the cells
    heading: str     # the English section it sits in: the last heading at or above it
    english: str     # the English cell's first line

    def __str__(self) -> str:
        return f"cell {self.number} ({self.heading}): {self.english}"


def _headings(cells: list[dict]) -> list[str]:
    """For each cell, the last markdown heading at or above it ("(before any heading)" above the first)."""
    current, found = "(before any heading)", []
    for cell in cells:
        if cell["cell_type"] == "markdown":
            titles = HEADING.findall(_text(cell))
            if titles:
                current = titles[-1].strip()
        found.append(current)
    return found


def stale_cells(english: pathlib.Path, spanish: pathlib.Path) -> list[StaleCell]:
    """The English cells whose Spanish twin cell was not stamped with their current kind and source.

    A cell that only one chapter has (the twins differ in length) counts as stale too.
    """
    en_cells, es_cells = _cells(english), _cells(spanish)
    headings = _headings(en_cells)
    stale = []
    for index in range(max(len(en_cells), len(es_cells))):
        en_cell = en_cells[index] if index < len(en_cells) else None
        es_cell = es_cells[index] if index < len(es_cells) else None
        if en_cell is not None and es_cell is not None and _stamp_of(es_cell) == cell_sha256(en_cell):
            continue
        if en_cell is None:
            first_line = "(no English cell: the Spanish twin has more cells)"
        else:
            first_line = (_text(en_cell).strip().splitlines() or ["(empty)"])[0][:80]
        stale.append(StaleCell(index + 1, headings[min(index, len(headings) - 1)] if headings else "", first_line))
    return stale


def is_stale(english: pathlib.Path, spanish: pathlib.Path) -> bool:
    """True when the twin names another English file, or any of its cells is stale."""
    return (recorded(spanish).get("translates") != english.relative_to(ROOT).as_posix()
            or bool(stale_cells(english, spanish)))


def english_twin(spanish: pathlib.Path) -> pathlib.Path:
    """The English chapter with the same number as ``spanish``."""
    number = spanish.name[:2]
    english = next((path for path in chapters("en") if path.name[:2] == number), None)
    if english is None:
        raise SystemExit(f"{spanish}: no English chapter {number}_*.ipynb in notebooks/ to translate")
    return english


def stamp(spanish: pathlib.Path, cells: list[int] | None = None) -> pathlib.Path:
    """Record that ``spanish`` translates its English twin as it is now: every cell, or only the numbered ``cells``.

    The twins must have the same number of cells, or a cell would be stamped as the translation of another.
    """
    english = english_twin(spanish)
    en_cells = _cells(english)
    nb = json.loads(spanish.read_text(encoding="utf-8"))
    if len(nb["cells"]) != len(en_cells):
        raise SystemExit(f"{spanish}: {len(nb['cells'])} cells, but {english.relative_to(ROOT)} has "
                         f"{len(en_cells)}; add or remove cells so that the twins match, then stamp")
    numbers = range(1, len(en_cells) + 1) if cells is None else cells
    for number in numbers:
        if not 1 <= number <= len(en_cells):
            raise SystemExit(f"{spanish}: no cell {number} (cells are numbered 1 to {len(en_cells)})")
        es_cell = nb["cells"][number - 1]
        es_cell.setdefault("metadata", {}).setdefault("loopkit", {})["translates_sha256"] = (
            cell_sha256(en_cells[number - 1]))
    nb["metadata"]["loopkit"] = {"language": "es", "translates": english.relative_to(ROOT).as_posix()}
    # nbformat writes notebooks this way (sorted keys, one-space indent), so a later run changes no key order
    spanish.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return english


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", choices=["status", "stamp"], default="status")
    parser.add_argument("paths", nargs="*", type=pathlib.Path, help="Spanish chapters to stamp")
    parser.add_argument("--cells", nargs="+", type=int, metavar="N",
                        help="stamp only these cells (numbered from 1, as the status lists them) of one chapter")
    args = parser.parse_args(argv)
    if args.command == "stamp":
        if args.cells and len(args.paths) != 1:
            parser.error("--cells needs exactly one Spanish chapter")
        for path in args.paths:
            english = stamp(path.resolve(), args.cells)
            which = "every cell" if not args.cells else "cells " + ", ".join(map(str, args.cells))
            print(f"stamped {path} ({which}): translates {english.relative_to(ROOT)} as it is now")
        return 0
    behind = 0
    for english, spanish in twins():
        pair = f"{english.relative_to(ROOT)} -> {spanish.relative_to(ROOT) if spanish else '?'}"
        if spanish is None:
            behind += 1
            print(f"MISSING {pair}")
            continue
        stale = stale_cells(english, spanish)
        if recorded(spanish).get("translates") != english.relative_to(ROOT).as_posix():
            behind += 1
            print(f"STALE   {pair}: its metadata does not name {english.relative_to(ROOT)}")
        elif stale:
            behind += 1
            print(f"STALE   {pair}: {len(stale)} cell(s)")
        else:
            print(f"ok      {pair}")
        for cell in stale:
            print(f"          {cell}")
    return 1 if behind else 0


if __name__ == "__main__":
    sys.exit(main())
