"""The workshop plans (tools/plans.py) keep the rules a room needs, and tools/plans.py refuses a plan that breaks
one: it fits its length, teaches what its chapters build on, has a launch buffer and a break, holds at least 15%
slack beyond its teaching time, reaches every outcome it promises, and a plan of three hours or more holds ten
minutes of hands-on replay. Each rule is shown to bite on a copy of a real plan broken on purpose."""

import dataclasses
import sys

import pytest

from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import chapter_times  # noqa: E402
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
    heading = next(s.heading for s in five.sections if s.optional)
    title = five.sections[0]
    only = plans.chapter("05", sections=(heading,))
    inside = title.live + next(s.live for s in five.sections if s.heading == heading)
    assert plans.slot_minutes(only, TIMES) == chapter_times.round_up(inside)
    assert five.live == chapter_times.round_up(sum(s.live for s in five.sections if not s.optional)), \
        "the live core path is the live minutes of the chapter's non-optional sections"


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
    # the 3-hour plan promises a per-tool override: without chapter 05's override section it breaks that promise
    three = PLAN["3-hour"]
    override = next(number for number, outcome in plans.OUTCOMES.items()
                    if any(need.section and "override" in need.section.lower() for need in outcome.needs))
    assert override in three.promises
    slots = tuple(dataclasses.replace(slot, sections=tuple(s for s in slot.sections if "override" not in s.lower()))
                  for slot in three.slots)
    message = refusal(dataclasses.replace(three, slots=slots))
    assert "rule 'promises kept'" in message and f"outcome {override}" in message


def test_a_three_hour_plan_without_ten_minutes_of_hands_on_replay_is_refused():
    plan = without(PLAN["3-hour"], kind="replay")
    message = refusal(dataclasses.replace(plan, slots=plan.slots + (plans.slack(10),)))
    assert "rule 'hands-on replay'" in message
    short = [slot if slot.kind != "replay" else dataclasses.replace(slot, minutes=5) for slot in PLAN["3-hour"].slots]
    assert "rule 'hands-on replay'" in refusal(dataclasses.replace(PLAN["3-hour"], slots=tuple(short)))


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
