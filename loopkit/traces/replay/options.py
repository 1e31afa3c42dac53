"""What one replay is asked to do, parsed once at the door: :class:`ReplayOptions`.

The names a user types (a format, an upstream version, a tool-map preset and rules) become objects here, each with
the one message its check has always given; the layers below take only those objects. The command line builds one
``ReplayOptions`` from its flags, :func:`loopkit.traces.replay.report_paths` builds one from its keywords, and a
worker process of a parallel replay receives the same object.

Example::

    options = ReplayOptions.from_names(format="claude-code", tool_map=ToolMap("claude-code", ["Frob=bash"]))
    for report in replay_paths(["session.jsonl"], options):
        print(report.name, report.verdict, report.mapped)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from loopkit.core.detector import DetectorConfig
from loopkit.core.middleware import UPSTREAMS, LoopMiddleware, PinnedMiddleware

from ..adapters import DEFAULT_MAX_BYTES, DEFAULT_MAX_RECORD_BYTES, Format, ReadOptions
from ..adapters.formats import format_named
from ..tool_maps import DETECTED, ToolMap
from .steps import ADVICE_AT

__all__ = ["ReplayOptions", "upstream_named", "upstream_name"]


def upstream_named(name: str | type[LoopMiddleware]) -> type[LoopMiddleware]:
    """The middleware class of an upstream version's name (``"pinned"``, ``"run-scoped"``); a class passes as it is.

    >>> upstream_named("pinned").__name__
    'PinnedMiddleware'
    """
    if isinstance(name, type) and name in UPSTREAMS.values():
        return name
    if name not in UPSTREAMS:
        raise ValueError(f"upstream must be one of {', '.join(repr(u) for u in UPSTREAMS)}, got {name!r}")
    return UPSTREAMS[name]


def upstream_name(upstream: type[LoopMiddleware]) -> str:
    """The name an upstream version is picked by: ``upstream_name(PinnedMiddleware) == "pinned"``."""
    return next(name for name, cls in UPSTREAMS.items() if cls is upstream)


@dataclass(frozen=True)
class ReplayOptions:
    """Everything a replay of files needs besides the files, as objects: the detector's settings, the upstream
    version's middleware class, the format (``None``: detect it in each run), the tool map every run starts from (a
    fresh copy per run counts that run's calls), how sources are read, and which runs are picked (``select``: the
    ``KEY=VALUE`` pairs a run's metadata must all have; ``run_number``: the N-th run of each file, from 1), and where
    the reports tell a reader to raise a call budget (``advice``: ``"command line"`` or the upload ``"view"``)."""

    config: DetectorConfig = field(default_factory=DetectorConfig)
    upstream: type[LoopMiddleware] = PinnedMiddleware
    format: Format | None = None
    tool_map: ToolMap = field(default_factory=lambda: ToolMap(DETECTED), compare=False)
    reading: ReadOptions = ReadOptions()
    select: tuple[tuple[str, str], ...] = ()
    run_number: int | None = None
    advice: str = "command line"

    @classmethod
    def from_names(cls, config: DetectorConfig | None = None, *, upstream: str = "pinned", format: str = "auto",
                   tool_map: ToolMap | None = None, max_bytes: int = DEFAULT_MAX_BYTES,
                   max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES, skip_bad_records: bool = False,
                   on_bad_record: Callable[[str], None] | None = None, select: Mapping[str, str] | None = None,
                   run_number: int | None = None, advice: str = "command line") -> ReplayOptions:
        """The options the keywords of :func:`~loopkit.traces.replay.report_paths` name, each name parsed here
        (``ValueError`` naming the choices); ``tool_map`` None is the detected format's preset."""
        return cls(config if config is not None else DetectorConfig(), upstream_named(upstream),
                   format_named(format), tool_map if tool_map is not None else ToolMap(DETECTED),
                   ReadOptions(max_bytes, max_record_bytes, bool(skip_bad_records), on_bad_record),
                   tuple(dict(select or {}).items()), run_number, _advice_at(advice))

    @property
    def upstream_name(self) -> str:
        """``"pinned"`` or ``"run-scoped"``."""
        return upstream_name(self.upstream)


def _advice_at(advice: str) -> str:
    if advice not in ADVICE_AT:
        raise ValueError(f"advice must be one of {', '.join(repr(a) for a in ADVICE_AT)}, got {advice!r}")
    return advice
