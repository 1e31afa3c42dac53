"""loopkit speaks the learner's language: the catalogs are complete, current and well formed.

A catalog file ``loopkit/core/locales/<code>/<module>.toml`` holds one module's translations (loopkit/core/language.py).
These tests read every module's source with ``ast``: each text the module passes to ``tr`` must have a translation
in every language, and each translation must still be a text its module writes (no stale entries). The exercise
texts (titles, hints, misconceptions, explanations) are read from the questions themselves.
"""

from __future__ import annotations

import ast
import os
import pathlib
import string

import pytest

import loopkit
from loopkit.core import language
from loopkit.core.language import MissingTranslation, set_language, tr
from loopkit.teaching.exercises import all_questions, chapter_modules

PACKAGE = pathlib.Path(loopkit.__file__).parent
FOREIGN = language.languages()[1:]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    set_language("en")


def module_name(path: pathlib.Path) -> str:
    """``loopkit/views/widgets/_base.py`` -> ``widgets._base``; a package's ``__init__.py`` -> the package."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def string_constants(tree: ast.AST) -> set[str]:
    return {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def translated_texts(tree: ast.AST) -> set[tuple[str | None, str]]:
    """The (context, text) pairs a module passes to ``tr``: literals, and names bound to a literal at module
    level."""
    constants = {target.id: node.value.value for node in getattr(tree, "body", []) if isinstance(node, ast.Assign)
                 and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                 for target in node.targets if isinstance(target, ast.Name)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "tr" and node.args:
            first = node.args[0]
            context = next((k.value.value for k in node.keywords if k.arg == "context"), None)
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add((context, first.value))
            elif isinstance(first, ast.Name) and first.id in constants:
                found.add((context, constants[first.id]))
    return found


def catalog_file(code: str, module: str) -> pathlib.Path:
    return language.LOCALES / code / f"{module}.toml"


def entries(code: str, module: str) -> dict[tuple[str | None, str], str]:
    path = catalog_file(code, module)
    return language.read_catalog_file(path, code) if path.exists() else {}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_spanish_is_a_language():
    assert "es" in FOREIGN


@pytest.mark.parametrize("code", FOREIGN)
def test_every_catalog_file_names_a_module_and_parses(code):
    for path in sorted((language.LOCALES / code).glob("*.toml")):
        assert path.stem in MODULES, f"{path.relative_to(PACKAGE)} names no module loopkit.{path.stem}"
        assert language.read_catalog_file(path, code), f"{path.relative_to(PACKAGE)} holds no entry"
    assert language.catalog(code)


@pytest.mark.parametrize("code", FOREIGN)
@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_text_a_module_translates_has_a_translation(code, module):
    wanted = translated_texts(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    missing = sorted(wanted - set(entries(code, module)))
    assert not missing, f"loopkit/core/locales/{code}/{module}.toml lacks: {missing}"


@pytest.mark.parametrize("code", FOREIGN)
@pytest.mark.parametrize("module", [m.__name__.removeprefix("loopkit.") for m in chapter_modules()])
def test_every_exercise_text_has_a_translation(code, module):
    chapter = next(m for m in chapter_modules() if m.__name__.endswith(module))
    wanted = {(None, text) for question in chapter.QUESTIONS for text in question.texts()}
    missing = sorted(wanted - set(entries(code, module)))
    assert not missing, f"loopkit/core/locales/{code}/{module}.toml lacks: {missing}"


@pytest.mark.parametrize("code", FOREIGN)
def test_no_translation_is_stale(code):
    """Every entry is a text its module still writes: a reworded English text needs a new translation."""
    stale = []
    for path in sorted((language.LOCALES / code).glob("*.toml")):
        written = string_constants(ast.parse(MODULES[path.stem].read_text(encoding="utf-8")))
        stale += [f"{path.name}: {english[:70]!r}" for _, english in read(path, code) if english not in written]
    assert not stale, "translations of texts no module writes any more:\n" + "\n".join(stale)


def read(path: pathlib.Path, code: str) -> dict[str, str]:
    return language.read_catalog_file(path, code)


@pytest.mark.parametrize("code", FOREIGN)
def test_translations_keep_the_fields_and_are_not_english(code):
    for (_, english), translated in language.catalog(code).items():
        assert fields(translated) == fields(english), f"{code}: fields differ in {english[:70]!r}"
        if len(english.split()) >= 4:
            assert translated != english, f"{code}: {english[:70]!r} is not translated"


def test_unknown_languages_are_refused_by_name():
    with pytest.raises(ValueError, match=r"language must be one of 'en', 'es'.*got 'fr'"):
        set_language("fr")
    assert loopkit.current_language() == "en"


def test_a_missing_translation_falls_back_to_english_unless_strict(monkeypatch):
    set_language("es")
    monkeypatch.setenv(language.STRICT_VARIABLE, "1")
    with pytest.raises(MissingTranslation, match="no 'es' translation of 'no such text'"):
        tr("no such text")
    monkeypatch.delenv(language.STRICT_VARIABLE)
    assert tr("no such text {n}", n=2) == "no such text 2"


def test_the_suite_runs_strict():
    """conftest.py sets this for the whole run, nbval kernels included."""
    assert os.environ.get(language.STRICT_VARIABLE) == "1"


def test_a_context_picks_one_of_two_translations_of_the_same_english(tmp_path, monkeypatch):
    folder = tmp_path / "xx"
    folder.mkdir()
    (folder / "m.toml").write_text('[[text]]\nen = "warned"\nxx = "avisó"\n\n'
                                   '[[text]]\ncontext = "participle"\nen = "warned"\nxx = "avisado"\n', encoding="utf-8")
    monkeypatch.setattr(language, "LOCALES", tmp_path)
    monkeypatch.setattr(language, "_catalogs", {})
    set_language("xx")
    assert (tr("warned"), tr("warned", context="participle")) == ("avisó", "avisado")
    (folder / "n.toml").write_text('[[text]]\nen = "warned"\nxx = "avisaba"\n', encoding="utf-8")
    monkeypatch.setattr(language, "_catalogs", {})
    with pytest.raises(ValueError, match=r"n\.toml: translates 'warned' differently .*give one of them a context"):
        tr("warned")


def test_a_bad_catalog_file_is_named_with_its_entry(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('[[text]]\nen = "a"\n\n[[text]]\nen = "b"\nfr = "c"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.toml: entry 1 needs the strings 'en' and 'fr'"):
        language.read_catalog_file(path, "fr")
    path.write_text('[[text]\nen = "a"', encoding="utf-8")
    with pytest.raises(ValueError, match=r"x\.toml: not valid TOML"):
        language.read_catalog_file(path, "fr")


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
    catalog = language.catalog("es")
    for (answer, why), verdict in zip(question.misconceptions, spanish[1:]):
        if why:
            assert verdict.explanation == catalog[None, why], f"{qid}: the wrong answer {answer!r} got {verdict}"


@pytest.mark.parametrize("qid", sorted(all_questions()))
def test_hints_and_solutions_print_in_spanish(qid, capsys, spanish):
    question = all_questions()[qid]
    question.hint()
    question.solution()
    printed = capsys.readouterr().out
    catalog = language.catalog("es")
    assert printed.startswith(f"Pista ({qid}): {catalog[None, question._hint]}\nSolución ({qid}):\n"), printed
    if question._solution_code_is_prose:
        assert catalog[None, question._solution_code] in printed
