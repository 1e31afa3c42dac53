"""The chapter map appears twice (README and chapter 00) and each chapter states its own time: they must agree."""

import re

from notebook_tools import ROOT, chapters, load, source

ROW = re.compile(r"^\| (\d\d) \| \[([^\]]+)\]\((?:notebooks/)?(\d\d_[a-z0-9_]+\.ipynb)\) \| (.+?) \| (\d+) min \|$", re.M)


def rows(text):
    return {number: (title, target, what, int(minutes)) for number, title, target, what, minutes in ROW.findall(text)}


def test_readme_and_chapter_00_maps_agree_and_list_every_chapter():
    readme = rows((ROOT / "README.md").read_text(encoding="utf-8"))
    start = rows("\n".join(source(c) for c in load(ROOT / "notebooks" / "00_start_here.ipynb")["cells"]))
    on_disk = {p.name[:2]: p.name for p in chapters()}
    assert readme == start
    assert {n: row[1] for n, row in readme.items()} == on_disk


def test_each_chapter_states_the_time_the_map_gives():
    readme = rows((ROOT / "README.md").read_text(encoding="utf-8"))
    for path in chapters():
        title = source(load(path)["cells"][0])
        total, teaching, exercises = map(int, re.search(r"Time: (\d+) min \(teaching (\d+), exercises (\d+)\)", title).groups())
        assert teaching + exercises == total, f"{path.name}: {teaching} + {exercises} != {total}"
        assert readme[path.name[:2]][3] == total, f"{path.name} says {total} min, the README map says otherwise"
