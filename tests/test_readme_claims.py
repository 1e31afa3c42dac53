"""The README's sentence about how the chapters' claims are shown (issue 33): each part of it is checked here.

It says that the suite checks what every code cell prints (against the stored output, or, for a prediction's
reveal cell, stored without output, against the answer loopkit computes), and how many of chapter 09's claims about
DeerFlow's boundaries have an output of their own."""

import re

import pytest
from notebook_tools import ROOT, all_chapters, chapter_id, code_cells, is_reveal, load, printed_text, source

from loopkit.teaching.boundaries import claims_tally

README = (ROOT / "README.md").read_text(encoding="utf-8")
SENTENCE = " ".join(README.split())  # the README wraps its prose; read it as one line


def test_the_readme_says_how_each_cell_is_checked():
    assert "the test suite runs every code cell again and checks what it prints: against the stored output, or, " \
           "for the cell that reveals a prediction (stored without output, so that it gives nothing away), against " \
           "the answer loopkit computes." in SENTENCE
    assert "every claim in the prose is shown" not in SENTENCE


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_code_cell_is_stored_run_or_is_a_reveal_stored_without_output(path):
    for cell in code_cells(load(path)):
        if is_reveal(cell):
            assert not cell.get("outputs") and cell.get("execution_count") is None, source(cell)[:80]
        else:
            assert cell.get("execution_count") is not None, f"{path.name}: a cell nbval would skip: {source(cell)[:80]}"


def test_the_readme_counts_chapter_09s_claims_as_the_chapter_does():
    found = re.search(r"shows (\d+) of its (\d+) by one; the other (\d+) are cited, (\d+) at the pinned commit and "
                      r"(\d+) from after it", SENTENCE)
    assert found, "the README no longer counts chapter 09's claims"
    shown, total, cited, pinned, later = map(int, found.groups())
    tally = claims_tally()
    assert (shown, total) == (tally["shown"], sum(tally.values()))
    assert (cited, pinned, later) == (tally["cited"] + tally["later"], tally["cited"], tally["later"])


@pytest.mark.parametrize("chapter, words", [("09_boundaries.ipynb", "shown by an output computed here: {} of {}"),
                                            ("es/09_limites.ipynb", "mostradas con una salida calculada aquí: {} de {}")])
def test_chapter_09s_stored_tally_is_the_one_the_readme_gives(chapter, words):
    tally = claims_tally()
    printed = "\n".join(printed_text(cell.get("outputs", [])) for cell in code_cells(load(ROOT / "notebooks" / chapter)))
    assert words.format(tally["shown"], sum(tally.values())) in printed
