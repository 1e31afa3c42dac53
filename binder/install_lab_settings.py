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

Stored views that do not look broken: before a chapter runs, ipywidgets draws a red broken-link icon on every part
of a stored view. ``binder/lab.css`` hides it and says once per view, in the lab's language, that the view responds
once the chapter runs. It is installed as JupyterLab's custom CSS (``LabApp.custom_css``, which JupyterLab links
into its page), in ``<prefix>/share/jupyter/loopkit-workbook/custom/custom.css``, and the environment's own server
configuration, ``<prefix>/etc/jupyter/jupyter_server_config.json``, turns it on and serves it from there (the
server's ``static_custom_path``, by default the user's ``~/.jupyter/custom``). Every Jupyter server of that
environment reads that file (``make lab``, Binder's, a hub's single-user servers); nothing goes in the learner's own
``~/.jupyter``, and any other setting already in the file is kept.

Used by binder/postBuild and by ``make`` for local installs, so both get the same lab.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys

SOURCE = pathlib.Path(__file__).with_name("overrides.json")
CSS = pathlib.Path(__file__).with_name("lab.css")
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


def custom_css_folder(prefix: str | pathlib.Path) -> pathlib.Path:
    """Where the environment at ``prefix`` keeps the lab's custom CSS (``custom.css`` in it).

    >>> custom_css_folder("/env").as_posix()
    '/env/share/jupyter/loopkit-workbook/custom'
    """
    return pathlib.Path(prefix, "share", "jupyter", "loopkit-workbook", "custom")


def with_custom_css(config: dict, prefix: str | pathlib.Path) -> dict:
    """A server configuration (the JSON of jupyter_server_config.json) that also loads the workbook's custom CSS from
    ``prefix``; whatever else it sets is kept.

    >>> with_custom_css({"ServerApp": {"ip": "0.0.0.0"}}, "/env")["ServerApp"]
    {'ip': '0.0.0.0', 'tornado_settings': {'static_custom_path': ['/env/share/jupyter/loopkit-workbook/custom']}}
    >>> with_custom_css({}, "/env")["LabApp"]
    {'custom_css': True}
    """
    merged = copy.deepcopy(config)
    merged.setdefault("LabApp", {})["custom_css"] = True
    tornado = merged.setdefault("ServerApp", {}).setdefault("tornado_settings", {})
    tornado["static_custom_path"] = [str(custom_css_folder(prefix))]
    return merged


def install_custom_css(prefix: str | pathlib.Path) -> pathlib.Path:
    """Copy binder/lab.css into the environment and turn it on in the environment's server configuration; returns
    that configuration file."""
    folder = custom_css_folder(prefix)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "custom.css").write_text(CSS.read_text(encoding="utf-8"), encoding="utf-8")
    config = pathlib.Path(prefix, "etc", "jupyter", "jupyter_server_config.json")
    try:
        current = json.loads(config.read_text(encoding="utf-8")) if config.exists() else {}
    except json.JSONDecodeError as error:
        sys.exit(f"{config}:{error.lineno}: not valid JSON: {error.msg}")
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps(with_custom_css(current, prefix), indent=2) + "\n", encoding="utf-8")
    return config


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
    config = install_custom_css(sys.prefix)
    print(f"JupyterLab's custom CSS for stored views (binder/lab.css) installed, turned on in {config}")


if __name__ == "__main__":
    main()
