"""Facts about the upstream source this workbook models: the pinned commit, file paths and their hashes.

The chapters cite these so a learner can read the original; :mod:`loopkit.teaching.probe` uses them to download and
verify it.
"""

from __future__ import annotations

__all__ = ["REPO", "COMMIT", "MIDDLEWARE_DIR", "FILES", "source_url", "raw_url"]

REPO = "bytedance/deer-flow"
COMMIT = "f1f4af99bbf1cffb83a80744bf6e4a44ee8f24be"
MIDDLEWARE_DIR = "backend/packages/harness/deerflow/agents/middlewares"

#: path -> sha256 of the file at COMMIT, and the names the workbook models from it.
FILES = {
    f"{MIDDLEWARE_DIR}/loop_detection_middleware.py": {
        "sha256": "7a3ea6d6998635a7846ac3b51f006a847dff427de93837e6bf51ddf53e484e89",
        "names": ("_normalize_tool_call_args", "_stable_tool_key", "_hash_tool_calls"),
    },
    f"{MIDDLEWARE_DIR}/_bounded_dict.py": {
        "sha256": "faf5ec8f072dc0fca4e6c49dcecebb4f871d981525bc6dc46a360cbc696dbd0a",
        "names": ("BoundedDict",),
    },
}


def source_url(path: str) -> str:
    """A link a learner can open to read ``path`` at the pinned commit."""
    return f"https://github.com/{REPO}/blob/{COMMIT}/{path}"


def raw_url(path: str) -> str:
    """The raw-file URL of ``path`` at the pinned commit (what :mod:`loopkit.teaching.probe` downloads)."""
    return f"https://raw.githubusercontent.com/{REPO}/{COMMIT}/{path}"
