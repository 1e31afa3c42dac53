"""Running only the named definitions of a downloaded file: parsed with :mod:`ast`, nothing else in it executed.

What runs: the named top-level ``def`` and ``class`` statements (with their decorators, base classes and
defaults); the ``from __future__`` imports, and the standard-library imports those definitions actually use; the
module-level constants they use, but only when the value is a literal (or one of ``frozenset``, ``tuple``,
``set``, ``list``, ``dict`` around a literal), rebuilt with :func:`ast.literal_eval`, which evaluates no code.
Any other name the kept definitions need is refused with an error that names it.
"""

from __future__ import annotations

import ast
import builtins
import copy
import pathlib
import symtable
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loopkit.core.language import tr

from .refusals import ExtractionRefused

__all__ = ["Extraction", "extract_definitions"]


@dataclass(frozen=True)
class Extraction:
    """What :func:`extract_definitions` kept from one file, and what it did not run."""

    objects: dict[str, Any]
    imports: tuple[str, ...]
    constants: tuple[str, ...]
    skipped: int

    def summary(self) -> str:
        """One line, in the learner's language: what was kept and how many other statements did not run."""
        kept = ", ".join(self.objects)
        imports = "; ".join(self.imports) or tr("none")
        consts = ", ".join(self.constants) or tr("none")
        return tr("kept {kept}; imports: {imports}; literal constants: {constants}; {skipped} other statements not run",
                  kept=kept, imports=imports, constants=consts, skipped=self.skipped)


def _is_stdlib(module: str | None, level: int) -> bool:
    return level == 0 and module is not None and module.split(".")[0] in sys.stdlib_module_names


def _bound_names(node: ast.Import | ast.ImportFrom) -> list[tuple[str, ast.alias]]:
    """(name bound in the namespace, alias) for each alias of an import statement."""
    if isinstance(node, ast.Import):
        return [(a.asname or a.name.split(".")[0], a) for a in node.names]
    return [(a.asname or a.name, a) for a in node.names if a.name != "*"]


def _needed_globals(defs: list[ast.stmt], *, lazy_annotations: bool, filename: str) -> set[str]:
    """Global names the kept definitions read (at definition time or when called), from a symbol table."""
    analysis = copy.deepcopy(defs)
    for tree in analysis:
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node in ast.walk(tree):
            # Annotations that are never evaluated must not make the probe ask for a name: all of them under
            # ``from __future__ import annotations``, and local variable annotations always.
            if lazy_annotations and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.returns = None
            elif lazy_annotations and isinstance(node, ast.arg):
                node.annotation = None
            elif isinstance(node, ast.AnnAssign) and (
                lazy_annotations or any(node in ast.walk(f) for f in functions)
            ):
                node.annotation = ast.Constant(None)
    source = ast.unparse(ast.Module(body=analysis, type_ignores=[]))
    needed: set[str] = set()
    tables = [symtable.symtable(source, filename, "exec")]
    while tables:
        table = tables.pop()
        needed.update(s.get_name() for s in table.get_symbols() if s.is_global() and s.is_referenced())
        tables.extend(table.get_children())
    return needed - {d.name for d in defs} - {"__name__"}


#: Built-in containers a constant may be wrapped in, as in ``frozenset({"write_file", "str_replace"})``.
_CONTAINERS = {"frozenset": frozenset, "tuple": tuple, "set": set, "list": list, "dict": dict}


def _constant_value(node: ast.expr) -> Any:
    """The value of a literal, or of one built-in container call around a literal, without running any code."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _CONTAINERS
        and not node.keywords
        and len(node.args) <= 1
    ):
        return _CONTAINERS[node.func.id](*(ast.literal_eval(arg) for arg in node.args))
    return ast.literal_eval(node)


@dataclass
class _TopLevel:
    """A file's top-level statements, sorted by what they are: the only parts of it the probe may use."""

    wanted: dict[str, ast.stmt] = field(default_factory=dict)  # the named definitions
    other_defs: set[str] = field(default_factory=set)  # the names of every other function and class
    futures: list[ast.ImportFrom] = field(default_factory=list)
    imports: dict[str, tuple[ast.Import | ast.ImportFrom, ast.alias]] = field(default_factory=dict)  # by bound name
    assigned: dict[str, ast.Assign | ast.AnnAssign] = field(default_factory=dict)  # NAME = value, by NAME


def _sort_top_level(tree: ast.Module, names: Sequence[str]) -> _TopLevel:
    top = _TopLevel()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name in names:
                top.wanted[node.name] = node  # as when Python runs the file, a later definition replaces an earlier
            else:
                top.other_defs.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module == "__future__":
            top.futures.append(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for bound, alias in _bound_names(node):
                top.imports[bound] = (node, alias)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            top.assigned[node.targets[0].id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            top.assigned[node.target.id] = node
    return top


def _stdlib_import(name: str, top: _TopLevel, filename: str) -> ast.stmt:
    """The import that binds ``name``, as a statement of its own; refused unless it is from the standard library."""
    node, alias = top.imports[name]
    module = node.module if isinstance(node, ast.ImportFrom) else alias.name
    level = node.level if isinstance(node, ast.ImportFrom) else 0
    if not _is_stdlib(module, level):
        raise ExtractionRefused(
            f"{filename}:{node.lineno}: the kept definitions use {name!r}, imported from {'.' * level}"
            f"{module or ''}, which is not in the standard library; the probe runs no other imports"
        )
    if isinstance(node, ast.ImportFrom):
        return ast.copy_location(ast.ImportFrom(module=module, names=[alias], level=0), node)
    return ast.copy_location(ast.Import(names=[alias]), node)


def _literal_constant(name: str, top: _TopLevel, filename: str) -> Any:
    """The value of the module-level constant ``name``, rebuilt without running code; refused if code computes it."""
    node = top.assigned[name]
    try:
        return _constant_value(node.value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ExtractionRefused(
            f"{filename}:{node.lineno}: the kept definitions use {name!r}, whose value is computed by "
            "code, not written as a literal; the probe does not run it"
        ) from None


def _refuse_unless_builtin(name: str, top: _TopLevel, filename: str, names: Sequence[str]) -> None:
    """A needed name that is neither an import nor a constant of the file must be a built-in."""
    if name in top.other_defs:
        raise ExtractionRefused(
            f"{filename}: the kept definitions use {name!r}, another top-level function or class; the probe "
            f"keeps only {', '.join(names)}"
        )
    if not hasattr(builtins, name):
        raise ExtractionRefused(
            f"{filename}: the kept definitions use {name!r}, which is neither a standard-library import nor a "
            "literal constant of the file; the probe runs nothing else"
        )


def extract_definitions(source: str | bytes, names: Sequence[str], *, filename: str = "<upstream>") -> Extraction:
    """Run only the top-level definitions ``names`` of ``source`` in a fresh namespace, and return them.

    Nothing else in the file runs: not its other statements, not its third-party imports. The definitions get the
    standard-library imports they use, and the literal constants they use (rebuilt without running code). A name
    they need that neither provides is refused, naming it.

    >>> src = "import json\\nimport not_installed\\nprint('side effect')\\ndef f(x):\\n    return json.dumps(x)\\n"
    >>> ex = extract_definitions(src, ["f"])
    >>> ex.objects["f"]([1]), ex.imports, ex.skipped
    ('[1]', ('import json',), 2)
    """
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"names must be a sequence of str, got {names!r}")
    try:
        tree = ast.parse(source, filename=filename)
    except SyntaxError as exc:
        raise ExtractionRefused(f"{filename}:{exc.lineno}: cannot parse the file: {exc.msg}") from None
    top = _sort_top_level(tree, names)
    missing = [n for n in names if n not in top.wanted]
    if missing:
        raise ExtractionRefused(f"{filename}: no top-level function or class named {', '.join(missing)}")
    kept = [top.wanted[n] for n in names]
    lazy = any(a.name == "annotations" for f in top.futures for a in f.names)
    imports: dict[str, ast.stmt] = {}
    constants: dict[str, Any] = {}
    for name in sorted(_needed_globals(kept, lazy_annotations=lazy, filename=filename)):
        if name in top.imports:
            imports[name] = _stdlib_import(name, top, filename)
        elif name in top.assigned:
            constants[name] = _literal_constant(name, top, filename)
        else:
            _refuse_unless_builtin(name, top, filename, names)
    imports_run = [imports[n] for n in sorted(imports, key=lambda n: _file_order(top.imports[n]))]
    namespace = _run(top.futures, imports_run, kept, constants, filename, names)
    import_statements = {id(top.imports[n][0]) for n in imports}  # the file's statements that (partly) ran
    return Extraction(
        objects={n: namespace[n] for n in names},
        imports=tuple(ast.unparse(k) for k in imports_run),
        constants=tuple(sorted(constants)),
        skipped=len(tree.body) - len(top.futures) - len(kept) - len(import_statements),
    )


def _file_order(binding: tuple[ast.Import | ast.ImportFrom, ast.alias]) -> tuple[int, int]:
    """Where an import stands in the file: its line, then the position of the name in the statement."""
    node, alias = binding
    return node.lineno, node.names.index(alias)


def _run(futures: list, imports: list, kept: list, constants: dict, filename: str, names: Sequence[str]) -> dict:
    """Execute the future imports, the kept imports and the kept definitions, and nothing else, in a new namespace."""
    module = ast.Module(body=[*futures, *imports, *kept], type_ignores=[])
    namespace: dict[str, Any] = {"__name__": f"upstream.{pathlib.PurePosixPath(filename).stem}", **constants}
    try:
        exec(compile(module, filename, "exec"), namespace)  # noqa: S102 - only the kept statements
    except Exception as exc:
        failed = f"{type(exc).__name__}: {exc}"
        raise ExtractionRefused(f"{filename}: defining {', '.join(names)} failed: {failed}") from None
    return namespace
