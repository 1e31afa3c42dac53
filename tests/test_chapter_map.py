"""Chapter times come from one model (tools/chapter_times.py), the course's shape from one file
(notebooks/course.toml, read by tools/course.py), and every place that states either agrees with them: each chapter's
title cell, the course map (the README's, chapter 00's map cell, and in Spanish docs/es/README.md's and the Spanish
chapter 00's), the plans in both instructor guides, and the rates and estimate table of docs/time-model.md. The core
course fits its two hours, chapter 00 shows the whole game within its first 15 minutes, and the course file lists
exactly the sections and deep dives the chapters have. Each of the model's terms is checked on cells built for it,
and every stated time lies within 15% of a careful estimate. (The plans' rules: tests/test_plans.py; the paths:
tests/test_paths.py.)"""

import copy
import re
import sys

import pytest
from notebook_tools import ROOT, all_chapters, chapters, load, source

sys.path.insert(0, str(ROOT / "tools"))
import chapter_times  # noqa: E402
import course  # noqa: E402
import plans  # noqa: E402

TIMES = chapter_times.all_times()
MAP_PAGES = {"README.md": ("en", ROOT / "README.md"), "docs/es/README.md": ("es", ROOT / "docs" / "es" / "README.md")}
CORE_ROW = re.compile(r"^\| (\d\d) \| \[[^\]]+\]\(([^)]+)\) \| .+? \| (\d+) min \| (\d+) min \|$", re.M)
TOTAL_ROW = re.compile(r"^\| \| \*\*[^*]+\*\* \| \| \*\*(\d+) min\*\* \| \|$", re.M)
DIVE_ROW = re.compile(r"^\| (\d\d) \| \[[^\]]+\]\(([^)#]+)\)(.*) \| (\d+) min \|$", re.M)


def course_map(text):
    """The map between a page's <!-- course-map --> markers."""
    return text.split("<!-- course-map -->", 1)[1].split("<!-- /course-map -->", 1)[0]


def map_texts():
    """Each place that shows the course map: (where, track, the map's text)."""
    found = [(where, track, course_map(path.read_text(encoding="utf-8"))) for where, (track, path) in MAP_PAGES.items()]
    for track in course.FOLDERS:
        start = course.chapter_files(track)["00"]
        cell = next(source(c) for c in load(start)["cells"] if "<!-- course-map -->" in source(c))
        found.append((start.name, track, course_map(cell)))
    return found


def stated_core(number):
    """The core-path minutes chapter ``number``'s title cell states (read from the cell, not from the model)."""
    title = source(load(next(p for p in chapters() if p.name.startswith(number)))["cells"][0])
    return int(re.search(r"core path (\d+)\)", title).group(1))


@pytest.mark.parametrize("where, track, text", map_texts(), ids=lambda v: v if isinstance(v, str) and "|" not in v
                         else None)
def test_each_map_shows_the_core_course_first_in_order_then_every_deep_dive(where, track, text):
    core_rows = CORE_ROW.findall(text)
    assert [row[0] for row in core_rows] == course.core_course(), f"{where}: the core course's chapters, in order"
    for number, target, core, _whole in core_rows:
        assert target.endswith(course.chapter_files(track)[number].name), f"{where}: chapter {number} links {target}"
        assert int(core) == stated_core(number), f"{where}: chapter {number}'s core path"
    total = TOTAL_ROW.search(text)
    assert total and int(total.group(1)) == sum(int(row[2]) for row in core_rows), f"{where}: the total row"
    after = text[total.end():]
    assert not CORE_ROW.search(after) and DIVE_ROW.search(after), f"{where}: the core course, then the deep dives"
    dives = [(row[0], row[2]) for row in DIVE_ROW.findall(after)]
    whole = [number for number, rest in dives if "](" not in rest]
    assert whole == [e["number"] for e in course.declared_chapters() if not e.get("core", True)], where
    sections = [(number, rest) for number, rest in dives if "](" in rest]
    found = [(number, d.heading) for number in course.chapter_files() for d in course.deep_dives(course.cells_of(number))]
    assert len(sections) == len(found), f"{where}: the map lists {len(sections)} deep-dive sections, chapters have {len(found)}"


def test_the_core_course_is_the_core_paths_of_00_to_06_and_10_in_that_order():
    assert course.core_course() == ["00", "01", "02", "03", "04", "05", "06", "10"]
    assert {e["number"] for e in course.declared_chapters()} == {p.name[:2] for p in chapters()}, \
        "every chapter has one entry in notebooks/course.toml"


def test_the_core_course_takes_at_most_120_minutes_and_each_chapter_keeps_its_budget():
    limit = course.course()["limit"]
    assert limit == 120
    over = {n: (TIMES[n].core, course.declared(n)["budget"]) for n in course.core_course()
            if TIMES[n].core > course.declared(n)["budget"]}
    total = sum(stated_core(number) for number in course.core_course())
    assert total <= limit and not over, f"the core course takes {total} min (at most {limit}); over budget: {over}"


def test_chapter_00_shows_the_whole_game_within_its_first_15_minutes():
    game = course.course()["whole_game"]
    reached = chapter_times.whole_game_minutes()
    assert reached, f"no cell of chapter {game['chapter']} is tagged {game['tag']!r}"
    late = {cell: minute for cell, minute in reached.items() if minute is None or minute > game["within"]}
    assert not late, f"cells tagged {game['tag']!r} reached after minute {game['within']} (None: off the core path): {late}"


def test_the_minute_a_cell_is_reached_counts_the_core_path_up_to_it():
    cells = [{"cell_type": "markdown", "source": "# T\n" + "word " * 148},                        # 1 min
             {"cell_type": "code", "source": "x = 1", "outputs": []},                            # 0.75
             {"cell_type": "markdown", "source": "## Deep dive: aside\n" + "word " * 146},      # 1, off the path
             {"cell_type": "code", "source": "y = 2", "outputs": []},                            # 0.75, off the path
             {"cell_type": "markdown", "source": "## Back\n" + "word " * 148},                  # 1
             {"cell_type": "code", "source": "z = 3", "outputs": []}]                            # 0.75
    costs = chapter_times.cell_costs(cells, {})
    assert chapter_times.minute_reached(costs, 1) == pytest.approx(1.75)
    assert chapter_times.minute_reached(costs, 5) == pytest.approx(1.75 + 1 + 0.75)


def _declared_lists(number):
    cells = course.cells_of(number)
    core = [s.heading for s in course.sections(cells) if s.level == 2 and s.place == "core"]
    return core, [d.heading for d in course.deep_dives(cells)]


def declared_mismatches(entries):
    """For each chapter whose entry lists other core sections or deep dives than its headings say, the difference."""
    found = {}
    for entry in entries:
        core, dives = _declared_lists(entry["number"])
        if entry.get("sections") != core or entry.get("deep_dives") != dives:
            found[entry["number"]] = {"file": (entry.get("sections"), entry.get("deep_dives")), "chapter": (core, dives)}
    return found


def test_the_course_file_lists_exactly_the_core_sections_and_deep_dives_the_chapters_have():
    assert declared_mismatches(course.declared_chapters()) == {}, "update notebooks/course.toml"


def test_a_deep_dive_the_file_lacks_or_one_the_chapter_lacks_is_caught():
    entries = copy.deepcopy(course.declared_chapters())
    with_dives = next(e for e in entries if e["deep_dives"])
    with_dives["deep_dives"] = with_dives["deep_dives"][1:]                       # the file lacks one
    other = next(e for e in entries if e is not with_dives)
    other["deep_dives"] = other["deep_dives"] + ["Deep dive: nothing of the sort"]  # the chapter lacks one
    assert set(declared_mismatches(entries)) == {with_dives["number"], other["number"]}


def test_every_deep_dive_says_what_it_assumes_and_its_spanish_twin_is_a_fondo():
    for number in course.chapter_files():
        for dive in course.deep_dives(course.cells_of(number)):
            opening = "\n".join(source(course.cells_of(number)[i]) for i in dive.cells[:2])
            assert "*Assumes:*" in opening, f"chapter {number}'s {dive.heading!r} does not say what it assumes"
            there = course.heading_in("es", number, dive.heading)
            assert there.startswith(course.DEEP_DIVE_PREFIX["es"]), f"chapter {number}'s twin heads it {there!r}"
            twin = "\n".join(source(course.cells_of(number, "es")[i]) for i in dive.cells[:2])
            assert "*Supone:*" in twin, f"chapter {number}'s twin of {dive.heading!r} does not say what it assumes"


def test_no_chapter_marks_a_section_optional_any_more():
    """The "(optional)" mark gave way to "## Deep dive:" (issue 31), and tools/course.py no longer reads it: a heading
    marked so would now sit on the core path, so no heading of either track may carry it."""
    marked = [(path.name, line) for path in all_chapters() for cell in load(path)["cells"] if cell["cell_type"] == "markdown"
              for line in source(cell).splitlines()
              if line.startswith("#") and re.search(r"\((?:optional|opcional)\)\s*$", line, re.IGNORECASE)]
    assert not marked, f"headings still marked optional: {marked}"


def test_the_spanish_time_line_states_the_same_numbers():
    time = chapter_times.ChapterTime("05", 35, 20, 35, 40)
    assert time.title_line() == "Time: 55 min (teaching 35, exercises 20; core path 35)"
    assert time.title_line("es") == "Tiempo: 55 min (enseñanza 35, ejercicios 20; ruta básica 35)"
    stale = chapter_times._fix_title("# 05\n\nTiempo: 50 min (enseñanza 30, ejercicios 20; ruta básica 35)", time, "es")
    assert "Tiempo: 55 min (enseñanza 35" in stale


def test_every_stated_time_is_the_models():
    stale = chapter_times.stale_places(TIMES)
    assert not stale, f"run `python tools/chapter_times.py --write`: {stale}"
    for number, time in TIMES.items():
        title = source(load(next(p for p in chapters() if p.name.startswith(number)))["cells"][0])
        assert time.title_line() in title


def test_a_stale_map_is_found():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = readme.replace("| **", "| **1", 1)
    assert chapter_times._fix_map(stale, chapter_times.render_map(TIMES, "en", "notebooks/")) == readme


def test_the_course_map_is_looked_up_not_read():
    words = "word " * 300
    plain = chapter_times.cell_costs([{"cell_type": "markdown", "source": "## Map\n\n" + words}], {})
    mapped = chapter_times.cell_costs([{"cell_type": "markdown",
                                        "source": f"## Map\n\n<!-- course-map -->\n{words}<!-- /course-map -->"}], {})
    assert sum(c.minutes for c in plain) == pytest.approx(302 / 150)
    assert sum(c.minutes for c in mapped) == pytest.approx(2 / 150)


def test_every_stated_time_lies_within_15_percent_of_its_careful_estimate():
    page = chapter_times.TIME_MODEL_PAGE.read_text(encoding="utf-8")
    table = chapter_times.estimates(page)
    assert set(table) == set(TIMES) | {"all"}, "the estimate table must have a row for every chapter and one for all"
    for chapter, (stated, low, high) in table.items():
        model = sum(t.total for t in TIMES.values()) if chapter == "all" else TIMES[chapter].total
        assert stated == model, f"{chapter}: the table states {stated}, the model {model}"
        assert low <= high
        middle = (low + high) / 2
        assert abs(stated - middle) <= chapter_times.ESTIMATE_TOLERANCE * middle, \
            f"chapter {chapter} states {stated} min, more than 15% from its estimate {low}-{high}"


def test_the_time_model_page_states_the_models_rates():
    page = chapter_times.TIME_MODEL_PAGE.read_text(encoding="utf-8")
    assert chapter_times.rates_table() in page
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
        {"cell_type": "markdown", "source": "## Deep dive: extra\n" + "word " * 146},            # 150 words: 1
        {"cell_type": "code", "source": "y = 2", "outputs": []},                                  # 0.75, off the path
        {"cell_type": "markdown", "source": "### Exercise 1.2: a function"},                      # 7.5, off the path
        {"cell_type": "markdown", "source": "## Back on the path\n" + "word " * 145},             # 150 words: 1
    ]
    costs = chapter_times.cell_costs(cells, {"1.1": "value", "1.2": "function"})
    teaching = sum(c.minutes for c in costs if c.part == "teaching")
    exercises = sum(c.minutes for c in costs if c.part == "exercises")
    outside = sum(c.minutes for c in costs if not c.on_core_path)
    headings = 5 + 5   # the two exercise headings' words
    assert teaching == pytest.approx(2 + 0.75 + 0.75 + 4 + 1 + 0.75 + 1 + headings / 150)
    assert exercises == 3 + 7.5
    assert outside == pytest.approx(1 + 0.75 + 7.5 + 5 / 150)
    assert [c.place for c in costs if c.term == "exercise"] == ["core", "deep dive"]
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
    assert all(c.place == "checklist" for c in costs if c.term == "upstream"), "the checklist is off the core path"
    assert not any(c.on_core_path for c in costs[1:]), "everything under the checklist heading is the checklist's"


def test_each_idea_the_glossary_says_a_chapter_teaches_costs_a_first_contact_on_its_core_path():
    glossary = ("# Glossary\n\n**Batch** (03). The calls of one turn.\n\n**Bucket**, read bucket (02). 200 lines.\n\n"
                "**False positive / false negative** (02, 03, 05). Honest work called a loop.\n\n"
                "**nbval** (tests). A pytest plugin.\n")
    assert chapter_times.taught_ideas(glossary) == {"03": ["Batch"], "02": ["Bucket", "False positive / false negative"]}
    cells = [{"cell_type": "markdown", "source": "# 02 · Read buckets\n\nText."}]
    costs = chapter_times.chapter_costs(cells, {}, ["Bucket", "False positive / false negative"])
    ideas = [c for c in costs if c.term == "new idea"]
    assert sum(c.minutes for c in ideas) == pytest.approx(2 * chapter_times.NEW_IDEA_MINUTES)
    assert all(c.on_core_path for c in ideas), "a term the chapter names nowhere past its title is charged there"


def test_a_new_idea_is_charged_where_the_chapter_first_names_it_core_or_deep_dive():
    cells = [{"cell_type": "markdown", "source": "# 03 · Fingerprints\n\nObjectives: the birthday bound."},
             {"cell_type": "markdown", "source": "## One call, one entry\n\nEach call becomes an entry."},
             {"cell_type": "markdown", "source": "## Deep dive: 12 hex characters\n\nThe *birthday bound* says..."},
             {"cell_type": "markdown", "source": "## Key takeaways\n\nBirthday bounds again."}]
    ideas = [c for c in chapter_times.chapter_costs(cells, {}, ["Birthday bound", "Entry"]) if c.term == "new idea"]
    assert [(c.place, c.cell) for c in ideas] == [("deep dive", 2), ("core", 1)]


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
    sections = (chapter_times.Section("05 · The detector", "title", 6.5), chapter_times.Section("A", "core", 4.0),
                chapter_times.Section("Deep dive: B", "deep dive", 7.0))
    time = chapter_times.ChapterTime("05", 20, 10, 20, 20, sections)
    assert time.live_minutes(("A",)) == 15            # 6.5 + 4 rounded up
    assert time.live_minutes(("A", "Deep dive: B")) == 20
    with pytest.raises(ValueError, match="chapter 05 has no section headed 'C'"):
        time.live_minutes(("C",))
    five = TIMES["05"]
    assert [s.heading for s in five.sections][:2] == ["05 · The detector", "Two layers, one decision per turn"]
    assert any(not s.on_core_path for s in five.sections), "chapter 05 has a deep dive"


@pytest.mark.parametrize("path", chapters(), ids=lambda p: p.name)
def test_each_chapter_lists_the_prerequisites_the_plans_rely_on(path):
    title = source(load(path)["cells"][0])
    line = re.search(r"^\*{1,2}(?:Prerequisites|Assumes):\*{1,2}(.*?)(?:\n\n|\Z)", title, re.M | re.S)
    assert line, f"{path.name}: the title cell has no Prerequisites or Assumes line"
    listed = set(re.findall(r"\[chapter (\d\d)\]", line.group(1)))
    assert set(plans.PREREQUISITES[path.name[:2]]) <= listed
