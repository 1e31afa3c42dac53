"""Chapter 02: each reference answer is computed with read_bucket, and each listed slip is what a plausible wrong
bucket rule gives."""

from loopkit import read_bucket
from loopkit.exercises import ch02


def off_by_one_bucket(path, start, end):
    """The slip of dividing without subtracting 1 first: line 200 would open bucket 1."""
    lo, hi = sorted((max(start, 1), max(end, 1)))
    return f"{path}:{lo // 200}-{hi // 200}"


def test_2_1_a_reversed_range_is_sorted_before_bucketing():
    assert read_bucket("src/app.py", 400, 150) == read_bucket("src/app.py", 150, 400) == ch02.q2.solution_value
    unsorted = f"src/app.py:{(400 - 1) // 200}-{(150 - 1) // 200}"
    assert unsorted in ch02.q2.wrong_answers
    assert off_by_one_bucket("src/app.py", 400, 150) in ch02.q2.wrong_answers


def test_2_2_bucket_of_agrees_with_read_bucket_on_single_lines():
    for line in (-7, 0, 1, 199, 200, 201, 400, 401, 1000, 12345):
        assert f"a.py:{ch02.bucket_of(line)}-{ch02.bucket_of(line)}" == read_bucket("a.py", line)


def test_2_3_four_of_the_twenty_pages_share_bucket_zero():
    assert len(ch02.PAGES_BY_50) == 20 and ch02.PAGES_BY_50[-1] == (951, 1000)
    keys = [read_bucket("a.py", start, end) for start, end in ch02.PAGES_BY_50]
    assert keys.count("a.py:0-0") == ch02.q4.solution_value == 4
    off_by_one = [off_by_one_bucket("a.py", start, end) for start, end in ch02.PAGES_BY_50]
    assert off_by_one.count("a.py:0-0") == 3 and 3 in ch02.q4.wrong_answers
    forty = [read_bucket("a.py", start, start + 39) for start in range(1, 241, 40)]  # the chapter's paging demo
    assert forty.count("a.py:0-0") == 5 and 5 in ch02.q4.wrong_answers


def test_2_4_the_key_changes_at_line_201():
    first_new = next(end for end in range(150, 1000) if read_bucket("a.py", 150, end) != "a.py:0-0")
    assert first_new == ch02.q1.solution_value == 201
    slip = next(end for end in range(150, 1000) if off_by_one_bucket("a.py", 150, end) != "a.py:0-0")
    assert slip == 200 and slip in ch02.q1.wrong_answers
    assert 150 + 200 in ch02.q1.wrong_answers  # the "200-line window from the start of the read" slip
