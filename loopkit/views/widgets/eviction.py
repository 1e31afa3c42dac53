"""The eviction race (chapter 04): script operations and watch FIFO, LRU and cachetools' FIFO keep different keys.

Controls: ``script`` (a Textarea with one operation per line or ``;``-separated: ``set KEY VALUE``, ``get KEY``,
``del KEY``; see :mod:`loopkit.teaching.eviction_race`) and ``maxsize`` (a number box). The panel shows, per policy, the keys
left (next to evict first) and the keys evicted, then each policy's keys after every operation. A malformed
operation shows a message naming its line and what was expected.
"""

from __future__ import annotations

import ipywidgets as W

from loopkit.core.language import N_, tr
from loopkit.teaching.eviction_race import parse_script, run_script, step_rows

from ._base import View, number_box, table_html

__all__ = ["DEFAULT_SCRIPT", "eviction_race", "race_summary", "render_eviction_race"]

#: Chapter 04's first example (update, then insert), then a read: enough to make all three policies disagree with room for two keys.
DEFAULT_SCRIPT = "set a 1\nset b 2\nset a 3\nset c 4\nget a\nset d 5"


def race_summary(script: str, maxsize: int) -> list[dict]:
    """One row per policy after the whole ``script``: the keys left (next to evict first) and those evicted, in order
    ("none" in the learner's language when nothing was evicted; the headings are translated by the table).

    >>> [row["evicted, in order"] for row in race_summary("set a 1; set b 2; set c 3", 2)]
    ['a', 'a', 'a']
    """
    return [
        {
            "policy": name,
            N_("keys left (next to evict first)"): " ".join(run.keys) or "-",
            N_("evicted, in order"): " ".join(run.evicted_keys) or tr("none"),
        }
        for name, run in run_script(script, maxsize).items()
    ]


def render_eviction_race(script: str, maxsize: int) -> str:
    """The panel's HTML: :func:`race_summary`, then the state of every policy after each operation.

    A malformed script raises ValueError (the view shows its message); an empty one says so.
    """
    ops = parse_script(script)
    if not ops:
        example = "<code>set a 1</code>, <code>get a</code>"
        return "<i>" + tr("No operations yet: write one per line, e.g. {example}.", example=example) + "</i>"
    return (
        "<p>" + tr("{count} operation(s), room for {maxsize} key(s).", count=len(ops), maxsize=maxsize) + "</p>"
        + table_html(race_summary(script, maxsize))
        + f"<p><b>{tr('After each operation')}</b></p>"
        + table_html(step_rows(ops, maxsize))
    )


def eviction_race(script: str = DEFAULT_SCRIPT, maxsize: int = 2) -> View:
    """An editable operation script and a number box for the size limit; the panel races the three policies."""
    controls = {
        "script": W.Textarea(
            value=script,
            description=tr("script"),
            placeholder="set a 1; set b 2; get a; set c 3",
            rows=7,
            layout=W.Layout(width="28em"),
        ),
        # "maxsize" is not translated: it names the argument of BoundedDict and LRUDict, a word of the code.
        "maxsize": number_box(maxsize, 1, 6, "maxsize"),
    }
    view = View(controls, render_eviction_race, title=tr("Eviction race: FIFO vs LRU vs cachetools.FIFOCache"))
    view.add_class("loopkit-eviction-race")
    view.panel.add_class("loopkit-panel")
    return view
