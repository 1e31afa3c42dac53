"""views.outputs: a long command output cut to the discussed lines, with nothing dropped."""

import pathlib

import pytest
from html_tables import text

from loopkit.cli import main
from loopkit.views.outputs import fold, folded_run

DATA = pathlib.Path(__file__).resolve().parent.parent / "notebooks" / "data"


def test_fold_shows_the_kept_lines_and_folds_the_rest_in_order():
    out = fold("a1\nb1\na2\nb2\n", keep="a")
    assert out.shown == ("a1", "a2") and out.folded == ("b1", "b2")
    assert repr(out) == "a1\na2\n(2 more lines of output)"
    assert repr(fold("a1", keep="a")) == "a1"  # nothing folded, no note
    with pytest.raises(ValueError, match="keep must be"):
        fold("a", keep="")


def test_the_html_keeps_every_line_and_folds_the_rest_in_details():
    out = fold("keep <me>\nother & more\n", keep="keep")
    page = out._repr_html_()
    assert page.index("keep &lt;me&gt;") < page.index("<details>") < page.index("other &amp; more")
    assert "<summary>1 more line of output</summary>" in page


def test_a_folded_replay_shows_the_summary_and_exit_code_the_command_printed(capsys):
    loop = str(DATA / "coding_loop.openai_chat.jsonl")
    out = folded_run(main, ["replay", loop], keep=loop)
    code = main(["replay", loop])
    printed = capsys.readouterr().out.splitlines()
    assert out.shown == (*[line for line in printed if line.startswith(loop)], f"exit code: {code}")
    assert len(out.shown) == 2 and "stopped the run at step 11" in out.shown[0]
    assert sorted(out.shown[:-1] + out.folded) == sorted(printed)  # nothing dropped
    assert text(out._repr_html_()).count("why: hash layer") == 3


def test_the_label_speaks_the_learners_language(spanish):
    assert repr(fold("a\nb\nc", keep="a")) == "a\n(2 líneas más de la salida)"
