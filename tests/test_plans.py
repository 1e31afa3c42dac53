"""The workshop plans (notebooks/course.toml, read by tools/plans.py) keep the rules a room needs, and tools/plans.py
refuses a plan that breaks one: it fits its length, teaches what its chapters build on, has a launch buffer and a
break, holds at least 15% slack beyond its teaching time, reaches every outcome it promises (at least three), does
each live exercise in the cells it teaches, and a plan of three hours or more teaches the lifecycle and holds ten
minutes of hands-on replay. Every plan shows the whole game (chapter 00's warn and stop) after a live prediction, and
names no control its slot's views lack, in either language. Each rule is shown to bite on a copy of a real plan
broken on purpose."""

import dataclasses
import json
import re
import sys

import pytest
from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import chapter_times  # noqa: E402
import course  # noqa: E402
import plans  # noqa: E402

TIMES = chapter_times.all_times()
PLAN = {plan.name: plan for plan in plans.PLANS}


def teaching(plan):
    return sum(plans.slot_minutes(slot, TIMES) for slot in plan.slots if slot.kind in plans.TEACHING_KINDS)


def slack(plan):
    return sum(slot.minutes for slot in plan.slots if slot.kind == "slack")


def without(plan, kind=None, chapter=None):
    """``plan`` without its slots of ``kind`` (or for ``chapter``)."""
    kept = tuple(slot for slot in plan.slots if not (slot.kind == kind or (chapter and slot.chapter == chapter)))
    assert len(kept) < len(plan.slots), "nothing was removed: the test would prove nothing"
    return dataclasses.replace(plan, slots=kept)


def refusal(plan):
    with pytest.raises(ValueError) as refused:
        plans.check_plan(plan, TIMES)
    message = str(refused.value)
    assert f"the {plan.name} plan" in message
    return message


@pytest.mark.parametrize("name", sorted(PLAN))
def test_each_plan_keeps_every_rule(name):
    plan = PLAN[name]
    assert plans.problems(plan, TIMES) == []
    used = sum(plans.slot_minutes(slot, TIMES) for slot in plan.slots)
    assert used <= plan.length
    assert slack(plan) >= plans.SLACK_SHARE * teaching(plan), (slack(plan), teaching(plan))
    assert any(slot.kind == "launch buffer" for slot in plan.slots) and any(slot.kind == "break" for slot in plan.slots)


def test_the_3_hour_plan_has_ten_minutes_of_hands_on_replay_and_promises_it():
    plan = PLAN["3-hour"]
    replay = [slot for slot in plan.slots if slot.kind == "replay"]
    assert sum(slot.minutes for slot in replay) >= 10
    assert any(need.chapter is None for number in plan.promises for need in plans.OUTCOMES[number].needs), \
        "the 3-hour plan does not promise the outcome the replay reaches"


def test_a_chapter_slot_costs_its_live_core_path_and_a_section_slot_its_sections_and_title():
    five = TIMES["05"]
    assert plans.slot_minutes(plans.chapter("05"), TIMES) == five.live
    heading = next(s.heading for s in five.sections if not s.on_core_path)
    title = five.sections[0]
    only = plans.chapter("05", sections=(heading,))
    inside = title.live + next(s.live for s in five.sections if s.heading == heading)
    assert plans.slot_minutes(only, TIMES) == chapter_times.round_up(inside)
    assert five.live == chapter_times.round_up(sum(s.live for s in five.sections if s.on_core_path)), \
        "the live core path is the live minutes of the chapter's sections on the core path"


def test_a_plan_that_overruns_its_length_is_refused():
    plan = PLAN["90-minute"]
    longer = dataclasses.replace(plan, slots=plan.slots + (plans.slack(15),))
    assert "rule 'fits its length'" in refusal(longer)


def test_a_plan_that_leaves_a_prerequisite_to_self_study_is_refused():
    plan = without(PLAN["3-hour"], chapter="02")
    message = refusal(plan)
    assert "rule 'prerequisites taught'" in message and "chapter 03" in message and "'02'" in message


def test_a_plan_without_a_launch_buffer_or_a_break_is_refused():
    assert "no launch buffer" in refusal(without(PLAN["90-minute"], kind="launch buffer"))
    assert "no break" in refusal(without(PLAN["3-hour"], kind="break"))


def test_a_plan_whose_slack_is_under_15_percent_of_its_teaching_is_refused():
    plan = without(PLAN["3-hour"], kind="slack")
    message = refusal(dataclasses.replace(plan, slots=plan.slots + (plans.slack(5),)))
    assert "rule 'slack'" in message and f"{teaching(plan)} min of teaching" in message
    # a slot that is not named slack does not count as slack, however long the wrap-up
    padded = dataclasses.replace(plan, slots=plan.slots + (plans.wrap_up(25),))
    assert "rule 'slack'" in refusal(padded)


def test_a_plan_that_promises_an_outcome_it_does_not_reach_is_refused():
    plan = PLAN["90-minute"]
    promising_more = dataclasses.replace(plan, promises=plan.promises + (max(plans.OUTCOMES),))
    assert "rule 'promises kept'" in refusal(promising_more)
    # the 3-hour plan promises the lifecycle: without chapter 06's stop section it breaks that promise
    three = PLAN["3-hour"]
    lifecycle = next(number for number, outcome in plans.OUTCOMES.items()
                     if any(need.chapter == plans.LIFECYCLE for need in outcome.needs))
    assert lifecycle in three.promises
    stop = next(need.section for need in plans.OUTCOMES[lifecycle].needs if need.section and "stop" in need.section)
    slots = tuple(dataclasses.replace(slot, sections=tuple(s for s in slot.sections if s != stop))
                  for slot in three.slots)
    message = refusal(dataclasses.replace(three, slots=slots))
    assert "rule 'promises kept'" in message and f"outcome {lifecycle}" in message


def test_a_plan_that_promises_fewer_than_three_outcomes_is_refused():
    plan = PLAN["90-minute"]
    assert len(plan.promises) >= 3
    message = refusal(dataclasses.replace(plan, promises=plan.promises[:2]))
    assert "rule 'promises kept'" in message and "fewer than 3" in message


def test_a_three_hour_plan_without_ten_minutes_of_hands_on_replay_is_refused():
    plan = without(PLAN["3-hour"], kind="replay")
    message = refusal(dataclasses.replace(plan, slots=plan.slots + (plans.slack(10),)))
    assert "rule 'lifecycle and hands-on replay'" in message and "hands-on replay" in message
    short = [slot if slot.kind != "replay" else dataclasses.replace(slot, minutes=5) for slot in PLAN["3-hour"].slots]
    assert "rule 'lifecycle and hands-on replay'" in refusal(dataclasses.replace(PLAN["3-hour"], slots=tuple(short)))


def test_a_three_hour_plan_that_skips_the_lifecycle_is_refused():
    plan = PLAN["3-hour"]
    assert any(slot.chapter == plans.LIFECYCLE for slot in plan.slots if slot.kind == "chapter")
    message = refusal(without(plan, chapter=plans.LIFECYCLE))
    assert f"does not teach chapter {plans.LIFECYCLE}, the lifecycle" in message


def test_a_slot_that_does_an_exercise_its_cells_do_not_teach_is_refused():
    plan = PLAN["3-hour"]
    sliced = tuple(dataclasses.replace(slot, live=slot.live + ("4.3",)) if slot.chapter == "04" else slot
                   for slot in plan.slots)
    assert "rule 'live exercises taught'" in refusal(dataclasses.replace(plan, slots=sliced)), \
        "4.3 lies in a section the 3-hour plan's chapter 04 slot does not name"


def test_a_plan_that_names_a_section_its_chapter_lacks_is_refused():
    plan = PLAN["3-hour"]
    slots = tuple(dataclasses.replace(slot, sections=slot.sections + ("No such section",)) if slot.sections
                  else slot for slot in plan.slots)
    assert "has no section headed 'No such section'" in refusal(dataclasses.replace(plan, slots=slots))


def test_every_outcome_needs_only_chapters_and_sections_that_exist():
    for number, outcome in plans.OUTCOMES.items():
        for need in outcome.needs:
            if need.chapter is None:
                continue
            headings = {section.heading for section in TIMES[need.chapter].sections}
            assert need.section is None or need.section in headings, (number, need)


def test_both_guides_state_the_plans_and_outcomes_as_rendered():
    for language, path in plans.GUIDES.items():
        text = path.read_text(encoding="utf-8")
        assert plans.render_plans(text, TIMES, language) == text, f"run python tools/chapter_times.py --write ({path.name})"


def test_the_spanish_plans_are_in_spanish_and_keep_the_same_minutes():
    english, spanish = (plans.render_table(PLAN["3-hour"], TIMES, language) for language in ("en", "es"))
    assert "holgura" in spanish and "slack" not in spanish
    minutes = lambda table: [row.split("|")[3].strip() for row in table.splitlines()[2:]]  # noqa: E731
    assert minutes(english) == minutes(spanish)


# --- the whole game: every plan shows the detector warn and stop, after a live prediction -------------------------

@pytest.mark.parametrize("name", sorted(PLAN))
def test_each_plan_shows_the_whole_game_after_a_live_prediction(name):
    assert plans.whole_game_problem(PLAN[name], chapter_times.exercise_kinds()) is None


def _chapter_00(*tags):
    """A made-up chapter 00: a live prediction, then the whole game (the cell tagged), then a deep dive."""
    def cell(kind, text, tagged=()):
        return {"cell_type": kind, "source": text, "metadata": {"tags": list(tagged)}, "outputs": []}
    return [cell("markdown", "# 00 · Start here"), cell("code", 'set_language("en")'),
            cell("markdown", "## The whole game"), cell("markdown", "### Exercise 0.1: predict"),
            cell("code", "q1.check(____)"), cell("code", "replay(looping)", tags),
            cell("markdown", "## Deep dive: more"), cell("code", "more()")]


def test_the_whole_game_rule_refuses_a_plan_that_skips_it_or_shows_it_without_a_prediction(monkeypatch):
    real = course.cells_of
    monkeypatch.setattr(course, "cells_of", lambda number, track="en": _chapter_00("whole-game") if number == "00"
                        else real(number, track))
    kinds = chapter_times.exercise_kinds()
    assert kinds["0.1"] == "prediction"
    shown = plans.Plan("t", 30, (), (plans.chapter("00", live=("0.1",)),))
    assert plans.whole_game_problem(shown, kinds) is None
    unpredicted = plans.Plan("t", 30, (), (plans.chapter("00"),))
    assert "no prediction is done live" in plans.whole_game_problem(unpredicted, kinds)
    skipped = plans.Plan("t", 30, (), (plans.chapter("00", sections=("Deep dive: more",), live=("0.1",)),))
    assert "leave out the whole game (cells [5])" in plans.whole_game_problem(skipped, kinds)
    monkeypatch.setattr(course, "cells_of", lambda number, track="en": _chapter_00() if number == "00"
                        else real(number, track))
    assert "has no cell tagged 'whole-game'" in plans.whole_game_problem(shown, kinds)


# --- no plan names a control its slot lacks ----------------------------------------------------------------------

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SLIDERS = {"IntSliderModel", "FloatSliderModel", "IntRangeSliderModel", "FloatRangeSliderModel",
           "SelectionSliderModel", "SelectionRangeSliderModel", "FloatLogSliderModel"}
NUMBER_BOXES = {"IntTextModel", "BoundedIntTextModel", "FloatTextModel", "BoundedFloatTextModel"}
TEXT_BOXES = {"TextModel", "TextareaModel"}
CHOICES = {"DropdownModel", "SelectModel", "RadioButtonsModel", "ComboboxModel"}
BUTTONS = {"ButtonModel", "ToggleButtonModel", "ToggleButtonsModel", "FileUploadModel"}
CHECKBOXES = {"CheckboxModel"}
#: The words a plan may use for a control, in both languages, and the ipywidgets models each can mean. "Any" (None)
#: is a view of any kind.
CONTROL_WORDS = {
    r"\bsliders?\b|\bdrag|deslizador|deslizante|\barrastr": SLIDERS,
    r"number box|casillas? numéricas?|casillas? de número": NUMBER_BOXES,
    r"text box|text field|cuadros? de texto|campos? de texto": TEXT_BOXES,
    r"\bbox(?:es)?\b|\bcasillas?\b|\bcuadros?\b": NUMBER_BOXES | TEXT_BOXES | CHECKBOXES,
    r"dropdown|\bmenus?\b|\bpicker|desplegable|\bmenús?\b|\bselector": CHOICES,
    r"\bbuttons?\b|\bclick|\bpress\b|botón|botones|\bpulsa|\bclic\b": BUTTONS,
    r"check ?box|tick box|casilla de verificación": CHECKBOXES,
    r"\bviews?\b|\bwidgets?\b|\bvistas?\b": None,
}


def slot_controls(slot, track):
    """The ipywidgets models the views of a slot's cells hold, as stored in the track's chapter (its saved widget
    state): each view a cell displays, and every model it contains."""
    nb = json.loads(course.chapter_files(track)[slot.chapter].read_text(encoding="utf-8"))
    models = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    todo = [output["data"][WIDGET_VIEW]["model_id"] for index in plans.slot_cells(slot)
            for output in nb["cells"][index].get("outputs", []) if WIDGET_VIEW in output.get("data", {})]
    found, seen = set(), set()
    while todo:
        model_id = todo.pop()
        if model_id in seen or model_id not in models:
            continue
        seen.add(model_id)
        found.add(models[model_id]["model_name"])
        todo += [value.removeprefix("IPY_MODEL_") for value in json.dumps(models[model_id]["state"]).split('"')
                 if value.startswith("IPY_MODEL_")]
    return found


def missing_controls(slot, track):
    """The control words of a slot's note (in the track's language) that name a control its views lack."""
    note = slot.note(track).lower()
    controls = slot_controls(slot, track) if slot.chapter else set()
    return [match.group(0) for pattern, kinds in CONTROL_WORDS.items() for match in re.finditer(pattern, note)
            if not (controls - {"LayoutModel"} if kinds is None else controls & kinds)]


@pytest.mark.parametrize("track", ["en", "es"])
@pytest.mark.parametrize("name", sorted(PLAN))
def test_no_plan_names_a_control_its_slots_views_lack(name, track):
    lacking = {position: missing_controls(slot, track) for position, slot in enumerate(PLAN[name].slots, start=1)}
    assert not {k: v for k, v in lacking.items() if v}, f"the {name} plan ({track}) names controls its views lack"


def test_a_slot_that_says_drag_the_bucket_slider_over_number_boxes_is_refused():
    """Both plans once said it, in both languages, after chapter 02's sliders became number boxes."""
    old = plans.Text("Predict, then drag the bucket slider across line 200.",
                     "Predecid y después arrastrad el control de intervalo más allá de la línea 200.")
    slot = plans.chapter("02", old, live=("2.1",))
    assert slot_controls(slot, "en") & NUMBER_BOXES and not slot_controls(slot, "en") & SLIDERS
    assert missing_controls(slot, "en") == ["drag", "slider"]
    assert missing_controls(slot, "es") == ["arrastr"]
    words = plans.Text("Type line numbers into the number boxes.", "Escribid números en las casillas numéricas.")
    assert missing_controls(dataclasses.replace(slot, note=words), "en") == []
    assert missing_controls(dataclasses.replace(slot, note=words), "es") == []


# --- the plans are data -------------------------------------------------------------------------------------------

def test_a_slot_the_course_file_gets_wrong_is_named():
    notes = {"launch": {"en": "Open it.", "es": "Abridlo."}}
    with pytest.raises(ValueError, match="slot 3 has kind 'lunch'"):
        plans.read_slot({"kind": "lunch", "minutes": 5}, "slot 3", notes)
    with pytest.raises(ValueError, match="a chapter slot takes its minutes from the time model"):
        plans.read_slot({"kind": "chapter", "chapter": "01", "minutes": 15}, "slot 2", notes)
    with pytest.raises(ValueError, match="names the note 'lunch', which \\[notes\\] lacks"):
        plans.read_slot({"kind": "break", "minutes": 5, "note": "lunch"}, "slot 4", notes)
    with pytest.raises(ValueError, match="needs en and es"):
        plans.read_slot({"kind": "break", "minutes": 5, "note": {"en": "Rest."}}, "slot 4", notes)
    assert plans.read_slot({"kind": "launch buffer", "minutes": 10, "note": "launch"}, "slot 1", notes) == \
        plans.Slot("launch buffer", plans.Text("Open it.", "Abridlo."), minutes=10)
