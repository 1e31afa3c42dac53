"""The language loopkit speaks to a learner: English, unless a chapter asks for another with ``set_language``.

English is the source language: loopkit writes every message in English, where it is used, and passes the
learner-facing ones through :func:`tr`. A translation lives in ``loopkit/core/locales/<code>/<module>.toml``, one file
per module, each entry pairing the English text with its translation::

    [[text]]
    en = "Correct! (Exercise {qid})"
    es = "¡Correcto! (Ejercicio {qid})"

An English text that needs two translations (the same words, two grammatical roles) carries a ``context``:
``tr("warned at step {step}", context="after would have", step=3)`` looks up the entry whose ``context`` says so.
A new language is a new folder of such files, not a code change. What is translated: exercise feedback, widget
labels and help, table headings and plot labels. What is not: error messages of loopkit's API (they stay English in
every track, so a learner can search for them) and code words such as ``ok``, ``warn``, ``stop`` and tool names.

>>> set_language("es"); tr("Correct! (Exercise {qid})", qid="1.1")
'¡Correcto! (Ejercicio 1.1)'
>>> set_language("en"); tr("Correct! (Exercise {qid})", qid="1.1")
'Correct! (Exercise 1.1)'
"""

from __future__ import annotations

import os
import pathlib
import tomllib

__all__ = ["DEFAULT_LANGUAGE", "LOCALES", "MissingTranslation", "catalog", "current_language", "languages",
           "set_language", "tr"]

DEFAULT_LANGUAGE = "en"
LOCALES = pathlib.Path(__file__).resolve().parent / "locales"

#: Set to 1 (the test suite does) to make a missing translation an error instead of falling back to English.
STRICT_VARIABLE = "LOOPKIT_STRICT_TRANSLATIONS"

_current = DEFAULT_LANGUAGE
#: A catalog's key: (context or None, English text).
Key = tuple[str | None, str]
_catalogs: dict[str, dict[Key, str]] = {}


class MissingTranslation(LookupError):
    """A text has no translation in the current language (raised only in strict mode)."""


def languages() -> tuple[str, ...]:
    """English, then every language that has a folder of catalogs under ``loopkit/core/locales/``.

    >>> languages()[:2]
    ('en', 'es')
    """
    found = sorted(folder.name for folder in LOCALES.iterdir() if folder.is_dir() and any(folder.glob("*.toml")))
    return (DEFAULT_LANGUAGE, *found)


def set_language(code: str) -> None:
    """Speak ``code`` ("en" or "es") from now on, in this kernel: exercise feedback, widgets, tables and plots."""
    known = languages()
    if code not in known:
        raise ValueError(f"language must be one of {', '.join(map(repr, known))}, got {code!r}")
    global _current
    _current = code


def current_language() -> str:
    """The code of the language loopkit speaks now ("en" unless a chapter chose another)."""
    return _current


def read_catalog_file(path: pathlib.Path, code: str) -> dict[Key, str]:
    """One catalog file's entries, (context, English text) -> translation, with a clear error naming the file and
    the entry."""
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    unknown = set(document) - {"text"}
    if unknown:
        raise ValueError(f"{path}: expected only [[text]] entries, found {sorted(unknown)}")
    entries: dict[tuple[str | None, str], str] = {}
    for number, entry in enumerate(document.get("text", []), start=1):
        english, translation, context = entry.get(DEFAULT_LANGUAGE), entry.get(code), entry.get("context")
        if not isinstance(english, str) or not isinstance(translation, str):
            raise ValueError(f"{path}: entry {number} needs the strings {DEFAULT_LANGUAGE!r} and {code!r}")
        if context is not None and not isinstance(context, str):
            raise ValueError(f"{path}: entry {number}: context must be a string")
        key = (context, english)
        if key in entries and entries[key] != translation:
            raise ValueError(f"{path}: entry {number} translates {english[:60]!r} a second time, differently")
        entries[key] = translation
    return entries


def catalog(code: str) -> dict[Key, str]:
    """Every translation into ``code``, from all of its files: (context, English text) -> translated text.

    Two files may not translate the same English text differently in the same context: the track's terms stay
    consistent, and a text that needs two translations says so with a context.
    """
    if code not in _catalogs:
        merged: dict[Key, str] = {}
        for path in sorted((LOCALES / code).glob("*.toml")):
            for key, translation in read_catalog_file(path, code).items():
                if merged.get(key, translation) != translation:
                    raise ValueError(f"{path}: translates {key[1][:60]!r} differently from another file of {code}/"
                                     " (give one of them a context)")
                merged[key] = translation
        _catalogs[code] = merged
    return _catalogs[code]


def tr(text: str, *, context: str | None = None, **fields) -> str:
    """``text`` in the current language, with ``{name}`` fields filled in from ``fields``; ``context`` picks the
    entry for one grammatical role when the same English needs two translations.

    Without a translation, the English text is used, unless ``LOOPKIT_STRICT_TRANSLATIONS=1`` (then it raises
    :class:`MissingTranslation`, which is how the tests find a string nobody translated).
    """
    template = text
    if _current != DEFAULT_LANGUAGE:
        translated = catalog(_current).get((context, text))
        if translated is None and os.environ.get(STRICT_VARIABLE) == "1":
            raise MissingTranslation(
                f"no {_current!r} translation of {text!r}: add it to loopkit/core/locales/{_current}/")
        template = text if translated is None else translated
    return template.format(**fields) if fields else template
