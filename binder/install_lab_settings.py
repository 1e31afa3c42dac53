"""Install the workbook's JupyterLab settings into the running environment: one settings folder per track.

``binder/overrides.json`` holds the workbook's defaults: no news pop-up, JupyterLab's menus in English, and widget
state that the lab never rewrites (below). They go where JupyterLab reads its defaults,
``<prefix>/share/jupyter/lab/settings/overrides.json``, so Binder and a hub built from ``binder/`` open that lab.
The Spanish track's lab has the same defaults with its menus in Spanish (the pinned
``jupyterlab-language-pack-es-ES``), in ``<prefix>/share/jupyter/lab/settings-es/``: ``make lab TRACK=es`` starts
JupyterLab with ``--LabApp.app_settings_dir`` pointing there (a sibling folder, so the lab still finds its own
files one level up). A language a learner picks in *Settings > Language* is their own setting and wins over both.

Widget state: every chapter stores the state of its views (tools/run_notebooks.py), and the widget manager draws a
view from it when a chapter is opened, whatever its ``saveState`` setting (jupyterlab_widgets 3.0.17 always loads
the notebook's state). What a learner needs for that is a *trusted* chapter: an untrusted one shows the view's
plain-text repr instead, so ``make lab`` and ``binder/postBuild`` sign the chapters with ``jupyter trust``.
``saveState`` stays off on purpose: when it is on, opening a chapter marks it modified, and the next save (autosave
after two minutes) replaces the stored state with that of the live kernel's views, none before a run, so the
chapter then opens with "Error displaying widget: model not found".

Used by binder/postBuild and by ``make`` for local installs, so both get the same lab.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys

SOURCE = pathlib.Path(__file__).with_name("overrides.json")
TRANSLATION_PLUGIN = "@jupyterlab/translation-extension:plugin"
#: Each track's JupyterLab language: a locale of an installed language pack ("en" is built in).
TRACK_LOCALES = {"en": "en", "es": "es_ES"}


def settings_dir(prefix: str | pathlib.Path, track: str) -> pathlib.Path:
    """The settings folder of a track's JupyterLab in the environment at ``prefix``.

    >>> settings_dir("/env", "en").as_posix(), settings_dir("/env", "es").as_posix()
    ('/env/share/jupyter/lab/settings', '/env/share/jupyter/lab/settings-es')
    """
    if track not in TRACK_LOCALES:
        raise ValueError(f"track must be one of {sorted(TRACK_LOCALES)}, got {track!r}")
    name = "settings" if track == "en" else f"settings-{track}"
    return pathlib.Path(prefix, "share", "jupyter", "lab", name)


def track_overrides(shared: dict, track: str) -> dict:
    """The workbook's shared defaults with the track's language.

    >>> track_overrides({"a:b": {"c": 1}}, "es")
    {'a:b': {'c': 1}, '@jupyterlab/translation-extension:plugin': {'locale': 'es_ES'}}
    """
    overrides = copy.deepcopy(shared)
    overrides.setdefault(TRANSLATION_PLUGIN, {})["locale"] = TRACK_LOCALES[track]
    return overrides


def main() -> None:
    try:
        shared = json.loads(SOURCE.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:  # fail loudly on a malformed overrides file
        sys.exit(f"{SOURCE}:{error.lineno}: not valid JSON: {error.msg}")
    for track in TRACK_LOCALES:
        target = settings_dir(sys.prefix, track) / "overrides.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(track_overrides(shared, track), indent=2) + "\n", encoding="utf-8")
        print(f"JupyterLab settings for the {track} track installed at {target}")


if __name__ == "__main__":
    main()
