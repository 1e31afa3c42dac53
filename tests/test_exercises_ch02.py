"""Chapter 02: each reference answer is computed with read_bucket, and each listed slip is what a plausible wrong
bucket rule gives."""

from loopkit import read_bucket
from loopkit.teaching.exercises import ch02


def off_by_one_bucket(path, start, end):
    """The slip of dividing without subtracting 1 first: line 200 would open bucket 1."""
    lo, hi = sorted((max(start, 1), max(end, 1)))
    return f"{path}:{lo // 200}-{hi // 200}"


def test_2_1_the_key_of_a_read_from_line_350_changes_at_line_401():
    first_new = next(end for end in range(350, 1000) if read_bucket("a.py", 350, end) != "a.py:1-1")
    assert first_new == ch02.q1.solution_value == 401
    assert read_bucket("a.py", 350, 360) == "a.py:1-1"                        # the question's premise
    slip = next(end for end in range(350, 1000) if off_by_one_bucket("a.py", 350, end) != "a.py:1-1")
    assert slip == 400 and slip in ch02.q1.wrong_answers
    assert 350 + 200 in ch02.q1.wrong_answers  # the "200-line window from the start of the read" slip
    last_of_bucket_2 = max(end for end in range(350, 1000) if read_bucket("a.py", 350, end) == "a.py:1-2")
    assert last_of_bucket_2 == 600 and 600 in ch02.q1.wrong_answers
    assert next(end for end in range(150, 1000) if read_bucket("a.py", 150, end) != "a.py:0-0") == 201
    assert 201 in ch02.q1.wrong_answers  # the answer of the chapter's bucket-0 example, not of this read


def test_2_2_a_reversed_range_is_sorted_before_bucketing():
    assert read_bucket("src/app.py", 400, 150) == read_bucket("src/app.py", 150, 400) == ch02.q2.solution_value
    unsorted = f"src/app.py:{(400 - 1) // 200}-{(150 - 1) // 200}"
    assert unsorted in ch02.q2.wrong_answers
    assert off_by_one_bucket("src/app.py", 400, 150) in ch02.q2.wrong_answers


def test_2_3_bucket_of_agrees_with_read_bucket_on_single_lines():
    for line in (-450, -7, 0, 1, 199, 200, 201, 400, 401, 1000, 12345):
        assert f"a.py:{ch02.bucket_of(line)}-{ch02.bucket_of(line)}" == read_bucket("a.py", line)
    for case in ch02.q3.cases:
        assert read_bucket("a.py", *case.args) == f"a.py:{case.expected}-{case.expected}"


def test_2_4_six_30_line_pages_share_bucket_zero_and_the_seventh_straddles_it():
    assert len(ch02.PAGES_BY_30) == 20 and ch02.PAGES_BY_30[-1] == (571, 600)
    keys = [read_bucket("a.py", start, end) for start, end in ch02.PAGES_BY_30]
    first_other = next(key for key in keys if key != "a.py:0-0")
    assert (keys.count("a.py:0-0"), first_other) == ch02.q4.solution_value == (6, "a.py:0-1")
    starts_in_bucket_0 = sum(start <= 200 for start, _ in ch02.PAGES_BY_30)
    assert (starts_in_bucket_0, first_other) in ch02.q4.wrong_answers        # counting by the start line
    first_not_straddling = next(key for key in keys if key not in ("a.py:0-0", "a.py:0-1"))
    assert (6, first_not_straddling) in ch02.q4.wrong_answers               # skipping the straddling page
    forty = [read_bucket("a.py", start, start + 39) for start in range(1, 241, 40)]  # the chapter's paging demo
    assert forty.count("a.py:0-0") == 5 and any(wrong[0] == 5 for wrong in ch02.q4.wrong_answers)
