"""Match scoring conventions: board IMPs, artificial scores, a board or a match not played,
carry-over and penalties, board-a-match."""
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.errors import BridgeprocError
from bridgeproc.model import TeamsSession
from bridgeproc.teams import TeamsOptions, board_bam, board_imps, score_rooms, score_teams
from bridgeproc.teams.load import parse_team_travellers
from tests.conftest import examples

# Board 1 None vul, 2 NS vul, 3 EW vul, 4 All, 5 NS vul (dealer N).
SHEET = """Round,Board,Room,Home,Away,Contract,Declarer,Result
1,1,Open,Lions,Tigers,4S,N,=
1,1,Closed,Lions,Tigers,4S,N,-1
1,2,Open,Lions,Tigers,AVE+,,
1,2,Closed,Lions,Tigers,3NT,S,+1
1,3,Open,Lions,Tigers,2H,E,=
1,4,Open,Lions,Tigers,NP,,
1,4,Closed,Lions,Tigers,NP,,
1,5,Open,Lions,Tigers,1NT,N,=
1,5,Closed,Lions,Tigers,1NT,S,=
1,1,Open,Bears,Wolves,NP,,
1,1,Closed,Bears,Wolves,NP,,
1,2,Open,Bears,Wolves,NP,,
1,2,Closed,Bears,Wolves,NP,,
"""


def wbf(margin, boards):
    """Winner's VP by the formula of reference 6.1 (2 decimals half-up), written out independently."""
    tau = (5 ** 0.5 - 1) / 2
    blitz = 15 * boards ** 0.5
    value = 20.0 if margin >= blitz else 10 + 10 * (1 - tau ** (3 * margin / blitz)) / (1 - tau ** 3)
    return float(Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _session(text=SHEET, options=TeamsOptions(), adjustments=None):
    rooms = score_rooms(parse_team_travellers(text, "teams.csv"))
    return TeamsSession.of(score_teams([rooms], [], options, adjustments))


@pytest.fixture(scope="module")
def session():
    return _session()


def _board(session, match, board):
    b = session.boards
    return b[(b["match"] == match) & (b["board"] == board)].iloc[0]


def test_played_board_imps(session):
    row = _board(session, "R1 Lions v Tigers", 1)
    # open: Lions NS 4S= +420; closed: Tigers NS 4S-1 -50 -> Lions +470 = 10 IMPs
    assert (row["score_open"], row["score_closed"], row["swing"]) == (420, -50, 470)
    assert (row["imps_home"], row["imps_away"], row["status"]) == (10.0, -10.0, "played")
    assert _board(session, "R1 Lions v Tigers", 5)["imps_home"] == 0.0


def test_average_plus_on_one_board_is_three_imps(session):
    row = _board(session, "R1 Lions v Tigers", 2)
    assert (row["imps_home"], row["imps_away"], row["status"]) == (3.0, -3.0, "adjusted")
    assert pd.isna(row["swing"])


def test_average_plus_imps_is_an_option():
    row = _board(_session(options=TeamsOptions(ave_plus_imps=2)), "R1 Lions v Tigers", 2)
    assert (row["imps_home"], row["imps_away"]) == (2.0, -2.0)


def test_average_plus_to_both_does_not_balance():
    text = SHEET.replace("1,2,Open,Lions,Tigers,AVE+,,", "1,2,Open,Lions,Tigers,A+/A+,,")
    row = _board(_session(text), "R1 Lions v Tigers", 2)
    assert (row["imps_home"], row["imps_away"]) == (3.0, 3.0)


def test_board_not_played_at_one_table(session):
    row = _board(session, "R1 Lions v Tigers", 3)
    assert (row["imps_home"], row["imps_away"], row["status"]) == (0.0, 0.0, "one room")
    assert "R1 Lions v Tigers board 3: result in one room only: 0 IMPs" in session.notices


def test_board_not_played_at_either_table(session):
    assert _board(session, "R1 Lions v Tigers", 4)["status"] == "not played"


def test_match_totals(session):
    m = session.matches.set_index("match").loc["R1 Lions v Tigers"]
    assert (m["boards"], m["played"]) == (5, 3)
    assert (m["imps_home"], m["imps_away"], m["margin_home"]) == (13.0, 0.0, 13.0)
    assert (m["vp_home"], m["vp_away"]) == (wbf(13, 5), round(20 - wbf(13, 5), 2)) == (15.61, 4.39)
    assert m["status"] == "played"


def test_match_not_played_is_excluded(session):
    m = session.matches.set_index("match").loc["R1 Bears v Wolves"]
    assert m["status"] == "not played" and np.isnan(m["vp_home"]) and np.isnan(m["imps_home"])
    s = session.standings.set_index("team")
    assert s.loc["Bears", "matches"] == 0 and s.loc["Bears", "total"] == 0.0


def test_match_not_played_average_option():
    s = _session(options=TeamsOptions(unplayed="average"))
    m = s.matches.set_index("match").loc["R1 Bears v Wolves"]
    assert (m["vp_home"], m["vp_away"]) == (10.0, 10.0)
    bears = s.standings.set_index("team").loc["Bears"]
    assert (bears["total"], bears["matches"], bears["boards"], bears["imps_for"]) == (10.0, 1, 0, 0.0)


def test_boards_per_match_option(session):
    m = _session(options=TeamsOptions(boards_per_match=8)).matches.set_index("match").loc["R1 Lions v Tigers"]
    assert m["boards"] == 8 and m["vp_home"] == wbf(13, 8) == 14.68


def test_carry_over_and_penalties():
    adjustments = pd.DataFrame({"round": pd.array([1, 1, pd.NA], dtype="Int64"), "team": ["Tigers", "Lions", "Lions"],
                                "carry": [5.0, 0.0, 0.0], "imps": [0.0, 3.0, 0.0], "vp": [0.0, 0.5, 1.0]})
    s = _session(adjustments=adjustments)
    m = s.matches.set_index("match").loc["R1 Lions v Tigers"]
    # Lions 13 - carry 5 - penalty 3 = 5; Tigers -13 + 5 = -8 (the penalty is not given to them)
    assert (m["carry_away"], m["penalty_imps_home"], m["margin_home"], m["margin_away"]) == (5.0, 3.0, 5.0, -8.0)
    assert m["imps_away"] == 5.0  # IMPs won include the carry-over
    assert m["vp_home"] == pytest.approx(wbf(5, 5) - 0.5) == 12.03
    assert m["vp_away"] == pytest.approx(20 - wbf(8, 5)) == 6.19
    lions = s.standings.set_index("team").loc["Lions"]
    assert lions["penalty_vp"] == 1.0 and lions["total"] == pytest.approx(12.03 - 1.0)


def test_duplicate_result_in_a_room_is_an_error():
    text = SHEET + "1,5,Open,Lions,Tigers,1NT,N,=\n"
    with pytest.raises(BridgeprocError, match=r"teams.csv:15: .*board 5 .*entered twice"):
        _session(text)
    rooms = score_rooms(parse_team_travellers(SHEET, "teams.csv"))
    twice = pd.concat([rooms, rooms.iloc[[0]].assign(line=pd.array([99], dtype="Int64"))], ignore_index=True)
    with pytest.raises(BridgeprocError, match=r"teams.csv:99: board 1 has a second result in the open room of "
                                              r"R1 Lions v Tigers \(first at teams.csv:2\)"):
        board_imps(twice)


def test_board_a_match(session):
    b = board_bam(session.boards).set_index(["match", "board"])
    lt = b.loc["R1 Lions v Tigers"]
    assert lt["bam_home"].tolist() == [1.0, 1.0, 0.5, 0.5, 0.5]
    assert (lt["bam_home"] + lt["bam_away"]).eq(1.0).all()
    m = session.matches.set_index("match").loc["R1 Lions v Tigers"]
    assert (m["bam_home"], m["bam_away"]) == (3.5, 1.5)


def test_board_a_match_tie_margin():
    text = SHEET.replace("1,5,Closed,Lions,Tigers,1NT,S,=", "1,5,Closed,Lions,Tigers,1NT,S,-1")
    boards = _session(text).boards
    # board 5 (NS vul): open +90, closed NS -100 -> Lions +190: a win, unless 190 counts as a tie
    assert board_bam(boards).set_index(["match", "board"]).loc[("R1 Lions v Tigers", 5), "bam_home"] == 1.0
    assert board_bam(boards, tie=190).set_index(["match", "board"]).loc[("R1 Lions v Tigers", 5), "bam_home"] == 0.5


def test_bam_standings():
    s = _session(options=TeamsOptions(scoring="bam")).standings.set_index("team")
    assert (s.loc["Lions", "total"], s.loc["Tigers", "total"]) == (3.5, 1.5)
    assert np.isnan(s.loc["Lions", "vp"])


def test_a_vp_penalty_on_the_total_for_a_team_that_plays_no_match_is_refused():
    """Issue 29: it was accepted and changed nothing."""
    adjustments = pd.DataFrame({"round": pd.array([pd.NA], dtype="Int64"), "team": ["Leopards"], "vp": [2.0]})
    with pytest.raises(BridgeprocError, match="adjustment for team Leopards, which plays no match of the event"):
        _session(adjustments=adjustments)


def test_a_vp_penalty_on_the_total_comes_off_the_total():
    plain = _session().standings.set_index("team")
    adjustments = pd.DataFrame({"round": pd.array([pd.NA], dtype="Int64"), "team": ["Lions"], "vp": [2.0],
                                "imps": [0.0], "carry": [0.0]})
    fined = _session(adjustments=adjustments).standings.set_index("team")
    assert (fined.loc["Lions", "total"], fined.loc["Lions", "penalty_vp"]) == pytest.approx((15.61 - 2.0, 2.0))
    assert fined.loc["Lions", "vp"] == plain.loc["Lions", "vp"] == pytest.approx(15.61)  # earned, before the fine
    assert fined.loc["Tigers", "total"] == plain.loc["Tigers", "total"]


def test_adjustment_for_a_team_without_that_match():
    adjustments = pd.DataFrame({"round": pd.array([2], dtype="Int64"), "team": ["Lions"], "imps": [3.0]})
    with pytest.raises(BridgeprocError, match="adjustment for team Lions in round 2, but Lions has no match in round 2"):
        _session(adjustments=adjustments)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.integers(-250, 250), st.integers(-250, 250), st.booleans(), st.booleans()),
                min_size=1, max_size=12))
def test_board_imps_against_a_row_by_row_oracle(rows):
    """Random two-room scores (x10), some rooms missing: IMPs equal a plain per-board calculation."""
    records = []
    for board, (open_score, closed_score, has_open, has_closed) in enumerate(rows, start=1):
        for room, score, present in (("open", open_score * 10, has_open), ("closed", closed_score * 10, has_closed)):
            if present:
                records.append({"board": board, "room": room, "score_ns": score})
    if not records:
        return
    frame = pd.DataFrame(records)
    results = frame.assign(
        match=pd.array(["R1 H v A"] * len(frame), dtype="string"), round=pd.array([1] * len(frame), dtype="Int64"),
        home=pd.array(["H"] * len(frame), dtype="string"), away=pd.array(["A"] * len(frame), dtype="string"),
        room=pd.array(frame["room"], dtype="string"), board=frame["board"].astype("int64"),
        score_ns=pd.array(frame["score_ns"], dtype="Int64"), adjusted=pd.array([None] * len(frame), dtype="string"))
    boards = board_imps(results).set_index("board")
    bounds = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
              1750, 2000, 2250, 2500, 3000, 3500, 4000]
    for board, (open_score, closed_score, has_open, has_closed) in enumerate(rows, start=1):
        if not (has_open or has_closed):
            assert board not in boards.index
            continue
        row = boards.loc[board]
        if has_open and has_closed:
            diff = open_score * 10 - closed_score * 10
            imps = sum(abs(diff) >= b for b in bounds) * (1 if diff > 0 else -1)
            assert (row["imps_home"], row["imps_away"], row["status"]) == (imps, -imps, "played")
        else:
            assert (row["imps_home"], row["imps_away"], row["status"]) == (0.0, 0.0, "one room")
