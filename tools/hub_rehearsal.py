"""The rehearsal the day before: the hub test's learners, all at once, against your real hub.

    .venv/bin/python tools/hub_rehearsal.py https://hub.example.org --branch workshop-2026-12 [--learners 20] [--track es]

Each learner does over HTTP what a browser does, with the hub test's own code (tests/hub/learner.py): follows the
workshop's nbgitpuller link (the one in docs/jupyterhub.md, filled in for your hub and branch), logs in on the hub's
form, waits while the hub starts their server, lets nbgitpuller clone, opens chapter 00 in JupyterLab, then runs
chapter 00 and chapter 05 cell by cell on their own kernels. All start at the same moment, as a room that clicks
on the count of three. It prints what the hub test prints (link to chapter 00, median and worst; the chapters'
time; who failed and why) next to what tools/hub_sizing.py expects for a room that size, so you can compare.
With ``--track es`` they follow the Spanish link (chapters 00 and 05 of notebooks/es/), and a learner whose
JupyterLab is not in Spanish counts as failed: that is the check of a hub set up for a Spanish room
(docs/jupyterhub.md, "The Spanish track and JupyterLab's language").

With ``--room`` (a hub whose room view is on, docs/jupyterhub.md, "The room view"), each learner also answers a few
exercises below chapters 00 and 05, as the hub test's learners do (tests/hub/room_plan.py), and then the instructor's
notebook runs on the first learner's server: the tool prints its table next to the counts those answers must give,
and fails when they differ. Start from an empty room folder, and delete the rehearsal's records afterwards.

The learners log in as ``rehearsal-01``, ``rehearsal-02`` ... with ``--password`` (the chart's default "dummy"
authenticator takes any name and password; rehearse before you switch to the real one, or give these names a
password there). Their servers are left running so that you can look at them (``kubectl top pod``); stop them
from the hub's admin page afterwards, or let the idle culler do it. Needs the test tools (``make test`` installs
them: requests, websocket-client).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import pathlib
import re
import statistics
import sys
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

CHAPTERS = {"en": ["loopkit/notebooks/00_start_here.ipynb", "loopkit/notebooks/05_detector.ipynb"],
            "es": ["loopkit/notebooks/es/00_empieza_aqui.ipynb", "loopkit/notebooks/es/05_detector.ipynb"]}
TRANSLATION_SETTINGS = "lab/api/settings/@jupyterlab/translation-extension:plugin"


def documented_links() -> dict[str, str]:
    """docs/jupyterhub.md's links by track: the first link opens the English chapter 00, the one whose urlpath is
    in notebooks/es/ the Spanish one."""
    text = (ROOT / "docs" / "jupyterhub.md").read_text(encoding="utf-8")
    links = re.findall(r"```text\n(https://\S+)\n```", text)
    return {"en": links[0], "es": next(link for link in links if "notebooks%2Fes%2F" in link)}


def workshop_link(hub_url: str, branch: str, repo: str | None = None, track: str = "en") -> str:
    """docs/jupyterhub.md's link for a track, for this hub and branch (and, for a fork, this repository)."""
    documented = urllib.parse.urlsplit(documented_links()[track])
    query = dict(urllib.parse.parse_qsl(documented.query))
    query["branch"] = branch
    if repo:
        query["repo"] = repo
    return f"{hub_url.rstrip('/')}{documented.path}?{urllib.parse.urlencode(query)}"


def lab_language(settings_answer: dict) -> str:
    """The language JupyterLab shows, from its translation settings: the learner's own choice, else the default
    (which the server's settings folder sets)."""
    chosen = settings_answer.get("settings", {}).get("locale")
    return chosen or settings_answer["schema"]["properties"]["locale"]["default"]


def one_learner(name: str, hub_url: str, link: str, password: str, answers: dict | None = None,
                track: str = "en") -> dict:
    """One learner's rehearsal; ``answers`` (chapter path -> room_plan answers) are typed below each chapter."""
    from hub.learner import SpawnFailed
    from hub.room_plan import answer_code, verdict_problem

    learner = rehearsal_learner(name, hub_url, password)
    started = time.monotonic()
    try:
        pulled = learner.follow_link(link)
    except SpawnFailed as failed:
        return {"name": name, "failed": str(failed)}
    if pulled.phase != "finished":
        return {"name": name, "failed": f"nbgitpuller: {pulled.event.get('message')}"}
    page = learner.open_page(pulled.redirect_url)
    opened = time.monotonic() - started
    if page.get("treePath") != CHAPTERS[track][0]:
        return {"name": name, "failed": f"the link opened {page.get('treePath')!r}", "opened": opened}
    answer = learner.http.get(f"{learner.server_url}/{TRANSLATION_SETTINGS}", timeout=learner.timeout)
    answer.raise_for_status()
    language = lab_language(answer.json())
    if track == "es" and not language.startswith("es"):
        return {"name": name, "opened": opened, "language": language,
                "failed": f"JupyterLab's menus are in {language!r}, not Spanish (docs/jupyterhub.md, "
                          "\"The Spanish track and JupyterLab's language\")"}
    problems, sessions = [], []
    ran = time.monotonic()
    for path in CHAPTERS[track]:
        mine = (answers or {}).get(path, [])
        session, cells = learner.run_notebook(path, then=[answer_code(answer) for answer in mine])
        sessions.append(session)
        problems += [f"{path} cell {c.index}: {c.status} {c.errors}" for c in cells if c.status != "ok" or c.errors]
        for answer, cell in zip(mine, cells[len(cells) - len(mine):]):
            problems += [problem for problem in [verdict_problem(answer, cell.stdout)] if problem]
    for session in sessions:
        learner.shut_down(session)
    return {"name": name, "opened": opened, "language": language, "chapters": time.monotonic() - ran,
            "failed": "; ".join(problems), "learner": learner}


def check_room(learner, learners: int) -> bool:
    """Run the instructor's notebook on ``learner``'s server; print its table and the expected counts; True when
    they agree."""
    from hub.room_plan import ROOM_NOTEBOOK, expected_room, shown_rows, submitted

    session, cells = learner.run_notebook(ROOM_NOTEBOOK)
    learner.shut_down(session)
    summary = next((cell.stdout for cell in cells if " answers recorded." in cell.stdout), "")
    errors = [error for cell in cells for error in cell.errors]
    print("the instructor's room view:\n" + (summary or f"(no table; errors: {errors})"))
    expected = expected_room(learners)
    agree = bool(summary) and summary.startswith(f"{learners} learners, {submitted(learners)} answers recorded.") \
        and shown_rows(summary) == expected
    print("expected from the answers sent: " + "; ".join(
        f"{e} answered {a}, right {r}, most common {m or '-'} ({n})" for e, a, r, m, n in expected))
    print("room view: " + ("the counts agree" if agree else "the counts DIFFER (was the room folder empty?)"))
    print("delete the rehearsal's records before the workshop (docs/jupyterhub.md, 'Deleting it afterwards')")
    return agree


def rehearsal_learner(name: str, hub_url: str, password: str):
    """The hub test's learner, logging in with the rehearsal's password (the hub test's is "workshop")."""
    import html

    from hub.learner import Learner

    class RehearsalLearner(Learner):
        def _log_in(self, page):
            form = re.search(r'<form[^>]*action="([^"]*)"', page.text)
            xsrf = re.search(r'name="_xsrf"[^>]*value="([^"]*)"', page.text)
            assert form and xsrf, f"{self.name}: no login form at {page.url}"
            action = urllib.parse.urljoin(page.url, html.unescape(form.group(1)))
            return self.http.post(action, data={"username": self.name, "password": password,
                                                "_xsrf": xsrf.group(1)}, timeout=self.timeout)

    return RehearsalLearner(name, hub_url)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hub_url", help="your hub's address, for example https://hub.example.org")
    parser.add_argument("--branch", required=True, help="the workshop branch the link pulls")
    parser.add_argument("--learners", type=int, default=20)
    parser.add_argument("--password", default="rehearsal")
    parser.add_argument("--prefix", default="rehearsal-")
    parser.add_argument("--repo", help="the repository the link clones (default: docs/jupyterhub.md's)")
    parser.add_argument("--track", choices=sorted(CHAPTERS), default="en",
                        help="the track's link to follow; es also checks that JupyterLab is in Spanish")
    parser.add_argument("--room", action="store_true",
                        help="the hub's room view is on: answer exercises too, and check the instructor's counts")
    options = parser.parse_args(argv)
    if not options.hub_url.startswith(("http://", "https://")):
        parser.error(f"the hub's address must start with http:// or https://, got {options.hub_url!r}")
    link = workshop_link(options.hub_url, options.branch, options.repo, options.track)
    names = [f"{options.prefix}{n:02d}" for n in range(1, options.learners + 1)]
    print(f"{len(names)} learners follow {link}")
    from hub.room_plan import answers_of

    def rehearse(number: int) -> dict:
        answers = answers_of(number) if options.room else None
        return one_learner(names[number], options.hub_url, link, options.password, answers, options.track)

    with concurrent.futures.ThreadPoolExecutor(max_workers=len(names)) as pool:
        results = list(pool.map(rehearse, range(len(names))))
    opened = sorted(r["opened"] for r in results if "opened" in r and not r["failed"])
    failed = [r for r in results if r["failed"]]
    if opened:
        print(f"link to chapter 00: median {statistics.median(opened):.1f} s, worst {opened[-1]:.1f} s")
        print(f"chapters 00 and 05: worst {max(r['chapters'] for r in results if 'chapters' in r):.1f} s")
    languages = sorted({r["language"] for r in results if "language" in r})
    print(f"JupyterLab's language: {', '.join(languages) or 'not reached'}")
    print(f"failed: {len(failed)} of {len(names)}")
    for result in failed:
        print(f"  {result['name']}: {result['failed']}")
    room_agrees = True
    if options.room:
        first = results[0].get("learner")
        room_agrees = first is not None and not results[0]["failed"] and check_room(first, len(names))
    import hub_sizing

    plan = hub_sizing.plan_room(len(names), hub_sizing.load_measured())
    for node in plan.plans:
        print(f"tools/hub_sizing.py expects, on nodes of {node.size.cores} cores and {node.size.memory_gib} GiB: "
              f"about {node.all_at_once_seconds:.0f} s for everyone at once")
    return 1 if failed or not room_agrees else 0


if __name__ == "__main__":
    sys.exit(main())
