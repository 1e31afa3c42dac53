"""The rendered site (`make site`, tools/site_build.py), every page of both tracks, in Debian's Chromium.

The site is built once for the session (the reveals' outputs come from build/site-src/reveals/ when the chapters are
unchanged) and served from build/site/ on 127.0.0.1. Every request that leaves that server is kept and fails the
test: the site must work offline, with no script from a CDN. Each page is opened once at 1280x800, in one tab (a
reader going from page to page), then:

- no console error, no failed request, no request elsewhere;
- each stored view is drawn: every view the page holds (``application/vnd.jupyter.widget-view+json``) has its drawn
  widget before it, and each is followed by the line saying that it needs a running chapter, with the launch link;
- each reveal is collapsed ("Show the answer") with nothing of its output on the page, then, once clicked, shows
  what loopkit says the exercise's answer looks like (``reveal_problem``, the check nbval runs on the chapters) and
  none of the known wrong answers in its place;
- each exercise's box names its launch, and its hint and its solution open on a click;
- axe-core finds no serious or critical violation on the page;
- the page has no horizontal scroll at 1280 px nor at 390 px (a phone);
- the language switch leads to the same page in the other track (whose own test checks its ``<html lang>``).

build/site-report.json keeps the counts (pages, views, reveals, axe's violations by impact).
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import sys
import threading
import urllib.parse

import pytest
from checks import SERIOUS, load_axe, record
from labdriver import ROOT
from notebook_tools import is_reveal, reveal_problem

sys.path.insert(0, str(ROOT / "tools"))
import site_build  # noqa: E402

pytestmark = pytest.mark.site

REPORT = ROOT / "build" / "site-report.json"
PAGES = [(track, page.name) for track in site_build.TRACKS for page in site_build.pages(track)]
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="session")
def site_url():
    """``make site``'s build, served on 127.0.0.1 for the session."""
    folder = site_build.build()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def reader(chromium, site_url):
    """One browser profile and one tab for every page, as a reader clicks from page to page (the theme's scripts
    come from the browser's cache after the first page); every request that leaves the site's server is kept.

    The requests are watched, not intercepted: Playwright turns the browser's cache off for a profile whose
    requests it routes, and every page would then fetch and compile the theme's and the widget manager's scripts
    again."""
    context = chromium.new_context(viewport=LAPTOP)
    context.set_default_timeout(30_000)
    elsewhere: list[str] = []
    context.on("request", lambda request: None if request.url.startswith(site_url + "/")
               or request.url.startswith(("data:", "blob:")) else elsewhere.append(request.url))
    context.elsewhere = elsewhere
    context.tab = context.new_page()
    try:
        yield context
    finally:
        context.close()


class Visit:
    """One page as opened in the reader's tab, and what went wrong while it loaded and was used."""

    def __init__(self, context, url: str) -> None:
        self.page = context.tab
        self.problems: list[str] = []
        self.watchers = {
            "console": lambda m: m.type == "error" and self.problems.append(f"console: {m.text}"),
            "pageerror": lambda e: self.problems.append(f"page error: {e}"),
            "response": lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"),
            "requestfailed": lambda r: self.problems.append(f"failed: {r.url} ({r.failure})"),
        }
        for event, watcher in self.watchers.items():
            self.page.on(event, watcher)
        self.page.set_viewport_size(LAPTOP)
        self.page.goto(url, wait_until="load")

    def close(self) -> None:
        """Stop watching the tab (the next page's Visit watches it anew)."""
        for event, watcher in self.watchers.items():
            self.page.remove_listener(event, watcher)


# The views the page holds, and for each the widget the manager drew in front of its script (html-manager's
# renderWidgets puts a div.widget-subarea before each view's script and draws the view into it).
_VIEWS = """
() => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')].map((script) => {
  const area = script.previousElementSibling;
  const drawn = area && area.classList.contains('widget-subarea') ? area.querySelector('.jupyter-widgets') : null;
  const box = drawn ? drawn.getBoundingClientRect() : null;
  const cell = script.closest('div.cell');
  let next = cell ? cell.nextElementSibling : null;
  while (next && !next.textContent.trim()) next = next.nextElementSibling;
  const note = next && (next.matches('.loopkit-stored-view') ? next : next.querySelector('.loopkit-stored-view'));
  return {drawn: Boolean(box && box.width > 0 && box.height > 0),
          text: drawn ? drawn.innerText.slice(0, 80) : '',
          note: note ? note.innerText : '', launch: note && note.querySelector('a') ? note.querySelector('a').href : ''};
})
"""


def views_are_drawn(visit: Visit, name: str) -> int:
    views = visit.page.evaluate(_VIEWS)
    undrawn = [i for i, view in enumerate(views) if not view["drawn"]]
    assert not undrawn, f"{name}: views {undrawn} of {len(views)} are not drawn from their stored state"
    silent = [i for i, view in enumerate(views) if not view["launch"].startswith(site_build.BINDER)]
    assert not silent, f"{name}: views {silent} have no line with the launch link after them: {views[silent[0]]}"
    return len(views)


def reveals_open_on_a_click(visit: Visit, track: str, name: str) -> int:
    """Each reveal of the page, in order, against the reveal cells of the source the site was built from."""
    source = site_build.SOURCES / track / f"{name}.ipynb"
    if not source.exists():
        return 0
    nb = json.loads(source.read_text(encoding="utf-8"))
    cells = [cell for cell in nb["cells"] if is_reveal(cell)]
    boxes = visit.page.locator("div.cell details.hide")
    assert boxes.count() == len(cells), f"{name}: {boxes.count()} collapsed outputs for {len(cells)} reveal cells"
    show = site_build.WORDS[track]["show answer"]
    for index, cell in enumerate(cells):
        box = boxes.nth(index)
        assert box.get_attribute("open") is None, f"{name}: reveal {index} is open before a click"
        summary = box.locator("summary")
        assert summary.inner_text().strip() == show, f"{name}: reveal {index} says {summary.inner_text()!r}"
        assert box.inner_text().strip() == show, f"{name}: reveal {index} shows more than its summary: " \
                                                 f"{box.inner_text()[:200]!r}"
        summary.click()
        shown = box.locator(".cell_output").inner_text()
        problem = reveal_problem(nb, cell, shown)
        assert problem is None, f"{name}: reveal {index} after a click: {problem}"
    return len(cells)


def exercise_boxes_open_on_a_click(visit: Visit, track: str, name: str) -> int:
    boxes = visit.page.locator(".loopkit-exercise-box")
    for index in range(boxes.count()):
        box = boxes.nth(index)
        assert box.locator("a").first.get_attribute("href").startswith(site_build.BINDER), f"{name}: box {index}"
        for kind in ("hint", "solution"):
            details = box.locator(f"details.loopkit-{kind}")
            assert details.get_attribute("open") is None, f"{name}: box {index}'s {kind} is open before a click"
            assert not details.locator("pre").is_visible(), f"{name}: box {index}'s {kind} shows before a click"
            details.locator("summary").click()
            assert details.locator("pre").inner_text().strip(), f"{name}: box {index}'s {kind} is empty"
    return boxes.count()


def axe_violations(visit: Visit) -> list[dict]:
    load_axe(visit.page)
    return visit.page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
                      first: v.nodes[0].html.slice(0, 160)}))""")


def horizontal_scroll(visit: Visit) -> int:
    """How far the page scrolls sideways (0 when it fits the window)."""
    return visit.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def twin_is_linked(visit: Visit, track: str, name: str) -> None:
    """The language switch leads to the same page in the other track. Where it leads is read from the link, not
    followed: that page is one of PAGES, whose own test opens it and checks its ``<html lang>``."""
    other = site_build.other(track)
    twin = site_build.twin_map()[track][name]
    switch = visit.page.locator(f'a.loopkit-language-switch[hreflang="{other}"]')
    assert switch.count() == 1, f"{name}: no language switch to {other}"
    target = urllib.parse.urlparse(urllib.parse.urljoin(visit.page.url, switch.get_attribute("href"))).path
    assert target == f"/{other}/{twin}.html", f"{track}/{name}: the language switch leads to {target}"
    assert (other, twin) in PAGES and (site_build.SITE / other / f"{twin}.html").is_file(), target


@pytest.mark.parametrize(("track", "name"), PAGES, ids=[f"{track}/{name}" for track, name in PAGES])
def test_page(reader, site_url, track, name):
    visit = Visit(reader, f"{site_url}/{track}/{name}.html")
    try:
        page = visit.page
        assert page.locator("html").get_attribute("lang") == track
        views = views_are_drawn(visit, name)
        reveals = reveals_open_on_a_click(visit, track, name)
        exercises = exercise_boxes_open_on_a_click(visit, track, name)
        violations = axe_violations(visit)
        wide = horizontal_scroll(visit)
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(200)
        narrow = horizontal_scroll(visit)
        page.set_viewport_size(LAPTOP)
        twin_is_linked(visit, track, name)
        record(REPORT, f"{track}/{name}", {
            "views": views, "reveals": reveals, "exercises": exercises,
            "axe": {impact: sum(v["nodes"] for v in violations if v["impact"] == impact)
                    for impact in ("critical", "serious", "moderate", "minor")}})
        serious = [v for v in violations if v["impact"] in SERIOUS]
        assert not serious, f"{track}/{name}: axe finds {serious}"
        assert wide <= 0 and narrow <= 0, f"{track}/{name}: scrolls sideways by {wide} px at 1280, {narrow} at 390"
        assert not visit.problems, f"{track}/{name}: " + "\n".join(visit.problems)
        assert not reader.elsewhere, f"requests that left the site: {reader.elsewhere}"
    finally:
        visit.close()


def test_the_root_page_leads_to_both_tracks(reader, site_url):
    """build/site/index.html sends a reader to the English track and links the Spanish one."""
    root = (site_build.SITE / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="es/index.html" hreflang="es">', root)
    visit = Visit(reader, f"{site_url}/")
    try:
        visit.page.wait_for_url(f"{site_url}/en/index.html")
        assert not visit.problems, "\n".join(visit.problems)
    finally:
        visit.close()
