"""loopkit: a small, exact model of DeerFlow's tool-call loop detection, for teaching.

The top level holds the core concepts, from the bottom floor up: normalization, keys, fingerprints, bounded dicts,
the detector and its middleware, and reading a transcript. Everything else is imported from the module that holds
it, on the floor (folder) it belongs to: ``from loopkit.teaching import replay_table``,
``from loopkit.teaching.boundaries import scrub_env`` (``docs/architecture.md`` has the map). ``import loopkit``
uses only the standard library: it never imports pandas, numpy, matplotlib or ipywidgets; the views live in
:mod:`loopkit.views.widgets` and :mod:`loopkit.views.plots`.
``set_language("es")`` switches what loopkit shows a learner (exercise feedback, widgets, tables, plots) to
Spanish; English is the default.
"""

from .core._lazy import lazy_exports
from .core.bounded import BoundedDict, LRUDict
from .core.detector import Decision, DetectorConfig, PinnedDetector, SeverityFirstDetector
from .core.fingerprint import FINGERPRINT_HEX_CHARS, call_entry, fingerprint
from .core.keys import BUCKET_SIZE, SALIENT_FIELDS, read_bucket, stable_key
from .core.language import current_language, set_language
from .core.middleware import PinnedMiddleware, RunScopedMiddleware
from .core.normalize import canonical_json, normalize_args
from .core.upstream import COMMIT as UPSTREAM_COMMIT

#: Names imported on first use, not by ``import loopkit``: reading transcripts brings in the archive and compression
#: modules, and the setup check reads the installed packages' metadata, which together cost more than the whole core.
#: ``loopkit.iter_runs`` and ``from loopkit import iter_runs`` work as if they had been imported here.
_ON_FIRST_USE = {
    "TraceError": "traces.adapters",
    "iter_runs": "traces.adapters",
    "iter_trace": "traces.adapters",
    "load_trace": "traces.adapters",
    "ToolMap": "traces.tool_maps",
    "check_setup": "teaching.setup_check",
}
__getattr__, _dir_on_first_use = lazy_exports(__name__, _ON_FIRST_USE)


def __dir__() -> list[str]:
    return sorted({*globals(), *_dir_on_first_use()})


__version__ = "0.1.0"

__all__ = [
    "BUCKET_SIZE",
    "BoundedDict",
    "Decision",
    "DetectorConfig",
    "FINGERPRINT_HEX_CHARS",
    "LRUDict",
    "PinnedDetector",
    "PinnedMiddleware",
    "RunScopedMiddleware",
    "SALIENT_FIELDS",
    "SeverityFirstDetector",
    "ToolMap",
    "TraceError",
    "UPSTREAM_COMMIT",
    "call_entry",
    "canonical_json",
    "check_setup",
    "current_language",
    "fingerprint",
    "iter_runs",
    "iter_trace",
    "load_trace",
    "normalize_args",
    "read_bucket",
    "set_language",
    "stable_key",
]
