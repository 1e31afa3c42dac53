"""loopkit: a small, exact model of DeerFlow's tool-call loop detection, for teaching.

The core (normalization, keys, fingerprints, bounded dicts, the detector, the pattern library, the simulated agent
loop) uses only the standard library; ``import loopkit`` never imports pandas, numpy, matplotlib or ipywidgets.
The views live in :mod:`loopkit.widgets` and :mod:`loopkit.plots`, the self-checks in :mod:`loopkit.exercises`;
replay tables in :mod:`loopkit.trace` (pandas).
"""

from . import patterns
from .bounded import BoundedDict, LRUDict
from .detector import Decision, DetectorConfig, EarlyReturnLoopDetector, LoopDetector
from .fingerprint import FINGERPRINT_HEX_CHARS, call_entry, fingerprint
from .keys import BUCKET_SIZE, SALIENT_FIELDS, read_bucket, stable_key
from .lifecycle import AgentLoop, check_pairing, format_messages
from .normalize import canonical_json, normalize_args
from .upstream import COMMIT as UPSTREAM_COMMIT

__version__ = "0.1.0"

__all__ = [
    "AgentLoop",
    "BUCKET_SIZE",
    "BoundedDict",
    "Decision",
    "DetectorConfig",
    "EarlyReturnLoopDetector",
    "FINGERPRINT_HEX_CHARS",
    "LRUDict",
    "LoopDetector",
    "SALIENT_FIELDS",
    "UPSTREAM_COMMIT",
    "call_entry",
    "canonical_json",
    "check_pairing",
    "fingerprint",
    "format_messages",
    "normalize_args",
    "patterns",
    "read_bucket",
    "stable_key",
]
