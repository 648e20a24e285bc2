"""The results website of a teams event (the EBL 2021 online qualifier, round 2: 30 teams, 15
matches of 10 boards): standings equal to the TeamsSession's, match cards with both rooms, the VP
table and scale, the cross table, hand records, escaped names, every link resolving; and, in
headless Chromium, no page scrolling sideways at 375 px or 1280 px (screenshots for a person)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.pipeline.teams import process_teams
from bridgeproc.pipeline.write import FOLDER_MARKER
from bridgeproc.report.teams_files import WRITERS
from bridgeproc.report.web.render import teams_single_page, teams_site_pages, write_teams_site
from bridgeproc.report.web.teams_site import build_teams_site
from tests.conftest import ROOT
from tests.report.test_website import Page, broken_links
from tests.report.test_website_browser import SCREENSHOTS, SIZES, _viewport, driver  # noqa: F401  (the fixture)

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

EBL = str(ROOT / "tests" / "data" / "realdata" / "ebl-2021-online-qual-open-r2-teams.pbn")
HOSTILE = '<script>alert("x")</script> & Co'


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("teams-web")
    session = process_teams([EBL], [f"{out}/results/", str(out / "results.html")])
    return session, out


@pytest.fixture(scope="module")
def session(written):
    return written[0]


@pytest.fixture(scope="module")
def site(session):
    return build_teams_site(session)


def _rows(html: str, table_id: str) -> list[list[str]]:
    """The text of each body row's cells of the section ``table_id`` (first table in it)."""
    cells: list[list[str]] = []
    body = _section(html, table_id).split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    for row in body.split("<tr>")[1:]:
        texts = []
        for part in row.replace("<th", "<td").split("<td")[1:]:
            text = part.split(">", 1)[1].split("</t", 1)[0]
            while "<" in text:
                start = text.index("<")
                text = text[:start] + text[text.index(">", start) + 1:]
            texts.append(text.strip())
        cells.append(texts)
    return cells


def _section(html: str, ident: str) -> str:
    return html.split(f'id="{ident}"', 1)[1].split("</section>", 1)[0]


def test_both_writers_are_registered_by_output_type():
    assert (WRITERS[".html"].__name__, WRITERS["/"].__name__) == ("write_teams_page", "write_teams_site")


def test_the_folder_has_every_page_and_is_marked_as_bridgeproc_s(written):
    _, out = written
    root = out / "results"
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    matches = [n for n in names if n.startswith("matches/")]
    assert [n for n in names if not n.startswith("matches/")] == [
        FOLDER_MARKER, "cross.html", "handrecords.html", "index.html", "scoring.html", "style.css"]
    assert len(matches) == 15 and "matches/r1-austria-v-denmark.html" in matches
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []  # no temporary folder left


def test_the_standings_equal_the_teams_session_s(session, site, written):
    s = session.standings
    assert [(r.rank, r.team, r.total, r.imps_for, r.imps_against) for r in site.standings] == [
        (str(rank), str(team), f"{total:.2f}", f"{imps_for:g}", f"{against:g}")
        for rank, team, total, imps_for, against in zip(s["rank"], s["team"], s["total"], s["imps_for"], s["imps_against"])]
    html = (written[1] / "results" / "index.html").read_text(encoding="utf-8")
    rows = _rows(html, "standings")
    assert len(rows) == 30
    assert rows[0] == ["1", "SWEDEN", "1", "18.15", "36", "4", "32", ""]
    assert rows[1][:6] == ["2", "HUNGARY", "1", "17.84", "31", "1"]
    assert [r[:4] for r in rows[-2:]] == [["29=", "WALES", "0", "0.00"], ["29=", "ITALY", "0", "0.00"]]
    assert [r[1] for r in rows] == s["team"].tolist()
    assert [r[3] for r in rows] == [f"{v:.2f}" for v in s["total"]]


def test_the_vp_table_gives_each_match_s_imps_and_vps(site, written):
    (title, rows), = site.matches
    assert (title, len(rows)) == ("Round 1", 15)
    first = rows[0]
    assert (first.home, first.away, first.boards, first.imps_home, first.imps_away, first.vp_home, first.vp_away,
            first.status, first.card) == ("AUSTRIA", "DENMARK", 10, "20", "16", "11.50", "8.50", "", "r1-austria-v-denmark")
    unplayed = [r for r in rows if r.status]
    assert [(r.home, r.away, r.vp_home, r.status) for r in unplayed] == [("WALES", "ITALY", "", "not played")]
    html = (written[1] / "results" / "index.html").read_text(encoding="utf-8")
    assert _rows(html, "matches")[0] == ["AUSTRIA", "DENMARK", "10", "20 – 16", "11.50 – 8.50", ""]


def test_a_match_card_shows_both_rooms_of_every_board(site, written):
    card = next(c for c in site.cards if c.id == "r1-austria-v-denmark")
    assert (card.title, len(card.boards)) == ("Round 1: AUSTRIA v DENMARK", 10)
    b11, b12 = card.boards[:2]
    assert (b11.board, dataclasses.astuple(b11.open), dataclasses.astuple(b11.closed), b11.swing, b11.imps_home,
            b11.imps_away, b11.deal) == (11, ("Pass", "", "", "", "0"), ("3NT", "S", "♠4", "-3", "-150"), "150", "4", "", True)
    assert (dataclasses.astuple(b12.open), dataclasses.astuple(b12.closed), b12.swing, b12.imps_away) == (
        ("4♥", "N", "♣9", "-1", "-100"), ("4♥", "N", "♣9", "=", "620"), "-720", "12")
    html = (written[1] / "results" / "matches" / "r1-austria-v-denmark.html").read_text(encoding="utf-8")
    rows = _rows(html, "match-r1-austria-v-denmark")
    assert rows[1] == ["12", "4♥", "N", "♣9", "-1", "-100", "4♥", "N", "♣9", "=", "620", "-720", "", "12", ""]
    assert 'href="../handrecords.html#deal-12"' in html and '<span class="red">♥</span>' in html
    assert "AUSTRIA 20 – 16 DENMARK IMPs · VP 11.50 – 8.50" in html
    one_room = next(b for b in next(c for c in site.cards if "TURKEY" in c.title).boards if b.board == 20)
    assert (one_room.open.contract, one_room.closed.contract, one_room.note) == ("4♥", "", "one room only: 0 IMPs")


def test_the_cross_table_holds_each_team_s_vps_against_each_opponent(site, session):
    cross = site.cross
    assert cross is not None and (cross.unit, len(cross.teams), len(cross.rows)) == ("VPs", 30, 30)
    teams = session.standings["team"].tolist()
    number, team, cells, total = cross.rows[0]
    assert (number, team, total) == ("1", "SWEDEN", "18.15")
    assert cells[teams.index("CROATIA")] == ("18.15", "r1-sweden-v-croatia")
    assert [c for c in cells if c[0]] == [("18.15", "r1-sweden-v-croatia")]
    assert cross.rows[teams.index("CROATIA")][2][0] == ("1.85", "r1-sweden-v-croatia")
    assert all(v == ("", None) for v in cross.rows[teams.index("WALES")][2])  # not played: not counted


def test_the_vp_scale_is_the_one_the_matches_used(site):
    scale = site.scale
    assert scale is not None and scale.heads == ["IMP margin", "10 boards: winner", "10 boards: loser"]
    assert scale.rows[:5] == [["0", "10.00", "10.00"], ["1", "10.39", "9.61"], ["2", "10.77", "9.23"],
                              ["3", "11.14", "8.86"], ["4", "11.50", "8.50"]]
    by_margin = {row[0]: row[1:] for row in scale.rows}
    for row in (r for _, rows in site.matches for r in rows if r.vp_home):
        margin = abs(int(row.imps_home) - int(row.imps_away))
        winner, loser = by_margin[str(margin)] if str(margin) in by_margin else ("20.00", "0.00")
        assert sorted([row.vp_home, row.vp_away]) == sorted([winner, loser])
    # the conventions in words, as the workbook's Conventions sheet has them: no option names
    assert ("Tie-breaks", "IMP quotient (IMPs won divided by IMPs lost, over all matches), then IMP difference "
            "(IMPs won minus IMPs lost, over all matches); the usual order for a Swiss event") in site.conventions
    assert ("VP scale", "WBF 2013 continuous, 20 VP") in site.conventions
    assert not any("_" in label or "=" in words for label, words in site.conventions)


def test_the_hand_records_show_each_deal_with_double_dummy_and_par(site, written):
    assert [d.board for d in site.deals] == list(range(11, 21))
    first = site.deals[0]
    assert (first.dealer, first.vul, first.par) == ("S", "None", "Par NS +90")
    assert [s for s, _, cards in first.hands["N"].suits] == ["♠", "♥", "♦", "♣"]
    assert first.hands["N"].suits[0][2] == "K108" and first.dd[0] == ("N", ["7", "7", "6", "6", "7"])
    html = (written[1] / "results" / "handrecords.html").read_text(encoding="utf-8")
    assert html.count('class="deal"') == 10 and 'id="deal-20"' in html


def test_every_link_of_the_folder_and_of_the_single_page_resolves(written):
    _, out = written
    assert broken_links(out / "results") == []
    page = Page((out / "results.html").read_text(encoding="utf-8"))
    assert all(h.startswith("#") for h in page.hrefs)
    assert sorted({h[1:] for h in page.hrefs} - page.ids) == []
    assert len(page.hrefs) > 100 and len([i for i in page.ids if i.startswith("match-")]) == 15


def _renamed(session, old: str, new: str):
    """``session`` with the team ``old`` called ``new`` in every frame (match names too)."""
    def rename(frame: pd.DataFrame) -> pd.DataFrame:
        frame = frame.copy()
        for column in ("home", "away", "ns_team", "ew_team", "team", "match", "ns_pair", "ew_pair"):
            if column in frame:
                frame[column] = frame[column].astype("string").str.replace(old, new, regex=False)
        return frame
    return dataclasses.replace(session, results=rename(session.results), boards=rename(session.boards),
                               matches=rename(session.matches), standings=rename(session.standings))


def test_team_names_are_escaped_on_every_page(session, tmp_path):
    hostile = _renamed(session, "SWEDEN", HOSTILE)
    escaped = "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; Co"
    pages = teams_site_pages(build_teams_site(hostile))
    single = teams_single_page(build_teams_site(hostile))
    for name, html in [*pages.items(), ("single", single)]:
        assert "<script>" not in html, name
    assert all(escaped in pages[name] for name in ("index.html", "cross.html"))
    assert escaped in single
    write_teams_site(hostile, tmp_path / "site")
    assert broken_links(tmp_path / "site") == []


# ---- in a real browser -------------------------------------------------------------------------

def _teams_pages(out: Path) -> list[Path]:
    return sorted((out / "results").rglob("*.html")) + [out / "results.html"]


@pytest.mark.browser
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_no_teams_page_scrolls_sideways(driver, written, width, height):  # noqa: F811
    _, out = written
    _viewport(driver, width, height)
    wide = []
    pages = _teams_pages(out)
    for page in pages:
        driver.get(page.as_uri())
        scroll, inner = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            wide.append(f"{page.relative_to(out)}: {scroll} px in {inner} px")
    assert (wide, inner, len(pages)) == ([], width, 20)


@pytest.mark.browser
def test_the_cross_table_scrolls_inside_its_own_box_on_a_phone(driver, written):  # noqa: F811
    _viewport(driver, 375, 800)
    driver.get((written[1] / "results" / "cross.html").as_uri())
    box, table = driver.execute_script(
        "const t = document.querySelector('table.cross');"
        "return [t.parentElement.clientWidth, t.scrollWidth]")
    assert table > box  # 30 columns do not fit in 375 px: the box scrolls, the page does not


@pytest.mark.browser
def test_teams_screenshots_for_a_person(driver, written):  # noqa: F811
    _, out = written
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = [("teams-standings", "index.html"), ("teams-match", "matches/r1-austria-v-denmark.html")]
    for width, height in SIZES:
        _viewport(driver, width, height)
        for name, page in shots:
            driver.get((out / "results" / page).as_uri())
            assert driver.save_screenshot(str(SCREENSHOTS / f"{name}-{width}.png"))
    assert len(list(SCREENSHOTS.glob("teams-*.png"))) == 4


def test_the_teams_command_writes_the_website_and_usebio(runner, tmp_path):
    from bridgeproc.cli import cli
    from tests.conftest import REALDATA
    done = runner.invoke(cli, ["teams", str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"),
                               "-o", f"{tmp_path}/site/", "-o", str(tmp_path / "t.html"), "-o", str(tmp_path / "t.xml")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "cross.html").is_file()
    assert (tmp_path / "t.html").is_file() and (tmp_path / "t.xml").read_text(encoding="utf-8").startswith("<?xml")
