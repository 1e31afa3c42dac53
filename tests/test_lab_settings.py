"""The JupyterLab that `make lab` and binder/postBuild set up: each track's settings folder, and signed chapters.

The browser tests (tests/browser/test_lab_as_opened.py and test_chapters_in_lab.py) show what these settings do in a
real lab; this file checks that `make lab` and postBuild really apply them: `make -n lab` prints the commands
`make lab` would run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import urllib.parse

import pytest

from notebook_tools import ROOT, all_chapters

BINDER = ROOT / "binder"


def _load_install_lab_settings():
    spec = importlib.util.spec_from_file_location("install_lab_settings", BINDER / "install_lab_settings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


install_lab_settings = _load_install_lab_settings()


def test_each_track_gets_the_shared_settings_with_its_own_language():
    shared = json.loads((BINDER / "overrides.json").read_text(encoding="utf-8"))
    english = install_lab_settings.track_overrides(shared, "en")
    spanish = install_lab_settings.track_overrides(shared, "es")
    assert english == shared, "the English track's lab (Binder's and the hub's default) is overrides.json itself"
    assert spanish["@jupyterlab/translation-extension:plugin"] == {"locale": "es_ES"}
    assert {k: v for k, v in spanish.items() if "translation" not in k} == {
        k: v for k, v in shared.items() if "translation" not in k}
    assert shared["@jupyterlab/translation-extension:plugin"] == {"locale": "en"}
    # Off on purpose: see binder/install_lab_settings.py (on, opening a chapter and saving it drops its views' state).
    assert shared["@jupyter-widgets/jupyterlab-manager:plugin"] == {"saveState": False}


def test_the_settings_folders_sit_beside_jupyterlabs_own():
    """JupyterLab reads its built files from the settings folder's parent, so each track's folder is a sibling."""
    en, es = (install_lab_settings.settings_dir("/p", track) for track in ("en", "es"))
    assert en.as_posix() == "/p/share/jupyter/lab/settings" and es.parent == en.parent and es != en
    with pytest.raises(ValueError, match="track must be one of"):
        install_lab_settings.settings_dir("/p", "fr")


def test_a_malformed_overrides_file_is_an_error_naming_it(tmp_path, monkeypatch):
    bad = tmp_path / "overrides.json"
    bad.write_text('{"a": }\n', encoding="utf-8")
    monkeypatch.setattr(install_lab_settings, "SOURCE", bad)
    with pytest.raises(SystemExit, match=re.escape(f"{bad}:1: not valid JSON")):
        install_lab_settings.main()


def test_the_script_installs_both_folders(tmp_path, monkeypatch):
    monkeypatch.setattr(install_lab_settings.sys, "prefix", str(tmp_path))
    install_lab_settings.main()
    for track, locale in install_lab_settings.TRACK_LOCALES.items():
        written = json.loads((install_lab_settings.settings_dir(tmp_path, track) / "overrides.json").read_text())
        assert written["@jupyterlab/translation-extension:plugin"]["locale"] == locale


def test_the_script_turns_on_the_custom_css_for_stored_views_and_keeps_other_server_settings(tmp_path, monkeypatch):
    monkeypatch.setattr(install_lab_settings.sys, "prefix", str(tmp_path))
    config = tmp_path / "etc" / "jupyter" / "jupyter_server_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"ServerApp": {"tornado_settings": {"headers": {"X-Test": "1"}}}}))
    install_lab_settings.main()
    written = json.loads(config.read_text())
    css = tmp_path / "share" / "jupyter" / "loopkit-workbook" / "custom" / "custom.css"
    assert written["LabApp"] == {"custom_css": True}
    assert written["ServerApp"]["tornado_settings"] == {"headers": {"X-Test": "1"}, "static_custom_path": [str(css.parent)]}
    assert css.read_text() == (BINDER / "lab.css").read_text()
    install_lab_settings.main()  # again, as every `make lab` after a change does: the same file
    assert json.loads(config.read_text()) == written


def test_the_lab_css_hides_the_disconnected_icon_and_says_so_in_both_languages():
    """What binder/lab.css says about a stored view, in English and in Spanish (the browser test checks it drawn)."""
    css = (BINDER / "lab.css").read_text(encoding="utf-8")
    assert re.search(r"^\.jupyter-widgets-disconnected::before \{\s*content: none !important;", css, re.M)
    lines = dict(re.findall(r'^(:lang\(es\) )?\.jp-OutputArea-output > \.jupyter-widgets-disconnected::before \{\s*'
                            r'content: "([^"]+)"', css, re.M))
    assert "responds once you run the chapter" in lines[""]
    assert "responde en cuanto ejecutes el capítulo" in lines[":lang(es) "]


def make_lab_commands(track: str) -> list[list[str]]:
    """The commands `make lab TRACK=...` would run (make -n prints them without running anything)."""
    done = subprocess.run(["make", "-n", "--no-print-directory", "lab", f"TRACK={track}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [shlex.split(line) for line in done.stdout.replace("\\\n", " ").splitlines() if line.strip()]


@pytest.mark.parametrize("track", ["en", "es"])
def test_make_lab_signs_every_chapter_then_opens_the_tracks_settings(track):
    commands = make_lab_commands(track)
    trust = next((i for i, c in enumerate(commands) if c[:2] == [".venv/bin/jupyter", "trust"]), None)
    lab = next((i for i, c in enumerate(commands) if c[:2] == [".venv/bin/jupyter", "lab"]), None)
    assert trust is not None and lab is not None and trust < lab, commands
    signed = {ROOT / name for name in commands[trust][2:] if name.endswith(".ipynb")}
    assert signed == set(all_chapters()), "make lab must sign exactly the chapters of both tracks"
    flags = dict(arg.split("=", 1) for arg in commands[lab][2:] if arg.startswith("--") and "=" in arg)
    expected = install_lab_settings.settings_dir(ROOT / ".venv", track)
    assert flags["--LabApp.app_settings_dir"] == str(expected), flags


def test_postbuild_installs_the_settings_and_signs_the_chapters():
    post_build = (BINDER / "postBuild").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for line in post_build.splitlines() if not line.startswith("#")]
    assert "python binder/install_lab_settings.py" in lines
    trust = next(line for line in lines if line.startswith("jupyter trust "))
    patterns = [word for word in shlex.split(trust)[2:] if word.endswith(".ipynb")]
    matched = {path for pattern in patterns for path in ROOT.glob(pattern)}
    assert matched == set(all_chapters()), patterns


def test_a_signed_chapters_copy_elsewhere_is_trusted_too(tmp_path):
    """What the hub relies on (docs/jupyterhub.md, "Views drawn before a chapter runs"): a signature covers the
    content, so the learner's clone of a signed chapter is trusted, and a changed chapter is not."""
    from nbformat import read
    from nbformat.sign import NotebookNotary

    image, clone = tmp_path / "image", tmp_path / "home" / "loopkit"
    signed = all_chapters()[2]
    for folder in (image, clone):
        folder.mkdir(parents=True)
        (folder / signed.name).write_bytes(signed.read_bytes())
    env = {**os.environ, "JUPYTER_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "jupyter"), "trust", str(image / signed.name)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    notary = NotebookNotary(data_dir=str(tmp_path / "data"))
    copy = read(clone / signed.name, as_version=4)
    assert notary.check_signature(copy)
    copy.cells[0].source += "\nA fix pushed during the day."
    assert not notary.check_signature(copy)


def test_the_rehearsal_follows_each_tracks_link_and_reads_the_labs_language():
    sys.path.insert(0, str(ROOT / "tools"))
    import hub_rehearsal  # tools/hub_rehearsal.py

    for track, chapter_00 in (("en", "notebooks/00_start_here.ipynb"), ("es", "notebooks/es/00_empieza_aqui.ipynb")):
        link = urllib.parse.urlsplit(hub_rehearsal.workshop_link("https://hub.example.org", "b", track=track))
        query = urllib.parse.parse_qs(link.query)
        assert query["branch"] == ["b"] and query["urlpath"] == [f"lab/tree/loopkit/{chapter_00}?autodecode"]
        assert hub_rehearsal.CHAPTERS[track][0] == f"loopkit/{chapter_00}"
    schema = {"schema": {"properties": {"locale": {"default": "es_ES"}}}}
    assert hub_rehearsal.lab_language({**schema, "settings": {}}) == "es_ES"
    assert hub_rehearsal.lab_language({**schema, "settings": {"locale": "en"}}) == "en"
