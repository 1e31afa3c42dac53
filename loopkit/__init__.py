"""loopkit: a small, exact model of DeerFlow's tool-call loop detection, for teaching.

The core (normalization, keys, fingerprints, bounded dicts, the detector, the pattern library, the simulated agent
loop) uses only the standard library; ``import loopkit`` never imports pandas, numpy, matplotlib or ipywidgets.
The views live in :mod:`loopkit.widgets` and :mod:`loopkit.plots`, the self-checks in :mod:`loopkit.exercises`;
replay tables in :mod:`loopkit.replay_table` (pandas).
"""

from . import patterns
from .bounded import BoundedDict, LRUDict
from .collisions import (
    PrefixCollision,
    birthday_rows,
    calls_for_probability,
    collision_probability,
    expected_tries,
    find_prefix_collision,
    prefix_bits,
)
from .boundaries import (
    CredentialError,
    HeaderValueError,
    assemble_context,
    deployment_table,
    evidence_table,
    frame_untrusted,
    inject_credentials,
    is_secret_name,
    keyed_fingerprint,
    memory_bucket,
    read_frame,
    recommend_deployment,
    scrub_env,
    strip_server_owned,
    trust_channel,
    validate_header_value,
)
from .detector import Decision, DetectorConfig, PinnedDetector, SeverityFirstDetector
from .fingerprint import FINGERPRINT_HEX_CHARS, call_entry, fingerprint
from .keys import BUCKET_SIZE, SALIENT_FIELDS, read_bucket, stable_key
from .agent_loop import AgentLoop, check_pairing, format_messages
from .middleware import PinnedMiddleware, RunScopedMiddleware
from .normalize import canonical_json, normalize_args
from .adapters import iter_runs
from .providers import TraceError, iter_trace, load_trace
from .tool_maps import ToolMap
from .upstream import COMMIT as UPSTREAM_COMMIT

__version__ = "0.1.0"

__all__ = [
    "AgentLoop",
    "BUCKET_SIZE",
    "BoundedDict",
    "CredentialError",
    "Decision",
    "DetectorConfig",
    "HeaderValueError",
    "FINGERPRINT_HEX_CHARS",
    "LRUDict",
    "PinnedDetector",
    "PinnedMiddleware",
    "PrefixCollision",
    "RunScopedMiddleware",
    "SALIENT_FIELDS",
    "SeverityFirstDetector",
    "ToolMap",
    "TraceError",
    "UPSTREAM_COMMIT",
    "birthday_rows",
    "call_entry",
    "calls_for_probability",
    "canonical_json",
    "check_pairing",
    "collision_probability",
    "expected_tries",
    "find_prefix_collision",
    "fingerprint",
    "format_messages",
    "iter_runs",
    "iter_trace",
    "load_trace",
    "normalize_args",
    "patterns",
    "prefix_bits",
    "read_bucket",
    "stable_key",
    # chapter 08: boundaries
    "assemble_context",
    "deployment_table",
    "evidence_table",
    "frame_untrusted",
    "inject_credentials",
    "is_secret_name",
    "keyed_fingerprint",
    "memory_bucket",
    "read_frame",
    "recommend_deployment",
    "scrub_env",
    "strip_server_owned",
    "trust_channel",
    "validate_header_value",
]
