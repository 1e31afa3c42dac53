"""Merge two branches' edits of one chapter by its cells' sources, never by its JSON, then leave the outputs to a run.

Two branches that change the same notebook cannot be merged as text: their stored outputs, widget state and
execution counts differ on every line. What can be merged is what people wrote, the cells' kinds, sources, tags
(and a Spanish cell's translation stamp) and order. Cells keep their ``id`` (nbformat 4.5) across edits and runs, so
a three-way merge by id is possible:

- a cell changed on one side only takes that side's source (and tags);
- a cell added on one side is placed after the cell that precedes it on that side;
- a cell deleted on one side, and not changed on the other, is deleted;
- the order is that of the side that reordered cells (if both did, ``ours`` wins, and the cells ``theirs`` moved are
  reported);
- a cell changed on both sides gets both changes when they touch different lines of its source (``git merge-file``,
  line by line, as git merges a text file); where they touch the same lines it is a conflict: it is reported, and
  ``ours`` is kept, so the merged notebook is always valid. Resolve it by editing that cell's source. A side that
  only stamped a Spanish cell again (tools/tracks.py) is no conflict: the other side's rewritten cell is kept, with
  its own stamp.

The merged notebook keeps ``ours``' notebook metadata and no outputs: run it (``make notebooks`` or
``tools/run_notebooks.py``) before committing, and stamp a Spanish twin again (``tools/tracks.py stamp``).

    python tools/merge_sources.py BASE OURS THEIRS -o OUT     # three notebook files
    python tools/merge_sources.py --git BASE_REV THEIRS_REV notebooks/05_detector.ipynb
        # the working tree's file is OURS; BASE_REV and THEIRS_REV are read with git show; writes it in place

Exit status: 0 merged cleanly, 1 merged with conflicts (listed on stderr), 2 bad input.
"""

from __future__ import annotations

import argparse
import copy
import json
import pathlib
import subprocess
import sys
import tempfile


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def _written(cell: dict) -> tuple:
    """What a person wrote in a cell: its kind, its source, its tags, and a Spanish cell's stamp (the hash of the
    English cell it translates, tools/tracks.py), so a cell stamped again on one side keeps its new stamp."""
    metadata = cell.get("metadata", {})
    return (cell["cell_type"], _text(cell), tuple(metadata.get("tags", [])),
            metadata.get("loopkit", {}).get("translates_sha256"))


def _restamped_only(cell: dict, base: dict) -> bool:
    """True when ``cell`` differs from ``base`` in its translation stamp alone."""
    return _written(cell)[:3] == _written(base)[:3] and _written(cell) != _written(base)


def _merged_text(base: str, ours: str, theirs: str) -> str | None:
    """Both sides' edits of one cell's source, merged line by line by ``git merge-file``; None when they overlap."""
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            paths.append(pathlib.Path(folder) / name)
            paths[-1].write_text(text, encoding="utf-8")
        done = subprocess.run(["git", "merge-file", "-p", *map(str, paths)], capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def _by_id(nb: dict, name: str) -> dict[str, dict]:
    cells: dict[str, dict] = {}
    for index, cell in enumerate(nb["cells"]):
        cell_id = cell.get("id")
        if not cell_id:
            raise SystemExit(f"{name}: cell {index} has no id (nbformat 4.5 gives every cell one)")
        if cell_id in cells:
            raise SystemExit(f"{name}: two cells have the id {cell_id!r}")
        cells[cell_id] = cell
    return cells


def _reordered(base_order: list[str], side_order: list[str]) -> bool:
    """True when the cells that ``side`` kept from ``base`` are in another order than in ``base``."""
    kept = set(side_order)
    return [i for i in base_order if i in kept] != [i for i in side_order if i in set(base_order)]


def _insert_after(order: list[str], cell_id: str, side_order: list[str]) -> None:
    """Place ``cell_id`` after the nearest cell before it on its own side that is already in ``order``."""
    position = side_order.index(cell_id)
    for previous in reversed(side_order[:position]):
        if previous in order:
            order.insert(order.index(previous) + 1, cell_id)
            return
    order.insert(0, cell_id)


def merge(base: dict, ours: dict, theirs: dict) -> tuple[dict, list[str]]:
    """The merged notebook (without outputs) and a list of conflicts, each one sentence."""
    b, o, t = _by_id(base, "base"), _by_id(ours, "ours"), _by_id(theirs, "theirs")
    conflicts: list[str] = []
    base_order = [c["id"] for c in base["cells"]]
    our_order = [c["id"] for c in ours["cells"]]
    their_order = [c["id"] for c in theirs["cells"]]

    cells: dict[str, dict] = {}
    for cell_id in dict.fromkeys(our_order + their_order):
        in_base, in_ours, in_theirs = cell_id in b, cell_id in o, cell_id in t
        if not in_base:   # added on one side (or, with the same id, on both)
            if in_ours and in_theirs and _written(o[cell_id]) != _written(t[cell_id]):
                conflicts.append(f"cell {cell_id} was added on both sides with different sources; kept ours")
            cells[cell_id] = copy.deepcopy(o.get(cell_id) or t[cell_id])
            continue
        if not (in_ours and in_theirs):   # deleted on one side
            kept = o.get(cell_id) or t.get(cell_id)
            assert kept is not None
            if _written(kept) != _written(b[cell_id]):
                conflicts.append(f"cell {cell_id} was deleted on one side and changed on the other; kept it")
                cells[cell_id] = copy.deepcopy(kept)
            continue
        ours_changed = _written(o[cell_id]) != _written(b[cell_id])
        theirs_changed = _written(t[cell_id]) != _written(b[cell_id])
        if ours_changed and theirs_changed and _written(o[cell_id]) != _written(t[cell_id]):
            # A side that only stamped the cell again yields to a side that rewrote it: the rewritten cell keeps its
            # own stamp, and tools/tracks.py then says whether it translates the English cell as merged.
            if _restamped_only(o[cell_id], b[cell_id]) and not _restamped_only(t[cell_id], b[cell_id]):
                ours_changed = False
            elif _restamped_only(t[cell_id], b[cell_id]) and not _restamped_only(o[cell_id], b[cell_id]):
                theirs_changed = False
        cells[cell_id] = copy.deepcopy(t[cell_id] if theirs_changed and not ours_changed else o[cell_id])
        if ours_changed and theirs_changed and _written(o[cell_id]) != _written(t[cell_id]):
            text = None
            if _written(o[cell_id])[:3] == _written(t[cell_id])[:3]:   # the same text, stamped differently
                pass
            elif o[cell_id]["cell_type"] == t[cell_id]["cell_type"]:
                text = _merged_text(_text(b[cell_id]), _text(o[cell_id]), _text(t[cell_id]))
            if text is None:
                conflicts.append(f"cell {cell_id} was changed on both sides (the same lines, or two stamps); "
                                 f"kept ours:\n--- theirs:\n{_text(t[cell_id])}")
            else:
                cells[cell_id]["source"] = text
                tags = {tag for side in (o, t) for tag in side[cell_id].get("metadata", {}).get("tags", [])}
                if tags:
                    cells[cell_id].setdefault("metadata", {})["tags"] = sorted(tags)

    if _reordered(base_order, their_order) and not _reordered(base_order, our_order):
        primary_order, other_order = their_order, our_order
    else:
        primary_order, other_order = our_order, their_order
        if _reordered(base_order, their_order):
            conflicts.append("both sides reordered cells; kept ours' order")
    order = [i for i in primary_order if i in cells]
    for cell_id in other_order:
        if cell_id in cells and cell_id not in order:
            _insert_after(order, cell_id, other_order)
    for cell_id in cells:   # a cell kept because the other side deleted it after changing it
        if cell_id not in order:
            _insert_after(order, cell_id, base_order if cell_id in b else other_order)

    merged = copy.deepcopy(ours)
    merged["cells"] = []
    for cell_id in order:
        cell = cells[cell_id]
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
        merged["cells"].append(cell)
    return merged, conflicts


def _load(text: str, name: str) -> dict:
    try:
        nb = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SystemExit(f"{name}: not a notebook (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise SystemExit(f"{name}: not a notebook (no list of cells)")
    return nb


def _git_show(rev: str, path: str) -> str:
    done = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"git show {rev}:{path} failed: {done.stderr.strip()}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git", action="store_true", help="BASE and THEIRS are git revisions; OURS is the file")
    parser.add_argument("base")
    parser.add_argument("theirs_or_ours")
    parser.add_argument("third")
    parser.add_argument("-o", "--output", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.git:
        path = args.third
        base = _load(_git_show(args.base, path), f"{args.base}:{path}")
        theirs = _load(_git_show(args.theirs_or_ours, path), f"{args.theirs_or_ours}:{path}")
        ours = _load(pathlib.Path(path).read_text(encoding="utf-8"), path)
        output = pathlib.Path(path)
    else:
        base, ours, theirs = (_load(pathlib.Path(p).read_text(encoding="utf-8"), p)
                              for p in (args.base, args.theirs_or_ours, args.third))
        if args.output is None:
            parser.error("-o OUT is needed without --git")
        output = args.output
    merged, conflicts = merge(base, ours, theirs)
    output.write_text(json.dumps(merged, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for conflict in conflicts:
        print(f"{output}: {conflict}", file=sys.stderr)
    print(f"{output}: merged, {len(conflicts)} conflict(s); run it and stamp its twin before committing")
    return 1 if conflicts else 0


if __name__ == "__main__":
    sys.exit(main())
