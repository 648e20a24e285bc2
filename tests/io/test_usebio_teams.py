"""USEBIO 1.2 team events (issue 16): the element layout written, read back, hostile files refused.

The expected element paths are written out by hand from USEBIO 1.2 as its team-event readers and
writers use it (see ``bridgeproc.report.usebio_teams``), not produced by the code under test.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from bridgeproc.errors import BridgeprocError, ParseError, ValidationError
from bridgeproc.io.usebio.teams import parse_usebio_teams, read_usebio_teams
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.report.usebio_teams import ELEMENTS, roster_players, team_ids
from bridgeproc.teams import TeamsOptions
from bridgeproc.teams.load import read_team_usebio
from tests.conftest import REALDATA

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
SALO = REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn"

#: USEBIO 1.2 team event: the paths a scored event with boards and a hand record has (EBL: the players
#: at each table from the room games' seats, as TeamsScorer's PAIRs; no board with an unusual
#: vulnerability). ``@`` marks an attribute.
EXPECTED_WITH_BOARDS = {
    "USEBIO", "USEBIO/@Version", "USEBIO/CLUB", "USEBIO/CLUB/CLUB_NAME", "USEBIO/CLUB/CLUB_ID_NUMBER",
    "USEBIO/EVENT", "USEBIO/EVENT/@EVENT_TYPE", "USEBIO/EVENT/EVENT_DESCRIPTION", "USEBIO/EVENT/PROGRAM_NAME",
    "USEBIO/EVENT/PROGRAM_VERSION", "USEBIO/EVENT/WINNER_TYPE", "USEBIO/EVENT/DATE", "USEBIO/EVENT/SESSION_COUNT",
    "USEBIO/EVENT/BOARD_SCORING_METHOD", "USEBIO/EVENT/MATCH_SCORING_METHOD",
    "USEBIO/EVENT/PARTICIPANTS", "USEBIO/EVENT/PARTICIPANTS/@EVENT_TYPE", "USEBIO/EVENT/PARTICIPANTS/TEAM",
    "USEBIO/EVENT/PARTICIPANTS/TEAM/@TEAM_ID", "USEBIO/EVENT/PARTICIPANTS/TEAM/@TEAM_NAME",
    "USEBIO/EVENT/PARTICIPANTS/TEAM/TOTAL_SCORE", "USEBIO/EVENT/PARTICIPANTS/TEAM/PLACE",
    "USEBIO/EVENT/PARTICIPANTS/TEAM/PAIR", "USEBIO/EVENT/PARTICIPANTS/TEAM/PAIR/PAIR_NUMBER",
    "USEBIO/EVENT/PARTICIPANTS/TEAM/PAIR/PLAYER", "USEBIO/EVENT/PARTICIPANTS/TEAM/PAIR/PLAYER/PLAYER_NAME",
    "USEBIO/EVENT/PARTICIPANTS/TEAM/PAIR/PLAYER/NATIONAL_ID_NUMBER",
    "USEBIO/EVENT/MATCH", "USEBIO/EVENT/MATCH/ROUND_NUMBER", "USEBIO/EVENT/MATCH/TEAM",
    "USEBIO/EVENT/MATCH/OPPOSING_TEAM", "USEBIO/EVENT/MATCH/TEAM_SCORE", "USEBIO/EVENT/MATCH/OPPOSING_TEAM_SCORE",
    "USEBIO/EVENT/MATCH/BOARD", "USEBIO/EVENT/MATCH/BOARD/@EVENT_TYPE", "USEBIO/EVENT/MATCH/BOARD/BOARD_NUMBER",
    "USEBIO/EVENT/MATCH/BOARD/IMPS", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE",
    "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/DIRECTION", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/CONTRACT",
    "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/NS_PAIR_NUMBER", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/EW_PAIR_NUMBER",
    "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/PLAYED_BY", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/LEAD",
    "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/TRICKS", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/SCORE",
    "USEBIO/HANDSET", "USEBIO/HANDSET/BOARD", "USEBIO/HANDSET/BOARD/BOARD_NUMBER", "USEBIO/HANDSET/BOARD/HAND",
    "USEBIO/HANDSET/BOARD/HAND/DIRECTION", "USEBIO/HANDSET/BOARD/HAND/CLUBS", "USEBIO/HANDSET/BOARD/HAND/DIAMONDS",
    "USEBIO/HANDSET/BOARD/HAND/HEARTS", "USEBIO/HANDSET/BOARD/HAND/SPADES",
}
#: Match totals only (Ruter): matches without boards, teams with their players, no hand record.
EXPECTED_TOTALS_ONLY = (
    {p for p in EXPECTED_WITH_BOARDS if "/BOARD/" not in p and not p.endswith("/BOARD") and "HANDSET" not in p
     and "/PAIR" not in p}
    | {"USEBIO/EVENT/PARTICIPANTS/TEAM/PLAYER", "USEBIO/EVENT/PARTICIPANTS/TEAM/PLAYER/PLAYER_NAME"})
#: Element names the writer once used that USEBIO 1.2 does not have.
NOT_USEBIO = {"TEAM_IMPS", "OPPOSING_TEAM_IMPS", "TEAM_VICTORY_POINTS", "OPPOSING_TEAM_VICTORY_POINTS", "SCORING_METHOD"}


def element_paths(path) -> set[str]:
    """Every element path (and attribute path, after ``@``) in an XML file."""
    found: set[str] = set()
    stack = [(ET.parse(path).getroot(), "")]
    while stack:
        node, above = stack.pop()
        here = f"{above}/{node.tag}" if above else node.tag
        found.add(here)
        found.update(f"{here}/@{name}" for name in node.attrib)
        stack.extend((child, here) for child in node)
    return found


@pytest.fixture(scope="module")
def ebl(tmp_path_factory):
    path = tmp_path_factory.mktemp("usebio_teams") / "ebl.xml"
    return process_teams([EBL], [path]), path


@pytest.fixture(scope="module")
def salo(tmp_path_factory):
    path = tmp_path_factory.mktemp("usebio_teams") / "salo.xml"
    return process_teams([SALO], [path], TeamsOptions(boards_per_match=8)), path


def test_element_paths_are_usebio_team_elements(ebl, salo):
    assert element_paths(ebl[1]) == EXPECTED_WITH_BOARDS
    assert element_paths(salo[1]) == EXPECTED_TOTALS_ONLY
    assert element_paths(ebl[1]) | element_paths(salo[1]) <= ELEMENTS  # the writer's own list is true
    assert not {p.rsplit("/", 1)[-1] for p in ELEMENTS} & NOT_USEBIO


def test_event_head_and_match_values(ebl):
    root = ET.parse(ebl[1]).getroot()
    event = root.find("EVENT")
    assert (event.get("EVENT_TYPE"), event.findtext("BOARD_SCORING_METHOD"),
            event.findtext("MATCH_SCORING_METHOD")) == ("TEAMS", "IMPS", "VPS")
    teams = {t.get("TEAM_NAME"): t.get("TEAM_ID") for t in event.iter("TEAM") if t.get("TEAM_ID")}
    assert len(teams) == 30 and teams["SWEDEN"] == "1"  # numbered in the standings' order
    austria = next(m for m in event.findall("MATCH") if m.findtext("TEAM") == teams["AUSTRIA"])
    assert [austria.findtext(t) for t in ("ROUND_NUMBER", "OPPOSING_TEAM", "TEAM_SCORE", "OPPOSING_TEAM_SCORE")] == [
        "1", teams["DENMARK"], "11.50", "8.50"]  # the column's two decimals (18.15 VPs), as every output shows them
    board = austria.find("BOARD")
    assert (board.findtext("BOARD_NUMBER"), board.findtext("IMPS")) == ("11", "4")
    assert [(line.findtext("DIRECTION"), line.findtext("CONTRACT"), line.findtext("SCORE"))
            for line in board.findall("TRAVELLER_LINE")] == [("NS", "PASS", "0"), ("EW", "3NT", "-150")]
    wales = next(m for m in event.findall("MATCH") if m.findtext("TEAM") == teams["WALES"])
    assert wales.find("TEAM_SCORE") is None and wales.find("OPPOSING_TEAM_SCORE") is None  # not played


def test_ruter_teams_keep_their_ids_names_and_players(salo):
    event = ET.parse(salo[1]).getroot().find("EVENT")
    uri = next(t for t in event.iter("TEAM") if t.get("TEAM_ID") == "5")
    assert uri.get("TEAM_NAME") == "URI" and uri.findtext("PLACE") == "1" and uri.findtext("TOTAL_SCORE") == "75.23"
    assert [p.findtext("PLAYER_NAME") for p in uri.findall("PLAYER")] == [
        "Uri Gilboa", "Kauko Koistinen", "Seppo Niemi", "Johan Linden"]


@pytest.mark.parametrize("teams, ids", [
    (["3", "1", "2"], {"3": "3", "1": "1", "2": "2"}),             # whole numbers stay
    (["SWEDEN", "1"], {"SWEDEN": "1", "1": "2"}),                   # a name among them: numbered
    (["1", "01"], {"1": "1", "01": "2"}),                           # two spellings of one number
    (["0", "2"], {"0": "1", "2": "2"}),                             # 0 is no TEAM_ID
    ([], {}),
])
def test_team_ids(teams, ids):
    assert team_ids(teams) == ids


@pytest.mark.parametrize("text, players", [
    ("Ann Lee - Bo Ek - Cy Oh", ["Ann Lee", "Bo Ek", "Cy Oh"]),
    ("Ann, Bo & Cy", ["Ann", "Bo", "Cy"]),
    ("Jean-Paul Roux - Ann", ["Jean-Paul Roux", "Ann"]),            # a hyphen inside a name stays
    ("  ", []),
])
def test_roster_players(text, players):
    assert roster_players(text) == players


def test_totals_only_file_reads_its_published_vps_and_places(salo):
    session, path = salo
    usebio = read_usebio_teams(path)
    assert len(usebio.results) == 0 and usebio.meta["match_scoring_method"] == "VPS"
    names = {k: v.split(": ")[0] for k, v in session.names.items()}
    got = {(int(r.round), r.home, r.away): (float(r.home_score), float(r.away_score))
           for r in usebio.matches.itertuples()}
    want = {(int(m.round), names[m.home], names[m.away]): (round(m.vp_home, 2), round(m.vp_away, 2))
            for m in session.matches.itertuples()}
    assert got == want and len(got) == 30
    assert {(t.team, t.place, float(t.total)) for t in usebio.teams.itertuples()} == {
        (names[s.team], s.rank, round(s.vp, 2)) for s in session.standings.itertuples()}
    assert usebio.matches["imps_home"].isna().all()  # no boards: USEBIO has no match IMPs


def test_totals_only_file_cannot_be_scored_again(salo):
    with pytest.raises(BridgeprocError, match=r"salo\.xml: the matches have no boards, only their scores \(VPS\); "
                                              r"USEBIO does not carry a match's IMPs"):
        read_team_usebio(salo[1])


# --------------------------------------------------------------------------- hostile files

#: A two-team event, one board; line numbers below are this text's.
SMALL = """<?xml version="1.0" encoding="UTF-8"?>
<USEBIO Version="1.2">
  <EVENT EVENT_TYPE="TEAMS">
    <MATCH_SCORING_METHOD>VPS</MATCH_SCORING_METHOD>
    <PARTICIPANTS>
      <TEAM TEAM_ID="1" TEAM_NAME="North"><PLAYER><PLAYER_NAME>Ann</PLAYER_NAME></PLAYER></TEAM>
      <TEAM TEAM_ID="2" TEAM_NAME="South"/>
    </PARTICIPANTS>
    <MATCH>
      <ROUND_NUMBER>1</ROUND_NUMBER>
      <TEAM>1</TEAM>
      <OPPOSING_TEAM>2</OPPOSING_TEAM>
      <TEAM_SCORE>13.5</TEAM_SCORE>
      <OPPOSING_TEAM_SCORE>6.5</OPPOSING_TEAM_SCORE>
      <BOARD>
        <BOARD_NUMBER>1</BOARD_NUMBER>
        <IMPS>6</IMPS>
        <TRAVELLER_LINE><DIRECTION>NS</DIRECTION><CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>420</SCORE></TRAVELLER_LINE>
        <TRAVELLER_LINE><DIRECTION>EW</DIRECTION><CONTRACT>2S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS><SCORE>170</SCORE></TRAVELLER_LINE>
      </BOARD>
    </MATCH>
  </EVENT>
</USEBIO>
"""


def test_small_file_reads():
    usebio = parse_usebio_teams(SMALL, "small.xml")
    assert usebio.results[["round", "board", "contract", "ns_team", "ew_team", "home", "away", "score", "imps"]].to_dict(
        "records") == [
        {"round": "1", "board": "1", "contract": "4S", "ns_team": "North", "ew_team": "South", "home": "North",
         "away": "South", "score": "420", "imps": "6"},
        {"round": "1", "board": "1", "contract": "2S", "ns_team": "South", "ew_team": "North", "home": "North",
         "away": "South", "score": "170", "imps": "6"}]
    assert usebio.results["line"].tolist() == [18, 19]
    assert usebio.matches[["home", "away", "home_score", "away_score", "boards", "imps_home", "imps_away"]].to_dict(
        "records") == [{"home": "North", "away": "South", "home_score": "13.5", "away_score": "6.5", "boards": "1",
                        "imps_home": "6.0", "imps_away": "0.0"}]
    assert usebio.teams[["team", "team_id", "players"]].astype(object).where(usebio.teams.notna(), None).to_dict(
        "records") == [{"team": "North", "team_id": "1", "players": "Ann"},
                       {"team": "South", "team_id": "2", "players": None}]
    assert usebio.notes == []


def problems_of(text: str) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        parse_usebio_teams(text, "teams.xml")
    p = caught.value.problems
    assert (p["source"] == "teams.xml").all()
    return list(zip(p["line"], p["column"], p["message"]))


@pytest.mark.parametrize("old, new, expected", [
    ("      <OPPOSING_TEAM>2</OPPOSING_TEAM>\n", "",
     [("9", "away", "USEBIO/EVENT/MATCH: <MATCH> without <OPPOSING_TEAM>: say which team played it (its TEAM_ID)")]),
    ("<OPPOSING_TEAM>2</OPPOSING_TEAM>", "<OPPOSING_TEAM>7</OPPOSING_TEAM>",
     [("12", "away", "USEBIO/EVENT/MATCH/OPPOSING_TEAM: team 7 is not among the PARTICIPANTS (TEAM_ID 1, 2); "
                     "correct the number or add the team")]),
    ('      <TEAM TEAM_ID="2" TEAM_NAME="South"/>\n', "",
     [("11", "away", "USEBIO/EVENT/MATCH/OPPOSING_TEAM: team 2 is not among the PARTICIPANTS (TEAM_ID 1); "
                     "correct the number or add the team")]),
    ('<TEAM TEAM_ID="2" TEAM_NAME="South"/>', '<TEAM TEAM_NAME="South"/>',
     [("7", "team", "USEBIO/EVENT/PARTICIPANTS/TEAM[2]: a <TEAM> without its TEAM_ID; give every team its number "
                    "(TEAM_ID=\"1\"), the matches name the teams by it"),
      ("12", "away", "USEBIO/EVENT/MATCH/OPPOSING_TEAM: team 2 is not among the PARTICIPANTS (TEAM_ID 1); "
                     "correct the number or add the team")]),
    ('<TEAM TEAM_ID="2" TEAM_NAME="South"/>', '<TEAM TEAM_ID="1" TEAM_NAME="South"/>',
     [("7", "team", "USEBIO/EVENT/PARTICIPANTS/TEAM[2]: TEAM_ID 1 is also the id of the team on line 6; give each "
                    "team its own number"),
      ("12", "away", "USEBIO/EVENT/MATCH/OPPOSING_TEAM: team 2 is not among the PARTICIPANTS (TEAM_ID 1); "
                     "correct the number or add the team")]),
    ("<OPPOSING_TEAM>2</OPPOSING_TEAM>", "<OPPOSING_TEAM>1</OPPOSING_TEAM>",
     [("12", "away", "USEBIO/EVENT/MATCH/OPPOSING_TEAM: <MATCH> has team North on both sides; correct "
                     "OPPOSING_TEAM")]),
    ("<TEAM_SCORE>13.5</TEAM_SCORE>", "<TEAM_SCORE>13,5x</TEAM_SCORE>",
     [("13", "team_score", "USEBIO/EVENT/MATCH/TEAM_SCORE: <TEAM_SCORE> is '13,5x', not a number; correct it "
                           "(e.g. 55.25)")]),
    ("<DIRECTION>EW</DIRECTION>", "<DIRECTION>Closed</DIRECTION>",
     [("19", "direction", "USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE[2]/DIRECTION: <DIRECTION> says where the "
                          "match's TEAM sat: write NS or EW")]),
    ("    </MATCH>\n", "    </MATCH>\n    <BOARD><BOARD_NUMBER>2</BOARD_NUMBER><TRAVELLER_LINE><DIRECTION>NS</DIRECTION>"
     "<CONTRACT>3NT</CONTRACT></TRAVELLER_LINE></BOARD>\n",
     [("22", "board", "USEBIO/EVENT/BOARD: a <BOARD> with results outside every <MATCH>: a team event gives each "
                      "board inside the match it was played in (TEAM and OPPOSING_TEAM); export the teams event "
                      "again, or score a pairs file with bridgeproc score")]),
])
def test_hostile_teams_file_refused_with_line_and_element_path(old, new, expected):
    assert old in SMALL
    assert problems_of(SMALL.replace(old, new, 1)) == expected


def test_every_problem_is_listed_at_once():
    text = SMALL.replace("<TEAM>1</TEAM>", "<TEAM>8</TEAM>").replace("<OPPOSING_TEAM>2</OPPOSING_TEAM>",
                                                                    "<OPPOSING_TEAM>9</OPPOSING_TEAM>")
    assert [(line, column) for line, column, _ in problems_of(text)] == [("11", "home"), ("12", "away")]


def test_match_paths_number_the_matches():
    match = SMALL[SMALL.index("    <MATCH>"):SMALL.index("    </MATCH>\n") + len("    </MATCH>\n")]
    text = SMALL.replace(match, match + match.replace("<OPPOSING_TEAM>2<", "<OPPOSING_TEAM>5<"))
    assert problems_of(text) == [("25", "away", "USEBIO/EVENT/MATCH[2]/OPPOSING_TEAM: team 5 is not among the "
                                                "PARTICIPANTS (TEAM_ID 1, 2); correct the number or add the team")]


def test_unknown_elements_are_named_in_a_note():
    usebio = parse_usebio_teams(SMALL.replace("<IMPS>6</IMPS>", "<IMPS>6</IMPS><SWING>250</SWING>"), "t.xml")
    assert [(n["line"], n["value"]) for n in usebio.notes] == [("17", "SWING")]
    assert "elements not read for a teams event: <SWING> (line 17)" in usebio.notes[0]["message"]


@pytest.mark.parametrize("text, message", [
    ("<PBN/>", "t.xml:1: the root element is <PBN>, not <USEBIO>"),
    ("<USEBIO/>", "t.xml:1: <USEBIO> has no <EVENT>"),
    ('<USEBIO><EVENT EVENT_TYPE="MP_PAIRS"><BOARD><BOARD_NUMBER>1</BOARD_NUMBER></BOARD></EVENT></USEBIO>',
     r"t.xml:1: <EVENT> \(MP_PAIRS\) has no <MATCH> and no teams: this is not a teams event; score a pairs file "
     "with bridgeproc score"),
    ("<USEBIO><EVENT>", "t.xml:1: not well-formed XML"),
])
def test_not_a_teams_file(text, message):
    with pytest.raises(ParseError, match=message):
        parse_usebio_teams(text, "t.xml")


def test_compscore_pairs_file_is_not_a_teams_event():
    path = REALDATA / "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
    with pytest.raises(ParseError, match=r"\(MP_PAIRS\) has no <MATCH> and no teams"):
        read_usebio_teams(path)


def _pair_players(event) -> dict[str, list[tuple[str, str]]]:
    return {pair.findtext("PAIR_NUMBER"): [(p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER") or "")
                                           for p in pair.findall("PLAYER")] for pair in event.iter("PAIR")}


def test_the_players_at_each_table_of_the_european_teams(ebl):
    """The room games name the four seats (RealBridge's ``Name#member``): each TRAVELLER_LINE names its NS and
    EW pairs, each pair under its team with its players' member numbers, as TeamsScorer writes them."""
    event = ET.parse(ebl[1]).getroot().find("EVENT")
    teams = {t.get("TEAM_NAME"): t.get("TEAM_ID") for t in event.iter("TEAM") if t.get("TEAM_ID")}
    pairs = _pair_players(event)
    austria = next(m for m in event.findall("MATCH") if m.findtext("TEAM") == teams["AUSTRIA"])
    open_room, closed_room = austria.find("BOARD").findall("TRAVELLER_LINE")
    # board 11, open room: Knob - Wanha (Austria) NS against Askgaard - Konow (Denmark)
    assert sorted(pairs[open_room.findtext("NS_PAIR_NUMBER")]) == [("Clemens Wanha", "184195"),
                                                                  ("Markus Knob", "39415")]
    assert sorted(pairs[open_room.findtext("EW_PAIR_NUMBER")]) == [("Kasper Konow", "20880"),
                                                                  ("Michael Askgaard", "23324")]
    assert open_room.findtext("NS_PAIR_NUMBER").split("-")[0] == teams["AUSTRIA"]
    assert closed_room.findtext("EW_PAIR_NUMBER").split("-")[0] == teams["AUSTRIA"]
    assert len(pairs) == 2 * 30  # two pairs a team, one a room
    # read back: every line's pairs are the players the room games seated
    again = read_usebio_teams(ebl[1])
    players = dict(zip(again.pairs["pair"], again.pairs["players"]))
    assert players[open_room.findtext("NS_PAIR_NUMBER")] in ("Markus Knob - Clemens Wanha",
                                                            "Clemens Wanha - Markus Knob")
    assert again.results["ns"].isin(list(players)).all() and again.results["ew"].isin(list(players)).all()


@pytest.mark.slow
def test_a_teamsscorer_files_pairs_are_written_again(tmp_path):
    source = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"
    out = tmp_path / "again.xml"
    process_teams([source], [out])
    theirs, ours = (_pair_players(ET.parse(p).getroot().find("EVENT")) for p in (source, out))
    assert ours == theirs  # the same pairs, players and member numbers
    assert len(ours) == 20
    lines = [(line.findtext("NS_PAIR_NUMBER"), line.findtext("EW_PAIR_NUMBER"))
             for line in ET.parse(out).getroot().iter("TRAVELLER_LINE")]
    assert lines[:2] == [("1-1-2", "3-3-4"), ("3-1-2", "1-3-4")]
