"""Every view a chapter shows is stored with the chapter, so it can be drawn before the chapter runs.

A view output holds only a model id; what it draws is in the notebook's widget state (``metadata.widgets``): the
view's model and every model it names (its children, their layouts and styles), as ``IPY_MODEL_<id>`` strings.
tools/run_notebooks.py (``make notebooks``) writes that state; JupyterLab draws from it when a signed chapter is
opened (tests/browser/test_chapters_in_lab.py), and a static render (nbconvert's HTML, which nbviewer uses) embeds it
with ipywidgets' HTML manager.
"""

from __future__ import annotations

import importlib.util
import re

import nbformat
import pytest

from notebook_tools import ROOT, all_chapters, chapter_id, load

WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REFERENCE = re.compile(r"^IPY_MODEL_(\w+)$")


def stored_models(nb: dict) -> dict:
    return nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})


def view_ids(nb: dict) -> list[tuple[int, str]]:
    """(cell index, model id) of every view output in a notebook."""
    return [(index, output["data"][WIDGET_VIEW]["model_id"])
            for index, cell in enumerate(nb["cells"]) if cell["cell_type"] == "code"
            for output in cell.get("outputs", []) if WIDGET_VIEW in output.get("data", {})]


def references(value) -> list[str]:
    """Every model id a model's state names, at any depth (children lists, layout and style fields)."""
    if isinstance(value, str):
        match = REFERENCE.match(value)
        return [match.group(1)] if match else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [found for item in value for found in references(item)]
    return []


def missing_models(nb: dict) -> dict[str, list[str]]:
    """For each view output whose drawing would need a model the state lacks: ``"cell N": [missing ids]``."""
    models = stored_models(nb)
    problems = {}
    for index, root in view_ids(nb):
        todo, seen, missing = [root], set(), []
        while todo:
            model_id = todo.pop()
            if model_id in seen:
                continue
            seen.add(model_id)
            if model_id not in models:
                missing.append(model_id)
                continue
            todo += references(models[model_id].get("state", {}))
        if missing:
            problems[f"cell {index}"] = sorted(missing)
    return problems


@pytest.mark.parametrize("path", all_chapters(), ids=chapter_id)
def test_every_view_output_has_its_models_in_the_stored_state(path):
    nb = load(path)
    assert view_ids(nb), f"{path.name}: no stored view (every chapter shows at least one)"
    state = nb["metadata"]["widgets"][WIDGET_STATE]
    assert state.get("version_major") == 2, "ipywidgets 8 writes widget state version 2"
    for model in stored_models(nb).values():
        assert {"model_name", "model_module", "model_module_version", "state"} <= set(model)
    assert not missing_models(nb), f"{path.name}: views whose models are not stored: {missing_models(nb)}"


def test_the_check_finds_a_missing_child():
    nb = {"metadata": {"widgets": {WIDGET_STATE: {"state": {
              "box": {"state": {"children": ["IPY_MODEL_label", "IPY_MODEL_gone"], "layout": "IPY_MODEL_lay"}},
              "label": {"state": {"value": "x", "style": "IPY_MODEL_style"}},
              "lay": {"state": {}}}}}},
          "cells": [{"cell_type": "code", "outputs": [{"data": {WIDGET_VIEW: {"model_id": "box"}}}]},
                    {"cell_type": "code", "outputs": [{"data": {WIDGET_VIEW: {"model_id": "nowhere"}}}]}]}
    assert missing_models(nb) == {"cell 0": ["gone", "style"], "cell 1": ["nowhere"]}


def _run_notebooks():
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "tools" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_run_notebooks_stores_the_state_of_every_view_it_shows(tmp_path):
    """What `make notebooks` does to a chapter, on a small one: a view with children, re-executed in place."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import ipywidgets as W\n"
        "W.VBox([W.HTML('<b>title</b>'), W.IntSlider(3, description='n')])")]
    path = tmp_path / "small.ipynb"
    nbformat.write(nb, path)
    assert _run_notebooks().main([str(path)]) == 0
    executed = load(path)
    assert len(view_ids(executed)) == 1 and not missing_models(executed)
    names = sorted(model["model_name"] for model in stored_models(executed).values())
    assert names.count("VBoxModel") == 1 and "IntSliderModel" in names and "HTMLModel" in names
    assert names.count("LayoutModel") >= 3, "the children's layouts are stored too"


def test_a_static_render_embeds_the_stored_views():
    """nbconvert's HTML (what nbviewer serves) carries each view's model id and the whole widget state, and loads
    ipywidgets' HTML manager to draw them; no kernel, so the controls do not update anything."""
    from nbconvert import HTMLExporter

    path = all_chapters()[2]
    nb = load(path)
    body, _ = HTMLExporter().from_notebook_node(nbformat.reads(path.read_text(encoding="utf-8"), as_version=4))
    assert 'type="application/vnd.jupyter.widget-state+json"' in body
    for _, model_id in view_ids(nb):
        assert re.search(rf'<script type="application/vnd.jupyter.widget-view\+json">\s*\{{[^<]*"{model_id}"', body)
    for model_id in stored_models(nb):
        assert f'"{model_id}"' in body
    assert "@jupyter-widgets/html-manager" in body and "embed-amd.js" in body
