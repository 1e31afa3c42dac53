"""The shared argument checks, the batch check, the clip helper, and the claim that every module words a bad count
the same way and raises the same exception type for the same kind of mistake."""

import math

import pytest

from loopkit import BoundedDict, DetectorConfig, PinnedMiddleware, read_bucket
from loopkit.core.batches import Batch, check_batches
from loopkit.core.checks import clip, require_instance, require_int, require_number, require_str, require_strs
from loopkit.teaching import boundaries as b
from loopkit.teaching.agent_loop import AgentLoop
from loopkit.teaching.collisions import collision_probability, find_prefix_collision, prefix_bits
from loopkit.teaching.eviction_race import run_script
from loopkit.traces import adapters
from loopkit.traces.adapters import iter_runs
from loopkit.traces.replay import replay_batches

CALL = {"name": "bash", "args": {"command": "ls"}}


@pytest.mark.parametrize("value", [True, 1.0, "1", None])
def test_require_int_refuses_what_is_not_an_int_with_type_error(value):
    with pytest.raises(TypeError, match=f"^n must be an int, got {type(value).__name__}$"):
        require_int("n", value)


def test_require_int_checks_both_ends():
    assert require_int("n", 1) == 1 and require_int("n", 0, at_least=0) == 0 and require_int("n", 5, at_most=5) == 5
    with pytest.raises(ValueError, match="^n must be at least 1, got 0$"):
        require_int("n", 0)
    with pytest.raises(ValueError, match="^n must be at most 5, got 6$"):
        require_int("n", 6, at_most=5)


def test_require_number_is_strict_at_both_ends_and_refuses_nan():
    assert require_number("p", 0.25, below=1) == 0.25 and require_number("t", 3) == 3
    for bad, says in ((0, "more than 0, got 0"), (-1.5, "more than 0"), (math.nan, "more than 0, got nan")):
        with pytest.raises(ValueError, match=f"^t must be {says}"):
            require_number("t", bad)
    with pytest.raises(ValueError, match="^p must be less than 1, got 1$"):
        require_number("p", 1, below=1)
    with pytest.raises(TypeError, match="^t must be a number, got bool$"):
        require_number("t", True)


def test_require_str():
    assert require_str("path", "a.py") == "a.py"
    with pytest.raises(TypeError, match="^path must be a str, got bytes$"):
        require_str("path", b"a.py")


def test_require_strs_refuses_a_single_str_and_names_the_bad_item():
    assert require_strs("names", iter(["A", "B"])) == ["A", "B"]
    with pytest.raises(TypeError, match=r"^names must be a collection of str, not a single str \(write \('AB',\)\)$"):
        require_strs("names", "AB")
    with pytest.raises(TypeError, match=r"^names\[1\] must be a str, got int$"):
        require_strs("names", ["A", 1])


def test_require_instance_names_the_type_and_whether_none_is_allowed():
    assert require_instance("d", {}, dict) == {} and require_instance("d", None, dict, or_none=True) is None
    with pytest.raises(TypeError, match="^d must be a dict, got NoneType$"):
        require_instance("d", None, dict)
    with pytest.raises(TypeError, match="^config must be a DetectorConfig or None, got dict$"):
        require_instance("config", {}, DetectorConfig, or_none=True)


def test_clip_keeps_the_width_and_marks_the_cut():
    assert clip("abc", 3) == "abc"
    assert clip("abcdefgh", 6) == "abc..." and len(clip("x" * 100, 48)) == 48
    assert clip("runs/a/long/name-42", 10, keep_end=True) == "...name-42"


# -- one wording across the modules --------------------------------------------------------------------------------

COUNT_ARGUMENTS = [
    ("maxsize", lambda v: BoundedDict(v)),
    ("maxsize", lambda v: run_script("get a", v)),
    ("warn_threshold", lambda v: DetectorConfig(warn_threshold=v, hard_limit=99)),
    ("bucket_size", lambda v: read_bucket("a.py", 1, 2, bucket_size=v)),
    ("max_bytes", lambda v: list(iter_runs("unused.jsonl", max_bytes=v))),
    ("bits", lambda v: collision_probability(10, v)),
    ("hex_chars", lambda v: prefix_bits(v)),
    ("max_tries", lambda v: find_prefix_collision(6, max_tries=v)),
    ("max_turns", lambda v: AgentLoop().run([[CALL]], max_turns=v)),
]


@pytest.mark.parametrize("name, call", COUNT_ARGUMENTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(COUNT_ARGUMENTS)])
def test_every_count_argument_is_checked_with_one_wording(name, call):
    with pytest.raises(TypeError, match=f"^{name} must be an int, got str$"):
        call("2")
    with pytest.raises(ValueError, match=f"^{name} must be at least 1, got 0$"):
        call(0)


TEXT_ARGUMENTS = [
    ("source", lambda v: b.trust_channel(v)),
    ("source", lambda v: b.frame_untrusted(v, "text")),
    ("text", lambda v: b.frame_untrusted("web_page", v)),
    ("framed", lambda v: b.read_frame(v)),
    ("instructions", lambda v: b.assemble_context(v, [])),
    ("name", lambda v: b.is_secret_name(v)),
    ("name", lambda v: b.deerflow_scrubs(v)),
    ("value", lambda v: b.deerflow_header_refusal(v)),
]


@pytest.mark.parametrize("name, call", TEXT_ARGUMENTS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(TEXT_ARGUMENTS)])
def test_every_text_argument_is_checked_with_one_wording(name, call):
    with pytest.raises(TypeError, match=f"^{name} must be a str, got int$"):
        call(3)


# -- batches ---------------------------------------------------------------------------------------------------------


def test_check_batches_reads_a_generator_once_and_copies_each_batch():
    batch = [CALL]
    checked = check_batches(b for b in [batch, (CALL, CALL)])
    assert checked == [[CALL], [CALL, CALL]] and checked[0] is not batch


@pytest.mark.parametrize("batches, error, says", [
    ("bash", TypeError, r"^script must be a list of batches \(each a list of tool calls\), got str$"),
    (CALL, TypeError, r"^script must be a list of batches"),
    ([CALL], TypeError, r"^script\[0\] is a single call \(a mapping\)"),
    ([[CALL], 3], TypeError, r"^script\[1\] must be a list of tool calls, got int$"),
    ([[CALL, "ls"]], TypeError, r"^script\[0\]\[1\] must be a mapping with 'name' and 'args', got str$"),
    ([[{"name": 3}]], TypeError, r"^script\[0\]\[0\]\['name'\] must be a str, got int$"),
])
def test_check_batches_names_the_first_bad_batch_or_call(batches, error, says):
    with pytest.raises(error, match=says):
        check_batches(batches, name="script")


def test_the_adapters_and_the_replay_share_one_batch_record():
    assert adapters.Batch is Batch
    read = Batch(7, "t.jsonl:12", [CALL])  # a batch read from a transcript keeps its step and location
    step = next(replay_batches([read, [CALL]], PinnedMiddleware()))
    assert (step.step, step.where) == (7, "t.jsonl:12")
