"""The layer rule of docs/architecture.md, read from the imports themselves (ast): a module imports only from its own
layer or the layers below it, only the views import ipywidgets and matplotlib, the layers under the teaching aids
use the standard library alone, and the top-level namespace exports the core concepts."""

import ast
import re
import sys

import pytest

import loopkit
from notebook_tools import ROOT

PACKAGE = ROOT / "loopkit"

#: The layers, from the bottom; a module or a package (with everything in it) belongs to the first prefix it matches.
LAYERS = {
    "core helpers": ["checks", "batches", "normalize", "keys", "fingerprint", "bounded", "upstream", "_lazy",
                     "language"],
    "detector and middleware": ["detector", "middleware"],
    "replay and adapters": ["adapters", "tool_maps", "replay"],
    "teaching aids": ["patterns", "replay_table", "agent_loop", "conversation", "eviction_race", "versions", "conformance",
                      "collisions", "js_bucket", "peers", "loop_checker", "challenge", "boundaries", "probe", "setup_check",
                      "exercises", "widgets", "plots"],
    "command line": ["cli", "__main__"],
}
RANK = {module: rank for rank, modules in enumerate(LAYERS.values()) for module in modules}
VIEWS = ("widgets", "plots")
VIEW_LIBRARIES = ("ipywidgets", "matplotlib")

def module_name(path, root=ROOT):
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def top_module(dotted):
    """``loopkit.boundaries.trust`` -> ``boundaries``: the name the layer table uses."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports(path, root=ROOT):
    """``(line, imported module)`` for every import of ``path``, also inside functions, relative ones resolved."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            if node.module:
                yield node.lineno, ".".join([*base, node.module])
            else:  # from . import a, b: each name is a module of the package
                yield from ((node.lineno, ".".join([*base, alias.name])) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module


MODULES = sorted(PACKAGE.rglob("*.py"))
IDS = [str(p.relative_to(ROOT)) for p in MODULES]


def layer_of(path):
    return RANK.get(top_module(module_name(path)))


def test_every_module_has_a_layer():
    unplaced = [str(p.relative_to(ROOT)) for p in MODULES if p != PACKAGE / "__init__.py" and layer_of(p) is None]
    assert not unplaced, f"add these to LAYERS here and to docs/architecture.md: {unplaced}"


@pytest.mark.parametrize("path", [p for p in MODULES if p != PACKAGE / "__init__.py"],
                         ids=[i for i in IDS if i != "loopkit/__init__.py"])
def test_a_module_imports_only_from_its_layer_or_below(path):
    mine = layer_of(path)
    upward = [f"{path.relative_to(ROOT)}:{line} imports {target} ({list(LAYERS)[RANK[top_module(target)]]})"
              for line, target in imports(path)
              if target.startswith("loopkit.") and RANK.get(top_module(target), -1) > mine]
    assert not upward, f"{list(LAYERS)[mine]} may not import a higher layer:\n" + "\n".join(upward)


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_only_the_views_import_ipywidgets_and_matplotlib(path):
    if top_module(module_name(path)) in VIEWS:
        return
    found = [f"{path.relative_to(ROOT)}:{line} imports {target}" for line, target in imports(path)
             if target.split(".")[0] in VIEW_LIBRARIES]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", [p for p in MODULES if (layer_of(p) or 0) < RANK["patterns"]],
                         ids=[i for p, i in zip(MODULES, IDS) if (layer_of(p) or 0) < RANK["patterns"]])
def test_the_layers_below_the_teaching_aids_use_the_standard_library_only(path):
    found = [f"{path.relative_to(ROOT)}:{line} imports {target}" for line, target in imports(path)
             if target.split(".")[0] not in sys.stdlib_module_names and not target.startswith("loopkit")]
    assert not found, "\n".join(found)


def test_the_rule_reader_resolves_an_upward_import_inside_a_function(tmp_path):
    """A core module that imported the CLI inside a function would be caught: the reader walks the whole tree."""
    copy = tmp_path / "loopkit" / "keys.py"
    copy.parent.mkdir()
    copy.write_text((PACKAGE / "keys.py").read_text() + "\n\ndef _late():\n    from .cli import main\n")
    found = [target for _, target in imports(copy, tmp_path)]
    assert "loopkit.cli" in found and "loopkit.normalize" in found
    assert RANK[top_module("loopkit.cli")] > RANK[top_module(module_name(copy, tmp_path))]


def test_the_top_level_exports_the_core_concepts():
    """Every name ``from loopkit import *`` gives is defined in the layers under the teaching aids, but for
    ``check_setup``: chapter 00's setup check, which issue 10 asked for as ``loopkit.check_setup()``."""
    namespace = {}
    exec("from loopkit import *", namespace)  # raises AttributeError if __all__ names something missing
    exported = set(namespace) - {"__builtins__"}
    assert exported == set(loopkit.__all__)
    for name in exported - {"check_setup", "UPSTREAM_COMMIT", "BUCKET_SIZE", "SALIENT_FIELDS",
                            "FINGERPRINT_HEX_CHARS"}:
        home = namespace[name].__module__
        assert RANK[top_module(home)] < RANK["patterns"], f"loopkit.{name} comes from {home}, a teaching aid"
    assert {"normalize_args", "read_bucket", "stable_key", "fingerprint", "BoundedDict", "LRUDict", "DetectorConfig",
            "PinnedMiddleware", "RunScopedMiddleware", "iter_runs"} <= exported


def test_the_architecture_page_draws_every_layer_and_names_paths_that_exist():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    diagram = page.split("```")[1]
    undrawn = [m for m in RANK if m not in set(re.findall(r"[a-z_]+", diagram)) and not m.startswith("_")]
    assert not undrawn, f"docs/architecture.md's diagram lacks {undrawn}"
    paths = set(re.findall(r"`(loopkit/[a-z_/.]*)`", page))
    assert len(paths) > 20 and not [p for p in sorted(paths) if not (ROOT / p).exists()]
