"""The website of an event of several sessions (issue 17), without a browser: the Finnish championship's
event ranking with its published cumulative totals, each pair's session scores linked to its score cards
in the sessions' own sites, the rule in words, the folder and the single page with every link resolving,
escaped text; a synthetic event with a missed session (tests/report/test_website_browser.py opens the
pages in Chromium)."""
from __future__ import annotations

import dataclasses
import re
from functools import lru_cache
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.cli import cli
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.model import ConventionChoice, Options, ReadOptions
from bridgeproc.pipeline.event import build_event, write_event
from bridgeproc.pipeline.outputs import OUTPUTS
from bridgeproc.pipeline.write import FOLDER, FOLDER_MARKER
from bridgeproc.rank.event import EVENT_RULES, MATCH_BY, MISSING_RULES
from bridgeproc.report.web.event_site import build_event_site, event_pages, event_single_page
from tests.conftest import REALDATA, SAMPLE
from tests.report.test_website import Page, broken_links

pytestmark = pytest.mark.slow  # scores a two-session real event and writes its website in every test: left out of make quick

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
TRAVELLERS, NAMES = SAMPLE / "club-evening-travellers.csv", SAMPLE / "club-evening-names.csv"
HANDS = SAMPLE / "club-evening.pbn"


@lru_cache(maxsize=None)
def finnish():
    """Board matchpoints to one decimal, as Ruter shows them: the totals are the published ones exactly."""
    return build_event([S1, S2], Options(ranking=ConventionChoice(changes={"mp_decimals": 1}), dd=False))


@pytest.fixture(scope="module")
def site():
    return build_event_site(finnish())


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("event-site")
    write_event(finnish(), [f"{out}/event/", str(out / "event.html")], archive=False)
    return out


def test_the_writers_are_registered():
    assert OUTPUTS["Event"][".html"] == "bridgeproc.report.web.event_site:write_event_page"
    assert OUTPUTS["Event"][FOLDER] == "bridgeproc.report.web.event_site:write_event_site"


def test_the_event_ranking_lists_the_36_pairs_with_their_published_totals(site):
    theirs = read_pbn(S2).totals  # session 2's TotalScoreTable is the event's
    (ranking,) = site.rankings
    assert (ranking.id, ranking.title, ranking.total_header, ranking.has_pct, ranking.has_carry) == (
        "event-all", "Event ranking", "MP", True, False)
    assert len(ranking.rows) == 36
    assert [r.pair for r in ranking.rows] == theirs["pairid"].tolist()
    assert [r.rank for r in ranking.rows] == theirs["rank"].tolist()
    assert [float(r.total) for r in ranking.rows] == theirs["totalscoremp"].astype(float).tolist()
    assert [float(r.scores[1].total) for r in ranking.rows] == theirs["sessionscoremp"].astype(float).tolist()
    assert [r.boards for r in ranking.rows] == theirs["nrboards"].astype(int).tolist()
    first = ranking.rows[0]
    assert (first.rank, first.pair, first.names, first.total, first.pct) == (
        "1", "2", "Jukka Pesonen - Sakari Stubb", "2084.4", "58.39")
    assert [(s.session, s.total, s.pct, s.rank, s.card, s.ranking, s.missed) for s in first.scores] == [
        (1, "1279.4", "57.01", "3", "2", "ranking-all", False), (2, "805", "60.71", "3", "2", "ranking-all", False)]


def test_the_rule_is_in_words(site):
    assert site.rules[:3] == [("Event total", "Sum of the sessions", EVENT_RULES["sum"]),
                              ("Pairs matched by", "number", MATCH_BY["number"]),
                              ("A missed session", "drop", MISSING_RULES["drop"])]
    assert [label for label, _, _ in site.rules[3:]] == ["Session 1", "Session 2"]
    assert site.rules[3][1] == S1.name and site.rules[3][2].startswith("Scoring: Matchpoints")


def test_the_heading_and_the_sessions(site):
    assert (site.title, site.lines, site.lang) == (
        "SM-parikilpailu", ["2014.10.05 · SBL 0901 Kati Sandström, Åbo, Finland", "2 sessions · 105 boards · 36 pairs"],
        "en")
    assert [(s.number, s.title, s.facts, s.unit, s.has_pct) for s in site.sessions] == [
        (1, "SM-parikilpailu - Session 1", "2014.10.05 · 66 boards · 36 pairs", "MP", True),
        (2, "SM-parikilpailu - Session 2", "2014.10.05 · 39 boards · 36 pairs", "MP", True)]


def test_the_folder_holds_each_sessions_site_and_every_link_resolves(folder):
    root = folder / "event"
    assert (root / FOLDER_MARKER).is_file()
    files = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}
    one = {f for f in files if f.startswith("session-1/")}
    two = {f for f in files if f.startswith("session-2/")}
    assert files == {"index.html", "style.css", FOLDER_MARKER} | one | two
    assert {f for f in one if f.startswith("session-1/boards/")} == {f"session-1/boards/{n}.html" for n in range(1, 67)}
    assert {f for f in two if f.startswith("session-2/boards/")} == {f"session-2/boards/{n}.html"
                                                                     for n in range(67, 106)}
    assert len([f for f in two if f.startswith("session-2/cards/")]) == 36 + 1  # and the printable index
    assert broken_links(root) == []
    index = Page((root / "index.html").read_text(encoding="utf-8"))
    assert "session-1/cards/2.html" in index.hrefs and "session-2/cards/2.html" in index.hrefs
    assert ("link", {"rel": "stylesheet", "href": "style.css"}) in index.tags
    card = Page((root / "session-2" / "cards" / "2.html").read_text(encoding="utf-8"))
    assert "../../index.html" in card.hrefs and "../style.css" in [a.get("href") for t, a in card.tags if t == "link"]
    assert "../index.html" in Page((root / "session-1" / "index.html").read_text(encoding="utf-8")).hrefs


def test_the_single_page_is_self_contained_and_its_anchors_resolve(folder):
    html = (folder / "event.html").read_text(encoding="utf-8")
    page = Page(html)
    assert page.hrefs and all(h.startswith("#") for h in page.hrefs)
    assert sorted({h[1:] for h in page.hrefs} - page.ids) == []
    assert not [t for t, a in page.tags if t in ("link", "script", "img", "iframe")]
    assert re.search(r"<html lang=\"en\">", html) and "<style>" in html
    assert {"event-ranking", "event-all", "sessions", "rules", "session-1", "session-2", "s1-ranking-all", "s2-2"} \
        <= page.ids
    assert "#s1-2" in page.hrefs and "#s2-2" in page.hrefs


def test_tables_are_semantic(folder):
    for path in (folder / "event" / "index.html", folder / "event.html"):
        headers = [a for t, a in Page(path.read_text(encoding="utf-8")).tags if t == "th"]
        assert headers and all(a.get("scope") in ("col", "row") for a in headers)


def test_names_and_texts_from_files_are_shown_as_text():
    event = finnish()
    hostile = '<script>alert("x")</script> & <b>Bo</b>'
    standings = event.ranking.standings.assign(names=event.ranking.standings["names"].where(
        event.ranking.standings["pair"] != "2", hostile))
    bad = dataclasses.replace(event, ranking=dataclasses.replace(event.ranking, standings=standings),
                              meta={**event.meta, "event": "Pairs <i>final</i>"})
    site = build_event_site(bad)
    for html in (event_single_page(site), event_pages(site)["index.html"]):
        assert "<script" not in html and "<b>" not in html and "<i>" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;Bo&lt;/b&gt;" in html
        assert "Pairs &lt;i&gt;final&lt;/i&gt;" in html


# --------------------------------------------------------------------------- a synthetic event

def _second_evening(tmp_path: Path, without: str) -> str:
    """The sample evening again, without the pair NS ``without`` (it missed the session)."""
    sheet = pd.read_csv(TRAVELLERS, dtype=str, keep_default_na=False)
    path = tmp_path / "s2.csv"
    sheet[sheet["NS"] != without].to_csv(path, index=False)
    return str(path)


@pytest.mark.parametrize(("missing", "rule", "pairs", "header", "has_pct"), [
    ("zero", "scaled", 13, "MP (scaled)", True),
    ("average", "percent-average", 13, "%", False),
    ("drop", "percent-sum", 12, "Sum of %", True),
])
def test_a_pair_that_missed_a_session(tmp_path, missing, rule, pairs, header, has_pct):
    event = build_event([f"{HANDS},{TRAVELLERS}", _second_evening(tmp_path, "5")],
                        Options(read=ReadOptions(names=(str(NAMES),)), dd=False), rule=rule, missing=missing)
    site = build_event_site(event)
    assert [(r.title, r.total_header, r.has_pct, len(r.rows)) for r in site.rankings] == [
        ("Event ranking: North-South", header, has_pct, pairs), ("Event ranking: East-West", header, has_pct, 13)]
    north_south = {row.pair: row for row in site.rankings[0].rows}
    html = event_single_page(site)
    if missing == "drop":
        assert "5" not in north_south and [(d.pair, d.missed) for d in site.dropped] == [("5", "2")]
        assert "Left out of the event ranking" in html and "Pair 5" in html
        return
    five = north_south["5"]
    first, second = five.scores
    assert (first.card, first.missed, second.card, second.ranking, second.missed, second.rank) == (
        "ns-5", False, None, None, True, "")
    assert second.total == ("0" if missing == "zero" else second.total) and second.total != ""
    assert site.dropped == [] and "missed</span>" in html
    # every other pair's two scores link to its two score cards
    assert all(s.card == f"ns-{row.pair}" for row in site.rankings[0].rows if row.pair != "5" for s in row.scores)
    assert all(s.card == f"ew-{row.pair}" for row in site.rankings[1].rows for s in row.scores)


def test_the_command_writes_the_website_and_the_usebio(runner, tmp_path):
    second = _second_evening(tmp_path, "5")
    outputs = [f"{tmp_path}/event/", str(tmp_path / "event.html"), str(tmp_path / "event.xml")]
    result = runner.invoke(cli, ["event", f"{HANDS},{TRAVELLERS}", second, "--names", str(NAMES), "--missing", "zero",
                                 "--rule", "percent-average",
                                 "--no-dd", "--no-archive", *sum((["-o", o] for o in outputs), [])])
    assert result.exit_code == 0, result.output
    assert "26 pairs ranked over 2 sessions" in result.output
    assert (tmp_path / "event" / "session-2" / "cards" / "ew-13.html").is_file()
    assert broken_links(tmp_path / "event") == []
    assert (tmp_path / "event.html").is_file() and (tmp_path / "event.xml").is_file()
