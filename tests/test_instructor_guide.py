"""The instructor guide is one an instructor reads (issue 31, part 5): the plans on its first screen, at most 4,000
words (the notes on each exercise live in a generated file of their own), the Software Carpentry staples, what the
room view needs and what to do on Binder, and a Spanish guide in step with the English one, section for section."""

from __future__ import annotations

import re

import pytest
from notebook_tools import ROOT

GUIDES = {"en": ROOT / "docs" / "instructor.md", "es": ROOT / "docs" / "es" / "notas-ejercicios.md"}
MOST_WORDS = 4000
#: The lines a laptop shows of a rendered Markdown page before scrolling, about.
FIRST_SCREEN_LINES = 15

#: What each staple looks like in each language: every pattern must be found in the guide.
STAPLES = {
    "sticky notes, red and green": {"en": [r"sticky notes?", r"\bred\b", r"\bgreen\b"],
                                    "es": [r"notas? adhesivas?", r"\brojo\b", r"\bverde\b"]},
    "helpers' roles": {"en": [r"^#+ Helpers", r"helpers? walk"], "es": [r"^#+ Ayudantes", r"recorren la sala"]},
    "a shared notes document": {"en": [r"shared notes document"], "es": [r"documento de notas compartido"]},
    "minute cards and surveys": {"en": [r"minute cards?", r"pre-survey|pre-workshop survey"],
                                 "es": [r"tarjetas? de un minuto", r"encuesta previa"]},
    "a code of conduct, cited": {"en": [r"code of conduct", r"https://docs\.carpentries\.org/\S*code-of-conduct"],
                                 "es": [r"código de conducta", r"https://docs\.carpentries\.org/\S*code-of-conduct"]},
    "live-coding habits": {"en": [r"^#+ Live coding", r"go slowly"], "es": [r"^#+ Programar en directo", r"despacio"]},
    "the room view needs a hub": {"en": [r"room view needs a hub"], "es": [r"vista de la sala necesita un hub"]},
    "what to do on Binder": {"en": [r"^\*\*On Binder\*\*"], "es": [r"^\*\*En Binder\*\*"]},
    "Software Carpentry's instructor training, cited": {
        "en": [r"https://carpentries\.github\.io/instructor-training"],
        "es": [r"https://carpentries\.github\.io/instructor-training"]},
}


def text(language: str) -> str:
    return GUIDES[language].read_text(encoding="utf-8")


def words(markdown: str) -> int:
    """The words a reader reads: the page without its HTML comments (the plans' markers)."""
    return len(re.sub(r"<!--.*?-->", "", markdown, flags=re.S).split())


@pytest.mark.parametrize("language", GUIDES)
def test_the_guide_proper_is_at_most_4000_words(language):
    assert words(text(language)) <= MOST_WORDS, f"{GUIDES[language].name}: {words(text(language))} words"


def test_the_word_count_leaves_the_markers_out():
    assert words("one two <!-- plan:90-minute -->\nthree <!-- /plan:90-minute -->") == 3


@pytest.mark.parametrize("language", GUIDES)
def test_the_plans_come_on_the_first_screen(language):
    lines = text(language).splitlines()
    first_plan = next(i for i, line in enumerate(lines) if line.startswith("<!-- plan:"))
    first_section = next(i for i, line in enumerate(lines) if line.startswith("## "))
    assert first_plan < FIRST_SCREEN_LINES, f"the first plan starts at line {first_plan + 1}"
    assert first_section == first_plan - 2, "the first section of the guide is a plan"


@pytest.mark.parametrize("language", GUIDES)
@pytest.mark.parametrize("staple", STAPLES)
def test_the_guide_has_the_software_carpentry_staples(staple, language):
    missing = [p for p in STAPLES[staple][language] if not re.search(p, text(language), re.I | re.M)]
    assert not missing, f"{GUIDES[language].name} lacks {staple}: {missing}"


def outline(markdown: str) -> list[tuple[str, tuple]]:
    """The guide's shape, language aside: each heading's level, with what its section holds that a translation
    keeps: its markers, its table rows, and its links out of the workbook."""
    shape = []
    for block in re.split(r"^(?=#{1,3} )", markdown, flags=re.M):
        level = len(block) - len(block.lstrip("#"))
        markers = tuple(re.findall(r"<!-- (/?[a-z0-9:-]+) -->", block))
        rows = sum(1 for line in block.splitlines() if line.startswith("|"))
        links = tuple(re.findall(r"\]\((https?://[^)\s]+)\)", block))
        shape.append((f"h{level}", (markers, rows, links)))
    return shape


def test_the_spanish_guide_is_in_step_with_the_english_one():
    english, spanish = outline(text("en")), outline(text("es"))
    assert len(english) == len(spanish), "the two guides have a different number of sections"
    for number, (en, es) in enumerate(zip(english, spanish, strict=True)):
        assert en == es, f"section {number} differs: {en} / {es}"


def test_a_guide_out_of_step_is_caught():
    english = text("en")
    dropped = re.sub(r"^### Helpers\n.*?(?=^### )", "", english, count=1, flags=re.M | re.S)
    assert outline(dropped) != outline(english)
    fewer_rows = english.replace("| 6.3 which warnings survive?", "6.3 which warnings survive?", 1)
    assert outline(fewer_rows) != outline(english)
