"""Chapter times come from one model (tools/chapter_times.py), and every place that states one agrees with it:
each chapter's title cell, the README's map, chapter 00's map, the instructor guide's plans, rates and estimate
table; and in the Spanish track, each twin's title cell, its chapter 00's map, docs/es/README.md's map and the plans
in docs/es/notas-ejercicios.md, with the same times. Each of the model's terms is checked on cells built for it, and
every stated time lies within 15% of a careful estimate. (The plans' rules: tests/test_plans.py.)"""

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
    time = chapter_times.ChapterTime("05", 35, 20, 35, 40)
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


def test_every_stated_time_lies_within_15_percent_of_its_careful_estimate():
    guide = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    table = chapter_times.estimates(guide)
    assert set(table) == set(TIMES) | {"all"}, "the estimate table must have a row for every chapter and one for all"
    for chapter, (stated, low, high) in table.items():
        model = sum(t.total for t in TIMES.values()) if chapter == "all" else TIMES[chapter].total
        assert stated == model, f"{chapter}: the table states {stated}, the model {model}"
        assert low <= high
        middle = (low + high) / 2
        assert abs(stated - middle) <= chapter_times.ESTIMATE_TOLERANCE * middle, \
            f"chapter {chapter} states {stated} min, more than 15% from its estimate {low}-{high}"


def test_the_guide_states_the_models_rates():
    guide = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    assert chapter_times.rates_table() in guide
    assert f"1 per {chapter_times.OUTPUT_LINES_PER_MINUTE} lines" in chapter_times.rates_table()


def by_term(costs):
    """The minutes of each of the model's terms, summed."""
    totals = {}
    for cost in costs:
        totals[cost.term] = totals.get(cost.term, 0) + cost.minutes
    return totals


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
    teaching = sum(c.minutes for c in costs if c.part == "teaching")
    exercises = sum(c.minutes for c in costs if c.part == "exercises")
    optional = sum(c.minutes for c in costs if c.optional)
    headings = 5 + 5   # the two exercise headings' words
    assert teaching == pytest.approx(2 + 0.75 + 0.75 + 4 + 1 + 0.75 + 1 + headings / 150)
    assert exercises == 3 + 7.5
    assert optional == pytest.approx(1 + 0.75 + 7.5 + 5 / 150)
    assert [chapter_times.round_up(m) for m in (0, 0.1, 5, 5.01)] == [0, 5, 5, 10]


def stream(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def test_printed_output_is_counted_by_its_lines_beyond_what_a_glance_takes_in():
    free, rate = chapter_times.OUTPUT_LINES_FREE, chapter_times.OUTPUT_LINES_PER_MINUTE
    short = {"cell_type": "code", "source": "x", "outputs": [stream("a\nb\n")]}
    long = {"cell_type": "code", "source": "y", "outputs": [stream("line\n" * 25)]}
    split = {"cell_type": "code", "source": "z", "outputs": [stream("line\n" * 10), stream("line\n" * 15)]}
    assert "output" not in by_term(chapter_times.cell_costs([short], {}))
    assert by_term(chapter_times.cell_costs([long], {}))["output"] == pytest.approx((25 - free) / rate)
    # one cell's outputs are read together: two prints of 10 and 15 lines are one 25-line output
    assert by_term(chapter_times.cell_costs([split], {}))["output"] == pytest.approx((25 - free) / rate)
    assert by_term(chapter_times.cell_costs([long], {}))["code"] == chapter_times.CODE_CELL_MINUTES


def test_a_table_is_counted_by_the_rows_the_lab_shows_not_by_its_wrapped_text():
    rows = "".join(f"<tr><td>{n}</td></tr>" for n in range(16))
    table = {"output_type": "execute_result", "execution_count": 1,
             "data": {"text/html": f"<table>{rows}</table>", "text/plain": "wrapped\n" * 60}}
    cell = {"cell_type": "code", "source": "table", "outputs": [table]}
    minutes = by_term(chapter_times.cell_costs([cell], {}))["output"]
    assert minutes == pytest.approx((16 - chapter_times.OUTPUT_LINES_FREE) / chapter_times.OUTPUT_LINES_PER_MINUTE)


def test_printed_source_code_is_read_at_the_code_rate_every_line_of_it():
    source = "def decide(state):\n    count = state.add()\n    if count > 3:\n        return 'stop'\n" \
             "    return 'ok'\n" * 1 + "\n" + "    # more\n" * 7
    lines = len(source.splitlines())
    cell = {"cell_type": "code", "source": "print(inspect.getsource(decide))", "outputs": [stream(source)]}
    terms = by_term(chapter_times.cell_costs([cell], {}))
    assert terms["source"] == pytest.approx(lines / chapter_times.SOURCE_LINES_PER_MINUTE)
    assert "output" not in terms, "printed source is not also counted as output"
    js = {"cell_type": "code", "source": "print(js_source())",
          "outputs": [stream("const A = 1;\n\nfunction f(x) {\n  return x;\n}\n")]}
    assert by_term(chapter_times.cell_costs([js], {}))["source"] == pytest.approx(5 / chapter_times.SOURCE_LINES_PER_MINUTE)


BLOB = "https://github.com/bytedance/deer-flow/blob/f1f4af99/backend/"


def test_a_checklist_counts_each_upstream_file_and_each_issue_or_pr_it_links_once():
    checklist = (f"## Checklist: back to the source\n\n- [ ] Open [`a.py`]({BLOB}a.py) and [line 40]({BLOB}a.py#L40).\n"
                 f"- [ ] Read [issue #1](https://github.com/bytedance/deer-flow/issues/1) and "
                 f"[PR #2](https://github.com/bytedance/deer-flow/pull/2), then [`b.py`]({BLOB}b.py).\n")
    more = {"cell_type": "markdown", "source": f"- [ ] And [`a.py` again]({BLOB}a.py#L9) and [c]({BLOB}c.py)."}
    elsewhere = {"cell_type": "markdown", "source": f"## Before\n\nSee [`d.py`]({BLOB}d.py) and [PR #3]"
                 "(https://github.com/bytedance/deer-flow/pull/3)."}
    costs = chapter_times.cell_costs([elsewhere, {"cell_type": "markdown", "source": checklist}, more], {})
    files, threads = 3, 2   # a.py, b.py, c.py; issue #1, PR #2 (d.py and PR #3 are outside the checklist)
    expected = files * chapter_times.UPSTREAM_FILE_MINUTES + threads * chapter_times.UPSTREAM_THREAD_MINUTES
    assert by_term(costs)["upstream"] == pytest.approx(expected)
    optional = [{"cell_type": "markdown", "source": checklist.replace("source\n", "source (optional)\n")}]
    assert all(c.optional for c in chapter_times.cell_costs(optional, {}) if c.term == "upstream")


def test_each_idea_the_glossary_says_a_chapter_teaches_costs_a_first_contact_on_its_core_path():
    glossary = ("# Glossary\n\n**Batch** (03). The calls of one turn.\n\n**Bucket**, read bucket (02). 200 lines.\n\n"
                "**False positive / false negative** (02, 03, 05). Honest work called a loop.\n\n"
                "**nbval** (tests). A pytest plugin.\n")
    assert chapter_times.taught_ideas(glossary) == {"03": ["Batch"], "02": ["Bucket", "False positive / false negative"]}
    cells = [{"cell_type": "markdown", "source": "# 02 · Read buckets\n\nText."}]
    costs = chapter_times.chapter_costs(cells, {}, ["Bucket", "False positive / false negative"])
    ideas = [c for c in costs if c.term == "new idea"]
    assert sum(c.minutes for c in ideas) == pytest.approx(2 * chapter_times.NEW_IDEA_MINUTES)
    assert not any(c.optional for c in ideas)


def test_the_live_factor_slows_only_what_the_room_types_along():
    widget = {"output_type": "display_data", "data": {chapter_times.WIDGET_MIME: {}}}
    cells = [{"cell_type": "markdown", "source": "# T\n" + "word " * 149},                     # 1 min of prose
             {"cell_type": "code", "source": "x = 1", "outputs": [stream("line\n" * 15)]},     # a cell, 10 lines
             {"cell_type": "code", "source": "view()", "outputs": [widget]},                    # a cell and a widget
             {"cell_type": "markdown", "source": "### Exercise 1.1: a value"}]
    costs = chapter_times.cell_costs(cells, {"1.1": "value"})
    typed = 2 * chapter_times.CODE_CELL_MINUTES + chapter_times.WIDGET_MINUTES
    read = sum(c.minutes for c in costs) - typed
    assert sum(c.live_minutes for c in costs) == pytest.approx(typed * chapter_times.LIVE_FACTOR + read)
    assert chapter_times.LIVE_FACTOR > 1


def test_a_chapter_states_its_total_rounded_up_once_and_its_exercises_rounded_up():
    time = chapter_times.rounded("05", teaching=44.2, exercises=16.5, core=40.1, live=47.3)
    assert (time.total, time.exercises, time.teaching) == (65, 20, 45)
    assert (time.core, time.live) == (45, 50)
    assert time.total >= 44.2 + 16.5 and time.teaching + time.exercises == time.total


def test_an_exercise_heading_without_a_question_is_an_error():
    with pytest.raises(ValueError, match="exercise 9.9 has a heading but no question"):
        chapter_times.cell_costs([{"cell_type": "markdown", "source": "### Exercise 9.9: x"}], {})


def test_a_section_of_a_chapter_costs_its_title_and_its_live_minutes():
    sections = (chapter_times.Section("05 · The detector", False, 6.5), chapter_times.Section("A", False, 4.0),
                chapter_times.Section("B (optional)", True, 7.0))
    time = chapter_times.ChapterTime("05", 20, 10, 20, 20, sections)
    assert time.live_minutes(("A",)) == 15            # 6.5 + 4 rounded up
    assert time.live_minutes(("A", "B (optional)")) == 20
    with pytest.raises(ValueError, match="chapter 05 has no section headed 'C'"):
        time.live_minutes(("C",))
    five = TIMES["05"]
    assert [s.heading for s in five.sections][:2] == ["05 · The detector", "Two layers, one decision per turn"]
    assert any(s.optional and s.heading == "Per-tool overrides (optional)" for s in five.sections)


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.name)
def test_each_chapter_lists_the_prerequisites_the_plans_rely_on(path):
    title = source(load(path)["cells"][0])
    line = re.split(r"\*\*Prerequisites:\*\*|\*Assumes:\*", title, maxsplit=1)[1]  # a deep dive says what it assumes
    listed = set(re.findall(r"\[chapter (\d\d)\]", line.split("\n\n", 1)[0]))
    assert set(plans.PREREQUISITES[path.name[:2]]) <= listed
