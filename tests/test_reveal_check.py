"""The reveal check in the root conftest.py bites: a reveal cell that prints the answer passes under nbval, one that
prints a wrong answer, or the right one next to a wrong one, fails, and nbval still compares every other cell.

Each case is a small chapter of two cells run by pytest's own ``pytester`` with nbval, as ``make test`` runs the
real chapters. Exercise 2.2 (``read_bucket("src/app.py", 400, 150)``, answer ``src/app.py:0-1``) is the question.
"""

import json
import re

from notebook_tools import ROOT


def chapter(reveal_code: str, reveal_tags=("reveal",)) -> str:
    cells = [
        {"cell_type": "markdown", "id": "c0", "metadata": {}, "source": "### Exercise 2.2: a reversed range"},
        {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1, "source": "print('checked')",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "checked\n"}]},
        {"cell_type": "code", "id": "c2", "metadata": {"tags": list(reveal_tags)}, "execution_count": None,
         "source": reveal_code, "outputs": []},
    ]
    return json.dumps({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                   "language": "python"}},
                       "nbformat": 4, "nbformat_minor": 5})


def run(pytester, monkeypatch, reveal_code, reveal_tags=("reveal",)):
    # the copy keeps the reveal check and leaves out the plugins (pytester itself, the browser tests' fixtures)
    conftest = re.sub(r"^pytest_plugins = .*$", "", (ROOT / "conftest.py").read_text(encoding="utf-8"), flags=re.M)
    pytester.makeconftest(conftest)
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    pytester.makefile(".ipynb", chapter=chapter(reveal_code, reveal_tags))
    return pytester.runpytest_subprocess("--nbval", "--nbval-current-env", "-p", "no:cacheprovider", "chapter.ipynb")


def test_a_reveal_that_prints_the_answer_passes(pytester, monkeypatch):
    result = run(pytester, monkeypatch, 'print("src/app.py:0-1")')
    result.assert_outcomes(passed=2)


def test_a_reveal_that_prints_a_wrong_answer_fails(pytester, monkeypatch):
    result = run(pytester, monkeypatch, 'print("src/app.py:1-0")')
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*exercise 2.2's reveal cell 2 does not show the answer 'src/app.py:0-1'*"])


def test_a_reveal_that_prints_the_answer_beside_a_wrong_one_fails(pytester, monkeypatch):
    result = run(pytester, monkeypatch, 'print("src/app.py:0-1")\nprint("src/app.py:0-2")')
    result.assert_outcomes(passed=1, failed=1)
    assert "also shows wrong answers as the answer: ['src/app.py:0-2']" in result.stdout.str()


def test_an_untagged_cell_without_output_is_compared_by_nbval_as_usual(pytester, monkeypatch):
    result = run(pytester, monkeypatch, 'print("src/app.py:1-0")', reveal_tags=())
    result.assert_outcomes(passed=2)  # unrun (no execution count): nbval runs it and compares nothing
