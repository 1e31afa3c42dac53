"""Replay hook scripts recorded from upstream through the workbook's middleware, step by step (chapters 05 and 07).

``tests/data/middleware-vectors.json.gz`` holds 200 seeded scripts of hook calls on one
``LoopDetectionMiddleware`` at deer-flow ``f1f4af99``, each step with what upstream did (only inputs and the
structure of upstream's results: no upstream code or text); ``tests/data/middleware-cap-vectors.json.gz`` holds 50
more in the same shape, aimed at the cap on the ``(thread, run)`` keys that hold queued warnings.
``tests/data/later-middleware-vectors.json.gz`` holds 100 more, recorded from the later class read in the fork
``ucan-ai/deer-flow`` at ``711035d2``: there a step may name an ``anchor`` (a run without a run id, whose runtime
carries the named control object) instead of a ``run``, and a model call may fail (``"fails": true``).
:func:`replay_script` plays one script through a fresh :class:`~loopkit.core.middleware.PinnedMiddleware` (or the
middleware given) and puts each result next to upstream's.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Mapping
from typing import Any

from loopkit.core.detector import Decision, DetectorConfig
from loopkit.core.middleware import LoopMiddleware, PinnedMiddleware, Runtime

__all__ = ["load_scripts", "config_of", "ScriptRuntimes", "ModelCallFailed", "play_step", "recorded_shape",
           "replay_script", "brief"]


def load_scripts(path: str | os.PathLike) -> list[dict]:
    """The recorded scripts in the gzipped JSON file at ``path`` (each ``{"seed", "config", "steps"}``)."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        recorded = json.load(handle)
    if not isinstance(recorded, Mapping) or not isinstance(recorded.get("vectors"), list):
        raise ValueError(f"{os.fspath(path)}: expected an object with a 'vectors' list of recorded scripts")
    return recorded["vectors"]


def config_of(script: Mapping) -> DetectorConfig:
    """The script's middleware settings (upstream's constructor names) as a :class:`DetectorConfig`."""
    fields = dict(script["config"])
    fields["tool_freq_overrides"] = {tool: tuple(pair) for tool, pair in fields.get("tool_freq_overrides", {}).items()}
    return DetectorConfig(**fields)


class ScriptRuntimes:
    """The runtimes of one script's steps that name an ``anchor`` instead of a run id.

    Each anchor name stands for one control object, the same for every step with that name until an
    ``after_agent`` of that anchor retires it; the next step with the name gets a new object. Every step gets a
    new runtime wrapper (LangGraph builds one per node) whose context holds the thread id and no run id.
    """

    def __init__(self) -> None:
        self._controls: dict[str, object] = {}

    def run_of(self, step: Mapping) -> Any:
        """The step's run id, or a :class:`~loopkit.core.middleware.Runtime` for an anchored step."""
        if "anchor" not in step:
            return step["run"]
        control = self._controls.setdefault(step["anchor"], object())
        return Runtime(context={"thread_id": step["thread"]}, control=control)

    def after(self, step: Mapping) -> None:
        """Retire the step's control object once its ``after_agent`` has run."""
        if step["op"] == "after_agent" and "anchor" in step:
            del self._controls[step["anchor"]]


class ModelCallFailed(Exception):
    """What the stand-in model raises for a recorded model call that failed."""


def play_step(middleware: LoopMiddleware, step: Mapping, runtimes: ScriptRuntimes | None = None) -> Any:
    """Call the hook a recorded step names, with the step's ids (and calls), and return its result.

    A step that names an ``anchor`` needs the script's ``runtimes``. For a failed model call the result is what
    the failed request carried.
    """
    if "anchor" in step and runtimes is None:
        raise ValueError("a recorded step with an 'anchor' needs the script's ScriptRuntimes")
    op = step["op"]
    if op == "consume_stop_reason":
        return middleware.consume_stop_reason(step["run"])
    if op == "reset":
        return middleware.reset(step["thread"])
    if op not in ("after_model", "before_agent", "after_agent", "wrap_model_call"):
        raise ValueError(f"unknown hook {op!r} in a recorded step")
    run = (runtimes or ScriptRuntimes()).run_of(step)
    if op == "after_model":
        return middleware.after_model(step["calls"], step["thread"], run)
    if op == "wrap_model_call" and step.get("fails"):
        return _failed_model_call(middleware, step["thread"], run)
    return getattr(middleware, op)(step["thread"], run)


def _failed_model_call(middleware: LoopMiddleware, thread: Any, run: Any) -> list[Decision]:
    """``wrap_model_call`` with a model that raises; what the failed request carried."""
    carried: list[Decision] = []

    def failing_model(warnings: list[Decision]) -> None:
        carried.extend(warnings)
        raise ModelCallFailed("the recorded model call raised")

    try:
        middleware.wrap_model_call(thread, run, failing_model)
    except ModelCallFailed:
        return carried
    raise AssertionError("the failing model call did not raise through wrap_model_call")


def _warning_shape(warning: Decision) -> dict:
    if warning.layer == "hash":
        return {"layer": "hash"}  # upstream's hash warning text names neither tool nor count
    return {"layer": warning.layer, "tool": warning.tool, "count": warning.count}


def recorded_shape(op: str, result: Any) -> Any:
    """A hook's result in the shape the recording keeps: the decision's fields, or the injected warnings.

    >>> recorded_shape("after_model", Decision("warn", "frequency", "bash", 30))
    {'action': 'warn', 'layer': 'frequency', 'tool': 'bash', 'count': 30}
    """
    if op == "after_model":
        return {"action": result.action, "layer": result.layer, "tool": result.tool, "count": result.count}
    if op == "wrap_model_call":
        return {"injected": [_warning_shape(w) for w in result]}
    return result


def replay_script(script: Mapping, middleware: LoopMiddleware | None = None) -> list[dict]:
    """Play every step of ``script``; one row per step that upstream recorded a result for.

    Each row: ``step`` (its index in the script), ``op``, ``thread``, ``run``, ``upstream`` (what upstream did),
    ``loopkit`` (what the middleware did) and ``same``. ``middleware`` defaults to a fresh
    :class:`PinnedMiddleware` with the script's config.
    """
    middleware = middleware if middleware is not None else PinnedMiddleware(config_of(script))
    runtimes = ScriptRuntimes()
    rows = []
    for index, step in enumerate(script["steps"]):
        result = play_step(middleware, step, runtimes)
        runtimes.after(step)
        if "expect" in step:
            got = recorded_shape(step["op"], result)
            rows.append({"step": index, "op": step["op"], "thread": step.get("thread"),
                         "run": step.get("run", step.get("anchor")), "upstream": step["expect"], "loopkit": got,
                         "same": got == step["expect"]})
    return rows


def brief(result: Any) -> str:
    """A recorded result in a few words: ``"warn frequency bash 30"``, ``"ok"``, ``"inject hash"``.

    >>> brief({"action": "stop", "layer": "hash", "tool": None, "count": 5}), brief({"injected": []})
    ('stop hash 5', 'inject nothing')
    """
    if isinstance(result, Mapping) and "action" in result:
        return Decision(result["action"], result.get("layer"), result.get("tool"), result.get("count")).brief()
    if isinstance(result, Mapping) and "injected" in result:
        shown = [" ".join(str(v) for v in warning.values()) for warning in result["injected"]]
        return "inject " + (" + ".join(shown) if shown else "nothing")
    return repr(result)
