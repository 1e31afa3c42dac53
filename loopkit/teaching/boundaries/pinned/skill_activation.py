"""Which request secrets a skill's sandbox commands receive, as DeerFlow binds them at the pinned commit.

DeerFlow's ``SkillActivationMiddleware._resolve_secret_bindings``
(``backend/packages/harness/deerflow/agents/middlewares/skill_activation_middleware.py`` at ``f1f4af99``, line 361;
issues #3861, #3914, #3938) recomputes, on every model call, the set of secrets injected into the active skills'
sandbox commands. This is this workbook's code for the part the recording covers: skills already active and
resolved from the live registry (enabled, allowed for the agent, declaring secrets), no slash activation. Checked
against 20 bindings recorded from the pinned method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .secret_context import ACTIVE_SECRETS_KEY, BINDING_AUDIT_KEY, request_secrets

__all__ = ["bind_skill_secrets"]


def _requirements(skills: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """Each active skill's name and declared secrets, in order. A skill that declares none is no source: the registry
    lookup skips it (``_resolve_registry_skill``, line 499).

    Two entries may share a name, and both stay: the binding loop (lines 419-425) keys its audit by name but never
    drops a source, so their requirements pool under that name. At the pin that happens when a slash-activated skill
    is also in the thread's skill context (lines 413-414); the skill-context lookup on its own keeps only the first
    skill of a name (line 527), a step before this loop that the recording leaves out, like the registry's gates.
    """
    if not isinstance(skills, Sequence) or isinstance(skills, str):
        raise TypeError(f"skills must be a list of {{'name', 'requires'}} mappings, got {type(skills).__name__}")
    sources = []
    for index, skill in enumerate(skills):
        if not isinstance(skill, Mapping) or not isinstance(skill.get("name"), str):
            raise TypeError(f"skills[{index}] must be a mapping with a str 'name' and a 'requires' list")
        if skill.get("requires"):
            sources.append((skill["name"], list(skill["requires"])))
    return sources


def bind_skill_secrets(context: dict, skills: list[dict]) -> dict:
    """What one model call's secret binding leaves behind: ``{"context": the run context afterwards, "audit": the
    names-only record emitted, or None}``. ``context`` itself is not changed.

    Policy at the pin: the injected set is every declared name the request supplies (:func:`request_secrets`), and
    it *replaces* the previous one, which goes when nothing is injected. A required name the request lacks is not
    an error: it is only listed under ``missing`` in the audit record (upstream also logs it), and the command runs
    without it. The record is emitted when it differs from the last one, and not at all for a first binding that
    injects nothing and misses nothing. When the request supplies no secrets, the registry is not even read, so
    nothing is missing either.

    >>> bound = bind_skill_secrets({"secrets": {"GH_TOKEN": "t"}},
    ...                            [{"name": "ci", "requires": [{"name": "GH_TOKEN", "optional": False},
    ...                                                         {"name": "NPM_TOKEN", "optional": False}]}])
    >>> bound["context"]["__active_skill_secrets"], bound["audit"]
    ({'GH_TOKEN': 't'}, {'skills': ['ci'], 'secrets': ['GH_TOKEN'], 'missing': {'ci': ['NPM_TOKEN']}})
    """
    if not isinstance(context, dict):
        raise TypeError(f"context must be a dict (the run context), got {type(context).__name__}")
    sources = _requirements(skills)
    after = dict(context)
    supplied = request_secrets(after)
    if not supplied:  # upstream reads the skill registry only when the request supplies secrets (line 405)
        sources = []
    injected: dict[str, str] = {}
    bound: set[str] = set()
    missing: dict[str, list[str]] = {}
    for skill, requirements in sources:
        for requirement in requirements:
            name = requirement["name"]
            if name in supplied:
                injected[name] = supplied[name]
                bound.add(skill)
            elif not requirement.get("optional"):
                missing.setdefault(skill, []).append(name)
    if injected:
        after[ACTIVE_SECRETS_KEY] = injected
    else:
        after.pop(ACTIVE_SECRETS_KEY, None)
    record = {"skills": sorted(bound), "secrets": sorted(injected),
              "missing": {skill: sorted(names) for skill, names in sorted(missing.items())}}
    previous = after.get(BINDING_AUDIT_KEY)
    if previous == record or (previous is None and not injected and not missing):
        return {"context": after, "audit": None}
    after[BINDING_AUDIT_KEY] = record
    return {"context": after, "audit": record}
