"""Loading team results (PBN rooms, traveller sheets with teams or a line-up) and the outputs."""
import openpyxl
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError, ParseError, ValidationError
from bridgeproc.io.pbn.reader import parse_pbn, read_pbn
from bridgeproc.model import TeamsSession
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import TeamsOptions, score_rooms, score_teams
from bridgeproc.teams.load import assign_matches, from_pbn_results, parse_team_travellers, published_matches

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

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
    assert scale[0] == ("VP scale: WBF 2013 continuous, 20 VP", None, None)
    assert scale[2] == (None, "VPs for a 2-board match", None) and scale[3] == ("IMP margin", "winner", "loser")
    assert scale[4] == (0, 10.0, 10.0)
    assert scale[4 + 13][1:] == (session.matches["vp_home"].iloc[0], session.matches["vp_away"].iloc[0])
    assert wb["VP scale"].print_title_rows == "$3:$4"  # both header rows on every page
    cross = {r[0]: r[1:] for r in wb["Cross table"].iter_rows(values_only=True) if r and r[0] in ("A", "B")}
    assert cross["A"][:2] == (None, session.matches["vp_home"].iloc[0])
    rows = [r for r in wb["Standings"].iter_rows(values_only=True) if r and r[1] in ("A", "B", "C", "D")]
    assert [(r[0], r[1], r[8]) for r in rows] == [(1, "A", None), (2, "B", None), (3, "C", "tied"), (3, "D", "tied")]
    assert rows[0][3] == pytest.approx(session.standings["total"].iloc[0]) == 17.69
    cards = [r for r in wb["Match cards"].iter_rows(values_only=True) if r and r[0] == "Total"]
    assert len(cards) == 2 and cards[0][6] == 13.0
    notes = [r[0] for r in wb["Conventions"].iter_rows(values_only=True) if r and r[0]]
    assert "R1 C v D: not played; not counted" in notes


def test_ranks_are_numbers_a_tie_shown_with_its_equals_sign(written):
    _, (xlsx, _, _) = written
    ws = openpyxl.load_workbook(xlsx)["Standings"]
    header = next(c.row for c in ws["A"] if c.value == "Rank")
    ranks = [c for c in ws["A"][header:]]
    assert [(c.value, c.data_type, c.number_format) for c in ranks] == [
        (1, "n", "General"), (2, "n", "General"), (3, "n", '0"="'), (3, "n", '0"="')]


CONVENTIONS_DEFAULT = [
    ("Scoring", "Victory points: each match's IMP margin converted to VPs, the VPs added up"),
    ("VP scale", "WBF 2013 continuous, 20 VP"),
    ("Match length for the VPs", "the boards played in each match"),
    ("Artificial scores (Law 86A)",
     "average plus: +3 IMPs on the board, average: 0, average minus: −3 IMPs; each side its own"),
    ("Unplayed matches", "listed, and left out of the standings"),
    ("Event format", "Swiss, worked out from the matches"),
    ("Tie-breaks", "IMP quotient (IMPs won divided by IMPs lost, over all matches), then IMP difference "
                   "(IMPs won minus IMPs lost, over all matches); the usual order for a Swiss event"),
]


def test_conventions_sheet_in_words(written):
    _, (xlsx, _, _) = written
    rows = list(openpyxl.load_workbook(xlsx)["Conventions"].iter_rows(values_only=True))
    assert rows[2] == ("Convention", "How it was applied")
    assert rows[3:3 + len(CONVENTIONS_DEFAULT)] == CONVENTIONS_DEFAULT
    shown = " ".join(str(v) for r in rows for v in r if v)
    for internal in ("unplayed", "exclude", "swiss", "imp-quotient", "imp-difference", "tie_breaks", "wbf2013",
                     "ave_plus", "boards_per_match", "None", "bds"):
        assert internal not in shown, internal


@pytest.mark.parametrize(("changes", "label", "words"), [
    ({"unplayed": "average"}, "Unplayed matches", "each team gets half the VPs (10–10)"),
    ({"boards_per_match": 12}, "Match length for the VPs", "12 boards"),
    ({"ave_plus_imps": 2.5}, "Artificial scores (Law 86A)",
     "average plus: +2.5 IMPs on the board, average: 0, average minus: −2.5 IMPs; each side its own"),
    ({"tie_breaks": ("imps-for",)}, "Tie-breaks", "IMPs won (over all matches)"),
    ({"tie_breaks": ()}, "Tie-breaks", "none: teams equal on the total share a rank"),
    ({"format": "round-robin"}, "Event format", "round robin (every team meets every other once), as given"),
    ({"format": "round-robin"}, "Tie-breaks",
     "head-to-head VPs (VPs won in the matches between the tied teams), then head-to-head IMPs (IMP margin in "
     "the matches between the tied teams), then IMP quotient (IMPs won divided by IMPs lost, over all matches); "
     "the usual order for a round robin"),
    ({"format": "knockout"}, "Event format", "knockout, as given"),
    ({"scoring": "imps"}, "Scoring", "IMPs: the IMP margins of all matches added up"),
    ({"scoring": "bam"}, "Scoring", "Board-a-match: 1 point for each board won, ½ for a board tied, 0 for a board lost"),
    ({"scoring": "bam"}, "Board-a-match tie", "only equal scores are a tie"),
    ({"scoring": "bam", "bam_tie": 10}, "Board-a-match tie", "a net difference of at most 10 point(s) is a tie"),
    ({"scoring": "vp"}, "Board-a-match tie", None),  # only for board-a-match
])
def test_each_convention_in_words(changes, label, words):
    from bridgeproc.report.teams import convention_rows

    raw = parse_team_travellers("Round,Board,Room,Home,Away,Contract,Declarer,Result\n"
                                "1,1,Open,A,B,4S,N,=\n1,1,Closed,A,B,4S,N,-1\n", "t.csv")
    rows = dict(convention_rows(TeamsSession.of(score_teams([score_rooms(raw)], [], TeamsOptions(**changes)))))
    assert rows.get(label) == words


def test_the_command_prints_the_notes_of_reading(tmp_path):
    from click.testing import CliRunner

    from bridgeproc.cli import cli
    from tests.conftest import REALDATA

    out = tmp_path / "ebl.xlsx"
    done = CliRunner().invoke(cli, ["teams", str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"), "-o", str(out)])
    assert done.exit_code == 0, done.output
    notes = [line for line in done.output.splitlines() if line.startswith("Note: ")]
    assert notes == ["Note: ebl-2021-online-qual-open-r2-teams.pbn:63: 278 result(s): opening lead read from the Play "
                     "(the first card of trick 1)"]
    assert "R1 WALES v ITALY: not played; not counted" in done.output and out.exists()


def test_notes_of_reading_a_pbn_are_kept_with_their_lines(tmp_path):
    """A double-dummy table the deal makes impossible is left out (and said so, without the pairs command's
    --no-dd); a hand record against the board number is noted by the checks; both reach the workbook."""
    text = PBN.replace('[Room "Open"]\n[Round "2"]\n[Contract "3NT"]',
                       '[Room "Open"]\n[Round "2"]\n[DoubleDummyTricks "dddddddddddddddddddd"]\n'
                       '[OptimumScore "NS 2220"]\n[Contract "3NT"]')
    path = tmp_path / "club.pbn"
    path.write_text(text, encoding="utf-8")
    session = process_teams([path], [tmp_path / "r.xlsx"])
    assert [(n["line"], n["column"], n["message"]) for n in session.notes] == [
        ("5", "DoubleDummyTricks", "board 1: the double-dummy table is not used: E declaring C takes 13 tricks, but "
                                   "the cards give at most 12; it is left out (a teams run does not solve double dummy)"),
        ("35", "vul", "board 2: the hand record says nobody vulnerable and dealer N, the board number says NS "
                      "vulnerable and dealer E; scored as the hand record says"),
    ]
    assert session.deals is not None and session.deals["optimum_score"].isna().all()  # not a par for a wrong table
    wb = openpyxl.load_workbook(tmp_path / "r.xlsx")
    checks = [r for r in wb["Checks"].iter_rows(min_row=5, values_only=True)]
    assert [(r[1], r[2], r[3]) for r in checks] == [("club.pbn", 5, "DoubleDummyTricks"), ("club.pbn", 35, "vul")]
    hands = wb["Hand records"]
    assert hands["H2"].value is None and hands["H8"].value is None  # no DD table, no par: nothing made up


def test_no_checks_or_hand_records_sheet_without_notes_or_deals(written):
    session, (xlsx, _, _) = written
    assert session.notes == () and session.deals is None and session.note_lines() == []
    assert {"Checks", "Hand records"}.isdisjoint(openpyxl.load_workbook(xlsx).sheetnames)


def test_custom_vp_table_named_in_words(tmp_path):
    from bridgeproc.report.teams import convention_rows, heading
    from bridgeproc.teams import options_from_text

    table = tmp_path / "club-vp.csv"
    table.write_text("margin,winner\n0,10\n5,15\n", encoding="utf-8")
    raw = parse_team_travellers("Round,Board,Room,Home,Away,Contract,Declarer,Result\n"
                                "1,1,Open,A,B,4S,N,=\n1,1,Closed,A,B,4S,N,-1\n", "t.csv")
    session = TeamsSession.of(score_teams([score_rooms(raw)], [], options_from_text(vp_scale_spec=str(table))))
    assert dict(convention_rows(session))["VP scale"] == "the club's table club-vp.csv, 20 VP"
    assert heading(session)[1] == "Victory points: the club's table club-vp.csv, 20 VP scale"


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
    found = process_teams([path])  # the published VPs fix the length: 8 boards
    given = process_teams([path], options=TeamsOptions(boards_per_match=8))
    assert (found.options.boards_per_match, found.options.found) == (8, ("boards_per_match",))
    assert given.standings["team"].iloc[0] == found.standings["team"].iloc[0] == "5"
    assert list(given.standings["total"]) == list(found.standings["total"])
    unpublished = published_matches(read_pbn(path).matches).assign(vp_home=float("nan"), vp_away=float("nan"))
    with pytest.raises(BridgeprocError, match="give the match length"):
        score_teams([], [unpublished])


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
    with pytest.raises(ValidationError, match="adj.csv:2: carry: 'lots' is not a number"):
        read_adjustments(path)


@pytest.mark.parametrize("text, problems", [
    ("team,round,carry\nA,,4.5\n", ["adj.csv:2: carry: a carry-over belongs to a round's match; give the round"]),
    ("team,round,imps\nA,,3\n", ["adj.csv:2: imps: an IMP penalty belongs to a round's match; give the round"]),
    ("team,round,vp\nA,,-2\n", ["adj.csv:2: vp: a penalty is the VPs taken off: write it as a positive number"]),
    ("team,round,imps\nA,2,-3\n", ["adj.csv:2: imps: a penalty is the IMPs taken off"]),
    ("team,round,vp\nA,two,1\n", ["adj.csv:2: round: 'two' is not a round number"]),
    ("team,round,vp\n,1,1\nB,0,1\nC,1,x\n", ["adj.csv:2: team: no team", "adj.csv:3: round: '0' is not a round",
                                             "adj.csv:4: vp: 'x' is not a number"]),
])
def test_adjustments_that_cannot_be_right_are_refused_all_at_once(tmp_path, text, problems):
    """Issue 29: an adjustment that would change nothing (a carry-over with no round), add points (a
    negative penalty) or is not a number is refused with its line, every one at once."""
    from bridgeproc.teams import read_adjustments
    path = tmp_path / "adj.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValidationError) as refused:
        read_adjustments(path)
    shown = str(refused.value)
    assert all(p in shown for p in problems), shown


LONG = "A" * 200_000  # past the csv module's field limit (131,072)


def test_a_teams_side_file_cell_past_the_csv_field_limit_is_read_not_a_traceback(tmp_path):
    """Issue 29 (14): pandas' python engine and the csv module stopped at 131,072 characters in a cell
    with a bare ParserError; the limit is raised to the file's size, as for travellers."""
    from bridgeproc.teams import read_adjustments
    from bridgeproc.teams.load import read_lineup
    from bridgeproc.teams.vp import parse_vp_table

    (tmp_path / "lineup.csv").write_text(f"team,pair\n{LONG},1\n", encoding="utf-8")
    assert read_lineup(tmp_path / "lineup.csv")["team"].str.len().tolist() == [200_000]
    (tmp_path / "adj.csv").write_text(f"team,round,vp\n{LONG},1,1\n", encoding="utf-8")
    assert read_adjustments(tmp_path / "adj.csv")["vp"].tolist() == [1.0]
    with pytest.raises(ParseError):  # read, then refused for what it says, not for its length
        parse_vp_table(f"margin,winner\n{LONG},20\n", "vp.csv")


def test_a_side_file_that_is_not_csv_is_a_parse_error(tmp_path):
    from bridgeproc.teams.load import read_lineup

    (tmp_path / "lineup.csv").write_text('team,pair\n"unclosed,1\nB,2\n', encoding="utf-8")
    with pytest.raises((ParseError, ValidationError)):
        read_lineup(tmp_path / "lineup.csv")
