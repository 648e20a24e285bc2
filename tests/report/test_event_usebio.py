"""USEBIO of an event (issue 17): ``EVENT`` with the event's standings and a ``SESSION`` per session.

The Finnish championship's two sessions are written as one file: its element paths are a hand-written
set, it reads back with bridgeproc's USEBIO reader to each session's results (the reader's ``session``
column) and standings, and to the event's cumulative standings; a synthetic sectioned event, and one
whose sessions deal the same board numbers differently, keep every deal.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.io.usebio.reader import read_usebio
from bridgeproc.model import ConventionChoice, Options, ReadOptions
from bridgeproc.pipeline.event import build_event, write_event
from bridgeproc.pipeline.outputs import OUTPUTS
from bridgeproc.report.event_usebio import event_usebio_text, write_event_usebio
from bridgeproc.validate.results import validate_results
from tests.conftest import REALDATA, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
HANDS, TRAVELLERS = SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"
NAMES = SAMPLE / "club-evening-names.csv"
RESULT_COLUMNS = ["section", "board", "ns", "ew", "level", "strain", "doubled", "declarer", "tricks", "lead",
                  "adjusted", "score_ns"]
_PAIR = ["PAIR", "PAIR/PAIR_NUMBER", "PAIR/DIRECTION", "PAIR/TOTAL_SCORE", "PAIR/PERCENTAGE", "PAIR/PLACE",
         "PAIR/PLAYER", "PAIR/PLAYER/PLAYER_NAME", "PAIR/PLAYER/NATIONAL_ID_NUMBER", "PAIR/PLAYER/CLUB_ID_NUMBER"]
_LINE = ["BOARD", "BOARD/BOARD_NUMBER", "BOARD/TRAVELLER_LINE", *(f"BOARD/TRAVELLER_LINE/{tag}" for tag in (
    "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE", "NS_MATCH_POINTS",
    "EW_MATCH_POINTS"))]
_HANDS = ["HANDSET", "HANDSET/BOARD", "HANDSET/BOARD/BOARD_NUMBER", "HANDSET/BOARD/HAND",
          *(f"HANDSET/BOARD/HAND/{tag}" for tag in ("DIRECTION", "CLUBS", "DIAMONDS", "HEARTS", "SPADES"))]
#: The Finnish event's element paths, written out by hand.
FINNISH_PATHS = {
    "USEBIO", "USEBIO/CLUB", "USEBIO/CLUB/CLUB_NAME", "USEBIO/CLUB/CLUB_ID_NUMBER", "USEBIO/EVENT",
    *(f"USEBIO/EVENT/{tag}" for tag in ("EVENT_DESCRIPTION", "PROGRAM_NAME", "PROGRAM_VERSION", "WINNER_TYPE", "DATE",
                                        "SESSION_COUNT", "SECTION_COUNT", "BOARD_SCORING_METHOD", "PARTICIPANTS",
                                        "SESSION", "SESSION/PARTICIPANTS")),
    *(f"USEBIO/EVENT/PARTICIPANTS/{tail}" for tail in _PAIR),
    *(f"USEBIO/EVENT/SESSION/PARTICIPANTS/{tail}" for tail in _PAIR),
    *(f"USEBIO/EVENT/SESSION/{tail}" for tail in _LINE),
    *(f"USEBIO/{tail}" for tail in _HANDS),
}


def _paths(root: ET.Element) -> set[str]:
    out: set[str] = set()

    def walk(node: ET.Element, above: str) -> None:
        here = f"{above}/{node.tag}" if above else node.tag
        out.add(here)
        for child in node:
            walk(child, here)

    walk(root, "")
    return out


@lru_cache(maxsize=None)
def finnish():
    return build_event([S1, S2], Options(ranking=ConventionChoice(changes={"mp_decimals": 1}), dd=False))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    path = tmp_path_factory.mktemp("event-usebio") / "event.xml"
    write_event(finnish(), [path], archive=False)
    return path


def test_the_writer_is_registered():
    assert OUTPUTS["Event"][".xml"] == "bridgeproc.report.event_usebio:write_event_usebio"


def test_the_element_paths_are_the_expected_ones(written):
    assert _paths(ET.parse(written).getroot()) == FINNISH_PATHS


def test_the_event_head_counts_the_sessions(written):
    root = ET.parse(written).getroot()
    assert [(c.tag, c.text) for c in root.find("EVENT")][:8] == [
        ("EVENT_DESCRIPTION", "SM-parikilpailu"), ("PROGRAM_NAME", "bridgeproc"), ("PROGRAM_VERSION", root.findtext(
            "EVENT/PROGRAM_VERSION")), ("WINNER_TYPE", "1"), ("DATE", "05/10/2014"), ("SESSION_COUNT", "2"),
        ("SECTION_COUNT", "1"), ("BOARD_SCORING_METHOD", "MATCH_POINTS")]
    assert [s.get("SESSION_ID") for s in root.iterfind("EVENT/SESSION")] == ["1", "2"]
    boards = [[int(b.findtext("BOARD_NUMBER")) for b in s.iterfind("BOARD")] for s in root.iterfind("EVENT/SESSION")]
    assert (boards[0], boards[1]) == (list(range(1, 67)), list(range(67, 106)))
    assert [int(b.findtext("BOARD_NUMBER")) for b in root.iterfind("HANDSET/BOARD")] == list(range(1, 106))


def test_the_events_participants_are_the_published_cumulative_standings(written):
    root = ET.parse(written).getroot()
    pairs = root.findall("EVENT/PARTICIPANTS/PAIR")
    theirs = read_pbn(S2).totals
    assert len(pairs) == 36
    assert [p.findtext("PAIR_NUMBER") for p in pairs] == theirs["pairid"].tolist()
    assert [p.findtext("PLACE") for p in pairs] == theirs["rank"].tolist()
    np.testing.assert_allclose([float(p.findtext("TOTAL_SCORE")) for p in pairs], theirs["totalscoremp"].astype(float),
                               atol=1e-9, rtol=0)  # 1279.4 + 805 = 2084.4, each of the 36
    first = pairs[0]
    assert [(c.tag, c.text) for c in first][:5] == [("PAIR_NUMBER", "2"), ("DIRECTION", None),
                                                    ("TOTAL_SCORE", "2084.4"), ("PERCENTAGE", "58.39"), ("PLACE", "1")]
    assert first.findtext("PLAYER/PLAYER_NAME") == "Jukka Pesonen - Sakari Stubb"


def test_it_reads_back_to_each_sessions_results_and_standings(written):
    event = finnish()
    usebio = read_usebio(written)
    assert usebio.notes == []
    assert usebio.meta["event"] == "SM-parikilpailu" and usebio.meta["scoring"] == "MatchPoints"

    def table(results: pd.DataFrame) -> pd.DataFrame:
        frame = results[RESULT_COLUMNS].astype("string").fillna("~").replace("", "~")
        return frame.sort_values(RESULT_COLUMNS[:4]).reset_index(drop=True)

    for number, session in enumerate(event.sessions, start=1):
        raw = usebio.results[usebio.results["session"] == str(number)].reset_index(drop=True)
        assert len(raw) == len(session.results) == (1188, 702)[number - 1]
        checked = validate_results(raw, boards=usebio.boards, names=usebio.names)
        pd.testing.assert_frame_equal(table(checked.results), table(session.results))
        points = raw["mp_ns"].astype(float).to_numpy()
        ours = session.results.sort_values(["board", "ns"])["mp_ns"].to_numpy(dtype=float)
        assert np.allclose(np.sort(points), np.sort(np.round(ours, 2)), equal_nan=True)
    # the reader gives every PARTICIPANTS block's standings in one frame, in document order: the event's,
    # then each session's (it has no session column for them)
    totals = usebio.totals
    assert len(totals) == 3 * 36
    blocks = [event.ranking.standings, *(s.standings for s in event.sessions)]
    for n, standings in enumerate(blocks):
        part = totals.iloc[36 * n:36 * (n + 1)]
        assert part["pair"].tolist() == standings["pair"].tolist()
        assert part["place"].tolist() == standings["rank"].tolist()
        np.testing.assert_allclose(part["total"].astype(float), standings["total"].round(2), atol=1e-9, rtol=0)
        np.testing.assert_allclose(part["percentage"].astype(float), standings["pct"].round(2), atol=1e-9, rtol=0)


def _travellers() -> pd.DataFrame:
    return pd.read_csv(TRAVELLERS, dtype=str, keep_default_na=False)


def test_a_sectioned_event_keeps_its_sections(tmp_path):
    sheet = _travellers()
    both = pd.concat([sheet.assign(Section=s) for s in "AB"], ignore_index=True)[["Section", *sheet.columns]]
    one, two = tmp_path / "a.csv", tmp_path / "b.csv"
    both.to_csv(one, index=False)
    both.to_csv(two, index=False)
    event = build_event([f"{HANDS},{one}", str(two)], Options(dd=False))
    root = ET.fromstring(event_usebio_text(event))
    assert root.findtext("EVENT/SECTION_COUNT") == "2" and root.findtext("EVENT/WINNER_TYPE") == "2"
    assert [s.get("SECTION_ID") for s in root.iterfind("EVENT/SECTION")] == ["A", "B"]
    assert root.find("EVENT/PARTICIPANTS") is None
    assert [len(s.findall("PARTICIPANTS/PAIR")) for s in root.iterfind("EVENT/SECTION")] == [26, 26]
    assert [[s.get("SECTION_ID") for s in session.iterfind("SECTION")] for session in root.iterfind("EVENT/SESSION")] \
        == [["A", "B"], ["A", "B"]]
    first = root.find("EVENT/SECTION/PARTICIPANTS/PAIR")
    ranked = event.ranking.standings.iloc[0]
    assert (first.findtext("PAIR_NUMBER"), first.findtext("DIRECTION"), first.findtext("PLACE")) == (
        ranked["pair"], ranked["group"].split()[-1], ranked["rank"])
    path = tmp_path / "event.xml"
    write_event_usebio(event, path)
    usebio = read_usebio(path)
    assert usebio.notes == []
    assert sorted(set(usebio.totals["section"])) == ["A", "B"] and len(usebio.totals) == 3 * 52
    assert usebio.results.groupby(["session", "section"]).size().to_dict() == {
        ("1", "A"): 338, ("1", "B"): 338, ("2", "A"): 338, ("2", "B"): 338} == {
        key: len(sheet) for key in [("1", "A"), ("1", "B"), ("2", "A"), ("2", "B")]}  # 13 tables x 26 boards


def test_boards_dealt_differently_in_two_sessions_keep_their_deals(tmp_path):
    """Both sessions play boards 1-26: the second with other deals (the hands turned a seat). One HANDSET
    cannot hold both, so each session's hands are in its own BOARD elements."""
    turned = tmp_path / "turned.pbn"
    turned.write_text(HANDS.read_text(encoding="utf-8").replace('[Deal "N:', '[Deal "E:'), encoding="utf-8")
    copy = tmp_path / "s2.csv"
    _travellers().to_csv(copy, index=False)
    event = build_event([f"{HANDS},{TRAVELLERS}", f"{turned},{copy}"], Options(read=ReadOptions(names=(str(NAMES),)), dd=False))
    root = ET.fromstring(event_usebio_text(event))
    assert root.find("HANDSET") is None
    north = [{b.findtext("BOARD_NUMBER"): next(h.findtext("SPADES") for h in b.iterfind("HAND")
                                                if h.findtext("DIRECTION") == "North")
              for b in s.iterfind("BOARD")} for s in root.iterfind("EVENT/SESSION")]
    deal_1 = event.sessions[0].boards.set_index("board").loc[1, "deal"]
    deal_2 = event.sessions[1].boards.set_index("board").loc[1, "deal"]
    assert deal_1 != deal_2
    assert north[0]["1"] == deal_1.split(":")[1].split()[0].split(".")[0]
    assert north[1]["1"] == deal_2.split(":")[1].split()[3].split(".")[0]  # E: first, North is the fourth hand
    assert [len(s.findall("BOARD/HAND")) for s in root.iterfind("EVENT/SESSION")] == [4 * 26, 4 * 26]
    # the names list's pairs are the event's players
    assert root.findtext("EVENT/PARTICIPANTS/PAIR/PLAYER/PLAYER_NAME")


def test_the_same_deals_in_both_sessions_are_one_handset(tmp_path):
    copy = tmp_path / "s2.csv"
    _travellers().to_csv(copy, index=False)
    hands2 = tmp_path / "hands2.pbn"
    hands2.write_bytes(HANDS.read_bytes())
    event = build_event([f"{HANDS},{TRAVELLERS}", f"{hands2},{copy}"], Options(dd=False))
    root = ET.fromstring(event_usebio_text(event))
    assert [b.findtext("BOARD_NUMBER") for b in root.iterfind("HANDSET/BOARD")] == [str(n) for n in range(1, 27)]
    assert root.find("EVENT/SESSION/BOARD/HAND") is None


def test_an_individual_session_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr("bridgeproc.report.event_usebio.is_individual", lambda results: True)
    with pytest.raises(BridgeprocError, match="individual event is not supported"):
        write_event_usebio(finnish(), tmp_path / "e.xml")
    assert not (tmp_path / "e.xml").exists()
