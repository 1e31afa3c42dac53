"""The Spanish track stays in step with the English one.

Each English chapter has a Spanish twin in notebooks/es/ with the same number. The twins have the same cells, in
the same order and of the same kinds; their code has the same Python syntax tree once string literals are set
aside (comments and printed text may be Spanish, the logic may not differ); and each Spanish cell records the hash
of the English cell it translates, so an English change without a Spanish one fails here, naming the cells that
changed (tools/tracks.py).
"""

from __future__ import annotations

import ast
import json
import re
import sys

import pytest
from notebook_tools import ROOT, TEMPLATE, chapters, exercise_headings, load, source

sys.path.insert(0, str(ROOT / "tools"))
import tracks  # noqa: E402  (tools/tracks.py)

PAIRS = tracks.twins()
IDS = [english.name[:2] for english, _ in PAIRS]


def code_without_strings(code: str) -> str:
    """The syntax tree of ``code`` with every string literal replaced by one placeholder, as text.

    IPython magics and shell lines are left out, as they are not Python.
    """
    lines = [line for line in code.splitlines() if not line.lstrip().startswith(("%", "!"))]
    tree = ast.parse("\n".join(lines))

    class SetStringsAside(ast.NodeTransformer):
        def visit_Constant(self, node):
            return ast.Constant("<str>") if isinstance(node.value, str) else node

        def visit_JoinedStr(self, node):  # an f-string: its text parts are literals, its {fields} are code
            fields = [self.visit(value.value) for value in node.values if isinstance(value, ast.FormattedValue)]
            return ast.JoinedStr([ast.FormattedValue(field, -1, None) for field in fields])

    return ast.dump(SetStringsAside().visit(tree))


def output_kinds(cell: dict) -> list[str]:
    """What a code cell shows, without the text: each output's type, and the formats of a rich one."""
    kinds = []
    for output in cell.get("outputs", []):
        formats = sorted(output.get("data", {}))
        kinds.append(output["output_type"] + (f" {formats}" if formats else f" {output.get('name', '')}"))
    return kinds


def test_the_strings_are_set_aside_but_not_the_logic():
    assert code_without_strings('print("ok", x)') == code_without_strings("print('bien', x)  # un comentario")
    assert code_without_strings('f"{a} de {b}"') == code_without_strings('f"{a} of {b}"')
    assert code_without_strings('f"{a} de {b}"') != code_without_strings('f"{b} of {a}"')
    assert code_without_strings('print("ok", x)') != code_without_strings('print("ok", y)')
    assert code_without_strings("q1.check(____)") != code_without_strings("q1.check(3)")


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_every_english_chapter_has_a_spanish_twin(english, spanish):
    assert spanish is not None, f"{english.name} has no Spanish twin notebooks/es/{english.name[:3]}*.ipynb"
    assert spanish.name[:3] == english.name[:3]


def test_every_spanish_chapter_has_an_english_original():
    numbers = {path.name[:2] for path in chapters("en")}
    orphans = [path.name for path in chapters("es") if path.name[:2] not in numbers]
    assert not orphans, f"Spanish chapters without an English chapter of the same number: {orphans}"


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_twins_have_the_same_cells(english, spanish):
    en, es = load(english), load(spanish)
    assert [c["cell_type"] for c in es["cells"]] == [c["cell_type"] for c in en["cells"]], (
        f"{spanish.name}: the cells differ in number or kind from {english.name}")
    en_tags = [sorted(c.get("metadata", {}).get("tags", [])) for c in en["cells"]]
    es_tags = [sorted(c.get("metadata", {}).get("tags", [])) for c in es["cells"]]
    assert es_tags == en_tags, f"{spanish.name}: the cell tags differ from {english.name}'s"


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_twins_run_the_same_code(english, spanish):
    pairs = [(a, b) for a, b in zip(load(english)["cells"], load(spanish)["cells"]) if a["cell_type"] == "code"]
    for number, (en_cell, es_cell) in enumerate(pairs, start=1):
        assert code_without_strings(source(es_cell)) == code_without_strings(source(en_cell)), (
            f"{spanish.name}, code cell {number}: the logic differs from {english.name}'s\n"
            f"--- English ---\n{source(en_cell)}\n--- Spanish ---\n{source(es_cell)}")


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_twins_show_the_same_kinds_of_output(english, spanish):
    pairs = [(a, b) for a, b in zip(load(english)["cells"], load(spanish)["cells"]) if a["cell_type"] == "code"]
    for number, (en_cell, es_cell) in enumerate(pairs, start=1):
        assert output_kinds(es_cell) == output_kinds(en_cell), (
            f"{spanish.name}, code cell {number} shows {output_kinds(es_cell)}, {english.name} shows "
            f"{output_kinds(en_cell)}\n{source(es_cell)}")


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_each_twin_translates_the_current_english_source(english, spanish):
    note = tracks.recorded(spanish)
    assert note.get("language") == "es", f"{spanish.name}: metadata.loopkit.language is not 'es'"
    assert note.get("translates") == english.relative_to(ROOT).as_posix()
    stale = tracks.stale_cells(english, spanish)
    assert not stale, (
        f"{english.name} changed after {spanish.name} was translated, in these cells:\n"
        + "\n".join(f"  {cell}" for cell in stale)
        + f"\nUpdate them in Spanish, then run `python tools/tracks.py stamp notebooks/es/{spanish.name}"
        + (" --cells " + " ".join(str(cell.number) for cell in stale) if len(stale) <= 10 else "")
        + "` (README, 'Two tracks, one workbook')")


@pytest.fixture
def twin_copies(tmp_path, monkeypatch):
    """A copy of chapter 00's twins in a folder of their own, stamped there, with tools/tracks.py pointed at it."""
    english, spanish = PAIRS[0]
    copy_en, copy_es = tmp_path / "notebooks" / english.name, tmp_path / "notebooks" / "es" / spanish.name
    copy_es.parent.mkdir(parents=True)
    copy_en.write_bytes(english.read_bytes())
    copy_es.write_bytes(spanish.read_bytes())
    monkeypatch.setattr(tracks, "ROOT", tmp_path)
    monkeypatch.setattr(tracks, "TRACKS", {"en": copy_en.parent, "es": copy_es.parent})
    tracks.stamp(copy_es)
    return copy_en, copy_es


def edit_cell(path, number, old, new):
    """Replace ``old`` by ``new`` in cell ``number`` (from 1) of the notebook at ``path``."""
    nb = load(path)
    cell = nb["cells"][number - 1]
    assert old in source(cell)
    cell["source"] = source(cell).replace(old, new, 1)
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def first_markdown_with(path, word):
    """The number (from 1) of the first markdown cell of ``path``, after the title, that holds ``word``."""
    cells = load(path)["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] == "markdown" and word in source(cell) and index > 0:
            return index + 1
    raise AssertionError(f"no markdown cell after the first holds {word!r}")


def test_an_english_wording_fix_makes_only_that_cell_stale(twin_copies):
    copy_en, copy_es = twin_copies
    assert not tracks.is_stale(copy_en, copy_es) and tracks.stale_cells(copy_en, copy_es) == []
    number = first_markdown_with(copy_en, "the ")
    edit_cell(copy_en, number, "the ", "the  ")
    stale = tracks.stale_cells(copy_en, copy_es)
    assert [cell.number for cell in stale] == [number]
    assert tracks.is_stale(copy_en, copy_es)
    headings = [line for cell in load(copy_en)["cells"][:number] if cell["cell_type"] == "markdown"
                for line in source(cell).splitlines() if line.startswith("#")]
    assert stale[0].heading == headings[-1].lstrip("#").strip()
    assert f"cell {number} ({stale[0].heading})" in str(stale[0])


def test_outputs_and_metadata_of_the_english_chapter_make_nothing_stale(twin_copies):
    copy_en, copy_es = twin_copies
    nb = load(copy_en)
    code = next(cell for cell in nb["cells"] if cell["cell_type"] == "code")
    code["outputs"], code["execution_count"] = [], None
    code["metadata"]["tags"] = ["a-tag"]
    copy_en.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert tracks.stale_cells(copy_en, copy_es) == []


def test_a_cell_of_another_kind_is_stale(twin_copies):
    copy_en, copy_es = twin_copies
    nb = load(copy_en)
    nb["cells"][1]["cell_type"] = "raw" if nb["cells"][1]["cell_type"] != "raw" else "markdown"
    copy_en.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert [cell.number for cell in tracks.stale_cells(copy_en, copy_es)] == [2]


def test_stamping_given_cells_stamps_only_those(twin_copies):
    copy_en, copy_es = twin_copies
    first = first_markdown_with(copy_en, "the ")
    edit_cell(copy_en, first, "the ", "the  ")
    last = len(load(copy_en)["cells"])
    nb = load(copy_en)
    nb["cells"][last - 1]["source"] = source(nb["cells"][last - 1]) + "\n"
    copy_en.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert [cell.number for cell in tracks.stale_cells(copy_en, copy_es)] == [first, last]
    assert tracks.main(["stamp", str(copy_es), "--cells", str(last)]) == 0
    assert [cell.number for cell in tracks.stale_cells(copy_en, copy_es)] == [first]
    assert tracks.main(["stamp", str(copy_es)]) == 0   # the whole twin, as before
    assert tracks.stale_cells(copy_en, copy_es) == []
    with pytest.raises(SystemExit, match="no cell 999"):
        tracks.stamp(copy_es, [999])


def test_a_stamp_travels_with_its_cell_when_both_twins_gain_one(twin_copies):
    copy_en, copy_es = twin_copies
    for path, words in ((copy_en, "A new paragraph."), (copy_es, "Un párrafo nuevo.")):
        nb = load(path)
        nb["cells"].insert(3, {"cell_type": "markdown", "id": f"new-{path.parent.name}", "metadata": {},
                               "source": words})
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert [cell.number for cell in tracks.stale_cells(copy_en, copy_es)] == [4]


def test_twins_of_different_lengths_are_stale_and_are_not_stamped(twin_copies):
    copy_en, copy_es = twin_copies
    nb = load(copy_en)
    nb["cells"].append({"cell_type": "markdown", "id": "extra", "metadata": {}, "source": "One more."})
    copy_en.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    stale = tracks.stale_cells(copy_en, copy_es)
    assert [cell.number for cell in stale] == [len(nb["cells"])] and stale[0].english == "One more."
    with pytest.raises(SystemExit, match="cells, but .* has"):
        tracks.stamp(copy_es)


def test_stamping_keeps_the_notebook_as_nbformat_writes_it(twin_copies):
    _, copy_es = twin_copies
    text = copy_es.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def test_the_status_lists_stale_cells_by_number_and_heading(twin_copies, capsys):
    copy_en, copy_es = twin_copies
    number = first_markdown_with(copy_en, "the ")
    edit_cell(copy_en, number, "the ", "the  ")
    assert tracks.main([]) == 1
    printed = capsys.readouterr().out
    assert "STALE" in printed and "1 cell(s)" in printed
    assert str(tracks.stale_cells(copy_en, copy_es)[0]) in printed


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_each_track_sets_its_language_in_its_first_code_cell(english, spanish):
    for path, code in ((english, "en"), (spanish, "es")):
        first = next(c for c in load(path)["cells"] if c["cell_type"] == "code")
        assert re.search(rf"set_language\(\"{code}\"\)", source(first)), (
            f"{path.name}: the first code cell does not call set_language({code!r})")


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_twins_ask_the_same_exercises_in_the_same_places(english, spanish):
    en = [(index, qid) for index, qid, _ in exercise_headings(load(english))]
    es = [(index, qid) for index, qid, _ in exercise_headings(load(spanish))]
    assert es == en
    headings = [source(c).split("\n", 1)[0] for c in load(spanish)["cells"] if c["cell_type"] == "markdown"]
    assert not [h for h in headings if h.startswith("### Exercise")], f"{spanish.name}: an English exercise heading"


@pytest.mark.parametrize("english, spanish", PAIRS, ids=IDS)
def test_twins_state_the_same_times(english, spanish):
    en_line = re.search(TEMPLATE["en"]["time line"], source(load(english)["cells"][0])).group(0)
    es_line = re.search(TEMPLATE["es"]["time line"], source(load(spanish)["cells"][0])).group(0)
    assert re.findall(r"\d+", es_line) == re.findall(r"\d+", en_line), (
        f"{spanish.name} states {es_line!r}, {english.name} {en_line!r} (tools/chapter_times.py --write)")
