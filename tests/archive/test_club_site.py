"""``bridgeproc archive site`` (issue 32) over an archive of real sessions: the index of evenings newest
first, every evening's pages with a link back, the ladder, a page per player, a corrected evening marked
with what changed; run again after one more evening it rewrites exactly the pages that changed, and
with nothing new it rewrites none and leaves every file's time alone."""
from __future__ import annotations

import contextlib
import os
import re
import sqlite3
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bridgeproc.cli import cli
from tests.conftest import REALDATA, SAMPLE
from tests.report.test_website_browser import driver  # noqa: F401  (the browser, for the phone test)

pytestmark = pytest.mark.e2e  # scores and archives real files: left out of make quick

EVENINGS = ["eng-island-bridge-2025-01-06-mp-ebuscore.usebio.xml",
            "eng-crawley-bc-2025-01-06-mp-bbo-online-bboextractor.usebio.xml",
            "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml",
            "nor-ostfold-follo-2022-05-08-km-par.pbn"]
ONE_MORE = "fin-sm-parikilpailu-2014-s1.pbn"


class _Page(HTMLParser):
    """The links and the text of each table row of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.rows: list[list[str]] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.links.append(dict(attrs)["href"])
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _score(runner, archive, *inputs):
    result = runner.invoke(cli, ["score", *map(str, inputs), "--archive", str(archive), "--no-dd", "-q",
                                 "-o", str(archive.parent / "scored.csv")])
    assert result.exit_code == 0, result.output


def _site(runner, archive, site, *more):
    result = runner.invoke(cli, ["archive", "site", "--archive", str(archive), "--title", "Test club", "-o", f"{site}/",
                                 "--no-profile", *more])
    assert result.exit_code == 0, result.output
    return result.output


def _times(site):
    """Every page's time, by name (the publisher's own marker file left out: it is written every run)."""
    return {p.relative_to(site).as_posix(): os.stat(p).st_mtime_ns for p in site.rglob("*")
            if p.is_file() and p.name != ".bridgeproc-results"}


def _counts(output):
    m = re.search(r"(\d+) page\(s\) rewritten, (\d+) unchanged", output)
    assert m, output
    return int(m.group(1)), int(m.group(2))


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """An archive of four real evenings and the sample one corrected (read only: a test that adds an
    evening copies it first)."""
    from click.testing import CliRunner

    runner, tmp_path = CliRunner(), tmp_path_factory.mktemp("season")
    archive = tmp_path / "club.sqlite"
    for name in EVENINGS:
        _score(runner, archive, REALDATA / name)
    # the sample evening, then corrected: board 1's result at table 1 was 2H+1, is 3H=
    travellers = tmp_path / "travellers.csv"
    lines = (SAMPLE / "club-evening-travellers.csv").read_text(encoding="utf-8").splitlines()
    travellers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _score(runner, archive, SAMPLE / "club-evening.pbn", travellers)
    assert lines[1] == "1,1,1,1,1,2H,W,+1,SK"
    lines[1] = "1,1,1,1,1,4H,W,-1,SK"
    travellers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _score(runner, archive, SAMPLE / "club-evening.pbn", travellers)
    return archive


def test_the_club_site_of_real_sessions(runner, tmp_path, season):
    site = tmp_path / "site"
    output = _site(runner, season, site)
    assert "club site: 5 evening(s)" in output
    index = _read(site / "index.html")
    evenings = [row for row in index.rows[1:] if row]
    dates = [row[0] for row in evenings]
    assert dates == sorted(dates, reverse=True) and len(evenings) == 5  # newest first
    assert [row[1] for row in evenings if row[0] == "2025-01-06"] == ["#39808 Pairs Crawley Relaxed Duplicate",
                                                                      "Monday Pairs"]
    assert dict((row[1], row[2]) for row in evenings)["Monday Pairs"] == "Hugh Bacon & Susan Childs"  # the winners
    for link in index.links:
        assert (site / link.split("#")[0]).is_file(), link
    # the corrected evening says when, on the index and on its pages, with what changed
    corrected = [row for row in evenings if row[3]]
    assert len(corrected) == 1 and corrected[0][3].startswith("corrected on ")
    folder = next(p for p in (site / "evenings").iterdir() if "club" in p.name.lower() or "2026" in p.name)
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<p class="corrected">corrected on \d{4}-\d\d-\d\d \(version 2: board 1 corrected', page), page[:3000]
    # every evening's pages as score -o results/ writes them, each linking back to the club's index
    for evening in (site / "evenings").iterdir():
        assert (evening / "index.html").is_file() and (evening / "conventions.html").is_file()
        for html in evening.rglob("*.html"):
            back = next(link for link in _read(html).links if link.endswith("index.html") and link.startswith("../"))
            assert (html.parent / back).resolve() == (site / "index.html").resolve(), html
    # the ladder and the players
    ladder = _read(site / "ladder.html")
    assert any("Hugh Bacon" in " ".join(row) for row in ladder.rows)
    players = _read(site / "players" / "index.html")
    named = {row[0]: row for row in players.rows[1:] if row}
    assert named["Hugh Bacon"][1:3] == ["1", "62.74"]
    hugh = _read(site / "players" / "hugh-bacon.html")
    assert [row for row in hugh.rows if row and row[0] == "2025-01-06"] == [
        ["2025-01-06", "Monday Pairs", "Susan Childs", "1", "62.74", "36"]]


def test_the_percentages_on_the_player_pages_are_the_archives_history(runner, tmp_path, season):
    """Each player page's rows against ``archive history`` of that player (another query of the archive)."""
    import csv
    import io

    site = tmp_path / "site"
    _site(runner, season, site)
    checked = 0
    for name in ("Hugh Bacon", "Jane Allday", "ROSE BRAUDE"):
        history = runner.invoke(cli, ["archive", "history", name, "--archive", str(season), "--csv"])
        assert history.exit_code == 0, history.output
        rows = list(csv.DictReader(io.StringIO(history.stdout)))
        page = next(p for p in (site / "players").glob("*.html")
                    if f"<h1>{name}</h1>" in p.read_text(encoding="utf-8"))
        shown = [row for row in _read(page).rows if row and re.fullmatch(r"\d{4}-\d\d-\d\d", row[0])]
        assert [(r[0], r[4]) for r in shown] == [(h["date"], f"{float(h['pct']):.2f}") for h in reversed(rows)]
        checked += len(shown)
    assert checked >= 3


def test_one_more_evening_rewrites_only_the_pages_that_changed(runner, tmp_path, season):
    with contextlib.closing(sqlite3.connect(season)) as source, \
            contextlib.closing(sqlite3.connect(tmp_path / "club.sqlite")) as copy:
        source.backup(copy)  # the archive in WAL mode: a copy of the file alone may lack its last writes
    season = tmp_path / "club.sqlite"
    site = tmp_path / "site"
    first = _site(runner, season, site)
    written, kept = _counts(first)
    assert kept == 0 and written > 100
    before = _times(site)
    # nothing new: nothing rewritten, every page's time as it was
    again = _site(runner, season, site)
    assert _counts(again) == (0, written)
    assert _times(site) == before
    # one more evening: its pages, the index, the ladder, the players' index and its players' pages
    _score(runner, season, REALDATA / ONE_MORE)
    more = _site(runner, season, site)
    rewritten, unchanged = _counts(more)
    files = set(_times(site))
    new_evening = {f for f in files if f.startswith("evenings/") and f.split("/")[1] not in
                   {b.split("/")[1] for b in before if b.startswith("evenings/")}}
    new_players = {f for f in files if f.startswith("players/") and f not in before}
    expected = new_evening | new_players | {"index.html", "ladder.html", "players/index.html", "club.json"}
    assert len(new_evening) > 20 and len(new_players) > 10
    assert rewritten == len(expected) and unchanged == len(files) - len(expected)
    after = _times(site)
    assert {f for f in before if f in after and after[f] != before[f]} == {"index.html", "ladder.html",
                                                                          "players/index.html", "club.json"}


def test_a_folder_bridgeproc_did_not_write_is_refused_and_kept(runner, tmp_path, season):
    site = tmp_path / "site"
    site.mkdir()
    (site / "mine.txt").write_text("the club's own", encoding="utf-8")
    result = runner.invoke(cli, ["archive", "site", "--archive", str(season), "-o", f"{site}/"])
    assert result.exit_code == 2 and "the folder holds files bridgeproc did not write" in result.output
    assert sorted(p.name for p in site.iterdir()) == ["mine.txt"]
    two = runner.invoke(cli, ["archive", "site", "--archive", str(season), "-o", "a/", "-o", "b/"])
    assert two.exit_code == 2 and "give the site's folder once" in two.output


@pytest.mark.browser
def test_the_club_pages_fit_a_phone(runner, tmp_path, season, driver):  # noqa: F811  (the fixture imported)
    """The index, the players, a player and a corrected evening at 375 px: no table wider than the window;
    screenshots in build/website-screenshots/."""
    from tests.report.test_website_browser import SCREENSHOTS, WIDE_TABLES, _viewport

    site = tmp_path / "site"
    _site(runner, season, site)
    _viewport(driver, 375, 800)
    pages = [site / "index.html", site / "ladder.html", site / "players" / "index.html",
             site / "players" / "hugh-bacon.html", *sorted((site / "evenings").glob("*/index.html"))]
    wide = []
    for page in pages:
        driver.get(page.as_uri())
        wide += [f"{page.relative_to(site)}: {caption} {width} px" for caption, width in driver.execute_script(WIDE_TABLES)]
    assert wide == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, page in (("club-index", pages[0]), ("club-player", pages[3])):
        driver.get(page.as_uri())
        (SCREENSHOTS / f"phone-{name}.png").write_bytes(driver.get_screenshot_as_png())


@pytest.mark.dd
def test_a_players_page_has_their_play_against_double_dummy(runner, tmp_path, season):
    """The figures on a player's page are those ``archive profile`` gives, and those a count of the
    player's partnerships' results gives (each result measured as analysis.profile measures it)."""
    import csv
    import io

    from bridgeproc.analysis.dd import dd_tables
    from bridgeproc.analysis.profile import contract_rows
    from bridgeproc.archive import load_session

    site = tmp_path / "site"
    result = runner.invoke(cli, ["archive", "site", "--archive", str(season), "-o", f"{site}/"])
    assert result.exit_code == 0, result.output
    page = (site / "players" / "hugh-bacon.html").read_text(encoding="utf-8")
    profiled = runner.invoke(cli, ["archive", "profile", "--archive", str(season), "--csv"])
    assert profiled.exit_code == 0, profiled.output
    hugh = next(r for r in csv.DictReader(io.StringIO(profiled.stdout)) if r["name"] == "Hugh Bacon")
    # Hugh Bacon played one evening, as pair 5 with Susan Childs: his figures are that pair's
    session = load_session(season, "2025-01-06_monday-pairs")
    rows = contract_rows(session.results, dd_tables(session.boards))  # archived without double dummy: solved
    results = session.results.loc[rows["pos"]]
    ns = rows["declarer"].isin(["N", "S"]).to_numpy()
    mine = ((results["ns"] == "5").to_numpy() & ns) | ((results["ew"] == "5").to_numpy() & ~ns)
    gains = rows.loc[mine, "declarer_gain"].astype(float)
    assert int(hugh["declared"]) == len(gains) and float(hugh["declarer_gain"]) == pytest.approx(gains.mean())
    assert f"As declarer: {len(gains)} contracts, {gains.mean():+.2f} tricks against double dummy" in page
    theirs = ((results["ew"] == "5").to_numpy() & ns) | ((results["ns"] == "5").to_numpy() & ~ns)
    suit = rows.loc[theirs & (rows["kind"] == "suit").to_numpy() & rows["lead_cost"].notna().to_numpy(), "lead_cost"]
    assert int(hugh["suit_leads"]) == len(suit)
    assert "Against double dummy" in page and "which partner" in page


@pytest.mark.dd
def test_the_next_run_solves_no_deal_again(runner, tmp_path, season, monkeypatch):
    """The double dummy the profile solved is kept in the site's folder: the next run, in a fresh process
    (the process's caches emptied), solves nothing and writes the same pages."""
    import bridgeproc.analysis.dd as dd
    import bridgeproc.analysis.profile as profile

    site = tmp_path / "site"
    first = runner.invoke(cli, ["archive", "site", "--archive", str(season), "-o", f"{site}/"])
    assert first.exit_code == 0, first.output
    assert (site / "double-dummy.json").stat().st_size > 1000
    dd.clear_cache()
    profile.clear_cache()

    def no_solving(*_args, **_kwargs):
        raise AssertionError("a deal was solved again")

    monkeypatch.setattr(dd, "_solve", no_solving)
    monkeypatch.setattr("endplay.dds.solve_all_boards", no_solving)
    again = runner.invoke(cli, ["archive", "site", "--archive", str(season), "-o", f"{site}/"])
    assert again.exit_code == 0, again.output
    assert _counts(again.output)[0] == 0


@pytest.mark.parametrize("text", ["", "[1, 2]", '{"tables": {"N:x": [1, 2]}, "leads": {"a|b": {"SA": 99}}}',
                                  '{"tables": {"N:x": [14] }, "leads": {"a|b|c": {"SA": true}}}', "\x00" * 10])
def test_a_double_dummy_file_that_is_not_one_is_solved_again(tmp_path, text):
    from bridgeproc.report.web.club_site import SOLVED, read_solved

    (tmp_path / SOLVED).write_text(text, encoding="utf-8")
    assert read_solved(tmp_path) == {"tables": {}, "leads": {}, "plays": {}}
    assert read_solved(tmp_path / "missing") == {"tables": {}, "leads": {}, "plays": {}}


def test_an_evening_laid_out_by_other_templates_is_written_again(runner, tmp_path, season):
    """The manifest records each evening's version and the layout (bridgeproc's version and templates): an
    evening shown with another layout is rendered again, not copied; with the same one it is copied as it
    is (here: a page edited by hand stays edited, as it would after an upload tool touched it)."""
    import json

    site = tmp_path / "site"
    _site(runner, season, site)
    page = site / "evenings" / "2025-01-06_monday-pairs" / "index.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- edited -->", encoding="utf-8")
    _site(runner, season, site)
    assert page.read_text(encoding="utf-8").endswith("<!-- edited -->")  # same version, same layout: copied
    manifest = json.loads((site / "club.json").read_text(encoding="utf-8"))
    manifest["evenings"] = {k: v.rsplit(":", 1)[0] + ":another-layout" for k, v in manifest["evenings"].items()}
    (site / "club.json").write_text(json.dumps(manifest), encoding="utf-8")
    again = _site(runner, season, site)
    assert not page.read_text(encoding="utf-8").endswith("<!-- edited -->")
    assert _counts(again)[0] == 2  # that page, and the manifest


def test_a_player_named_index_does_not_take_the_players_list():
    import pandas as pd

    from bridgeproc.model import ClubSite, Evening, Ladder
    from bridgeproc.report.web.club_site import club_pages
    from bridgeproc.schema import CLUB_PLAYER_COLUMNS, LADDER_COLUMNS, empty

    players = pd.DataFrame([{"key": k, "name": n, "date": "2026-12-01", "event": "Club", "session_id": "s1",
                             "partner": p, "rank": "1", "pct": 55.0, "total": 10.0, "masterpoints": None}
                            for k, n, p in (("name:index", "Index", "Ann"), ("name:ann", "Ann", "Index"),
                                            ("name:index2", "INDEX", "Bo"))]).astype(CLUB_PLAYER_COLUMNS)
    evening = Evening("s1", "2026-12-01", "Club", "pairs", 1, "1:hash", None)
    club = ClubSite("Club", (evening,), Ladder(empty(LADDER_COLUMNS), 0, "average"), players)
    pages = club_pages(club)
    assert sorted(p for p in pages if p.startswith("players/")) == [
        "players/ann.html", "players/index-2.html", "players/index-3.html", "players/index.html"]
    assert "<h1>Players</h1>" in pages["players/index.html"]


def test_a_corrected_teams_evening_of_match_totals_is_marked(runner, tmp_path):
    """A teams file of match totals only (no table results: their frame is archived without columns),
    scored again with another VP scale: archive diff and the site say what changed."""
    archive = tmp_path / "t.sqlite"
    source = REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn"
    for more in ([], ["--vp-scale", "ebu20"]):
        done = runner.invoke(cli, ["teams", str(source), "--archive", str(archive), "-o", str(tmp_path / "t.csv"),
                                   "-q", *more])
        assert done.exit_code == 0, done.output
    diff = runner.invoke(cli, ["archive", "diff", "2013-09-15_salo-joukkuekilpailu", "--archive", str(archive)])
    assert diff.exit_code == 0 and "VP scale: wbf2013 -> ebu20" in diff.output, diff.output
    output = _site(runner, archive, tmp_path / "site")
    assert "1 evening(s)" in output
    index = _read(tmp_path / "site" / "index.html")
    assert [row[3] for row in index.rows[1:] if row][0].startswith("corrected on ")
    page = (tmp_path / "site" / "evenings" / "2013-09-15_salo-joukkuekilpailu" / "index.html").read_text(encoding="utf-8")
    assert '<p class="corrected">corrected on ' in page and "(version 2: " in page


def test_the_plays_kept_in_the_double_dummy_file_read_back_with_bounds(tmp_path):
    """A play's tricks (one more value than its cards at most, each 0-13, keyed deal|strain|leader|cards) are
    read back; an entry that is not one is left out (solved again)."""
    import json

    from bridgeproc.report.web.club_site import SOLVED, read_solved

    deal = "N:KJ3.J7.T742.T654 AQ9.AT42.KQJ96.A T62.Q86.83.K8732 8754.K953.A5.QJ9"
    (tmp_path / SOLVED).write_text(json.dumps({"tables": {}, "leads": {}, "plays": {
        f"{deal}|NT|S|C3 C9": [11, 11, 11],
        f"{deal}|NT|S|C3": [11, 11, 11],  # more values than one card can give
        f"{deal}|NT|S|H6": [11, 14],  # 14 tricks
        f"{deal}|NT|C3 C9": [11, 11, 11],  # no leader
        f"{deal}|H|W|C3": "11 11",
    }}), encoding="utf-8")
    assert read_solved(tmp_path)["plays"] == {(deal, "NT", "S", "C3 C9"): [11, 11, 11]}
