"""The English and Spanish tracks: which chapters are twins, and whether each Spanish twin is up to date.

Every Spanish chapter ``notebooks/es/NN_*.ipynb`` translates the English chapter with the same number. Its metadata
records what it translates: the English file and the SHA-256 of the English *source* (cell kinds and texts, not
outputs, so re-running the English chapter does not make its twin stale)::

    "loopkit": {"language": "es", "translates": "notebooks/05_detector.ipynb", "source_sha256": "..."}

When an English chapter changes, ``tests/test_tracks.py`` fails until its twin is updated and stamped again:

    python tools/tracks.py                        # list each pair, and which twins are stale
    python tools/tracks.py stamp notebooks/es/05_detector.ipynb   # after updating the translation
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TRACKS = {"en": NOTEBOOKS, "es": NOTEBOOKS / "es"}
CHAPTER_NAME = re.compile(r"^(\d\d)_[a-z0-9_]+\.ipynb$")


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


def source_sha256(path: pathlib.Path) -> str:
    """The hash of a chapter's source: each cell's kind and text, in order (outputs and metadata left out)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    source = [[cell["cell_type"], _text(cell)] for cell in cells]
    return hashlib.sha256(json.dumps(source, ensure_ascii=False).encode("utf-8")).hexdigest()


def recorded(spanish: pathlib.Path) -> dict:
    """What a Spanish chapter's metadata says it translates (empty when it says nothing)."""
    return json.loads(spanish.read_text(encoding="utf-8"))["metadata"].get("loopkit", {})


def is_stale(english: pathlib.Path, spanish: pathlib.Path) -> bool:
    """True when the English chapter changed after its Spanish twin was last stamped."""
    note = recorded(spanish)
    return (note.get("translates") != english.relative_to(ROOT).as_posix()
            or note.get("source_sha256") != source_sha256(english))


def stamp(spanish: pathlib.Path) -> pathlib.Path:
    """Record in ``spanish``'s metadata that it translates the current source of its English twin."""
    number = spanish.name[:2]
    english = next((path for path in chapters("en") if path.name[:2] == number), None)
    if english is None:
        raise SystemExit(f"{spanish}: no English chapter {number}_*.ipynb in notebooks/ to translate")
    nb = json.loads(spanish.read_text(encoding="utf-8"))
    nb["metadata"]["loopkit"] = {"language": "es", "translates": english.relative_to(ROOT).as_posix(),
                                 "source_sha256": source_sha256(english)}
    spanish.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return english


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", choices=["status", "stamp"], default="status")
    parser.add_argument("paths", nargs="*", type=pathlib.Path, help="Spanish chapters to stamp")
    args = parser.parse_args(argv)
    if args.command == "stamp":
        for path in args.paths:
            english = stamp(path.resolve())
            print(f"stamped {path}: translates {english.relative_to(ROOT)} as it is now")
        return 0
    behind = 0
    for english, spanish in twins():
        if spanish is None:
            state, behind = "MISSING", behind + 1
        elif is_stale(english, spanish):
            state, behind = "STALE  ", behind + 1
        else:
            state = "ok     "
        print(f"{state} {english.relative_to(ROOT)} -> {spanish.relative_to(ROOT) if spanish else '?'}")
    return 1 if behind else 0


if __name__ == "__main__":
    sys.exit(main())
