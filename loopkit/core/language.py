"""The language loopkit speaks to a learner: English, unless a chapter asks for another with ``set_language``.

English is the source language: loopkit writes every message in English, where it is used, and passes the
learner-facing ones through :func:`tr` (or :func:`ntr`, when a number changes the words). The translations are a
gettext catalog, the standard library's :mod:`gettext` reads it: one domain, ``loopkit``, whose messages are written
in ``loopkit/core/locales/<code>/LC_MESSAGES/loopkit.po`` and compiled into the ``loopkit.mo`` beside it when loopkit
is installed (``make translations``, which ``make lab``, ``make test`` and Binder's ``postBuild`` run; the ``.mo`` is
not committed). Babel extracts the messages from the code (``make messages``; see ``babel.cfg``)::

    msgid "Correct! (Exercise {qid})"
    msgstr "¡Correcto! (Ejercicio {qid})"

A message is a whole sentence: word order, case and agreement differ between languages, so loopkit never glues a
sentence from translated pieces. An English text that needs two translations (the same words, two grammatical roles)
carries a ``context`` (gettext's ``pgettext``): ``tr("warned", context="participle")``. A text written where it is not
translated (a table of labels, an exercise's hint) is marked for extraction with :func:`N_`, which returns it as it is.
The language is held in a :class:`~contextvars.ContextVar`, so a thread or a task can speak its own. A new language is a
new catalog, not a code change. What is translated: exercise feedback, widget labels and help, table headings and plot
labels. What is not: error messages of loopkit's API (they stay English in every track, so a learner can search for
them) and code words such as ``ok``, ``warn``, ``stop`` and tool names.

>>> set_language("es"); tr("Correct! (Exercise {qid})", qid="1.1")
'¡Correcto! (Ejercicio 1.1)'
>>> ntr("skipped {n} bad record (--skip-bad-records)", "skipped {n} bad records (--skip-bad-records)", 2)
'se omitieron 2 registros ilegibles (--skip-bad-records)'
>>> set_language("en"); tr("Correct! (Exercise {qid})", qid="1.1")
'Correct! (Exercise 1.1)'
"""

from __future__ import annotations

import contextvars
import gettext
import os
import pathlib

__all__ = ["DEFAULT_LANGUAGE", "DOMAIN", "LOCALES", "MissingTranslation", "N_", "current_language", "languages",
           "ntr", "set_language", "tr", "translations"]

DEFAULT_LANGUAGE = "en"
#: The gettext domain: one catalog for the whole package (a message's module is its location comment).
DOMAIN = "loopkit"
LOCALES = pathlib.Path(__file__).resolve().parent / "locales"

#: Set to 1 (the test suite does) to make a missing translation an error instead of falling back to English.
STRICT_VARIABLE = "LOOPKIT_STRICT_TRANSLATIONS"

_language: contextvars.ContextVar[str] = contextvars.ContextVar("loopkit_language", default=DEFAULT_LANGUAGE)
_translations: dict[str, gettext.NullTranslations] = {}


class MissingTranslation(LookupError):
    """A text has no translation in the current language (raised only in strict mode)."""


def N_(text: str, *, context: str | None = None) -> str:  # noqa: N802 (gettext's own name for the marker)
    """Mark ``text`` for extraction where it is written, and return it unchanged; :func:`tr` translates it where it
    is shown. ``context`` is read by the extraction only, and must be the one the ``tr`` call will pass.

    >>> N_("step")
    'step'
    """
    return text


def catalog_path(code: str, suffix: str = ".po") -> pathlib.Path:
    """``loopkit/core/locales/<code>/LC_MESSAGES/loopkit.po`` (or ``.mo``, its compiled form)."""
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def languages() -> tuple[str, ...]:
    """English, then every language that has a catalog under ``loopkit/core/locales/``.

    >>> languages()[:2]
    ('en', 'es')
    """
    found = sorted(folder.name for folder in LOCALES.iterdir() if catalog_path(folder.name).exists())
    return (DEFAULT_LANGUAGE, *found)


def set_language(code: str) -> None:
    """Speak ``code`` ("en" or "es") from now on, in this kernel: exercise feedback, widgets, tables and plots."""
    known = languages()
    if code not in known:
        raise ValueError(f"language must be one of {', '.join(map(repr, known))}, got {code!r}")
    translations(code)  # a catalog that was never compiled is named now, not at the first text
    _language.set(code)


def current_language() -> str:
    """The code of the language loopkit speaks now ("en" unless a chapter chose another)."""
    return _language.get()


class _Untranslated(gettext.NullTranslations):
    """The last fallback of a catalog: the English text, or, in strict mode, :class:`MissingTranslation`."""

    def __init__(self, code: str):
        super().__init__()
        self.code = code

    def _missing(self, text: str) -> None:
        if os.environ.get(STRICT_VARIABLE) == "1":
            raise MissingTranslation(f"no {self.code!r} translation of {text!r}: add it to "
                                     f"loopkit/core/locales/{self.code}/LC_MESSAGES/{DOMAIN}.po (make messages)")

    def gettext(self, message):
        self._missing(message)
        return message

    def ngettext(self, msgid1, msgid2, n):
        self._missing(msgid1)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context, message):
        self._missing(message)
        return message

    def npgettext(self, context, msgid1, msgid2, n):
        self._missing(msgid1)
        return msgid1 if n == 1 else msgid2


def translations(code: str) -> gettext.NullTranslations:
    """The compiled catalog of ``code`` (English has none: its texts are the messages themselves)."""
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    if code not in _translations:
        compiled = catalog_path(code, ".mo")
        if not compiled.exists():
            raise FileNotFoundError(f"{compiled} is missing: the {code!r} catalog is compiled when loopkit is "
                                    "installed; run `make translations` (pybabel compile) in the checkout")
        with compiled.open("rb") as handle:
            catalog = gettext.GNUTranslations(handle)
        catalog.add_fallback(_Untranslated(code))
        _translations[code] = catalog
    return _translations[code]


def tr(text: str, *, context: str | None = None, **fields) -> str:
    """``text`` in the current language, with ``{name}`` fields filled in from ``fields``; ``context`` picks the
    message for one grammatical role when the same English needs two translations.

    Without a translation, the English text is used, unless ``LOOPKIT_STRICT_TRANSLATIONS=1`` (then it raises
    :class:`MissingTranslation`, which is how the tests find a string nobody translated).
    """
    if not text:  # gettext keeps the empty message for the catalog's header: an empty heading stays empty
        return text
    catalog = translations(current_language())
    template = catalog.gettext(text) if context is None else catalog.pgettext(context, text)
    return template.format(**fields) if fields else template


def ntr(singular: str, plural: str, n: int, *, context: str | None = None, **fields) -> str:
    """The form of a message that agrees with the number ``n`` (gettext's ``ngettext``), filled in with ``n`` and
    ``fields``: English has two forms, one for 1 and one for every other number; another language has its own rule.

    >>> ntr("{n} later batch", "{n} later batches", 1), ntr("{n} later batch", "{n} later batches", 3)
    ('1 later batch', '3 later batches')
    """
    catalog = translations(current_language())
    template = (catalog.ngettext(singular, plural, n) if context is None
                else catalog.npgettext(context, singular, plural, n))
    return template.format(n=n, **fields)
