"""Argument checks shared by every module: one wording and one exception type per kind of mistake.

A value of the wrong type raises ``TypeError``; a value of the right type outside its range raises
``ValueError``. Both name the argument, so a learner reads what was wrong without opening a traceback:

>>> require_int("maxsize", 0)
Traceback (most recent call last):
...
ValueError: maxsize must be at least 1, got 0
"""

from __future__ import annotations

from typing import Any

__all__ = ["require_int", "require_number", "require_str", "require_strs", "require_instance", "clip"]


def require_int(name: str, value: Any, *, at_least: int = 1, at_most: int | None = None) -> int:
    """``value`` if it is an int from ``at_least`` to ``at_most`` (inclusive); ``bool`` is not an int here.

    >>> require_int("window_size", 20), require_int("step", 0, at_least=0)
    (20, 0)
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < at_least:
        raise ValueError(f"{name} must be at least {at_least}, got {value}")
    if at_most is not None and value > at_most:
        raise ValueError(f"{name} must be at most {at_most}, got {value}")
    return value


def require_number(name: str, value: Any, *, above: float = 0, below: float | None = None) -> float:
    """``value`` if it is an int or a float strictly between ``above`` and ``below``; ``bool`` is not a number here.

    >>> require_number("timeout", 2.5), require_number("p", 0.5, below=1)
    (2.5, 0.5)
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not value > above:  # also refuses NaN, which compares false with everything
        raise ValueError(f"{name} must be more than {above}, got {value}")
    if below is not None and not value < below:
        raise ValueError(f"{name} must be less than {below}, got {value}")
    return value


def require_instance(name: str, value: Any, kind: type, *, or_none: bool = False) -> Any:
    """``value`` if it is a ``kind`` (or ``None``, when ``or_none``).

    >>> require_instance("config", None, dict, or_none=True) is None
    True
    """
    if isinstance(value, kind) or (or_none and value is None):
        return value
    expected = f"{kind.__name__} or None" if or_none else kind.__name__
    raise TypeError(f"{name} must be a {expected}, got {type(value).__name__}")


def clip(text: str, width: int, *, keep_end: bool = False) -> str:
    """``text`` cut to ``width`` characters, ``...`` marking the cut; ``keep_end`` keeps the end instead of the start.

    >>> clip("read_file, bash", 10), clip("runs/a/b/django-11099", 10, keep_end=True)
    ('read_fi...', '...o-11099')
    """
    if len(text) <= width:
        return text
    return "..." + text[len(text) - width + 3:] if keep_end else text[: width - 3] + "..."


def require_str(name: str, value: Any) -> str:
    """``value`` if it is a str.

    >>> require_str("source", "web_page")
    'web_page'
    """
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


def require_strs(name: str, values: Any) -> list[str]:
    """``values`` as a list, if it is a collection of str; a single str is refused (it would be read letter by letter).

    >>> require_strs("names", ("PATH", "HOME"))
    ['PATH', 'HOME']
    """
    if isinstance(values, str):
        raise TypeError(f"{name} must be a collection of str, not a single str (write ({values!r},))")
    items = list(values)
    for index, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"{name}[{index}] must be a str, got {type(item).__name__}")
    return items
