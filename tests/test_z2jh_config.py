"""The workbook's Zero to JupyterHub config, docs/z2jh/config.yaml: what the project owns in it.

It parses; its memory, CPU, placeholder and spawn-limit figures are the ones tools/hub_sizing.py computes for the room
the file is written for; its link and default URL open chapter 00 as docs/jupyterhub.md's link does; it turns on what
a large room needs (culling, the pre-pulled image, the user scheduler, pod priority for the placeholders) and leaves
out the one-machine kernel transport. The image it names is built as docs/z2jh/README.md says, and repo2docker's plan
for that build is checked without Docker.

Checking the file against the chart's own schema needs the chart's values.yaml and values.schema.yaml (jupyterhub
4.4.0), which are the chart's, not this project's, so they are not in this repository: ``tools/check_z2jh.py CHART``
does it, as docs/z2jh/README.md says. Here a small schema of the same form proves that the tool's check catches a
misspelt value.
"""

from __future__ import annotations

import json
import pathlib
import re
import shlex
import subprocess
import sys
import urllib.parse

import pytest
import yaml
from notebook_tools import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import check_z2jh  # noqa: E402  (tools/check_z2jh.py)
import hub_sizing  # noqa: E402  (tools/hub_sizing.py)

CONFIG_PATH = ROOT / "docs" / "z2jh" / "config.yaml"
CONFIG_TEXT = CONFIG_PATH.read_text(encoding="utf-8")
CONFIG = yaml.safe_load(CONFIG_TEXT)
README = (ROOT / "docs" / "z2jh" / "README.md").read_text(encoding="utf-8")
GUIDE = (ROOT / "docs" / "jupyterhub.md").read_text(encoding="utf-8")


def room_size() -> int:
    found = re.search(r"^# .*a room of (\d+) learners", CONFIG_TEXT, re.M)
    assert found, "docs/z2jh/config.yaml's first line should name the room it is sized for"
    return int(found.group(1))


def documented_link() -> urllib.parse.SplitResult:
    return urllib.parse.urlsplit(re.search(r"```text\n(https://\S+)\n```", GUIDE).group(1))


def test_the_config_parses_to_the_charts_top_level_sections():
    assert isinstance(CONFIG, dict)
    assert set(CONFIG) <= {"hub", "singleuser", "cull", "prePuller", "scheduling", "proxy", "ingress"}


def test_the_memory_and_cpu_figures_are_the_ones_the_model_computes():
    plan = hub_sizing.plan_room(room_size(), hub_sizing.load_measured())
    wanted = hub_sizing.chart_values(plan)
    assert CONFIG["singleuser"]["memory"] == wanted["singleuser"]["memory"]
    assert CONFIG["singleuser"]["cpu"] == wanted["singleuser"]["cpu"]
    assert CONFIG["hub"]["resources"] == wanted["hub"]["resources"]
    assert CONFIG["hub"]["concurrentSpawnLimit"] == wanted["hub"]["concurrentSpawnLimit"] == room_size()
    assert CONFIG["scheduling"]["userPlaceholder"]["replicas"] == wanted["scheduling"]["userPlaceholder"]["replicas"]


def test_the_memory_guarantee_covers_every_measured_learner_and_kubespawner_reads_it_in_mib():
    guarantee = CONFIG["singleuser"]["memory"]["guarantee"]
    assert re.fullmatch(r"\d+M", guarantee), "KubeSpawner's ByteSpecification reads a trailing M as MiB"
    record = json.loads(hub_sizing.RECORD.read_text(encoding="utf-8"))
    worst = max(run["learner_peak_mib"]["max"] for run in record["runs"])
    assert int(guarantee[:-1]) >= worst * 1.25


def test_the_default_url_opens_chapter_00_of_the_clone_the_link_makes():
    urlpath = urllib.parse.parse_qs(documented_link().query)["urlpath"][0]
    assert CONFIG["singleuser"]["defaultUrl"] == "/" + urlpath.split("?")[0]
    assert (ROOT / urlpath.split("?")[0].removeprefix("lab/tree/loopkit/")).exists()


def test_the_hubs_own_address_follows_the_workshop_link_on_the_workshop_branch():
    link = urllib.parse.urlsplit(CONFIG["hub"]["config"]["JupyterHub"]["default_url"])
    documented = documented_link()
    assert (link.scheme, link.netloc, link.path) == ("", "", documented.path)
    ours, theirs = urllib.parse.parse_qs(link.query), urllib.parse.parse_qs(documented.query)
    assert ours["repo"] == theirs["repo"] and ours["urlpath"] == theirs["urlpath"]
    assert ours["branch"] != ["main"], "a workshop teaches from a branch cut from the release tag, not main"
    tag = CONFIG["singleuser"]["image"]["tag"]
    comments = re.sub(r"\n\s*#\s*", " ", CONFIG_TEXT)  # the comments as one line of prose
    assert f"git branch {ours['branch'][0]} {tag}" in comments, "say which tag the workshop branch is cut from"


def test_the_image_is_pinned_to_a_release_tag_and_built_as_the_readme_says():
    image = CONFIG["singleuser"]["image"]
    assert re.fullmatch(r"v\d+\.\d+\.\d+", image["tag"]), f"not a release tag: {image['tag']!r}"
    command = build_command()
    assert f"--image-name {image['name']}:{image['tag']}" in " ".join(command)
    assert command[command.index("--ref") + 1] == image["tag"]
    assert command[command.index("--target-repo-dir") + 1] == "/srv/loopkit"


def test_a_large_room_gets_culling_the_pre_pulled_image_the_user_scheduler_and_placeholders():
    assert CONFIG["cull"]["enabled"] is True and 0 < CONFIG["cull"]["timeout"] and 0 < CONFIG["cull"]["every"]
    assert CONFIG["prePuller"]["hook"]["enabled"] and CONFIG["prePuller"]["continuous"]["enabled"]
    scheduling = CONFIG["scheduling"]
    assert scheduling["userScheduler"]["enabled"]
    # Placeholders are only pushed out by real learners when pod priority is on (z2jh's optimization guide).
    assert scheduling["userPlaceholder"]["enabled"] and scheduling["podPriority"]["enabled"]


def test_the_one_machine_kernel_transport_is_left_out_of_the_containers():
    assert "KernelManager.transport" not in yaml.safe_dump(CONFIG)
    assert "cmd" not in CONFIG["singleuser"] and "extraEnv" not in CONFIG["singleuser"]


# -- the chart's schema and repo2docker's plan ------------------------------------------------------------------


def test_the_schema_check_lays_the_values_over_the_defaults_and_catches_a_misspelt_value():
    schema = {"type": "object", "additionalProperties": False, "properties": {
        "singleuser": {"type": "object", "additionalProperties": False, "properties": {
            "defaultUrl": {"type": "string"},
            "memory": {"type": "object", "properties": {"guarantee": {"type": ["string", "null"]}},
                       "additionalProperties": False}}}}}
    defaults = {"singleuser": {"defaultUrl": "/lab", "memory": {"guarantee": "1G"}}}
    assert check_z2jh.schema_errors(schema, defaults, {"singleuser": {"memory": {"guarantee": "512M"}}}) == []
    assert check_z2jh.coalesce(defaults, {"singleuser": {"defaultUrl": None}}) == {"singleuser": {"memory": {
        "guarantee": "1G"}}}
    errors = check_z2jh.schema_errors(schema, defaults, {"singleuser": {"memory": {"guarantees": "512M"}}})
    assert len(errors) == 1 and errors[0].startswith("singleuser.memory: Additional properties")


def build_command() -> list[str]:
    """The image's build command, from docs/z2jh/README.md's first ``sh`` block that runs repo2docker."""
    block = next(b for b in re.findall(r"```sh\n(.*?)```", README, re.S) if "jupyter-repo2docker" in b)
    return shlex.split(block.replace("\\\n", " "))


def test_repo2docker_plans_the_image_the_config_names():
    """``--no-build`` renders the Dockerfile without Docker: Binder's steps, then nbgitpuller, pinned."""
    command = build_command()
    tool = pathlib.Path(sys.executable).parent / "jupyter-repo2docker"
    assert tool.exists(), f"{tool} is missing: jupyter-repo2docker is pinned in requirements-test.txt"
    # The README builds the tag from GitHub; the plan reads this checkout instead (it only needs binder/).
    ref = command.index("--ref")
    planned = [str(tool), "--no-build", *command[1:ref], *command[ref + 2:-1], "."]
    plan = subprocess.run(planned, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert plan.returncode == 0, f"repo2docker --no-build failed:\n{plan.stderr[-3000:]}"
    dockerfile = plan.stdout
    steps = [line for line in dockerfile.splitlines() if line.startswith(("COPY", "RUN", "ARG", "WORKDIR", "USER"))]
    assert "ARG REPO_DIR=${HOME}" in steps and "WORKDIR ${REPO_DIR}" in steps  # --target-repo-dir sets REPO_DIR
    assert any(re.search(r'pip install .*-r "binder/requirements\.txt"', s) for s in steps)
    post_build = steps.index("RUN ./binder/postBuild")
    appendix = [s for s in steps[post_build:] if "nbgitpuller" in s]
    assert appendix == ["RUN ${NB_PYTHON_PREFIX}/bin/python -m pip install --no-cache-dir nbgitpuller==1.3.0"]
    tested = (ROOT / "requirements-test.txt").read_text(encoding="utf-8")
    assert "nbgitpuller==1.3.0" in tested, "the image's nbgitpuller should be the one tests/test_hub.py runs"


def test_the_rehearsal_follows_the_workshop_link_on_the_hub_it_is_pointed_at():
    import hub_rehearsal  # tools/hub_rehearsal.py

    branch = urllib.parse.parse_qs(urllib.parse.urlsplit(CONFIG["hub"]["config"]["JupyterHub"]["default_url"]).query)
    link = urllib.parse.urlsplit(hub_rehearsal.workshop_link("https://hub.example.org/", branch["branch"][0]))
    documented = documented_link()
    assert (link.scheme, link.netloc, link.path) == ("https", "hub.example.org", documented.path)
    query = urllib.parse.parse_qs(link.query)
    assert query == {**urllib.parse.parse_qs(documented.query), "branch": branch["branch"]}
    fork = hub_rehearsal.workshop_link("https://hub.example.org", "b", repo="https://example.org/me/loopkit")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(fork).query)["repo"] == ["https://example.org/me/loopkit"]
