"""The three scenarios of chapter 07, played through both models; expected decisions worked out by hand from the
upstream reports (issues #5243 and #5343, PR #5486) and chapter 05's rules."""

import pytest

from loopkit import DetectorConfig, PinnedMiddleware
from loopkit.teaching import versions


def column(rows, key):
    return [row[key] for row in rows]


def test_issue_5243_a_warning_hides_the_hard_limit_at_pinned_only():
    rows = versions.side_by_side("issue_5243")
    assert rows == [{"turn": 1, "run": "run", "calls": 3,
                     "pinned": "warn frequency read_file 2", "pinned runs": 3,
                     "later": "stop frequency read_file 3", "later runs": 0}]


def test_issue_5343_pinned_counts_earlier_turns_the_later_model_does_not():
    rows = versions.side_by_side("issue_5343")
    assert column(rows, "run") == [f"turn-{n}" for n in range(1, 6)]
    assert column(rows, "pinned") == ["ok", "ok", "warn hash 3", "ok", "stop hash 5"]  # the report's turns 3 and 5
    assert column(rows, "later") == ["ok"] * 5
    assert column(rows, "pinned runs") == [1, 1, 1, 1, 0]


def test_pr_5486_paging_warns_once_per_bucket_at_pinned_and_never_later():
    rows = versions.side_by_side("pr_5486")
    warned = [row["turn"] for row in rows if row["pinned"] != "ok"]
    assert warned == [3, 7, 11]  # the third 50-line page of each 200-line bucket
    assert set(column(rows, "later")) == {"ok"}


def test_a_config_passed_in_replaces_the_scenarios_own():
    rows = versions.side_by_side("issue_5243", DetectorConfig(tool_freq_warn=5, tool_freq_hard_limit=9))
    assert (rows[0]["pinned"], rows[0]["later"]) == ("ok", "ok")


def test_play_calls_before_and_after_agent_when_the_run_changes():
    calls = []

    class Recording(PinnedMiddleware):
        def before_agent(self, thread_id, run_id):
            calls.append(("before", run_id))
            super().before_agent(thread_id, run_id)

        def after_agent(self, thread_id, run_id):
            calls.append(("after", run_id))
            super().after_agent(thread_id, run_id)

    versions.play(versions.get("issue_5343"), Recording())
    assert calls == [(kind, f"turn-{n}") for n in range(1, 6) for kind in ("before", "after")]
    calls.clear()
    versions.play(versions.get("pr_5486"), Recording())
    assert calls == [("before", "run"), ("after", "run")]


def test_both_middlewares_are_fresh_per_call_and_unknown_names_are_listed():
    assert versions.side_by_side("issue_5343") == versions.side_by_side(versions.get("issue_5343"))
    with pytest.raises(KeyError, match="expected one of issue_5243, issue_5343, pr_5486"):
        versions.get("issue_1")



def test_a_scenario_shows_its_title_and_source_in_spanish_and_keeps_its_decisions(spanish):
    scenario = versions.get("issue_5343")
    assert scenario.title == "un agente reutilizado, una llamada por turno del usuario"
    assert scenario.source == "issue #5343, corregido por el PR #5344"
    assert scenario.english_title == "a reused agent, one call per user turn"
    # the decisions are code vocabulary: the same words in both languages
    assert column(versions.side_by_side(scenario), "pinned") == ["ok", "ok", "warn hash 3", "ok", "stop hash 5"]
