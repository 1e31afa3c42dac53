"""Chapter times come from one model (tools/chapter_times.py), and every place that states one agrees with it:
each chapter's title cell, the README's map, chapter 00's map and the instructor guide's two plans; and in the
Spanish track, each twin's title cell, its chapter 00's map and docs/es/README.md's map, with the same times."""

import re
import sys

import pytest
from notebook_tools import ROOT, chapters, load, source

sys.path.insert(0, str(ROOT / "tools"))
import chapter_times  # noqa: E402
import plans  # noqa: E402

ROW = re.compile(r"^\| (\d\d) \| \[([^\]]+)\]\((?:[./a-z]*/)?(\d\d_[a-z0-9_]+\.ipynb)\) \| (.+?) \| (\d+) min \| (\d+) min \|$",
                 re.M)
TIMES = chapter_times.all_times()


def rows(text):
    return {n: (title, target, what, int(total), int(core)) for n, title, target, what, total, core in ROW.findall(text)}


def test_readme_and_chapter_00_maps_agree_and_list_every_chapter():
    readme = rows((ROOT / "README.md").read_text(encoding="utf-8"))
    start = rows("\n".join(source(c) for c in load(ROOT / "notebooks" / "00_start_here.ipynb")["cells"]))
    on_disk = {p.name[:2]: p.name for p in chapters()}
    assert readme == start
    assert {n: row[1] for n, row in readme.items()} == on_disk


def test_the_spanish_maps_list_every_spanish_chapter_with_the_english_times():
    english = {n: row[3:] for n, row in rows((ROOT / "README.md").read_text(encoding="utf-8")).items()}
    on_disk = {p.name[:2]: p.name for p in chapters("es")}
    start = chapters("es")[0]
    for where, text in ((start.name, "\n".join(source(c) for c in load(start)["cells"])),
                        ("docs/es/README.md", (ROOT / "docs" / "es" / "README.md").read_text(encoding="utf-8"))):
        found = rows(text)
        assert {n: row[1] for n, row in found.items()} == on_disk, f"{where}: the map does not list notebooks/es/"
        assert {n: row[3:] for n, row in found.items()} == english, f"{where}: times differ from the README's"


def test_the_spanish_time_line_states_the_same_numbers():
    time = chapter_times.ChapterTime("05", 35, 20, 35)
    assert time.title_line() == "Time: 55 min (teaching 35, exercises 20; core path 35)"
    assert time.title_line("es") == "Tiempo: 55 min (enseñanza 35, ejercicios 20; ruta básica 35)"
    stale = chapter_times._fix_title("# 05\n\nTiempo: 50 min (enseñanza 30, ejercicios 20; ruta básica 35)", time, "es")
    assert "Tiempo: 55 min (enseñanza 35" in stale


def test_every_stated_time_is_the_models():
    stale = chapter_times.stale_places(TIMES)
    assert not stale, f"run `python tools/chapter_times.py --write`: {stale}"
    readme = rows((ROOT / "README.md").read_text(encoding="utf-8"))
    for number, time in TIMES.items():
        assert readme[number][3:] == (time.total, time.core)
        title = source(load(next(p for p in chapters() if p.name.startswith(number)))["cells"][0])
        assert time.title_line() in title


def test_the_plans_fit_teach_a_prefix_of_the_core_path_and_are_the_models():
    for plan in plans.PLANS:
        plans.check_plan(plan, TIMES)
        taught = [slot.chapter for slot in plan.slots if slot.chapter]
        assert taught == list(plans.CORE_PATH[:len(taught)]), f"{plan.name}: {taught}"


def test_the_model_counts_words_cells_widgets_and_exercises():
    widget = {"output_type": "display_data", "data": {chapter_times.WIDGET_MIME: {}}}
    cells = [
        {"cell_type": "markdown", "source": "# Title\n" + "word " * 298},                       # 300 words: 2 min
        {"cell_type": "code", "source": "x = 1", "outputs": []},                                  # 0.75
        {"cell_type": "code", "source": 'from loopkit import set_language\n\nset_language("en")  # or "es"',
         "outputs": []},                                                                          # setup: 0
        {"cell_type": "code", "source": "view()", "outputs": [widget]},                           # 0.75 + 4
        {"cell_type": "markdown", "source": "### Exercise 1.1: a value"},                         # 3, 5 words
        {"cell_type": "code", "source": "q1.check(____)", "outputs": []},                        # part of it
        {"cell_type": "markdown", "source": "## Extra (optional)\n" + "word " * 147},             # 150 words: 1
        {"cell_type": "code", "source": "y = 2", "outputs": []},                                  # 0.75, optional
        {"cell_type": "markdown", "source": "### Exercise 1.2: a function"},                      # 7.5, optional
        {"cell_type": "markdown", "source": "## Back on the path\n" + "word " * 145},             # 150 words: 1
    ]
    costs = chapter_times.cell_costs(cells, {"1.1": "value", "1.2": "function"})
    teaching = sum(m for what, m, _ in costs if what == "teaching")
    exercises = sum(m for what, m, _ in costs if what == "exercises")
    optional = sum(m for _, m, opt in costs if opt)
    headings = 5 + 5   # the two exercise headings' words
    assert teaching == pytest.approx(2 + 0.75 + 0.75 + 4 + 1 + 0.75 + 1 + headings / 150)
    assert exercises == 3 + 7.5
    assert optional == pytest.approx(1 + 0.75 + 7.5 + 5 / 150)
    assert [chapter_times.round_up(m) for m in (0, 0.1, 5, 5.01)] == [0, 5, 5, 10]


def test_an_exercise_heading_without_a_question_is_an_error():
    with pytest.raises(ValueError, match="exercise 9.9 has a heading but no question"):
        chapter_times.cell_costs([{"cell_type": "markdown", "source": "### Exercise 9.9: x"}], {})


def test_a_plan_that_overruns_or_skips_a_prerequisite_is_refused():
    times = {n: chapter_times.ChapterTime(n, 20, 10, 20) for n in plans.PREREQUISITES}
    too_long = plans.Plan("short", 30, (plans.launch(10, ""), plans.pause(5), plans.Slot("00", "", "00")))
    with pytest.raises(ValueError, match="needs 35 min, more than its 30"):
        plans.check_plan(too_long, times)
    gap = plans.Plan("gap", 90, (plans.launch(10, ""), plans.pause(5), plans.Slot("05", "", "05")))
    with pytest.raises(ValueError, match=r"teaches chapter 05 but leaves \['02', '03', '04'\] to self-study"):
        plans.check_plan(gap, times)


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.name)
def test_each_chapter_lists_the_prerequisites_the_plans_rely_on(path):
    title = source(load(path)["cells"][0])
    listed = set(re.findall(r"\[chapter (\d\d)\]", title.split("**Prerequisites:**", 1)[1].split("\n\n", 1)[0]))
    assert set(plans.PREREQUISITES[path.name[:2]]) <= listed
