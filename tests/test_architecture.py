"""The floors of docs/architecture.md, read from the code: a module's floor is its top-level folder under loopkit/,
it imports only from its floor or the floors below, no modules import each other in a circle, only the views import
ipywidgets and matplotlib, the core and the traces use the standard library alone, the top-level namespace exports
the core concepts, and the page's diagram is the one the code draws today."""

import shutil
import subprocess
import sys

import pytest

import loopkit
from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import architecture  # noqa: E402
from architecture import FLOORS, PACKAGE, ROOF, floor_of, imports, module_name, rank  # noqa: E402

MODULES = architecture.modules()
IDS = [str(p.relative_to(ROOT)) for p in MODULES]
OUTSIDE = {PACKAGE / "__init__.py", PACKAGE / "__main__.py"}
VIEW_LIBRARIES = ("ipywidgets", "matplotlib")


def floor_of_path(path):
    return floor_of(module_name(path))


def loopkit_imports(path):
    return [(line, target) for line, target in imports(path) if target.startswith("loopkit.")]


def test_every_module_lives_in_a_floor_folder():
    loose = [str(p.relative_to(ROOT)) for p in MODULES if p not in OUTSIDE and floor_of_path(p) == ROOF]
    assert not loose, f"move these into one of loopkit/{{{','.join(FLOORS)}}}/: {loose}"
    assert sorted(entry.name for entry in PACKAGE.iterdir() if entry.is_dir() and entry.name != "__pycache__") == \
        sorted(FLOORS), "loopkit/ holds exactly the floor folders"


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_a_module_imports_only_from_its_floor_or_below(path):
    mine = floor_of_path(path)
    if path == PACKAGE / "__init__.py":  # the public names, gathered from the floors (check_setup from teaching)
        return
    upward = [f"{path.relative_to(ROOT)}:{line} imports {target} (floor {floor_of(target)})"
              for line, target in loopkit_imports(path) if rank(floor_of(target)) > rank(mine)]
    assert not upward, f"{mine} may not import a higher floor:\n" + "\n".join(upward)


def import_graph():
    """module -> the loopkit modules it imports, each import named as the module or package it resolves to."""
    known = {module_name(p) for p in MODULES}
    graph = {}
    for path in MODULES:
        targets = set()
        for _, target in loopkit_imports(path):
            while target not in known and "." in target:  # from .x import name: name is not a module
                target = target.rpartition(".")[0]
            targets.add(target)
        graph[module_name(path)] = targets - {module_name(path)}
    return graph


def cycles(graph):
    """Every module that lies on a circle of imports (depth-first search, colouring the modules on the path)."""
    on_path, done, found = set(), set(), set()

    def visit(node, path):
        on_path.add(node)
        for nxt in graph.get(node, ()):
            if nxt in on_path:
                found.update(path[path.index(nxt):])
            elif nxt not in done:
                visit(nxt, [*path, nxt])
        on_path.discard(node)
        done.add(node)

    for start in sorted(graph):
        if start not in done:
            visit(start, [start])
    return found


def test_no_modules_import_each_other_in_a_circle():
    graph = import_graph()
    # a package's __init__ imports its own modules, which may import names back from the package: that is the
    # package re-exporting, not a circle between two modules, so package -> own child edges are left out
    graph = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}
    graph = {m: {t for t in ts if not m.startswith(t + ".")} for m, ts in graph.items()}
    assert not cycles(graph), f"modules on a circle of imports: {sorted(cycles(graph))}"


def test_the_circle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {"a", "b", "c"}
    assert cycles({"a": {"b"}, "b": {"c"}, "d": {"a", "c"}}) == set()


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_only_the_views_import_ipywidgets_and_matplotlib(path):
    if floor_of_path(path) == "views":
        return
    found = [f"{path.relative_to(ROOT)}:{line} imports {target}" for line, target in imports(path)
             if target.split(".")[0] in VIEW_LIBRARIES]
    assert not found, "\n".join(found)


LOW = [p for p in MODULES if rank(floor_of_path(p)) < rank("teaching")]


@pytest.mark.parametrize("path", LOW, ids=[str(p.relative_to(ROOT)) for p in LOW])
def test_the_core_and_the_traces_use_the_standard_library_only(path):
    found = [f"{path.relative_to(ROOT)}:{line} imports {target}" for line, target in imports(path)
             if target.split(".")[0] not in sys.stdlib_module_names and not target.startswith("loopkit")]
    assert not found, "\n".join(found)


def test_the_import_reader_resolves_an_upward_import_inside_a_function(tmp_path):
    """A core module that imported the CLI inside a function would be caught: the reader walks the whole tree."""
    copy = tmp_path / "loopkit" / "core" / "keys.py"
    copy.parent.mkdir(parents=True)
    copy.write_text((PACKAGE / "core" / "keys.py").read_text() + "\n\ndef _late():\n    from ..cli import main\n")
    found = [target for _, target in imports(copy, tmp_path)]
    assert "loopkit.cli" in found and "loopkit.core.checks" in found
    assert rank(floor_of("loopkit.cli")) > rank(floor_of(module_name(copy, tmp_path)))


def test_the_top_level_exports_the_core_concepts():
    """Every name ``from loopkit import *`` gives is defined in the core or the traces, but for ``check_setup``:
    chapter 00's setup check, which issue 10 asked for as ``loopkit.check_setup()``."""
    namespace = {}
    exec("from loopkit import *", namespace)  # raises AttributeError if __all__ names something missing
    exported = set(namespace) - {"__builtins__"}
    assert exported == set(loopkit.__all__)
    for name in exported - {"check_setup", "UPSTREAM_COMMIT", "BUCKET_SIZE", "SALIENT_FIELDS",
                            "FINGERPRINT_HEX_CHARS"}:
        home = namespace[name].__module__
        assert rank(floor_of(home)) < rank("teaching"), f"loopkit.{name} comes from {home}, a teaching aid"
    assert {"normalize_args", "read_bucket", "stable_key", "fingerprint", "BoundedDict", "LRUDict", "DetectorConfig",
            "PinnedMiddleware", "RunScopedMiddleware", "iter_runs"} <= exported


def test_the_architecture_page_holds_the_diagram_the_code_draws():
    page = architecture.PAGE.read_text(encoding="utf-8")
    assert architecture.page_block(page) == architecture.diagram(), "docs/architecture.md is stale: make architecture"
    assert subprocess.run([sys.executable, str(ROOT / "tools" / "architecture.py"), "--check"]).returncode == 0


def test_the_diagram_changes_when_a_module_is_added(tmp_path):
    """The staleness check bites: a new module on the core floor appears in the drawing and an upward import is
    counted as one."""
    copy = tmp_path / "loopkit"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.po", "*.mo", "*.js"))
    before = architecture.diagram(copy)
    (copy / "core" / "orbit.py").write_text("from ..views import widgets\n")
    after = architecture.diagram(copy)
    assert "orbit" in after and "orbit" not in before
    assert after.endswith("imports that run up a floor: core -> views 1")
