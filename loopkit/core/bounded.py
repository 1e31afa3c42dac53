"""Bounded dictionaries: FIFO and LRU eviction (chapter 04).

The detector must not grow without limit in a long-lived server, so its per-run state lives in dicts with a
maximum size. :class:`BoundedDict` evicts in *insertion* order (first in, first out): upstream keeps stop reasons
in one. :class:`LRUDict` evicts the *least recently used* key: the right policy for run histories, where an
active run must not lose its state to a flood of short ones.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, MutableMapping
from typing import Any

from .checks import require_int

__all__ = ["BoundedDict", "LRUDict"]

EvictCallback = Callable[[Hashable, Any], None]


class _EvictingDict(MutableMapping):
    """Shared machinery: an OrderedDict whose front is the next key to evict."""

    _refresh_on_write = False
    _refresh_on_read = False

    def __init__(self, maxsize: int, *, on_evict: EvictCallback | None = None) -> None:
        require_int("maxsize", maxsize)
        if on_evict is not None and not callable(on_evict):
            raise TypeError(f"on_evict must be callable or None, got {type(on_evict).__name__}")
        self._maxsize = maxsize
        self._on_evict = on_evict
        self._data: OrderedDict = OrderedDict()

    @property
    def maxsize(self) -> int:
        """The most keys the dict holds at once."""
        return self._maxsize

    def __setitem__(self, key: Hashable, value: Any) -> None:
        data = self._data
        if key in data:
            data[key] = value
            if self._refresh_on_write:
                data.move_to_end(key)
            return
        evicted = data.popitem(last=False) if len(data) >= self._maxsize else None
        data[key] = value
        # The callback runs once the dict is consistent again, so an exception in it cannot corrupt the state.
        if evicted is not None and self._on_evict is not None:
            self._on_evict(*evicted)

    def __getitem__(self, key: Hashable) -> Any:
        value = self._data[key]
        if self._refresh_on_read:
            self._data.move_to_end(key)
        return value

    def get(self, key: Hashable, default: Any = None) -> Any:
        """``d[key]`` if present (with the same effect on order), else ``default``."""
        if key in self._data:
            return self[key]
        return default

    def peek(self, key: Hashable, default: Any = None) -> Any:
        """The value for ``key`` (or ``default``) without counting as a use: the order never changes."""
        return self._data.get(key, default)

    def __delitem__(self, key: Hashable) -> None:
        del self._data[key]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    # Views read the underlying dict directly: iterating them must never reorder (or mutate) the dict.
    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def popitem(self) -> tuple[Hashable, Any]:
        """Remove and return the pair that would be evicted next. This is not an eviction: no callback."""
        if not self._data:
            raise KeyError(f"popitem(): {type(self).__name__} is empty")
        return self._data.popitem(last=False)

    def clear(self) -> None:
        """Remove every key. This is not an eviction: no callback."""
        self._data.clear()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(maxsize={self._maxsize}, {dict(self._data)!r})"


class BoundedDict(_EvictingDict):
    """A dict of at most ``maxsize`` keys that evicts the oldest *inserted* key (FIFO).

    Overwriting a key keeps its place, and reads never change the order. ``on_evict(key, value)`` is called for
    each eviction.

    >>> d = BoundedDict(2)
    >>> d["a"] = 1; d["b"] = 2; d["a"] = 10; d["c"] = 3
    >>> list(d)
    ['b', 'c']
    """


class LRUDict(_EvictingDict):
    """A dict of at most ``maxsize`` keys that evicts the *least recently used* key.

    Reading (``d[k]``, ``d.get(k)``) or writing a key makes it the most recent; ``in``, ``len`` and iteration do
    not. ``on_evict(key, value)`` is called for each eviction.

    >>> d = LRUDict(2)
    >>> d["a"] = 1; d["b"] = 2; d["a"] = 10; d["c"] = 3
    >>> list(d)
    ['a', 'c']
    """

    _refresh_on_write = True
    _refresh_on_read = True
