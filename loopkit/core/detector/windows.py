"""What the detector remembers for one scope: two counting windows (batch fingerprints, tool names) and the marks
of what was already warned."""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from .config import DetectorConfig

__all__ = ["tool_names", "CountingWindow", "ScopeState"]

Item = TypeVar("Item", bound=Hashable)


def tool_names(batch: Iterable[Mapping[str, Any]]) -> list[str]:
    """The names the frequency layer counts, in model order: calls without a name are not counted.

    >>> tool_names([{"name": "bash"}, {"name": ""}, {"args": {}}, {"name": "grep"}])
    ['bash', 'grep']
    """
    return [str(call["name"]) for call in batch if call.get("name")]


class CountingWindow(Generic[Item]):
    """The last ``size`` items, oldest first, with how many times each item occurs among them.

    >>> w = CountingWindow(2)
    >>> [w.push(x) for x in "aab"], w.count("a"), w.count("b")
    ([None, None, 'a'], 1, 1)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: deque[Item] = deque()
        self.counts: dict[Item, int] = {}

    def push(self, item: Item) -> Item | None:
        """Append ``item``; if the window overflows, drop the oldest item and return it (else ``None``)."""
        self.items.append(item)
        self.counts[item] = self.counts.get(item, 0) + 1
        if len(self.items) <= self.size:
            return None
        oldest = self.items.popleft()
        self.counts[oldest] -= 1
        if self.counts[oldest] == 0:
            del self.counts[oldest]
        return oldest

    def count(self, item: Item) -> int:
        """How many times ``item`` is in the window."""
        return self.counts.get(item, 0)


class ScopeState:
    """Everything the detector remembers for one scope: both windows and the marks of what was already warned."""

    def __init__(self, config: DetectorConfig) -> None:
        self.hashes: CountingWindow[str] = CountingWindow(config.window_size)
        self.tools: CountingWindow[str] = CountingWindow(config.freq_window)
        self.warned_hashes: set[str] = set()
        self.warned_tools: set[str] = set()

    def add_hash(self, digest: str) -> int:
        """Put a batch fingerprint in the hash window and return its count there.

        A warned fingerprint that left the window entirely loses its mark, so the same loop can warn again
        (upstream prunes its warned hashes to those still in the window).
        """
        oldest = self.hashes.push(digest)
        if oldest is not None and self.hashes.count(oldest) == 0:
            self.warned_hashes.discard(oldest)
        return self.hashes.count(digest)

    def add_tool(self, name: str) -> tuple[int, str | None]:
        """Put one call's tool name in the tool window; return its count there and the name pushed out, if any."""
        oldest = self.tools.push(name)
        return self.tools.count(name), oldest

    def as_dict(self) -> dict:
        """A copy of the state, for reading: windows, counts and marks."""
        return {
            "hashes": list(self.hashes.items),
            "hash_counts": dict(self.hashes.counts),
            "tool_counts": dict(self.tools.counts),
            "warned_hashes": set(self.warned_hashes),
            "warned_tools": set(self.warned_tools),
        }
