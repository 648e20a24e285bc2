"""The results website without a browser: what the pages say, escaping, links and anchors, the
single-page and folder forms, and the folder written all or nothing (tests/report/test_website_browser.py
opens the same site in Chromium)."""
from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import tomllib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag

import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError, UsageError
from bridgeproc.model import Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import FOLDER, FOLDER_MARKER, output_type, process_session, write_outputs
from bridgeproc.rank.conventions import CONVENTION_HELP
from bridgeproc.report.web import build_site, render, single_page, site_pages, write_site
from bridgeproc.report.web.site import CONVENTION_LABELS, number_text, page_language, par_text, result_text
from tests.conftest import ROOT, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

INPUTS = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")]
NAMES = str(SAMPLE / "club-evening-names.csv")


@pytest.fixture(scope="module")
def session():
    return build_session(INPUTS, Options(read=ReadOptions(names=(NAMES,)), dd=False))


@pytest.fixture(scope="module")
def site(session):
    return build_site(session)


class Page(HTMLParser):
    """The ids, hrefs and tags of one page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.tags: list[tuple[str, dict]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and "href" in attrs:
            self.hrefs.append(attrs["href"])


def broken_links(root: Path) -> list[str]:
    """Every link of the folder's pages that names no page or no anchor of its page."""
    pages = {p: Page(p.read_text(encoding="utf-8")) for p in root.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for href in page.hrefs:
            target, anchor = urldefrag(href)
            file = (path.parent / target).resolve() if target else path
            if file not in pages or (anchor and anchor not in pages[file].ids):
                broken.append(f"{path.relative_to(root)}: {href}")
    return broken


def test_the_ranking_names_scores_percentages_and_links_each_pair_to_its_card(site):
    north_south = site.rankings[0]
    assert (north_south.title, north_south.total_header, north_south.has_pct) == ("North-South", "MP", True)
    first = north_south.rows[0]
    assert (first.rank, first.pair, first.names, first.boards, first.total, first.pct, first.card) == (
        "1", "8", "Olga Hagen & Per Eriksen", 26, "373", "59.78", "ns-8")
    assert [r.title for r in site.rankings] == ["North-South", "East-West"]
    assert all(row.card for r in site.rankings for row in r.rows)


def test_a_score_card_shows_opponents_contract_lead_result_score_and_running_total(site):
    card = next(c for c in site.cards if c.id == "ns-1")
    assert (card.title, card.names, card.standing) == ("Pair 1 North-South", "Anna Berg & Bjørn Lie",
                                                       ["Rank 3 of 13 · 341 MP · 54.65%"])
    first = card.rows[0]
    assert (first.board, first.opponents, first.opponent_names, first.opponent_card, first.contract, first.declarer,
            first.lead, first.result, first.score, first.points, first.running) == (
        1, "1", "Anna Strand & Bjørn Sæther", "ew-1", "2♥", "W", "♠K", "+1", "-140", "10", "10")
    assert len(card.rows) == 26 and card.rows[-1].running == "341"
    assert len(site.cards) == 26


def test_a_board_has_its_diagram_with_hcp_and_its_traveller_with_top_and_factor(site):
    board = site.boards[2]
    assert (board.number, board.dealer, board.vul, board.previous, board.next) == (3, "S", "EW", 2, 4)
    north = board.deal.hands["N"]
    assert (north.name, north.hcp, north.suits[0], north.suits[1]) == ("North", 12, ("♠", False, "—"), ("♥", True, "A107654"))
    traveller = board.travellers[0]
    assert traveller.facts == ["Top 24", "Factor 1"]
    assert traveller.headers[-4:] == ["MP NS", "MP EW", "% NS", "% EW"]
    first = traveller.rows[0]
    assert (first.ns, first.ns_card, first.ew, first.ew_card, first.cells) == (
        "8", "ns-8", "1", "ew-1", ["3♥", "N", "♥K", "10", "170", "170", "", "23", "1", "95.83", "4.17"])
    # a phone shows the signed NS score (the 6th column) instead of NS + and EW +, and leaves out the lead and
    # the EW mirror columns
    assert [h for h, c in zip(traveller.headers, traveller.classes) if c == "wide"] == [
        "Lead", "NS +", "EW +", "MP EW", "% EW"]
    assert [h for h, c in zip(traveller.headers, traveller.classes) if c == "phone"] == ["Score"]
    minus = next(r for b in site.boards for t in b.travellers for r in t.rows if r.cells[6])
    assert minus.cells[4] == "-" + minus.cells[6]


def test_the_conventions_are_in_words(site):
    assert ("Boards played fewer times", "Neuberg's formula") in [(label, value) for label, value, _ in site.conventions]
    assert not any("_" in label for label, _, _ in site.conventions)
    assert set(CONVENTION_HELP) <= set(CONVENTION_LABELS)


@pytest.mark.parametrize(("score", "contracts", "shown"), [
    (-130, "EW 4C", "Par EW 4♣, EW +130"),
    (140, "NS 2H+1", "Par NS 2♥+1, NS +140"),
    (400, "NS 3NT", "Par NS 3NT, NS +400"),
    (0, "PASS", "Par PASS, 0"),
    (0, None, "Par 0"),
    (None, "NS 4S", ""),
    (620, None, "Par NS +620"),
])
def test_par_text(score, contracts, shown):
    assert par_text(score, contracts) == shown


def test_result_text():
    level = pd.Series([4, 3, 2, 0, 4, pd.NA], dtype="Int8")
    tricks = pd.Series([10, 7, 9, 0, pd.NA, pd.NA], dtype="Int8")
    adjusted = pd.Series([None, None, None, None, None, "A+"], dtype="string")
    assert result_text(level, tricks, adjusted).tolist() == ["=", "-2", "+1", "", "", ""]


@pytest.mark.parametrize(("value", "decimals", "shown"), [
    (10.0, 2, "10"), (7.5, 2, "7.5"), (61.2179, 2, "61.22"), (-0.001, 2, "0"), (None, 2, ""), (float("nan"), 2, ""),
    (-140, 0, "-140"), (pd.NA, 0, ""),
])
def test_number_text(value, decimals, shown):
    assert number_text(value, decimals) == shown


@pytest.mark.parametrize(("meta", "lang"), [
    ({}, "en"), ({"language": "nb"}, "nb"), ({"lang": "en-GB"}, "en-GB"),
    ({"language": 'en" onload="alert(1)'}, "en"), ({"language": ""}, "en"),
])
def test_page_language(meta, lang):
    assert page_language(meta) == lang


def test_names_and_texts_from_files_are_shown_as_text(tmp_path, session):
    names = session.names.copy()
    names.loc[0, "names"] = '<script>alert("x")</script> & <b>Bo</b>'
    hostile = dataclasses.replace(session, names=names, meta={**session.meta, "event": "Pairs <i>night</i>"})
    hostile = dataclasses.replace(hostile, standings=hostile.standings.assign(
        names=hostile.standings["names"].replace("Anna Berg & Bjørn Lie", names.loc[0, "names"])))
    html = single_page(build_site(hostile))
    assert "<script" not in html and "<b>" not in html and "<i>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &lt;b&gt;Bo&lt;/b&gt;" in html
    assert "Pairs &lt;i&gt;night&lt;/i&gt;" in html
    card = site_pages(build_site(hostile))["cards/ns-1.html"]
    assert "<script" not in card and "&lt;script&gt;" in card


def test_the_folder_has_one_page_per_card_and_board_and_every_link_resolves(tmp_path, session):
    write_site(session, tmp_path / "site")
    files = sorted(str(p.relative_to(tmp_path / "site")) for p in (tmp_path / "site").rglob("*") if p.is_file())
    expected = (["boards/%d.html" % n for n in range(1, 27)] + ["cards/ew-%d.html" % n for n in range(1, 14)]
                + ["cards/index.html"] + ["cards/ns-%d.html" % n for n in range(1, 14)]
                + ["conventions.html", "handrecords.html", "index.html", "style.css"])
    assert files == sorted(expected)
    assert broken_links(tmp_path / "site") == []
    index = Page((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    assert ("link", {"rel": "stylesheet", "href": "style.css"}) in index.tags
    assert "cards/ns-8.html" in index.hrefs and "boards/1.html" in index.hrefs


def test_the_single_page_is_self_contained_and_its_anchors_resolve(session):
    html = single_page(build_site(session))
    page = Page(html)
    assert page.hrefs and all(h.startswith("#") for h in page.hrefs)
    assert sorted({h[1:] for h in page.hrefs} - page.ids) == []
    assert not [t for t, a in page.tags if t in ("link", "script", "img", "iframe")]
    assert re.search(r"<html lang=\"en\">", html) and "<style>" in html and "break-after: page" in html
    assert {"card-ns-1", "card-ew-13", "board-26", "deal-26", "ranking-ns", "handrecords", "conventions"} <= page.ids


def test_tables_are_semantic(session):
    html = site_pages(build_site(session))["boards/3.html"]
    page = Page(html)
    headers = [a for t, a in page.tags if t == "th"]
    assert headers and all(a.get("scope") in ("col", "row") for a in headers)
    assert '<span class="red">♥</span>K' in html  # the lead of a heart is red


def test_hearts_and_diamonds_are_red_and_nothing_else():
    assert str(render.suits("4♥X")) == '4<span class="red">♥</span>X'
    assert str(render.suits("♦A & ♠K")) == '<span class="red">♦</span>A &amp; ♠K'
    assert str(render.suits(None)) == ""


@pytest.mark.parametrize(("name", "kind"), [
    ("results/", FOLDER), ("out/site/", FOLDER), ("results.html", ".html"), ("Results.HTML", ".html"),
    ("results", ""), ("results.xlsx", ".xlsx"), ("results.d/", FOLDER),
])
def test_output_type(name, kind, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert output_type(name) == kind


def test_an_existing_folder_without_a_suffix_is_a_folder_output(tmp_path):
    (tmp_path / "site").mkdir()
    assert output_type(tmp_path / "site") == FOLDER
    assert output_type(str(tmp_path / "site")) == FOLDER


def test_score_writes_the_folder_and_the_page_and_replaces_its_own_folder(tmp_path, session):
    folder, page = tmp_path / "results", tmp_path / "results.html"
    write_outputs(session, [f"{folder}/", str(page)])
    assert (folder / FOLDER_MARKER).is_file() and (folder / "index.html").is_file() and page.is_file()
    assert oct(os.stat(folder).st_mode & 0o777) == oct(0o777 & ~_umask())
    (folder / "boards" / "99.html").write_text("left from an earlier evening")  # as an earlier run writes it:
    with open(folder / FOLDER_MARKER, "a", encoding="utf-8") as marker:  # listed in its marker
        marker.write("boards/99.html\n")
    write_outputs(session, [f"{folder}/"])
    assert not (folder / "boards" / "99.html").exists() and (folder / "boards" / "26.html").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_failed_run_leaves_the_previous_folder_as_it_was(tmp_path, session, monkeypatch):
    folder = tmp_path / "results"
    write_outputs(session, [f"{folder}/"])
    before = (folder / "index.html").read_text(encoding="utf-8")

    def fail(session, path):
        (Path(path) / "index.html").write_text("half a site")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("bridgeproc.report.web.write_site", fail)
    with pytest.raises(BridgeprocError, match="nothing was written"):
        write_outputs(dataclasses.replace(session, meta={**session.meta, "event": "Other"}), [f"{folder}/"])
    assert (folder / "index.html").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results"]


def test_an_empty_folder_is_written_into(tmp_path, session):
    (tmp_path / "site").mkdir()
    write_outputs(session, [str(tmp_path / "site")])
    assert (tmp_path / "site" / "index.html").is_file()


@pytest.mark.parametrize(("make", "output", "message"), [
    (lambda d: (d / "mine").mkdir() or (d / "mine" / "notes.txt").write_text("mine"), "mine/",
     "the folder holds files bridgeproc did not write; give a new or empty folder"),
    (lambda d: (d / "afile").write_text("x"), "afile/", "is a file, not a folder"),
    (lambda d: None, "results", "unknown output type; use one of .csv, .xlsx, .pbn, .xml, .html, a folder (results/)"),
])
def test_folder_outputs_that_would_destroy_something_are_refused(tmp_path, make, output, message, monkeypatch):
    monkeypatch.chdir(tmp_path)
    make(tmp_path)
    with pytest.raises(UsageError, match=re.escape(message)):
        process_session(INPUTS, [output], Options(read=ReadOptions(names=(NAMES,)), dd=False))
    assert (tmp_path / "mine" / "notes.txt").read_text() == "mine" if output == "mine/" else True


def test_a_folder_holding_an_input_or_the_current_folder_is_refused(tmp_path, monkeypatch):
    inputs = tmp_path / "data"
    inputs.mkdir()
    for source in (*INPUTS, NAMES):
        (inputs / Path(source).name).write_bytes(Path(source).read_bytes())
    (inputs / FOLDER_MARKER).write_text("")  # even one marked as bridgeproc's
    copied = [str(inputs / Path(p).name) for p in INPUTS]
    with pytest.raises(UsageError, match="which is inside that folder"):
        process_session(copied, [f"{inputs}/"], Options(read=ReadOptions(names=(str(inputs / Path(NAMES).name),)), dd=False))
    monkeypatch.chdir(inputs)
    with pytest.raises(UsageError, match="is the current folder"):
        process_session(INPUTS, [f"{tmp_path}/"], Options(read=ReadOptions(names=(NAMES,)), dd=False))


def test_the_templates_ship_in_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["bridgeproc"]
    templates = ROOT / "bridgeproc" / "report" / "web" / "templates"
    shipped = [p for p in templates.iterdir()
               if any(fnmatch.fnmatch(str(p.relative_to(ROOT / "bridgeproc")), pattern) for pattern in patterns)]
    assert sorted(p.name for p in shipped) == sorted(p.name for p in templates.iterdir()) == [
        "base.html", "club_page.html", "event_page.html", "event_session.html", "ladder.html", "macros.html", "page.html",
        "sim_page.html", "style.css", "table_cards.html", "teams_base.html", "teams_macros.html", "teams_page.html"]
    assert "jinja2>=3.1" in config["project"]["dependencies"]
    # the masterpoint scales are data of the package too (rank.masterpoints reads them as resources)
    scales = sorted((ROOT / "bridgeproc" / "rank" / "scales").glob("*.toml"))
    assert [p.name for p in scales] == ["abf-club.toml", "ebu-club.toml"]
    assert all(any(fnmatch.fnmatch(str(p.relative_to(ROOT / "bridgeproc")), pattern) for pattern in patterns)
               for p in scales)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_the_command_line_writes_the_folder_and_the_page(runner, tmp_path):
    """``score -o results/ -o results.html`` and ``archive export -o site/`` from the command line."""
    from bridgeproc.cli import cli
    archive = tmp_path / "a.sqlite"
    folder, page = tmp_path / "results", tmp_path / "results.html"
    done = runner.invoke(cli, ["score", *INPUTS, "--names", NAMES, "--no-dd", "--archive", str(archive),
                               "-o", f"{folder}/", "-o", str(page)])
    assert done.exit_code == 0, done.output
    assert (folder / "index.html").is_file() and (folder / "cards").is_dir() and page.is_file()
    assert "<html lang=\"en\"" in page.read_text(encoding="utf-8")
    listed = runner.invoke(cli, ["archive", "list", "--archive", str(archive)])
    session_id = listed.output.splitlines()[1].split()[0]
    exported = runner.invoke(cli, ["archive", "export", "--archive", str(archive), session_id, "-o", f"{tmp_path}/again/"])
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "again" / "index.html").read_text(encoding="utf-8") == (folder / "index.html").read_text(
        encoding="utf-8")


def test_the_clubs_own_files_in_the_results_folder_are_kept(tmp_path, session):
    """Issue 29: a results folder rewritten keeps what the club put in it (a logo, .htaccess, photos/, its
    own page); bridgeproc's pages are replaced, and a page it no longer writes goes."""
    folder = tmp_path / "results"
    write_outputs(session, [f"{folder}/"])
    listed = (folder / FOLDER_MARKER).read_text(encoding="utf-8").splitlines()
    assert "index.html" in listed and "style.css" in listed and "boards/26.html" in listed
    club = {"logo.png": b"\x89PNG", ".htaccess": b"Options -Indexes\n", "photos/prize.jpg": b"\xff\xd8",
            "about.html": b"<p>Our club</p>", "boards/notes.txt": b"board 7 was fouled"}
    for name, data in club.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    (folder / "empty").mkdir()
    (folder / "index.html").write_text("an old ranking", encoding="utf-8")
    write_outputs(session, [f"{folder}/"])
    assert {name: (folder / name).read_bytes() for name in club} == club
    assert (folder / "empty").is_dir()
    assert "an old ranking" not in (folder / "index.html").read_text(encoding="utf-8")
    assert not set(club) & set((folder / FOLDER_MARKER).read_text(encoding="utf-8").splitlines())
    write_outputs(session, [f"{folder}/"])  # and again: still the club's
    assert {name: (folder / name).read_bytes() for name in club} == club


def test_a_folder_of_an_older_bridgeproc_keeps_all_but_its_pages(tmp_path, session):
    folder = tmp_path / "results"
    (folder / "boards").mkdir(parents=True)
    (folder / FOLDER_MARKER).write_text("Written by bridgeproc: the next run that writes this folder replaces it "
                                        "whole.\n", encoding="utf-8")
    (folder / "boards" / "99.html").write_text("an old page", encoding="utf-8")
    (folder / "logo.png").write_bytes(b"\x89PNG")
    write_outputs(session, [f"{folder}/"])
    assert not (folder / "boards" / "99.html").exists() and (folder / "logo.png").read_bytes() == b"\x89PNG"
