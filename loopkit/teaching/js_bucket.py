"""This workbook's own JavaScript model of the read bucket, run in an embedded engine (chapter 02).

A second model written on its own, in another language, is a cheap check of small arithmetic. ``read_bucket.js``
beside this module is that model for the read bucket (the workbook's own code, not DeerFlow's).
:func:`js_read_bucket` runs it; :func:`compare` puts it next to
:func:`loopkit.stable_key`, which calls :func:`loopkit.read_bucket` the way upstream's ``_stable_tool_key`` calls
its bucket code at the pinned commit. On integer ranges (up to ``2**53``) the two agree; on the :data:`CASES`
below they do not, and the Python answer is upstream's (except for ``Infinity``, where upstream raises).

The engine is imported only when JavaScript first runs, so ``import loopkit`` stays standard-library only.

The cases' labels and explanations, and the headings of :func:`compare`, are shown in the learner's language
(:func:`loopkit.core.language.tr`); the keys and the JavaScript source are code and stay as they are.

Why quickjs-ng (pinned in ``binder/requirements.txt``)? Three engines from PyPI, measured on 2026-12-01 with
CPython 3.11 on Linux x86_64. "Released" is the build date inside the newest wheel; "all five" platforms are Linux
x86_64 and aarch64, macOS arm64 and x86_64, Windows x86_64; sizes are download sizes of the Linux x86_64 wheel.

=====================  ==========  ===========================  ======  ================  ========================
package (engine)       released    CPython 3.11 wheels          size    import + first    notes
                                                                        eval: RSS, time
=====================  ==========  ===========================  ======  ================  ========================
quickjs-ng 0.17.0.2    2026-10-22  all but macOS x86_64 (pip    2.6 MB  +5 MiB, 15 ms     abi3: one wheel serves
(QuickJS-ng)           (9 releases builds its sdist there)                                every CPython >= 3.10
                       since
                       2026-02-27)
mini-racer 0.14.1      2026-02-01  all five, py3-none           22 MB   +59 MiB, 70 ms    83 MB unpacked
(V8)
dukpy 0.6.0            2026-07-22  all five, one per CPython    4.3 MB  +13 MiB, 34 ms    17 MB unpacked: bundles
(Duktape)                                                                                 Babel, TypeScript, LESS
=====================  ==========  ===========================  ======  ================  ========================

quickjs-ng is the smallest and the most recently released, and costs a workshop hub about 5 MiB per kernel
instead of about 60. Its gap: no wheel for Intel macOS, where pip builds it from source (a C compiler is needed).
It installs the import name ``quickjs``, the same as the older ``quickjs`` package (last release 2023-11): do not
install both.

>>> js_read_bucket({"path": "a.py", "start_line": 1, "end_line": 199})
'a.py:0-0'
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.resources
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from loopkit.core.keys import stable_key
from loopkit.core.language import N_, tr

__all__ = ["CASES", "ENGINE", "BucketCase", "compare", "engine_version", "js_literal", "js_read_bucket", "js_source"]

#: The PyPI distribution that runs the JavaScript (its import name is ``quickjs``).
ENGINE = "quickjs-ng"

#: The JavaScript file, shipped inside the package.
JS_FILE = "read_bucket.js"


def js_source() -> str:
    """The text of ``read_bucket.js``, read from the installed package."""
    return importlib.resources.files(__package__).joinpath(JS_FILE).read_text(encoding="utf-8")


def engine_version() -> str:
    """The installed version of the engine's distribution, for instance ``'0.17.0.2'``."""
    return importlib.metadata.version(ENGINE)


@functools.cache
def _context():
    """One JavaScript context with ``read_bucket.js`` loaded, made on first use."""
    try:
        import quickjs
    except ImportError as exc:
        raise ModuleNotFoundError(
            f"the JavaScript model needs the engine {ENGINE} (pinned in binder/requirements.txt); "
            f"install it with: python -m pip install {ENGINE}"
        ) from exc
    context = quickjs.Context()
    context.eval(js_source())
    return context


def _js_value(key: str, value: Any) -> str:
    """``value`` as JavaScript source text. JSON text is JavaScript, and so are ``Infinity`` and ``NaN``,
    which ``json.dumps`` writes for the floats that JSON lacks."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return json.dumps(value)
    raise TypeError(f"args[{key!r}] must be a str, int, float, bool or None to reach JavaScript, "
                    f"got {type(value).__name__}")


def js_literal(args: Mapping) -> str:
    """The JavaScript object literal that :func:`js_read_bucket` passes for ``args``: a missing key stays
    missing (``undefined`` in JavaScript), ``None`` becomes ``null``, an infinite float ``Infinity``.

    >>> js_literal({"path": "a.py", "start_line": 1, "end_line": float("inf")})
    '{"path": "a.py", "start_line": 1, "end_line": Infinity}'
    """
    if not isinstance(args, Mapping):
        raise TypeError(f"args must be a mapping of read_file arguments, got {type(args).__name__}")
    fields = []
    for key, value in args.items():
        if not isinstance(key, str):
            raise TypeError(f"args keys must be str, got {key!r}")
        fields.append(f"{json.dumps(key)}: {_js_value(key, value)}")
    return "{" + ", ".join(fields) + "}"


def js_read_bucket(args: Mapping) -> str:
    """The key ``read_bucket.js`` gives a ``read_file`` call with arguments ``args``, run in the engine.

    >>> js_read_bucket({"path": "a.py", "start_line": 450, "end_line": None})  # null is 0 to Math.min
    'a.py:0-2'
    """
    # The key comes back as JSON text: the engine cuts a returned string at its first NUL character, and
    # JSON.stringify writes that character as an escape (found by the property test in tests/test_js_bucket.py).
    return json.loads(_context().eval(f"JSON.stringify(readBucket({js_literal(args)}))"))


@dataclass(frozen=True)
class BucketCase:
    """One row of the comparison: a label, the arguments, and in one line why the models differ (``""`` when
    they agree). Both texts are written in English and read, through :attr:`label` and :attr:`why`, in the
    learner's language.

    >>> BucketCase("null end", {"start_line": 450, "end_line": None}).label
    'null end'
    """

    english_label: str
    args: dict
    english_why: str = ""

    @property
    def label(self) -> str:
        """The case's name, in the learner's language."""
        return tr(self.english_label)

    @property
    def why(self) -> str:
        """Why the two models differ on this case, in the learner's language (``""`` when they agree)."""
        return tr(self.english_why) if self.english_why else ""


#: Ranges on which the models agree, then every disagreement the chapter explains.
CASES = (
    BucketCase(N_("integers 1-199"), {"path": "a.py", "start_line": 1, "end_line": 199}),
    BucketCase(N_("reversed 200-1"), {"path": "a.py", "start_line": 200, "end_line": 1}),
    BucketCase(N_("zero and negative"), {"path": "a.py", "start_line": -5, "end_line": 0}),
    BucketCase(N_("numeric strings"), {"path": "a.py", "start_line": "120", "end_line": "260"}),
    BucketCase(N_("null end"), {"path": "a.py", "start_line": 450, "end_line": None},
               N_("JS: Math.min reads null as 0, clamped to line 1; Python: a None end falls back to the start")),
    BucketCase(N_('"ten" start'), {"path": "a.py", "start_line": "ten", "end_line": 450},
               N_("JS: 'ten' is NaN, and NaN wins every Math.min/max; Python: int('ten') fails, start falls back "
                  "to 1")),
    BucketCase(N_('"450.5" end'), {"path": "a.py", "start_line": 1, "end_line": "450.5"},
               N_("JS: '450.5' is the number 450.5; Python: int('450.5') fails, the end falls back to the start")),
    BucketCase(N_('"0x200" end'), {"path": "a.py", "start_line": 1, "end_line": "0x200"},
               N_("JS: '0x200' is hexadecimal 512; Python's int() reads decimal only, the end falls back")),
    BucketCase(N_('"1e3" end'), {"path": "a.py", "start_line": 1, "end_line": "1e3"},
               N_("JS: '1e3' is 1000; Python's int() takes no exponent, the end falls back to the start")),
    BucketCase(N_("Infinity end"), {"path": "a.py", "start_line": 1, "end_line": math.inf},
               N_("JS: floor(Infinity) is Infinity; upstream's int() raises OverflowError, loopkit falls back")),
    BucketCase(N_("missing path"), {"start_line": 1, "end_line": 50},
               N_("JS: a missing key is undefined and prints so; Python: upstream's `get('path') or ''` is ''")),
    BucketCase(N_("line 10**16"), {"path": "a.py", "start_line": 10**16, "end_line": 10**16},
               N_("JS numbers are doubles: 10**16 - 1 rounds to 10**16; Python's ints are exact")),
)


def compare(cases=CASES) -> list[dict]:
    """One row per case: the two line arguments as JavaScript receives them (``-`` when missing), both keys, and
    whether they agree. The headings ``case``, ``start``, ``end`` and ``agree`` are in the learner's language.

    The Python column is :func:`loopkit.stable_key` for ``read_file``, which is :func:`loopkit.read_bucket`
    called as upstream's ``_stable_tool_key`` calls its bucket code.

    >>> row = compare(CASES[:1])[0]
    >>> row["case"], row["start"], row["end"], row["JavaScript"], row["Python"], row["agree"]
    ('integers 1-199', '1', '199', 'a.py:0-0', 'a.py:0-0', True)
    """
    rows = []
    for case in cases:
        js_key = js_read_bucket(case.args)
        python_key = stable_key("read_file", dict(case.args))
        rows.append({
            tr("case"): case.label,
            tr("start"): _shown(case.args, "start_line"),
            tr("end"): _shown(case.args, "end_line"),
            "JavaScript": js_key,
            "Python": python_key,
            tr("agree"): js_key == python_key,
        })
    return rows


def _shown(args: Mapping, key: str) -> str:
    return _js_value(key, args[key]) if key in args else "-"
