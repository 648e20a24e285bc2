"""The table cards (issue 30): a card per table with each round's pairs and boards and where the EW pair
and the boards go next, a card per pair for a Howell; printed by Chromium with one card a page."""
from __future__ import annotations

from html.parser import HTMLParser

import pytest

from bridgeproc.movements import howell, individual, mitchell
from bridgeproc.report.cards import card_models, write_table_cards
from tests.conftest import ROOT


class _Cells(HTMLParser):
    """Each card's rows of cells, and whether the page holds a script."""

    def __init__(self):
        super().__init__()
        self.cards, self.script, self._cell = [], False, None

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.cards.append([])
        elif tag == "tr" and self.cards:
            self.cards[-1].append([])
        elif tag == "td":
            self._cell = ""
        self.script |= tag == "script"

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag == "td":
            self.cards[-1][-1].append(self._cell)
            self._cell = None


def _read(path):
    parser = _Cells()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_a_mitchell_card_per_table_says_where_everyone_goes(tmp_path):
    movement = mitchell(7, 4)
    write_table_cards(movement, tmp_path / "cards.html")
    page = _read(tmp_path / "cards.html")
    assert not page.script and len(page.cards) == 7
    table1 = [row for row in page.cards[0] if row]
    assert table1[0] == ["1", "1", "1", "1-4", "2", "7"]  # EW up one table, the boards down one
    assert table1[1] == ["2", "1", "7", "5-8", "2", "7"] and table1[-1] == ["7", "1", "2", "25-28", "end", "end"]
    seating = movement.seating.set_index(["round", "table"])
    for card, (table, _) in zip(page.cards, movement.seating.groupby("table")):
        for row in filter(None, card):
            r = int(row[0])
            assert (int(row[1]), int(row[2])) == tuple(seating.loc[(r, table), ["ns", "ew"]])
            if r < movement.rounds:  # the EW pair is at the table its card sends it to
                assert seating.loc[(r + 1, int(row[4])), "ew"] == int(row[2])


def test_a_howell_has_a_card_per_table_and_per_pair(tmp_path):
    movement = howell(5, 3)
    cards = card_models(movement)
    assert [c["title"] for c in cards[:5]] == [f"Table {t}" for t in range(1, 6)]
    assert [c["title"] for c in cards[5:]] == [f"Pair {p}" for p in range(1, 11)]
    pair10 = cards[-1]["rows"]
    assert [row[1:3] for row in pair10] == [["3", "NS"]] * 9  # the stationary pair, at the middle table
    table1 = cards[0]["rows"]
    assert table1[0] == [1, "2", "4", "1-3", "4 (NS)", "a relay stand"]  # one set of boards: table 1's to the relays
    assert cards[4]["rows"][0][3:] == ["13-15", "2", "4"]  # and every other table's down one table


@pytest.mark.browser
def test_the_cards_print_one_table_a_page_in_chromium(tmp_path):
    from tests.report.test_website_browser import _missing, _pdf_pages

    missing = _missing()
    if missing:
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    from tests.report.test_website_browser import CHROMEDRIVER, CHROMIUM

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        for movement, cards in ((mitchell(7, 4), 7), (howell(5, 3), 15), (individual(3, 2), 3 + 12)):
            path = tmp_path / f"{movement.kind}.html"
            write_table_cards(movement, path)
            driver.get(path.as_uri())
            assert _pdf_pages(driver) == cards, movement.name
            shots = ROOT / "build" / "table-cards"
            shots.mkdir(parents=True, exist_ok=True)
            png = driver.get_screenshot_as_png()
            (shots / f"{movement.kind}.png").write_bytes(png)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        driver.quit()


@pytest.mark.parametrize("tables", range(2, 9))
def test_every_howell_card_sends_the_ew_pair_where_it_plays_next(tables):
    """In a Howell the EW pair often sits NS next round: the card says the table, and "(NS)" when so."""
    movement = howell(tables, 2)
    seat = {}
    for row in movement.seating.itertuples():
        seat[(row.round, row.ns)] = f"{row.table} (NS)"
        seat[(row.round, row.ew)] = str(row.table)
    for card in card_models(movement)[:tables]:
        for r, _ns, ew, _boards, ew_to, _to in card["rows"]:
            assert ew_to == ("end" if r == movement.rounds else seat[(r + 1, int(ew))]), (card["title"], r)


@pytest.mark.parametrize(("kind", "tables", "sitout", "copies"), [("howell", 3, 6, 2), ("howell", 2, 4, 1),
                                                                  ("howell", 3, None, 3)])
def test_a_half_tables_sitout_shares_no_boards(kind, tables, sitout, copies):
    from bridgeproc.pipeline.movement import build_movement

    movement = build_movement(kind, tables, sitout=str(sitout) if sitout else None)
    assert movement.copies == copies  # the table where a pair sits out plays nothing
