"""USEBIO export laid out as Compscore 3 writes it (issue 16: files a federation accepts).

The element paths (``USEBIO/EVENT/PARTICIPANTS/PAIR/PLAYER/PLAYER_NAME`` ...) of our export of
the sample evening are compared with those of the real Compscore MP file: ours are theirs plus
the documented differences (report.usebio.DIFFERENCES), and theirs are ours plus the elements
that say nothing bridgeproc knows (master points, contact, Compscore's event number). The
export is read back to the same results, places and percentages; a teams event likewise.
"""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc._version import __version__
from bridgeproc.io.usebio.reader import read_usebio
from bridgeproc.model import ConventionChoice, Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.pipeline.write import process_session
from bridgeproc.report.teams_files import WRITERS as TEAMS_WRITERS
from bridgeproc.report.usebio import DIFFERENCES, usebio_text, write_usebio
from bridgeproc.report.usebio_teams import write_usebio_teams
from bridgeproc.validate.results import validate_results
from tests.conftest import REALDATA, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

COMPSCORE_MP = REALDATA / "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
EBL_TEAMS = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
#: Compscore elements that carry nothing bridgeproc has: its event number, the session's title and
#: venue, master points and the scorer's contact (all read as "known, nothing the results need").
NOT_OURS = {
    "USEBIO/EVENT/EVENT_IDENTIFIER", "USEBIO/EVENT/TITLE", "USEBIO/EVENT/VENUE",
    "USEBIO/EVENT/MASTER_POINT_SCALE", "USEBIO/EVENT/MASTER_POINT_TYPE", "USEBIO/EVENT/MPS_AWARDED_FLAG",
    "USEBIO/EVENT/P2P_CHARGE_RATE", "USEBIO/EVENT/CONTACT", "USEBIO/EVENT/CONTACT/FULL_NAME",
    "USEBIO/EVENT/CONTACT/SCORER", "USEBIO/EVENT/CONTACT/TELEPHONE", "USEBIO/EVENT/CONTACT/EMAIL",
    "USEBIO/EVENT/PARTICIPANTS/PAIR/MASTER_POINTS_AWARDED", "USEBIO/EVENT/PARTICIPANTS/PAIR/MASTER_POINT_TYPE",
}
RESULT_COLUMNS = ["section", "board", "ns", "ew", "level", "strain", "doubled", "declarer", "tricks", "lead",
                  "adjusted", "score_ns"]


def _paths(root: ET.Element) -> set[str]:
    """Every element path ``a/b/c`` of a tree."""
    out: set[str] = set()

    def walk(node: ET.Element, above: str) -> None:
        here = f"{above}/{node.tag}" if above else node.tag
        out.add(here)
        for child in node:
            walk(child, here)

    walk(root, "")
    return out


def _child_order(root: ET.Element, path: str) -> list[str]:
    """The child tags of the first element at ``path``, in document order, each once."""
    node = root if path == root.tag else root.find(path.partition("/")[2])
    assert node is not None, path
    return list(dict.fromkeys(child.tag for child in node))


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The sample evening, scored, and its USEBIO export."""
    folder = tmp_path_factory.mktemp("usebio")
    options = Options(read=ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False)
    session = process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"],
                              [folder / "evening.xml"], options)
    return session, folder / "evening.xml"


def test_element_paths_are_compscores(evening):
    _, path = evening
    ours, theirs = _paths(ET.parse(path).getroot()), _paths(ET.parse(COMPSCORE_MP).getroot())
    assert ours - theirs == {"USEBIO/EVENT/BOARD_SCORING_METHOD"}
    assert ours - theirs <= DIFFERENCES
    assert theirs - ours == NOT_OURS


@pytest.mark.parametrize("path", [
    "USEBIO", "USEBIO/CLUB", "USEBIO/EVENT", "USEBIO/EVENT/PARTICIPANTS/PAIR", "USEBIO/EVENT/PARTICIPANTS/PAIR/PLAYER",
    "USEBIO/EVENT/BOARD", "USEBIO/EVENT/BOARD/TRAVELLER_LINE", "USEBIO/HANDSET/BOARD", "USEBIO/HANDSET/BOARD/HAND",
])
def test_elements_come_in_compscores_order(evening, path):
    """Within each element our children are in Compscore's order (ours may leave some out)."""
    _, written = evening
    ours = [tag for tag in _child_order(ET.parse(written).getroot(), path) if tag != "BOARD_SCORING_METHOD"]
    theirs = _child_order(ET.parse(COMPSCORE_MP).getroot(), path)
    assert [tag for tag in theirs if tag in ours] == ours


def test_program_event_type_and_ids(evening):
    session, path = evening
    root = ET.parse(path).getroot()
    assert root.findtext("EVENT/PROGRAM_NAME") == "bridgeproc"
    assert root.findtext("EVENT/PROGRAM_VERSION") == __version__
    assert {node.get("EVENT_TYPE") for node in root.iter() if "EVENT_TYPE" in node.attrib} == {"MP_PAIRS"}
    assert root.findtext("CLUB/CLUB_NAME") == "Sample Bridge Club"
    first = root.find("EVENT/PARTICIPANTS/PAIR")
    assert [(c.tag, c.text) for c in first] [:5] == [
        ("PAIR_NUMBER", "2"), ("DIRECTION", "EW"), ("TOTAL_SCORE", "382"), ("PERCENTAGE", "61.22"), ("PLACE", "1")]
    # the names list has no member ids: the elements are there, empty
    players = root.findall("EVENT/PARTICIPANTS/PAIR/PLAYER")
    assert len(players) == 2 * len(session.standings)
    assert {p.findtext("NATIONAL_ID_NUMBER") for p in players} == {""}
    assert {p.findtext("CLUB_ID_NUMBER") for p in players} == {""}
    assert root.findtext("CLUB/CLUB_ID_NUMBER") == ""
    assert len(root.findall("HANDSET/BOARD")) == len(session.boards)
    assert root.find("HANDSET/BOARD/VULNERABILITY") is None  # every board's vulnerability follows its number


def test_read_back_gives_the_same_results_places_and_percentages(evening):
    session, path = evening
    usebio = read_usebio(path)
    assert usebio.notes == []  # nothing written that the reader does not know
    checked = validate_results(usebio.results, boards=usebio.boards, names=usebio.names)

    def table(results: pd.DataFrame) -> pd.DataFrame:
        frame = results[RESULT_COLUMNS].astype("string").fillna("~").replace("", "~")
        return frame.sort_values(RESULT_COLUMNS[:4]).reset_index(drop=True)

    pd.testing.assert_frame_equal(table(checked.results), table(session.results))
    again = build_session([path], Options(ranking=ConventionChoice(changes=dataclasses.asdict(session.conventions)), dd=False))
    columns = ["group", "rank", "pair", "names", "boards", "total", "pct"]
    pd.testing.assert_frame_equal(again.standings[columns], session.standings[columns])
    assert again.meta["program"] == "bridgeproc" and again.meta["program_version"] == __version__


def test_national_ids_read_from_usebio_are_written_again(tmp_path):
    """A Compscore file read and written again keeps every player's national id."""
    session = build_session([COMPSCORE_MP], Options(dd=False))
    write_usebio(session, tmp_path / "again.xml")
    ids = {(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER"))
           for p in ET.parse(tmp_path / "again.xml").getroot().iter("PLAYER")}
    theirs = {(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER")) for p in ET.parse(COMPSCORE_MP).iter("PLAYER")}
    assert ids == theirs and ("IREN MAJEDI", "964263") in ids


#: A player's name cannot hold " & " (it joins the two names of a pair); anything else goes.
HOSTILE = ['Bea <b>&amp;</b> "Q"', "O'Neil & <Smith>", "]]>&ok"]


def test_text_is_escaped_and_reads_back_as_written(evening):
    session, _ = evening
    standings = session.standings.copy()
    standings.loc[standings.index[0], "names"] = f"{HOSTILE[0]} & {HOSTILE[2]}"
    hostile = dataclasses.replace(session, standings=standings,
                                  meta={**session.meta, "event": HOSTILE[1], "club": "<Club & Co>"})
    text = usebio_text(hostile)
    root = ET.fromstring(text.encode("utf-8"))  # well-formed
    assert root.findtext("EVENT/EVENT_DESCRIPTION") == HOSTILE[1]
    assert root.findtext("CLUB/CLUB_NAME") == "<Club & Co>"
    names = [p.findtext("PLAYER_NAME") for p in root.find("EVENT/PARTICIPANTS/PAIR").iter("PLAYER")]
    assert names == [HOSTILE[0], HOSTILE[2]]
    assert "<b>" not in text and "&lt;b&gt;&amp;amp;&lt;/b&gt;" in text


# --------------------------------------------------------------------------- teams


@pytest.fixture(scope="module")
def teams(tmp_path_factory):
    folder = tmp_path_factory.mktemp("usebio_teams")
    session = process_teams([EBL_TEAMS], [folder / "teams.xml"])
    return session, folder / "teams.xml"


def test_teams_writer_is_registered():
    assert TEAMS_WRITERS[".xml"] is write_usebio_teams


def test_teams_usebio_has_the_teams_matches_and_vps(teams):
    session, path = teams
    root = ET.parse(path).getroot()
    assert root.get("Version") == "1.2"
    assert root.find("EVENT").get("EVENT_TYPE") == "TEAMS"
    assert root.findtext("EVENT/PROGRAM_NAME") == "bridgeproc"
    assert root.findtext("EVENT/MATCH_SCORING_METHOD") == "VPS"
    assert root.findtext("EVENT/DATE") == "23/08/2021"
    teams_written = root.findall("EVENT/PARTICIPANTS/TEAM")
    ids = {t.get("TEAM_NAME"): t.get("TEAM_ID") for t in teams_written}
    assert len(teams_written) == len(session.standings) == 30
    standing = {(t.get("TEAM_NAME"), t.findtext("PLACE"), float(t.findtext("TOTAL_SCORE"))) for t in teams_written}
    assert standing == {(str(r.team), str(r.rank), round(float(r.vp), 2)) for r in session.standings.itertuples()}
    matches = root.findall("EVENT/MATCH")
    assert len(matches) == len(session.matches) == 15
    by_ids = {(m.findtext("TEAM"), m.findtext("OPPOSING_TEAM")): m for m in matches}
    for match in session.matches.itertuples():
        node = by_ids[(ids[match.home], ids[match.away])]
        assert node.findtext("ROUND_NUMBER") == str(match.round)
        if match.status == "played":
            assert float(node.findtext("TEAM_SCORE")) == round(match.vp_home, 2)
            assert float(node.findtext("OPPOSING_TEAM_SCORE")) == round(match.vp_away, 2)
            board_imps = [float(b.findtext("IMPS")) for b in node.findall("BOARD") if b.findtext("IMPS")]
            assert sum(i for i in board_imps if i > 0) == match.imps_home
            # a board with a result in either room (one played in one room only is there with its line)
            assert len(node.findall("BOARD")) == session.results.loc[session.results["match"] == match.match,
                                                                      "board"].nunique()
        else:  # the unplayed match's boards are there, each room written NP (not played)
            assert {line.findtext("CONTRACT") for line in node.iter("TRAVELLER_LINE")} == {"NP"}
            assert len(node.findall("BOARD")) == match.boards and node.find("BOARD/TRAVELLER_LINE/SCORE") is None
    assert len(root.findall("EVENT/MATCH/BOARD/TRAVELLER_LINE")) == len(session.results) == 299
    first = matches[0].find("BOARD")
    assert [line.findtext("DIRECTION") for line in first.findall("TRAVELLER_LINE")] == ["NS", "EW"]
    assert len(root.findall("HANDSET/BOARD")) == len(session.deals) == 10


def test_teams_usebio_reads_back_with_the_pairs_reader(teams):
    session, path = teams
    usebio = read_usebio(path)
    assert len(usebio.results) == 299
    assert usebio.meta["event_type"] == "TEAMS" and "scoring" not in usebio.meta  # no pairs method
    totals = usebio.totals.sort_values("place", key=lambda s: s.str.rstrip("=").astype(int), kind="stable")
    assert totals["names"].tolist() == [str(t) for t in session.standings["team"]]
    assert pd.to_numeric(totals["total"]).tolist() == session.standings["vp"].round(2).tolist()
    # the home team's IMPs per board, as written on each line of the board
    imps = pd.to_numeric(usebio.results["imp_ns"]).sum()
    assert imps == 2 * session.boards.loc[session.boards["status"] != "not played", "imps_home"].sum()
    # the match totals are named, not silently dropped
    assert [n["value"] for n in usebio.notes] == [
        "MATCH_SCORING_METHOD, TEAM_SCORE, OPPOSING_TEAM_SCORE"]


def test_teams_usebio_reads_back_as_a_teams_event(teams):
    """`bridgeproc teams results.xml`: the same matches, VPs and standings as the event written."""
    session, path = teams
    again = process_teams([path])
    cols = ["team", "rank", "vp"]
    assert again.standings[cols].assign(vp=again.standings["vp"].round(2)).values.tolist() == \
        session.standings[cols].assign(vp=session.standings["vp"].round(2)).values.tolist()
    played = session.matches[session.matches["status"] == "played"]
    back = again.matches.set_index(["home", "away"]).loc[list(zip(played["home"], played["away"]))]
    assert back["imps_home"].tolist() == played["imps_home"].tolist()
    assert back["vp_home"].round(2).tolist() == played["vp_home"].round(2).tolist()
    assert len(again.results) == len(session.results) == 299


def test_written_files_end_with_a_newline_and_declare_utf8(evening, teams):
    for _, path in (evening, teams):
        text = Path(path).read_text(encoding="utf-8")
        assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM ')
        assert text.endswith("</USEBIO>\n")


def test_teams_usebio_carries_the_member_numbers_the_file_gave(tmp_path):
    """TeamsScorer's players with their member and club numbers come out again (issue 26: nothing dropped)."""
    from bridgeproc.io.usebio.teams import read_usebio_teams
    from bridgeproc.pipeline.teams import process_teams
    from bridgeproc.teams.load import usebio_members

    path = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"
    out = tmp_path / "teams.xml"
    process_teams([path], [out])
    given, written = usebio_members(read_usebio_teams(path)), usebio_members(read_usebio_teams(out))
    assert len(given) == 10 and sum(len(m) for m in given.values()) == 40
    assert {team: sorted(m) for team, m in written.items()} == {team: sorted(m) for team, m in given.items()}
    assert ("Dexter Jones", "800001", "132") in given["1"]
