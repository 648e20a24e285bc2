"""The event's website (issue 17) in a real browser, as tests/report/test_website_browser.py opens the
evening's: the event ranking of the Finnish championship (36 pairs, two sessions' scores each), its single
page and pages of the sessions' sites do not scroll sideways at 375 px or 1280 px, every link of the event's
pages reaches a page and an anchor that exist, and nothing is fetched from the network."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.event import build_event, write_event
from tests.conftest import REALDATA
from tests.report.test_website_browser import SIZES, WIDE_TABLES, _viewport, driver  # noqa: F401 (the browser fixture)

pytestmark = pytest.mark.browser

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
#: The event's own pages, and one page of each kind of the sessions' sites.
PAGES = ["event/index.html", "event.html", "event/session-1/index.html", "event/session-2/cards/2.html",
         "event/session-1/boards/1.html", "event/session-2/conventions.html"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("event-web")
    event = build_event([S1, S2], Options(ranking=ConventionChoice(changes={"mp_decimals": 1}), dd=False))
    write_event(event, [f"{out}/event/", str(out / "event.html")], archive=False)
    return out


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_page_scrolls_sideways(driver, site, width, height):  # noqa: F811
    _viewport(driver, width, height)
    wide = []
    for name in PAGES:
        driver.get((site / name).as_uri())
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            wide.append(f"{name}: {scroll} px in {inner} px")
    assert (wide, inner) == ([], width)


def test_no_table_of_the_event_is_wider_than_a_phone(driver, site):  # noqa: F811
    _viewport(driver, 375, 800)
    wide = []
    for name in PAGES:
        driver.get((site / name).as_uri())
        wide += [f"{name}: {caption} {width} px" for caption, width in driver.execute_script(WIDE_TABLES)]
    assert wide == []


def test_the_event_ranking_shows_36_pairs(driver, site):  # noqa: F811
    _viewport(driver, 375, 800)
    for name in ("event/index.html", "event.html"):
        driver.get((site / name).as_uri())
        rows = driver.execute_script("return document.querySelectorAll('#event-ranking tbody tr').length")
        assert rows == 36


def test_every_link_of_the_event_pages_reaches_a_page_and_an_anchor_that_exist(driver, site):  # noqa: F811
    _viewport(driver, 1280, 900)
    links: dict[str, set[str]] = {}
    for name in PAGES:
        driver.get((site / name).as_uri())
        for link in driver.execute_script("return Array.from(document.querySelectorAll('a[href]'), a => a.href)"):
            assert link.startswith("file://"), f"{name}: {link} leaves the site"
            target, _, anchor = link.partition("#")
            links.setdefault(target, set()).add(anchor)
    broken = []
    for target, anchors in sorted(links.items()):
        path = Path(target.removeprefix("file://"))
        if not path.is_file():
            broken.append(target)
            continue
        ids = set(re.findall(r'\sid="([^"]+)"', path.read_text(encoding="utf-8")))
        broken += [f"{target}#{a}" for a in sorted(anchors - ids - {""})]
    # 72 score cards, both sessions' pages, the event's index, the single page and more: each one reached
    assert broken == [] and len(links) > 80


def test_nothing_is_fetched_from_the_network(driver, site):  # noqa: F811
    for name in ("event/index.html", "event.html"):
        driver.get((site / name).as_uri())
        sources = driver.execute_script("return performance.getEntriesByType('resource').map(r => r.name)")
        assert [s for s in sources if not s.startswith("file://")] == []
