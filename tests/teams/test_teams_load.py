"""Loading team results (PBN rooms, traveller sheets with teams or a line-up) and the outputs."""
import openpyxl
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError, ParseError
from bridgeproc.io.pbn.reader import parse_pbn, read_pbn
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import TeamsOptions, score_rooms, score_teams
from bridgeproc.teams.load import assign_matches, from_pbn_results, parse_team_travellers

DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"


def _game(board, room, contract, declarer, tricks, score):
    return (f'[Event "Club teams"]\n[Board "{board}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
            f'[HomeTeam "Aces"]\n[VisitTeam "Kings"]\n[Room "{room}"]\n[Round "2"]\n'
            f'[Contract "{contract}"]\n[Declarer "{declarer}"]\n[Result "{tricks}"]\n[Score "NS {score}"]\n\n')


PBN = (_game(1, "Open", "3NT", "N", 9, 400) + _game(1, "Closed", "4S", "N", 9, -50)
       + _game(2, "Closed", "2H", "E", 8, -110) + _game(2, "Open", "2H", "E", 9, -140))


def test_pbn_room_tags_open_home_ns_closed_home_ew():
    raw = assign_matches(from_pbn_results(parse_pbn(PBN, "club.pbn").results))
    assert raw["ns_team"].tolist() == ["Aces", "Kings", "Kings", "Aces"]
    assert raw["room"].tolist() == ["open", "closed", "closed", "open"]
    assert set(raw["match"]) == {"R2 Aces v Kings"}


def test_pbn_rooms_scored():
    rooms = score_rooms(from_pbn_results(parse_pbn(PBN, "club.pbn").results))
    s = score_teams([rooms], [])
    b = s.boards.set_index("board")
    # board 1: Aces NS +400 open, Kings NS -50 closed -> +450 = 10; board 2: -140 - (-110) = -30 -> -1
    assert b["imps_home"].tolist() == [10.0, -1.0]
    assert s.results.set_index(["board", "room"]).loc[(2, "closed"), "imp_ns"] == 1.0


def test_pbn_score_table_with_team_ids_and_room():
    text = ('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            '[ScoreTable "Round;Room;TeamId_Home;TeamId_Away;Contract;Declarer;Result;Score_NS"]\n'
            '1 Open 1 2 4S N 10 420\n1 Closed 1 2 4S N 9 -50\n')
    s = score_teams([score_rooms(from_pbn_results(parse_pbn(text, "st.pbn").results))], [])
    assert s.matches["match"].tolist() == ["R1 1 v 2"]
    assert s.boards["imps_home"].tolist() == [10.0]


def test_pbn_without_room_tag_reads_home_as_ns():
    text = PBN.replace('[Room "Open"]\n', "").replace('[Room "Closed"]\n', "")
    text = text.replace('[HomeTeam "Aces"]\n[VisitTeam "Kings"]\n[Round "2"]\n[Contract "4S"]',
                        '[HomeTeam "Kings"]\n[VisitTeam "Aces"]\n[Round "2"]\n[Contract "4S"]')
    raw = assign_matches(from_pbn_results(parse_pbn(text, "x.pbn").results))
    assert raw.loc[1, "ns_team"] == "Kings" and raw.loc[1, "room"] == "closed"


def test_pbn_without_teams_is_an_error():
    text = "\n".join(line for line in PBN.splitlines() if "Team" not in line) + "\n"
    with pytest.raises(ParseError, match="no teams in this PBN"):
        from_pbn_results(parse_pbn(text, "pairs.pbn").results)


def test_traveller_with_ns_and_ew_team_columns():
    raw = parse_team_travellers("Board;NS team;EW team;Contract;By;Result\n1;A;B;4S;N;=\n1;B;A;4S;N;-1\n", "t.csv")
    s = score_teams([score_rooms(raw)], [])
    assert s.boards["imps_home"].tolist() == [10.0]
    assert s.matches["match"].tolist() == ["R1 A v B"]


def test_traveller_with_pair_numbers_and_lineup():
    lineup = pd.DataFrame({"team": ["A", "A", "B", "B"], "pair": ["1", "2", "3", "4"]})
    text = "Board,NS,EW,Contract,Declarer,Result\n1,1,3,4S,N,=\n1,4,2,4S,N,-1\n"
    raw = parse_team_travellers(text, "t.csv", lineup)
    assert raw["ns_team"].tolist() == ["A", "B"]
    s = score_teams([score_rooms(raw)], [])
    assert s.results["ns_pair"].tolist() == ["1", "4"]
    with pytest.raises(ParseError, match=r"t.csv:3: NS pair 9 is not in the line-up"):
        parse_team_travellers(text.replace("1,4,2", "1,9,2"), "t.csv", lineup)


@pytest.mark.parametrize("text, message", [
    ("Board,Room,Home,Away,Contract\n1,Lobby,A,B,3NT\n", "t.csv:2: room 'Lobby' is not a room"),
    ("Board,Home,Away,Contract\n1,A,B,3NT\n", "Home and Away columns need a Room column"),
    ("Board,Contract\n1,3NT\n", "no team columns"),
    ("Bd,Stuff\n1,2\n", "t.csv:1: no header row with Board and Contract"),
])
def test_bad_sheets(text, message):
    with pytest.raises(ParseError, match=message):
        parse_team_travellers(text, "t.csv")


def test_bad_contract_is_a_validation_problem_with_its_line():
    raw = parse_team_travellers("Board,Room,Home,Away,Contract,Declarer,Result\n1,O,A,B,8NT,N,=\n", "t.csv")
    with pytest.raises(BridgeprocError, match=r"t.csv:2: contract"):
        score_rooms(raw)


@pytest.fixture
def written(tmp_path):
    sheet = tmp_path / "teams.csv"
    sheet.write_text("Round,Board,Room,Home,Away,Contract,Declarer,Result\n"
                     "1,1,Open,A,B,4S,N,=\n1,1,Closed,A,B,4S,N,-1\n1,2,Open,A,B,AVE+,,\n"
                     "1,1,Open,C,D,NP,,\n1,1,Closed,C,D,NP,,\n", encoding="utf-8")
    outs = [tmp_path / "r.xlsx", tmp_path / "r.csv", tmp_path / "r.pbn"]
    return process_teams([sheet], outs), outs


def test_workbook_sheets_and_values(written):
    session, (xlsx, _, _) = written
    wb = openpyxl.load_workbook(xlsx)
    assert wb.sheetnames == ["Standings", "Matches", "Cross table", "VP scale", "Match cards", "Travellers", "Conventions"]
    scale = list(wb["VP scale"].iter_rows(values_only=True))
    assert scale[2] == ("IMP margin", "2 bds win", "2 bds lose") and scale[3] == (0, 10.0, 10.0)
    assert scale[3 + 13][1:] == (session.matches["vp_home"].iloc[0], session.matches["vp_away"].iloc[0])
    cross = {r[0]: r[1:] for r in wb["Cross table"].iter_rows(values_only=True) if r and r[0] in ("A", "B")}
    assert cross["A"][:2] == (None, session.matches["vp_home"].iloc[0])
    rows = [r for r in wb["Standings"].iter_rows(values_only=True) if r and r[0] in ("1", "2", "3=")]
    assert [(r[0], r[1]) for r in rows][:2] == [("1", "A"), ("2", "B")]
    assert rows[0][3] == pytest.approx(session.standings["total"].iloc[0])
    cards = [r for r in wb["Match cards"].iter_rows(values_only=True) if r and r[0] == "Total"]
    assert len(cards) == 2 and cards[0][6] == 13.0
    notes = [r[0] for r in wb["Conventions"].iter_rows(values_only=True) if r and r[0]]
    assert "R1 C v D: not played; not counted" in notes


def test_csv_and_pbn_outputs(written):
    session, (_, csv_path, pbn_path) = written
    table = pd.read_csv(csv_path, dtype="string")
    assert list(table.columns[:6]) == ["round", "match", "room", "board", "ns_team", "ew_team"]
    assert len(table) == len(session.results)
    again = process_teams([pbn_path])
    assert again.matches.set_index("match")["vp_home"].to_dict() == pytest.approx(
        session.matches.set_index("match")["vp_home"].to_dict(), nan_ok=True)
    assert read_pbn(pbn_path).totals["teamid"].tolist() == session.standings["team"].tolist()


def test_unknown_output_type_writes_nothing(tmp_path, written):
    _, (xlsx, _, _) = written
    sheet = tmp_path / "teams.csv"
    with pytest.raises(BridgeprocError, match="unknown output type"):
        process_teams([sheet], [tmp_path / "new.xlsx", tmp_path / "r.doc"])
    assert not (tmp_path / "new.xlsx").exists()


def test_match_totals_only_needs_a_match_length(tmp_path):
    from tests.conftest import REALDATA
    path = REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn"
    if not path.exists():
        pytest.skip("shared real data not available")
    with pytest.raises(BridgeprocError, match="give the match length"):
        process_teams([path])
    assert process_teams([path], options=TeamsOptions(boards_per_match=8)).standings["team"].iloc[0] == "5"


def test_xlsx_traveller_sheet(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    ws.append(["Teams match, round 1"])
    for row in (["Board", "Room", "Home", "Away", "Contract", "Declarer", "Result"],
                [1, "O", "A", "B", "4S", "N", "="], [1, "C", "A", "B", "4S", "N", "-1"], [2, "O", "A", "B", "9NT", "N", "="]):
        ws.append(row)
    path = tmp_path / "teams.xlsx"
    wb.save(path)
    with pytest.raises(BridgeprocError, match=r"teams.xlsx!Results:5: contract"):
        process_teams([path])
    ws.delete_rows(5)
    wb.save(path)
    assert process_teams([path]).boards["imps_home"].tolist() == [10.0]


def test_options_from_command_line_text(tmp_path):
    from bridgeproc.teams import options_from_text
    table = tmp_path / "vp.csv"
    table.write_text("margin,winner\n0,10\n5,15\n", encoding="utf-8")
    opts = options_from_text(vp_scale_spec=str(table), boards_per_match=12, tie_breaks="imps-for, imp-quotient",
                             unplayed="average", ave_plus_imps=2)
    assert opts.scale.convert(6, 12)[0] == 15 and opts.boards_per_match == 12
    assert opts.tie_breaks == ("imps-for", "imp-quotient") and opts.unplayed == "average" and opts.ave_plus_imps == 2
    assert options_from_text() == TeamsOptions()
    assert options_from_text(tie_breaks="none").tie_breaks == ()


def test_adjustments_file(tmp_path):
    from bridgeproc.teams import read_adjustments
    path = tmp_path / "adj.csv"
    path.write_text("team,round,carry,vp\nA,1,4.5,\nB,,,1\n", encoding="utf-8")
    adj = read_adjustments(path)
    assert adj["carry"].tolist() == [4.5, 0.0] and adj["vp"].tolist() == [0.0, 1.0] and adj["imps"].tolist() == [0.0, 0.0]
    assert adj["round"].isna().tolist() == [False, True]
    path.write_text("team,round,carry\nA,1,lots\n", encoding="utf-8")
    with pytest.raises(ParseError, match="adj.csv:2: carry: 'lots' is not a number"):
        read_adjustments(path)
