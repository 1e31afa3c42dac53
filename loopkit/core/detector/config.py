"""The detector's settings: thresholds and window sizes, named and defaulted as upstream's constructor arguments."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from ..checks import require_int

__all__ = ["Action", "Layer", "DetectorConfig"]

Action = Literal["ok", "warn", "stop"]
Layer = Literal["hash", "frequency"]

_COUNT_FIELDS = ("warn_threshold", "hard_limit", "window_size", "max_tracked_threads", "tool_freq_warn",
                 "tool_freq_hard_limit")


@dataclass(frozen=True)
class DetectorConfig:
    """Thresholds and sizes of the detector, named and defaulted as upstream's constructor arguments.

    ``tool_freq_overrides`` maps a tool name to its own ``(warn, hard)`` pair, for example a higher limit for
    ``bash`` in batch pipelines. A value of the wrong type raises ``TypeError``, one out of range ``ValueError``;
    both name the field.

    >>> DetectorConfig().freq_window
    50
    >>> DetectorConfig(tool_freq_overrides={"bash": (60, 80)}).thresholds_for("bash")
    (60, 80)
    """

    warn_threshold: int = 3
    hard_limit: int = 5
    window_size: int = 20
    max_tracked_threads: int = 100
    tool_freq_warn: int = 30
    tool_freq_hard_limit: int = 50
    tool_freq_overrides: Mapping[str, tuple[int, int]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in _COUNT_FIELDS:
            require_int(name, getattr(self, name))
        if self.hard_limit < self.warn_threshold:
            raise ValueError(f"hard_limit ({self.hard_limit}) must be >= warn_threshold ({self.warn_threshold})")
        if self.tool_freq_hard_limit < self.tool_freq_warn:
            raise ValueError(
                f"tool_freq_hard_limit ({self.tool_freq_hard_limit}) must be >= tool_freq_warn ({self.tool_freq_warn})"
            )
        overrides = self.tool_freq_overrides
        if not isinstance(overrides, Mapping):
            raise TypeError(f"tool_freq_overrides must be a mapping of tool name to (warn, hard), got {overrides!r}")
        checked = {}
        for tool, pair in overrides.items():
            where = f"tool_freq_overrides[{tool!r}]"
            if not isinstance(tool, str):
                raise TypeError(f"tool_freq_overrides: tool names must be str, got {type(tool).__name__}")
            if not tool:
                raise ValueError("tool_freq_overrides: tool names must be non-empty")
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError(f"{where} must be a (warn, hard) pair, got {pair!r}")
            warn, hard = require_int(f"{where}[0]", pair[0]), require_int(f"{where}[1]", pair[1])
            if hard < warn:
                raise ValueError(f"{where}: hard ({hard}) must be >= warn ({warn})")
            checked[tool] = (warn, hard)
        object.__setattr__(self, "tool_freq_overrides", MappingProxyType(checked))

    @property
    def freq_window(self) -> int:
        """Calls kept in the tool-name window: long enough that every hard limit can be reached.

        A count can never exceed the window it is counted in, so a window shorter than a hard limit would make
        that stop dead code; upstream sizes it the same way (``loop_detection_middleware.py`` at ``f1f4af99``).
        """
        return max(self.window_size, self.tool_freq_hard_limit, *(h for _, h in self.tool_freq_overrides.values()))

    def thresholds_for(self, tool: str) -> tuple[int, int]:
        """``(warn, hard)`` call counts for ``tool``: its override if it has one, else the global pair."""
        return self.tool_freq_overrides.get(tool, (self.tool_freq_warn, self.tool_freq_hard_limit))

    def as_dict(self) -> dict:
        """The fields as plain values (overrides as a plain dict): ``DetectorConfig(**c.as_dict()) == c``."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["tool_freq_overrides"] = dict(self.tool_freq_overrides)
        return fields

    def __reduce__(self):
        # The read-only overrides mapping cannot be pickled or deep-copied; rebuild from plain fields instead.
        return (_config_from_fields, (self.as_dict(),))


def _config_from_fields(fields: dict) -> DetectorConfig:
    return DetectorConfig(**fields)
