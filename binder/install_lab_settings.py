"""Install the workbook's JupyterLab settings overrides (no news pop-up) into the running environment.

Used by binder/postBuild and by `make` for local installs, so both get the same lab.
"""

import json
import pathlib
import shutil
import sys

source = pathlib.Path(__file__).with_name("overrides.json")
json.loads(source.read_text(encoding="utf-8"))  # fail loudly on a malformed overrides file
target = pathlib.Path(sys.prefix, "share", "jupyter", "lab", "settings", "overrides.json")
target.parent.mkdir(parents=True, exist_ok=True)
shutil.copyfile(source, target)
print(f"JupyterLab settings overrides installed at {target}")
