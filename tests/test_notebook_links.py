"""Every link in a chapter's prose goes somewhere: the file exists, and an anchor names a heading of the target.

JupyterLab gives a rendered markdown heading the anchor of its text with each space replaced by "-" (markup
such as backticks and emphasis is not part of the text; punctuation and accents are kept), so a link written by
hand to ``03_fingerprints.ipynb#A-live-...`` breaks silently when the heading is reworded or translated.
"""

from __future__ import annotations

import re
import urllib.parse

import pytest
from notebook_tools import all_chapters, chapter_id, load, source

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)


def anchor(heading: str) -> str:
    """The anchor JupyterLab gives a heading: its rendered text, spaces as hyphens.

    >>> anchor("A live collision search with a `short` prefix (optional)")
    'A-live-collision-search-with-a-short-prefix-(optional)'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = text.replace("`", "").replace("**", "").replace("*", "")
    return text.replace(" ", "-")


def anchors(nb: dict) -> set[str]:
    return {anchor(h) for c in nb["cells"] if c["cell_type"] == "markdown" for h in HEADING.findall(source(c))}


def test_anchors_are_jupyterlabs():
    assert anchor("Helper success is **not** runtime verification") == "Helper-success-is-not-runtime-verification"
    assert anchor("Una búsqueda [en vivo](x.ipynb)") == "Una-búsqueda-en-vivo"


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_link_in_a_chapter_resolves(path):
    broken = []
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for target in LINK.findall(source(cell)):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file, _, fragment = target.partition("#")
            destination = path.parent / file if file else path
            if not destination.exists():
                broken.append(f"{target}: no such file")
            elif fragment and destination.suffix == ".ipynb":
                if urllib.parse.unquote(fragment) not in anchors(load(destination)):
                    broken.append(f"{target}: {destination.name} has no heading with that anchor")
    assert not broken, f"{path.name}: broken links:\n" + "\n".join(broken)
