"""The evade-the-detector checker and scorer. Wasted-step counts are worked out by hand from the rules in
loopkit.teaching.challenge's docstring."""

import pathlib

import pytest

from loopkit.core.detector import DetectorConfig
from loopkit.core.keys import stable_key
from loopkit.teaching.challenge import MAX_CALLS, MAX_STEPS, MIN_WASTED, check_loop, score
from loopkit.traces.adapters import load_trace

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"


def c(name, **args):
    return {"name": name, "args": args}


def steps(*calls):
    return [[call] for call in calls]


def wasted_steps(batches):
    return [step for step, wasted, _ in check_loop(batches).reasons if wasted]


# -- the checker's rules -----------------------------------------------------------------------------------------


def test_reads_are_wasted_only_when_every_line_was_read_since_the_last_change():
    a = "src/a.py"
    trace = steps(
        c("read_file", path=a, start_line=1, end_line=100),  # 1 new
        c("read_file", path=a, start_line=50, end_line=150),  # 2 new lines 101-150
        c("read_file", path=a, start_line=20, end_line=140),  # 3 wasted: inside 1-150
        c("read_file", path=a, start_line=140, end_line=151),  # 4 new: line 151
        c("write_file", path=a, content="x"),  # 5 change
        c("read_file", path=a, start_line=1, end_line=10),  # 6 new: the file changed
        c("read_file", path="./src/../src/a.py", start_line=2, end_line=9),  # 7 wasted: same path, normalized
        c("read_file", path="src/b.py"),  # 8 new: the whole of b
        c("read_file", path="src/b.py", start_line=500, end_line=900),  # 9 wasted: the whole file was read
        c("read_file", path="src/b.py", start_line=900, end_line=500),  # 10 wasted: reversed range, same lines
    )
    assert wasted_steps(trace) == [3, 7, 9, 10]


def test_commands_are_wasted_when_nothing_changed_since_they_last_ran():
    trace = steps(
        c("bash", command="pytest -x"),  # 1 new
        c("bash", command="pytest   -x"),  # 2 wasted: spacing
        c("bash", command="'pytest' -x"),  # 3 wasted: quoting
        c("bash", command="pytest -x -q"),  # 4 new: a different command
        c("str_replace", path="a.py", old_str="a", new_str="b"),  # 5 change
        c("bash", command="pytest -x"),  # 6 new: a file changed since step 1
        c("bash", command="pytest -x"),  # 7 wasted
        c("grep", pattern="TODO", path="./src"),  # 8 new
        c("grep", pattern="TODO", path="src"),  # 9 wasted: same path
        c("grep", pattern="TODO", path="src", timeout=5),  # 10 wasted: a timeout is no salient field
        c("grep", pattern="FIXME", path="src", timeout=5),  # 11 new: the pattern is salient
    )
    assert wasted_steps(trace) == [2, 3, 7, 9, 10]


# -- the same action as the detector's keys say (chapters 00 and 03): ignored arguments do not make a new call --


def test_a_rerun_that_rewords_only_its_description_truly_loops_and_deerflow_catches_it():
    reworded = steps(*[c("bash", command="pytest -x", description=f"run the tests, try {n}") for n in range(12)])
    check = check_loop(reworded)
    assert (check.steps, check.wasted, check.loops) == (12, 11, True)
    assert all("same meaning" in why for _, wasted, why in check.reasons if wasted)
    result = score(reworded)
    assert result.deerflow.action != "ok" and not result.evaded  # the detector keys bash by its command only


# Pairs of calls of one ordinary tool (no read_file, write_file or str_replace) written without spacing, quoting or
# ./ differences, so that only the choice of arguments tells them apart.
PAIRS = [
    (c("bash", command="pytest -q", description="run the tests"), c("bash", command="pytest -q", timeout=60)),
    (c("bash", command="rm -rf build", cwd="/home/me"), c("bash", command="rm -rf build", cwd="/")),
    (c("bash", command="pytest -q"), c("bash", command="pytest -x")),
    (c("search_code", query="TODO", max_results=5), c("search_code", query="TODO", max_results=50)),
    (c("run_sql", query="SELECT 1", params=[1]), c("run_sql", query="SELECT 1", params=[2])),
    (c("grep", pattern="TODO", glob="*.py", ignore_case=True), c("grep", pattern="TODO", glob="*.md")),
    (c("grep", pattern="TODO", path="src"), c("grep", pattern="TODO", path="src", description="again")),
    (c("ls", path="src"), c("ls", path="tests")),
    (c("run_tests", suite="unit"), c("run_tests", suite="e2e")),
    (c("run_tests", suite="unit", description="a"), c("run_tests", suite="unit", description="b")),
    (c("run_tests", suite="unit"), c("run_tests", suite="unit")),
]


@pytest.mark.parametrize("first, second", PAIRS)
def test_a_call_repeats_exactly_when_the_detector_keys_it_the_same(first, second):
    """The checker calls the second call a repeat (wasted: nothing changed in between) exactly when stable_key, the
    detector's key, gives both calls the same key: a changed salient field is new work, a changed ignored one is
    not, and a tool without salient fields is keyed by all of its arguments."""
    same_key = stable_key(first["name"], first["args"]) == stable_key(second["name"], second["args"])
    assert wasted_steps(steps(first, second)) == ([2] if same_key else [])


def test_the_pairs_hold_both_kinds_of_answer():
    keys_agree = [stable_key(a["name"], a["args"]) == stable_key(b["name"], b["args"]) for a, b in PAIRS]
    assert keys_agree.count(True) >= 4 and keys_agree.count(False) >= 4


def test_meaning_is_still_normalized_in_the_fields_that_count():
    trace = steps(c("bash", command="pytest  -x", description="first"), c("bash", command="'pytest' -x", timeout=9),
                  c("grep", pattern="TODO", path="./src", limit=3), c("grep", pattern="TODO", path="src"))
    assert wasted_steps(trace) == [2, 4]


def test_writes_and_edits_that_change_nothing_are_wasted():
    trace = steps(
        c("write_file", path="a.py", content="v1"),  # 1 new
        c("write_file", path="./a.py", content="v1"),  # 2 wasted: same content
        c("write_file", path="a.py", content="v2"),  # 3 change
        c("str_replace", path="a.py", old_str="v", new_str="v"),  # 4 wasted: changes nothing
        c("str_replace", path="a.py", old_str="v2", new_str="v3"),  # 5 change
        c("str_replace", path="a.py", old_str="v3", new_str="v2"),  # 6 change (an undo)
        c("str_replace", path="a.py", old_str="v2", new_str="v3"),  # 7 wasted: a redo of step 5
        c("write_file", path="a.py", content="v2"),  # 8 change: edits were made since the last full write
        c("str_replace", path="a.py", old_str="v2", new_str="v3"),  # 9 change: the edits were reset by the write
    )
    assert wasted_steps(trace) == [2, 4, 7]


def test_lookups_repeat_regardless_of_local_changes():
    trace = steps(
        c("web_search", query="ISO week numbers"),  # 1 new
        c("write_file", path="a.py", content="x"),  # 2 change
        c("web_search", query="iso  week numbers"),  # 3 wasted: case and spacing
        c("web_fetch", url="https://docs.python.org/3/"),  # 4 new
        c("web_fetch", url="https://docs.python.org/3"),  # 5 wasted: trailing slash
    )
    assert wasted_steps(trace) == [3, 5]


def test_local_lookups_repeated_after_a_change_are_progress():
    # a query to a local tool (a code search) is re-run like a command: after an edit it may find something new
    trace = steps(
        c("search_code", query="TODO"),  # 1 new
        c("search_code", query="TODO"),  # 2 wasted: nothing changed
        c("write_file", path="a.py", content="# TODO: x"),  # 3 change
        c("search_code", query="TODO"),  # 4 progress: a file changed since step 1
        c("search_code", query="TODO"),  # 5 wasted
        c("search_code", query="todo"),  # 6 progress: a code search may be case-sensitive
    )
    assert wasted_steps(trace) == [2, 5]
    assert "again after a change" in check_loop(trace).reasons[3][2]


def test_writes_and_edits_with_common_key_aliases():
    trace = steps(*[c("write_file", file_path=f"src/m{i}.py", text=f"v{i}") for i in range(12)])
    assert wasted_steps(trace) == []  # twelve different files: honest progress
    trace = steps(
        c("write_file", file_path="a.py", text="v1"),  # 1 new
        c("write_file", path="./a.py", contents="v1"),  # 2 wasted: same file, same content
        c("str_replace", file_path="a.py", old_string="v1", new_string="v2"),  # 3 change
        c("str_replace", path="a.py", old_str="v1", new_str="v2"),  # 4 wasted: the same edit again
        c("str_replace", path="a.py", old_string="v2", new_string="v2"),  # 5 wasted: changes nothing
        c("read_file", file_path="a.py"),  # 6 new
        c("read_file", path="a.py", start_line=3, end_line=9),  # 7 wasted: the whole file was read
    )
    assert wasted_steps(trace) == [2, 4, 5, 7]


def test_unknown_shapes_count_as_progress():
    trace = steps(
        c("str_replace", path="a.py", old="x", new="y"),  # 1 progress: which text changes is unknown
        c("str_replace", path="a.py", old="x", new="y"),  # 2 progress: unknown, so maybe a change
        c("write_file", path="b.py"),  # 3 progress: no content
        c("write_file", content="z"),  # 4 progress: no path
        c("write_file", path="a.py", content="z", mode="a"),  # 5 progress: an unknown option (append?)
        c("write_file", path="a.py", content="z", mode="a"),  # 6 progress
        c("read_file", path="a.py", offset=1, limit=50),  # 7 progress: an unknown range
        c("read_file", path="a.py", offset=51, limit=50),  # 8 progress: a different unknown range
        c("read_file", path="a.py", offset=51, limit=50),  # 9 wasted: the very same read, nothing changed
        c("read_file", file="a.py"),  # 10 progress: no path we know
        c("bash", command="pytest"),  # 11 new
        c("str_replace", path="a.py", old="x", new="y"),  # 12 an unknown edit counts as a change...
        c("bash", command="pytest"),  # 13 ...so re-running the test is progress
    )
    assert wasted_steps(trace) == [9]


def test_a_step_is_wasted_only_if_every_call_in_it_is():
    trace = [[c("ls", path=".")], [c("ls", path="."), c("read_file", path="a.py")], [c("ls", path="."), c("read_file", path="a.py")]]
    assert wasted_steps(trace) == [3]
    reasons = check_loop(trace).reasons
    assert reasons[1] == (2, False, "new lines 1-end of a.py")
    assert reasons[2][1] is True and "ls ran with the same meaning" in reasons[2][2]


def test_json_string_arguments_are_read_like_dicts():
    trace = [[{"name": "bash", "args": '{"command": "make"}'}], [{"name": "bash", "args": {"command": "make"}}]]
    assert wasted_steps(trace) == [2]


@pytest.mark.parametrize("wasted, progress, loops", [(10, 10, True), (9, 1, False), (10, 11, False), (11, 11, True)])
def test_loop_threshold_is_ten_wasted_and_at_least_half(wasted, progress, loops):
    trace = steps(c("bash", command="make")) + steps(*[c("bash", command="make")] * wasted)
    trace += steps(*[c("read_file", path=f"f{i}.py") for i in range(progress - 1)])
    check = check_loop(trace)
    assert (check.wasted, check.steps, check.loops) == (wasted, wasted + progress, loops)
    assert MIN_WASTED == 10


@pytest.mark.parametrize(
    "batches, error, says",
    [
        ([], ValueError, "batches is empty"),
        ([[c("ls")]] * (MAX_STEPS + 1), ValueError, f"at most {MAX_STEPS}"),
        ([[c("ls")], []], ValueError, "batch 2 has 0 calls"),
        ([[c("ls")] * (MAX_CALLS + 1)], ValueError, f"batch 1 has {MAX_CALLS + 1} calls"),
        ([[{"args": {}}]], ValueError, "batch 1, call 0 needs a non-empty string 'name'"),
        ("bash", TypeError, "batches must be a list of batches"),
        ([["bash"]], TypeError, r"batches\[0\]\[0\] must be a mapping"),
    ],
)
def test_bad_entries_are_named(batches, error, says):
    with pytest.raises(error, match=says):
        check_loop(batches)


# -- the scorer --------------------------------------------------------------------------------------------------

# Ten different actions, each repeated every 10 steps: a fingerprint never occurs 3 times in 20 batches, and no tool
# is called 30 times in 50 calls (read_file 3 in 10). Reads of src/a.py sit in buckets 0-0 and 1-1.
CYCLE = [
    c("read_file", path="src/a.py", start_line=1, end_line=100), c("bash", command="pytest -x"),
    c("grep", pattern="TODO", path="src"), c("read_file", path="src/b.py"), c("bash", command="make lint"),
    c("ls", path="src"), c("read_file", path="src/a.py", start_line=201, end_line=300),
    c("web_search", query="iso week python"), c("glob", pattern="**/*.py"), c("bash", command="git status"),
]


def test_a_long_cycle_evades_deerflow_and_every_peer():
    result = score(steps(*CYCLE * 6))
    assert result.check.loops and result.check.wasted == 50  # every step after the first cycle
    assert result.evaded and result.points == 50
    assert result.deerflow.action == "ok" and all(p.action == "ok" for p in result.peers)
    assert str(result).splitlines() == [
        "Checker: 60 steps, 50 wasted: it truly loops.",
        "DeerFlow: never warned, never stopped.",
        "You evaded DeerFlow's detector. Score: 50 wasted steps.",
        "Peers that would have caught it: none.",
    ]


def test_a_tighter_detector_warns_on_the_same_cycle():
    result = score(steps(*CYCLE * 6), DetectorConfig(warn_threshold=2, hard_limit=4))
    assert result.check.loops and not result.evaded and result.points == 0
    # CYCLE[0] comes at steps 1, 11, 21...: its count reaches 2 at step 11 (warn), but a 20-batch window never
    # holds three of them, so hard_limit 4 is never reached
    assert (result.deerflow.warn_step, result.deerflow.stop_step) == (11, None)


def test_exact_repeat_is_caught_and_named_peers_too():
    result = score(steps(*[c("bash", command="pytest -x")] * 12))
    assert result.check.wasted == 11 and not result.evaded and result.points == 0
    # OpenCode at 9c094ad5 only compares calls within one response, and here each response holds one call
    assert [p.detector for p in result.peers if p.action != "ok"] == ["Gemini CLI", "OpenHands", "Roo Code", "Cline"]
    assert str(result).splitlines()[1:3] == ["DeerFlow: warned at step 3, stopped at step 5.",
                                             "DeerFlow caught it. Score: 0."]


def test_progress_is_not_a_loop_so_nothing_is_evaded():
    result = score(steps(*[c("read_file", path=f"f{i}.py") for i in range(20)]))
    assert not result.check.loops and not result.evaded and result.points == 0
    assert "nothing to evade" in str(result)


def test_the_sample_sessions():
    looping = check_loop(load_trace(DATA / "coding_loop.openai_chat.jsonl").batches)
    # steps 8, 10, 12, ... re-run the unchanged test; 9, 13, 15, 17, 19 re-read lines already read since the edit
    assert [s for s, w, _ in looping.reasons if w] == [8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19, 20]
    assert looping.loops
    honest = check_loop(load_trace(DATA / "coding_progress.anthropic.json").batches)
    assert (honest.wasted, honest.loops) == (0, False)


# -- one-shot iterables ------------------------------------------------------------------------------------------


def test_a_generator_scores_like_the_list_it_yields():
    # a one-shot iterable must be read once: the checker and every detector judge the same 12 steps
    rerun = [[{"name": "bash", "args": {"command": "pytest -x"}}]] * 12
    result = score(iter(rerun))
    assert (result.check.steps, result.check.wasted) == (12, 11)
    assert (result.deerflow.warn_step, result.deerflow.stop_step) == (3, 5)
    assert not result.evaded and result.points == 0
    assert str(result) == str(score(rerun))
    # batches that are themselves one-shot iterables too
    assert str(score(iter(iter(batch) for batch in rerun))) == str(score(rerun))


# -- in Spanish ----------------------------------------------------------------------------------------------------



def test_the_score_and_the_reasons_speak_spanish(spanish):
    rerun = steps(*[c("bash", command="pytest -x")] * 12)
    assert str(score(rerun)).splitlines() == [
        "Comprobador: 12 pasos, 11 desperdiciados: de verdad es un bucle.",
        "DeerFlow: avisó en el paso 3, paró en el paso 5.",
        "DeerFlow lo detectó. Puntuación: 0.",
        "Agentes vecinos que lo habrían detectado: Gemini CLI (stop en el paso 6), OpenHands (stop en el paso 4), "
        "Roo Code (stop en el paso 4), Cline (stop en el paso 5).",
    ]
    reads = check_loop(steps(c("read_file", path="a.py"), c("read_file", path="./a.py", start_line=3, end_line=9)))
    assert [why for _, _, why in reads.reasons] == ["líneas nuevas 1-fin de a.py",
                                                    "las líneas 3-9 de a.py ya se habían leído"]
    assert str(reads) == ("2 pasos, 1 desperdiciados: no es un bucle (un bucle necesita al menos 10 pasos "
                          "desperdiciados).")
    quiet = [[c("read_file", path=f"m{i}.py")] for i in range(3)]
    assert str(score(quiet)).splitlines()[1:] == [
        "DeerFlow: nunca avisó, nunca paró.",
        "El comprobador no lo considera un bucle, así que no hay nada que esquivar. Puntuación: 0.",
        "Agentes vecinos que lo habrían detectado: ninguno.",
    ]
