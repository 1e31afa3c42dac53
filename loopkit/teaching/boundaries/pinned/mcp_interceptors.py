"""Which interceptors wrap an MCP tool call at the pinned commit, in which order.

DeerFlow's ``build_mcp_tool_interceptors`` (``backend/packages/harness/deerflow/mcp/interceptors.py`` at
``f1f4af99``, line 15; custom interceptors since PR #2451, OAuth since PR #908) puts the OAuth interceptor first,
when it is built at all (``mcp/oauth.py``, lines 187-189: only when some MCP server has OAuth configured), then one
interceptor per ``module:function`` path listed under ``mcpInterceptors`` in the extensions config, each built by
calling that function. A path that cannot be resolved, a builder that raises, and a builder that returns ``None`` or
something not callable are skipped (and logged), never fatal. This is where, at the pin, an operator plugs in an
interceptor of their own. The one DeerFlow's MCP guide shows at the pin reads the secrets through ``get_config()``,
which holds no run context inside a tool call: PR #5010, which later added a built-in interceptor fed from the
secrets, says the example does not work. This is this workbook's code for the chain's order, checked against 20
chains recorded from the pinned function with stand-in builders.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

__all__ = ["BUILDER_OUTCOMES", "mcp_interceptor_chain"]

Outcome = Literal["callable", "none", "noncallable", "raises", "unresolvable"]
#: What a configured builder path can turn out to be; only "callable" joins the chain.
BUILDER_OUTCOMES = ("callable", "none", "noncallable", "raises", "unresolvable")


def _listed_paths(extra: Mapping) -> list:
    """The ``mcpInterceptors`` entry: one string is a list of one, a list is taken as it is, anything else (absent,
    a mapping, a number) is no list at all (upstream logs a warning for those, line 31)."""
    listed = extra.get("mcpInterceptors")
    if isinstance(listed, str):
        return [listed]
    return listed if isinstance(listed, list) else []


def mcp_interceptor_chain(*, oauth: bool, extra: dict, builders: dict[str, Outcome]) -> list[str]:
    """The interceptors loaded, in call order: ``"oauth"`` first when ``oauth`` (its builder returned one), then each
    listed path whose builder returned a callable, duplicates and all. ``extra`` holds the extensions config's extra
    fields; ``builders`` says what each path turns out to be (:data:`BUILDER_OUTCOMES`), and a path it does not
    name cannot be resolved.

    >>> mcp_interceptor_chain(oauth=True, extra={"mcpInterceptors": ["a:make", "b:make"]},
    ...                       builders={"a:make": "callable", "b:make": "raises"})
    ['oauth', 'a:make']
    """
    if not isinstance(extra, Mapping):
        raise TypeError(f"extra must be a mapping of the config's extra fields, got {type(extra).__name__}")
    chain = ["oauth"] if oauth else []
    for path in _listed_paths(extra):
        outcome = builders.get(path, "unresolvable") if isinstance(path, str) else "unresolvable"
        if outcome not in BUILDER_OUTCOMES:
            raise ValueError(f"builders[{path!r}] must be one of {', '.join(BUILDER_OUTCOMES)}, got {outcome!r}")
        if outcome == "callable":
            chain.append(path)
    return chain
