"""tools/merge_sources.py: two branches' edits of a chapter merged by cell id, outputs left to a run."""

import copy
import json
import subprocess
import sys

import pytest

from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import merge_sources  # noqa: E402


def notebook(*cells):
    """A notebook of (id, kind, source) cells, each code cell with a stored output."""
    made = []
    for cell_id, kind, source in cells:
        cell = {"id": cell_id, "cell_type": kind, "metadata": {}, "source": source}
        if kind == "code":
            cell.update(outputs=[{"output_type": "stream", "name": "stdout", "text": "old\n"}], execution_count=1)
        made.append(cell)
    return {"cells": made, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}


BASE = notebook(("a", "markdown", "# Title"), ("b", "code", "x = 1"), ("c", "markdown", "Prose."),
                ("d", "code", "print(x)"))


def sources(nb):
    return [(cell["id"], "".join(cell["source"])) for cell in nb["cells"]]


def edited(nb, cell_id, source):
    changed = copy.deepcopy(nb)
    next(cell for cell in changed["cells"] if cell["id"] == cell_id)["source"] = source
    return changed


def test_an_edit_on_each_side_is_kept_and_outputs_are_dropped():
    ours, theirs = edited(BASE, "b", "x = 2"), edited(BASE, "c", "Better prose.")
    merged, conflicts = merge_sources.merge(BASE, ours, theirs)
    assert conflicts == []
    assert sources(merged) == [("a", "# Title"), ("b", "x = 2"), ("c", "Better prose."), ("d", "print(x)")]
    assert all(cell["outputs"] == [] and cell["execution_count"] is None
               for cell in merged["cells"] if cell["cell_type"] == "code")


def test_cells_added_on_either_side_land_after_their_neighbour():
    ours = copy.deepcopy(BASE)
    ours["cells"].insert(2, notebook(("new-ours", "markdown", "Ours."))["cells"][0])
    theirs = copy.deepcopy(BASE)
    theirs["cells"].insert(4, notebook(("new-theirs", "code", "y = 3"))["cells"][0])
    merged, conflicts = merge_sources.merge(BASE, ours, theirs)
    assert conflicts == []
    assert [cell_id for cell_id, _ in sources(merged)] == ["a", "b", "new-ours", "c", "d", "new-theirs"]


def test_a_reorder_on_one_side_is_kept_with_the_other_sides_edit():
    theirs = copy.deepcopy(BASE)
    theirs["cells"] = [theirs["cells"][i] for i in (0, 2, 1, 3)]
    ours = edited(BASE, "d", "print(x + 1)")
    merged, conflicts = merge_sources.merge(BASE, ours, theirs)
    assert conflicts == []
    assert sources(merged) == [("a", "# Title"), ("c", "Prose."), ("b", "x = 1"), ("d", "print(x + 1)")]


def test_a_deletion_wins_over_an_unchanged_cell_but_not_over_an_edit():
    theirs = copy.deepcopy(BASE)
    theirs["cells"] = [c for c in theirs["cells"] if c["id"] != "c"]
    merged, conflicts = merge_sources.merge(BASE, copy.deepcopy(BASE), theirs)
    assert "c" not in [cell_id for cell_id, _ in sources(merged)] and conflicts == []
    merged, conflicts = merge_sources.merge(BASE, edited(BASE, "c", "Kept."), theirs)
    assert ("c", "Kept.") in sources(merged) and len(conflicts) == 1


def test_two_different_edits_of_one_cell_are_a_conflict_that_keeps_ours():
    merged, conflicts = merge_sources.merge(BASE, edited(BASE, "b", "x = 2"), edited(BASE, "b", "x = 3"))
    assert ("b", "x = 2") in sources(merged)
    assert len(conflicts) == 1 and "x = 3" in conflicts[0]


def test_the_command_names_conflicts_and_exits_1(tmp_path):
    paths = []
    for name, nb in (("base", BASE), ("ours", edited(BASE, "b", "x = 2")), ("theirs", edited(BASE, "b", "x = 3"))):
        paths.append(tmp_path / f"{name}.ipynb")
        paths[-1].write_text(json.dumps(nb))
    out = tmp_path / "out.ipynb"
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "merge_sources.py"), *map(str, paths), "-o", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "changed on both sides" in done.stderr
    assert sources(json.loads(out.read_text()))[1] == ("b", "x = 2")


def test_a_cell_without_an_id_is_refused_by_name():
    broken = copy.deepcopy(BASE)
    del broken["cells"][1]["id"]
    with pytest.raises(SystemExit, match="cell 1 has no id"):
        merge_sources.merge(BASE, broken, BASE)


def test_both_sides_edits_of_one_cell_on_different_lines_are_both_kept():
    base = notebook(("a", "markdown", "# Title\n\nFirst line.\nSecond line.\nThird line.\n"))
    ours = edited(base, "a", "# Title\n\nFirst line, better.\nSecond line.\nThird line.\n")
    theirs = edited(base, "a", "# Title\n\nFirst line.\nSecond line.\nThird line, better.\n")
    merged, conflicts = merge_sources.merge(base, ours, theirs)
    assert conflicts == []
    assert sources(merged) == [("a", "# Title\n\nFirst line, better.\nSecond line.\nThird line, better.\n")]


def test_a_twin_cell_stamped_again_on_one_side_keeps_that_stamp():
    """A Spanish cell re-stamped after an English wording fix (tools/tracks.py), its text unchanged, takes the new
    stamp, so the merged twin is not stale; stamped differently on both sides, it is a conflict."""
    def stamped(nb, cell_id, digest):
        changed = copy.deepcopy(nb)
        cell = next(cell for cell in changed["cells"] if cell["id"] == cell_id)
        cell["metadata"]["loopkit"] = {"translates_sha256": digest}
        return changed

    base = stamped(BASE, "c", "old")
    merged, conflicts = merge_sources.merge(base, base, stamped(base, "c", "new"))
    assert conflicts == []
    assert merged["cells"][2]["metadata"]["loopkit"] == {"translates_sha256": "new"}
    _, conflicts = merge_sources.merge(base, stamped(base, "c", "ours"), stamped(base, "c", "theirs"))
    assert len(conflicts) == 1 and "cell c was changed on both sides" in conflicts[0]


def test_a_cell_rewritten_on_one_side_and_only_stamped_on_the_other_is_the_rewritten_one():
    """A branch re-stamped every Spanish cell (tools/tracks.py) while another rewrote one: no conflict, the rewritten
    cell with its own stamp, which tools/tracks.py then judges against the merged English cell."""
    base = copy.deepcopy(BASE)
    restamped = copy.deepcopy(base)
    for cell in restamped["cells"]:
        cell["metadata"]["loopkit"] = {"translates_sha256": "h-" + cell["id"]}
    rewritten = edited(base, "c", "Mejor prosa.")
    for ours, theirs in ((restamped, rewritten), (rewritten, restamped)):
        merged, conflicts = merge_sources.merge(base, ours, theirs)
        assert conflicts == []
        cell = merged["cells"][2]
        assert "".join(cell["source"]) == "Mejor prosa." and "loopkit" not in cell["metadata"]
        assert merged["cells"][0]["metadata"]["loopkit"] == {"translates_sha256": "h-a"}
