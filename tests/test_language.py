"""loopkit speaks the learner's language: the gettext catalogs are current, complete and well formed.

One catalog per language, ``loopkit/core/locales/<code>/LC_MESSAGES/loopkit.po`` (loopkit/core/language.py). These
tests run the standard commands on it: Babel's extraction (babel.cfg, tools/babel_extract.py) into a fresh template,
and ``pybabel update --check`` against the committed catalog (extraction is up to date); ``pybabel compile
--statistics`` (no fuzzy or untranslated entry: strict mode would raise for it); Babel's checkers and the ``{field}``
placeholders of every message. The exercise texts (titles, hints, misconceptions, explanations) are read from the
questions themselves, to prove the extraction sees every one.
"""

from __future__ import annotations

import contextvars
import json
import os
import pathlib
import re
import string
import subprocess
import sys
import threading

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import loopkit
from loopkit.core import language
from loopkit.core.language import MissingTranslation, current_language, ntr, set_language, tr
from loopkit.teaching.exercises import all_questions, chapter_modules

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import tracks  # noqa: E402 (tools/tracks.py: the twins)
from tools.babel_extract import messages  # noqa: E402 (tools/ is not a package loopkit ships)

FOREIGN = language.languages()[1:]
BABEL = [sys.executable, "-m", "babel.messages.frontend"]
# The same options as the Makefile's `make messages`, so the template made here is the one it makes.
EXTRACT = ["--mapping-file", "babel.cfg", "--width", "120", "--add-location", "file", "--sort-by-file",
           "--project", "loopkit", "--version", "0.1.0"]
UPDATE = ["--domain", "loopkit", "--width", "120", "--no-fuzzy-matching", "--ignore-obsolete",
          "--ignore-pot-creation-date"]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*BABEL, *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> pathlib.Path:
    """A template extracted now from the code, as `make messages` extracts it."""
    path = tmp_path_factory.mktemp("pot") / "loopkit.pot"
    done = run("--quiet", "extract", *EXTRACT, "--output-file", str(path), "loopkit")
    assert done.returncode == 0, done.stderr
    return path


def read(path: pathlib.Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle)


def key(message) -> tuple[str | None, str]:
    """A message's (context, English text): its singular, for a plural message."""
    return message.context, message.id[0] if isinstance(message.id, tuple) else message.id


def keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {key(message) for message in catalog if message.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_spanish_is_a_language():
    assert "es" in FOREIGN


@pytest.mark.parametrize("code", FOREIGN)
def test_every_text_the_code_writes_is_in_the_catalog_and_no_other(code, template):
    """Extraction is up to date: the fresh template's messages are the catalog's (a new text is missing, a reworded
    or deleted one is stale), and `pybabel update --check` finds nothing to change."""
    extracted, committed = keys(read(template)), keys(read(language.catalog_path(code)))
    assert not sorted(extracted - committed), f"run `make messages`, then translate: {sorted(extracted - committed)}"
    assert not sorted(committed - extracted), f"stale, no module writes them (make messages): " \
                                              f"{sorted(committed - extracted)}"
    done = run("update", "--check", *UPDATE, "--locale", code, "--input-file", str(template),
               "--output-dir", "loopkit/core/locales")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_extraction_sees_every_exercise_text(template):
    """The extractor's keywords for the exercise framework (tools/babel_extract.py) reach every text a question
    shows: a text it missed would be in no catalog, and strict mode would fail only when a learner met it."""
    extracted = {text for _, text in keys(read(template))}
    missing = sorted((question.qid, text) for question in all_questions().values() for text in question.texts()
                     if text not in extracted)
    assert not missing, missing


@pytest.mark.parametrize("code", FOREIGN)
def test_no_entry_is_fuzzy_or_untranslated(code, tmp_path):
    """`pybabel compile --statistics` counts every message as translated, and Babel reads no fuzzy flag."""
    catalog = read(language.catalog_path(code))
    wanted = [message for message in catalog if message.id]
    assert not [key(m) for m in wanted if m.fuzzy], "fuzzy entries"
    assert not [key(m) for m in wanted if not all(m.string if isinstance(m.string, tuple) else [m.string])]
    done = run("compile", "--statistics", "--input-file", str(language.catalog_path(code)),
               "--output-file", str(tmp_path / "loopkit.mo"))
    assert done.returncode == 0, done.stderr
    assert f"{len(wanted)} of {len(wanted)} messages (100%) translated" in done.stderr + done.stdout


@pytest.mark.parametrize("code", FOREIGN)
def test_translations_keep_the_placeholders_and_are_not_english(code):
    """Babel's checkers (plural forms, printf placeholders) find nothing, and each translation has the same
    ``{field}`` placeholders as its English text. A plural form may show the number ``{n}`` or not (English says
    "warned at step {step}" for one warning), but every other placeholder is the same in every form."""
    catalog = read(language.catalog_path(code))
    assert not [(key(m), errors) for m, errors in catalog.check()]
    for message in (m for m in catalog if m.id):
        plural = isinstance(message.id, tuple)
        english = message.id[1] if plural else message.id
        number = {"n"} if plural else set()
        if plural:
            assert len(message.string) == catalog.num_plurals, key(message)
            assert fields(message.id[0]) - number == fields(english) - number, f"English forms differ: {key(message)}"
        for translated in (message.string if plural else [message.string]):
            assert fields(translated) - number == fields(english) - number and fields(translated) <= fields(english), \
                f"{code}: placeholders differ in {english[:70]!r}"
            if len(english.split()) >= 4:
                assert translated != english, f"{code}: {english[:70]!r} is not translated"


@pytest.mark.parametrize("code", FOREIGN)
def test_the_compiled_catalog_is_the_committed_one(code):
    """The .mo loopkit reads was compiled from the .po as it is now (make translations, which make test runs)."""
    catalog, compiled = read(language.catalog_path(code)), language.translations(code)
    for message in (m for m in catalog if m.id):
        if isinstance(message.id, tuple):
            got = tuple(compiled.npgettext(message.context, *message.id, n) if message.context
                        else compiled.ngettext(*message.id, n) for n in (1, 2))
            assert got == message.string, f"stale {code} .mo: run make translations ({key(message)})"
        else:
            got = compiled.pgettext(message.context, message.id) if message.context else compiled.gettext(message.id)
            assert got == message.string, f"stale {code} .mo: run make translations ({key(message)})"


def test_the_extractor_reads_contexts_plurals_markers_and_exercise_texts():
    source = '''
tr("shown", n=1, context="participle")
ntr("{n} call", "{n} calls", n, kinds=k)
LABELS = (N_("a label"), N_("warned", context="noun"))
tr(variable)
Question("1.1", "A title", kind="value", hint="A hint", wrong={"x": "Why x", "y": None}, solution_code="code",
         responses={"x": "Say x"})
equals(1, why="Because", item_reasons={"a": "A is in"})
Case((1,), 2, "an idea")
Wrong([1], "a misconception")
'''
    assert [found[1:] for found in messages(source)] == [
        ("pgettext", ("participle", "shown")), ("ngettext", ("{n} call", "{n} calls")), ("gettext", "a label"),
        ("pgettext", ("noun", "warned")), ("gettext", "A title"), ("gettext", "A hint"), ("gettext", "Why x"),
        ("gettext", "code"), ("gettext", "Say x"), ("gettext", "Because"), ("gettext", "A is in"), ("gettext", "an idea"),
        ("gettext", "a misconception")]


def test_unknown_languages_are_refused_by_name():
    with pytest.raises(ValueError, match=r"language must be one of 'en', 'es'.*got 'fr'"):
        set_language("fr")
    assert loopkit.current_language() == "en"


def test_a_missing_translation_falls_back_to_english_unless_strict(monkeypatch):
    set_language("es")
    monkeypatch.setenv(language.STRICT_VARIABLE, "1")
    with pytest.raises(MissingTranslation, match="no 'es' translation of 'no such text'.*LC_MESSAGES/loopkit.po"):
        tr("no such text")
    with pytest.raises(MissingTranslation, match="no 'es' translation of '{n} thing'"):
        ntr("{n} thing", "{n} things", 2)
    with pytest.raises(MissingTranslation):
        tr("warned at step {step}", context="no such context", step=1)
    monkeypatch.delenv(language.STRICT_VARIABLE)
    assert tr("no such text {n}", n=2) == "no such text 2"
    assert (ntr("{n} thing", "{n} things", 1), ntr("{n} thing", "{n} things", 3)) == ("1 thing", "3 things")


def test_an_empty_text_stays_empty(spanish):
    """gettext's empty message is the catalog's header (Project-Id-Version, Plural-Forms ...): a table's empty
    column heading, passed through tr, must not show it."""
    assert tr("") == "" and "Plural-Forms" in language.translations("es").gettext("")


def test_the_suite_runs_strict():
    """conftest.py sets this for the whole run, nbval kernels included."""
    assert os.environ.get(language.STRICT_VARIABLE) == "1"


@pytest.fixture
def made_up_language(tmp_path, monkeypatch):
    """A language "xx" with three plural forms (chosen by n % 3) and a context, compiled into a temporary folder."""
    catalog = Catalog(locale="en", domain="loopkit")
    catalog.mime_headers = [*catalog.mime_headers, ("Plural-Forms", "nplurals=3; plural=(n % 3);")]
    catalog.add("warned", "avisó")
    catalog.add("warned", "avisado", context="participle")
    catalog.add(("{n} call", "{n} calls"), ("{n} zero", "{n} one", "{n} two"))
    folder = tmp_path / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "loopkit.po").write_text("# only its presence names the language\n", encoding="utf-8")
    with (folder / "loopkit.mo").open("wb") as handle:
        write_mo(handle, catalog)
    monkeypatch.setattr(language, "LOCALES", tmp_path)
    monkeypatch.setattr(language, "_translations", {})
    return folder


def test_a_context_and_the_plural_rule_come_from_the_catalog(made_up_language):
    set_language("xx")
    assert (tr("warned"), tr("warned", context="participle")) == ("avisó", "avisado")
    assert [ntr("{n} call", "{n} calls", n) for n in (3, 4, 5)] == ["3 zero", "4 one", "5 two"]


def test_a_catalog_never_compiled_is_named_when_chosen(made_up_language):
    (made_up_language / "loopkit.mo").unlink()
    with pytest.raises(FileNotFoundError, match=r"xx/LC_MESSAGES/loopkit\.mo is missing.*make translations"):
        set_language("xx")
    assert current_language() == "en"


def test_the_language_is_held_per_context_and_per_thread():
    """A ContextVar: a thread starts in English, and a language chosen inside a copied context stays there."""
    set_language("es")
    seen = []
    thread = threading.Thread(target=lambda: seen.append(current_language()))
    thread.start()
    thread.join()
    assert seen == ["en"] and current_language() == "es"
    set_language("en")
    inside = contextvars.copy_context()
    inside.run(set_language, "es")
    assert (inside.run(current_language), current_language()) == ("es", "en")


@pytest.mark.parametrize("qid", sorted(all_questions()))
def test_spanish_learners_get_spanish_feedback(qid):
    """The same answers, checked in each language: the Spanish verdicts are the catalog's, not the English ones."""
    question = all_questions()[qid]
    answers = [question.solution_value, *question.wrong_answers]
    english = [str(question.verify(answer)) for answer in answers]
    set_language("es")
    spanish = [question.verify(answer) for answer in answers]
    assert spanish[0].ok and not any(verdict.ok for verdict in spanish[1:])
    assert all(str(verdict).startswith(("¡Correcto!", "Todavía no")) for verdict in spanish)
    for en, es in zip(english, spanish):
        assert en.split("\n", 1)[1] != es.explanation, f"{qid}: an explanation stayed English: {es}"
    catalog = language.translations("es")
    for (answer, why), verdict in zip(question.misconceptions, spanish[1:]):
        if why:
            assert verdict.explanation == catalog.gettext(why), f"{qid}: the wrong answer {answer!r} got {verdict}"


@pytest.mark.parametrize("qid", sorted(all_questions()))
def test_hints_and_solutions_print_in_spanish(qid, capsys, spanish):
    question = all_questions()[qid]
    question.hint()
    question.solution()
    printed = capsys.readouterr().out
    catalog = language.translations("es")
    assert printed.startswith(f"Pista ({qid}): {catalog.gettext(question._hint)}\nSolución ({qid}):\n"), printed
    if question._solution_code_is_prose:
        assert catalog.gettext(question._solution_code) in printed


def test_every_chapter_module_is_one_of_the_exercise_modules():
    """The exercise extraction above reads the questions of these modules: each one's texts are a chapter's."""
    assert [module.__name__.rsplit(".", 1)[1] for module in chapter_modules()] == \
        sorted(path.stem for path in (ROOT / "loopkit" / "teaching" / "exercises").glob("ch[0-9][0-9].py"))


# --- one Spanish word for a read bucket, one for a line range (issue 31) ------------------------------------------

GLOSARIO = ROOT / "docs" / "es" / "glosario.md"
CATALOG = ROOT / "loopkit" / "core" / "locales" / "es" / "LC_MESSAGES" / "loopkit.po"
#: The sentence of the Spanish glossary that fixes the two terms and the word used for neither.
TERM_RULE = re.compile(r"decimos\s+\*(\w+)\*\s+para\s+\*bucket\*\s+y\s+\*(\w+)\*\s+para\s+\*range\*;\s+\*(\w+)\*\s+no\s+se\s+usa")
#: A text about another kind of bucket (chapter 09's per-user memory buckets) says "bucket" for it, not "bloque".
OTHER_BUCKETS = re.compile(r"\bmemory buckets?\b", re.I)


def spanish_terms() -> tuple[str, str, str]:
    """(bucket, range, the word used for neither), as the Spanish glossary states them."""
    match = TERM_RULE.search(GLOSARIO.read_text(encoding="utf-8"))
    assert match, "docs/es/glosario.md no longer says which words mean bucket and range"
    return match.groups()


def says(word: str, text: str) -> bool:
    """True when ``text`` uses ``word`` or its plural as a word, in any case."""
    return re.search(rf"\b{word}(e?s)?\b", text, re.I) is not None


def prose(text: str) -> str:
    """Markdown without code spans and link targets: what a learner reads as words."""
    return re.sub(r"`[^`]*`", "", re.sub(r"\]\([^)]*\)", "]", text))


def everything_shown(nb: dict) -> str:
    """Every text of a chapter a learner can read: cells, outputs and stored views."""
    parts = []
    for cell in nb["cells"]:
        parts.append("".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"])
        for output in cell.get("outputs", []):
            parts.append(json.dumps(output, ensure_ascii=False))
    parts.append(json.dumps(nb["metadata"].get("widgets", {}), ensure_ascii=False))
    return "\n".join(parts)


def test_the_glossary_fixes_bloque_for_bucket_and_rango_for_range():
    assert spanish_terms() == ("bloque", "rango", "intervalo")
    glossary = GLOSARIO.read_text(encoding="utf-8")
    assert re.search(r"^\*\*bloque de lectura\*\* \(read bucket, capítulo 02\)", glossary, re.M)
    assert re.search(r"^\*\*rango de líneas\*\* \(line range, capítulo 02\)", glossary, re.M)


def test_the_term_check_sees_the_rejected_word_and_the_missing_term():
    assert says("intervalo", "dentro del Intervalo 0") and says("intervalo", "los intervalos")
    assert not says("intervalo", "intervalar") and says("rango", "dos rangos")
    assert not says("bucket", "(read_bucket)") and says("bucket", "200-line buckets")
    assert prose("la clave `a.py:0-0` de [capítulo 02](02_bloques_de_lectura.ipynb)") == "la clave  de [capítulo 02]"



@pytest.mark.parametrize("english, spanish", tracks.twins(), ids=lambda path: path.name)
def test_each_spanish_chapter_says_bloque_for_bucket_and_rango_for_range(english, spanish):
    bucket, line_range, neither = spanish_terms()
    en, es = (json.loads(path.read_text(encoding="utf-8")) for path in (english, spanish))
    assert not says(neither, everything_shown(es)), f"{spanish.name} still says {neither!r}"
    for index, (en_cell, es_cell) in enumerate(zip(en["cells"], es["cells"])):
        if en_cell["cell_type"] != "markdown":
            continue
        en_text, es_text = (prose("".join(cell["source"])) for cell in (en_cell, es_cell))
        if says("bucket", en_text) and not OTHER_BUCKETS.search(en_text):
            assert says(bucket, es_text), f"{spanish.name}, cell {index}: a read bucket without {bucket!r}"
        if says("range", en_text):
            assert says(line_range, es_text), f"{spanish.name}, cell {index}: a line range without {line_range!r}"


def test_loopkits_spanish_messages_say_bloque_for_bucket_and_rango_for_range():
    bucket, line_range, neither = spanish_terms()
    catalog = read(CATALOG)
    for message in catalog:
        if not message.id:
            continue
        english = " ".join(message.id) if isinstance(message.id, tuple) else message.id
        spanish = " ".join(message.string) if isinstance(message.string, tuple) else message.string
        assert not says(neither, spanish), f"{english!r} is translated with {neither!r}: {spanish!r}"
        if says("bucket", english) and not OTHER_BUCKETS.search(english):
            assert says(bucket, spanish), f"{english!r}: a read bucket without {bucket!r}: {spanish!r}"
        if says("range", english):
            assert says(line_range, spanish), f"{english!r}: a line range without {line_range!r}: {spanish!r}"
