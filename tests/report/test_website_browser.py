"""The results website of the sample evening in a real browser (Debian's headless Chromium through
Selenium): nothing overflows a phone's 375 px or a desktop's 1280 px, every link reaches a page and
anchor that exist, and printing keeps each score card on one page and several deals to a page.
Screenshots of the ranking and a board are left in ``build/website-screenshots/`` for a person."""
from __future__ import annotations

import base64
import math
import os
import re
from pathlib import Path

import pytest

from bridgeproc.model import Options, ReadOptions
from bridgeproc.pipeline.write import process_session
from tests.conftest import ROOT, SAMPLE

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("BRIDGEPROC_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("BRIDGEPROC_CHROMEDRIVER", "/usr/bin/chromedriver")
SCREENSHOTS = ROOT / "build" / "website-screenshots"
SIZES = [(375, 800), (1280, 900)]
_PDF_PAGE = re.compile(rb"/Type\s*/Page[^s]")


def _missing() -> str | None:
    gone = [p for p in (CHROMIUM, CHROMEDRIVER) if not (Path(p).is_file() and os.access(p, os.X_OK))]
    return f"{' and '.join(gone)} not found: install Debian's chromium and chromium-driver" if gone else None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("web")
    inputs = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")]
    process_session(inputs, [f"{out}/results/", str(out / "results.html")],
                    Options(read=ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False))
    return out


@pytest.fixture(scope="module")
def driver():
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests need Chromium under CI: {missing} (.ci/run installs them with apt)")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--disable-extensions", "--no-first-run", "--hide-scrollbars"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield browser
    browser.quit()


def _viewport(driver, width: int, height: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})


def _pages(site: Path) -> list[Path]:
    return sorted((site / "results").rglob("*.html")) + [site / "results.html"]


def _pdf_pages(driver) -> int:
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {"printBackground": False, "preferCSSPageSize": True})
    return len(_PDF_PAGE.findall(base64.b64decode(pdf["data"])))


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_page_scrolls_sideways(driver, site, width, height):
    _viewport(driver, width, height)
    wide = []
    for page in _pages(site):
        driver.get(page.as_uri())
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            wide.append(f"{page.relative_to(site)}: {scroll} px in {inner} px")
    assert (wide, inner) == ([], width)


#: Every table of a page, with its caption (or class) and width, that is wider than the window.
WIDE_TABLES = ("return Array.from(document.querySelectorAll('table'), t => [t.caption ? t.caption.textContent : "
               "t.className, Math.round(t.getBoundingClientRect().width)]).filter(t => t[1] > window.innerWidth)")


def test_no_table_is_wider_than_a_phone(driver, site):
    """At 375 px every table fits without scrolling inside its box: the ranking, every score card (no lead
    or running total, the opponents by number), every traveller (the NS score signed, no lead, no mirror EW
    columns) and frequency table; a screenshot of a board and a card at that width in build/."""
    _viewport(driver, 375, 800)
    wide = []
    for page in _pages(site):
        driver.get(page.as_uri())
        wide += [f"{page.relative_to(site)}: {caption} {width} px" for caption, width in driver.execute_script(WIDE_TABLES)]
    assert wide == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name in ("boards/1.html", "cards/ns-1.html", "index.html"):
        driver.get((site / "results" / name).as_uri())
        (SCREENSHOTS / f"phone-{name.replace('/', '-').removesuffix('.html')}.png").write_bytes(
            driver.get_screenshot_as_png())


def test_every_link_reaches_a_page_and_an_anchor_that_exist(driver, site):
    _viewport(driver, 1280, 900)
    links: dict[str, set[str]] = {}  # target page -> anchors asked for, each page loaded once
    for page in _pages(site):
        driver.get(page.as_uri())
        for link in driver.execute_script("return Array.from(document.querySelectorAll('a[href]'), a => a.href)"):
            assert link.startswith("file://"), f"{page.name}: {link} leaves the site"
            target, _, anchor = link.partition("#")
            links.setdefault(target, set()).add(anchor)
    broken = []
    for target, anchors in sorted(links.items()):
        if not Path(target.removeprefix("file://")).is_file():
            broken.append(target)
            continue
        # the anchors the target holds, read from the file (a browser asked again for the page it shows
        # with another #fragment does not reload it, and under load answered before the long page was parsed)
        text = Path(target.removeprefix("file://")).read_text(encoding="utf-8")
        ids = set(re.findall(r'\sid="([^"]+)"', text))
        broken += [f"{target}#{a}" for a in sorted(anchors - ids - {""})]
    assert len(links) == 57 and broken == []  # 56 pages of the folder and the single page


def test_nothing_is_fetched_from_the_network(driver, site):
    for page in (site / "results" / "index.html", site / "results.html"):
        driver.get(page.as_uri())
        sources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(r => r.name)")
        assert [s for s in sources if not s.startswith("file://")] == []


def test_printing_keeps_each_score_card_on_one_page(driver, site):
    driver.get((site / "results" / "cards" / "index.html").as_uri())
    cards = driver.execute_script("return document.querySelectorAll('.scorecard').length")
    assert cards == 26
    assert _pdf_pages(driver) == cards
    driver.get((site / "results" / "cards" / "ns-1.html").as_uri())
    assert _pdf_pages(driver) == 1


def test_printing_puts_several_deals_on_a_page(driver, site):
    driver.get((site / "results" / "handrecords.html").as_uri())
    deals = driver.execute_script("return document.querySelectorAll('.handrecords .deal').length")
    assert deals == 26
    assert _pdf_pages(driver) <= math.ceil(deals / 4)


def test_screenshots_for_a_person(driver, site):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for old in SCREENSHOTS.glob("*.png"):
        if not old.name.startswith("teams-"):  # the teams pages' screenshots are another test's
            old.unlink()
    for width, height in SIZES:
        _viewport(driver, width, height)
        for name, page in (("ranking", "index.html"), ("board-3", "boards/3.html"), ("card-ns-1", "cards/ns-1.html")):
            driver.get((site / "results" / page).as_uri())
            assert driver.save_screenshot(str(SCREENSHOTS / f"{name}-{width}.png"))
    assert len([p for p in SCREENSHOTS.glob("*.png") if not p.name.startswith("teams-")]) == 6
