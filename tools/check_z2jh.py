"""Check docs/z2jh/config.yaml against the Zero to JupyterHub chart's own schema, as Helm would.

The chart's ``values.yaml`` and ``values.schema.yaml`` are the chart's, not this project's, so they are not in this
repository: pass the folder that holds them (a checkout of jupyterhub/zero-to-jupyterhub-k8s at tag 4.4.0, its
``jupyterhub/`` folder):

    python tools/check_z2jh.py PATH/TO/zero-to-jupyterhub-k8s/jupyterhub

Helm validates the chart's defaults with the user's values laid over them (a null removes a default), against the
schema as JSON Schema draft 7; so does this. Exits 1 and lists every error, or prints "0 errors".
"""

from __future__ import annotations

import pathlib
import sys

import jsonschema
import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONFIG = ROOT / "docs" / "z2jh" / "config.yaml"


def coalesce(defaults: dict, values: dict) -> dict:
    """What Helm validates: the chart's defaults with the user's values over them (a null removes a default)."""
    merged = dict(defaults)
    for key, value in values.items():
        if value is None:
            merged.pop(key, None)
        elif isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = coalesce(merged[key], value)
        else:
            merged[key] = value
    return merged


def schema_errors(schema: dict, defaults: dict, values: dict) -> list[str]:
    """Every error of ``values`` over ``defaults`` against ``schema``, as ``dotted.path: message``."""
    merged = coalesce(defaults, values)
    return [f"{'.'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
            for error in jsonschema.Draft7Validator(schema).iter_errors(merged)]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    chart = pathlib.Path(argv[0])
    try:
        schema = yaml.safe_load((chart / "values.schema.yaml").read_text(encoding="utf-8"))
        defaults = yaml.safe_load((chart / "values.yaml").read_text(encoding="utf-8"))
    except OSError as exc:
        print(f"{chart}: cannot read the chart's values.yaml and values.schema.yaml: {exc}", file=sys.stderr)
        return 2
    errors = schema_errors(schema, defaults, yaml.safe_load(CONFIG.read_text(encoding="utf-8")))
    for error in errors:
        print(error)
    print(f"{CONFIG.relative_to(ROOT)}: {len(errors)} errors against {chart}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
