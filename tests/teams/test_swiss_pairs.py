"""Swiss pairs: a 6-pair, 2-round event (2 boards a round) worked by hand, IMPs against the datum and VPs."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.rank import Conventions
from bridgeproc.teams.swiss import swiss_pairings
from bridgeproc.teams.swiss_pairs import SwissPairsOptions, assign_rounds, score_swiss_pairs
from bridgeproc.validate.results import validate_results

#  round, board, NS, EW, contract, declarer, tricks   -> NS score
ROWS = [
    ("1", "1", "1", "2", "4S", "N", "10"),   # +420   board 1 none vul: datum (420 - 50 + 170)/3 = 180
    ("1", "1", "3", "4", "4S", "N", "9"),    # -50
    ("1", "1", "5", "6", "3S", "N", "10"),   # +170
    ("1", "2", "1", "2", "3NT", "E", "9"),   # -400   board 2 NS vul: datum -490/3 = -163.3 -> -160
    ("1", "2", "3", "4", "2H", "W", "9"),    # -140
    ("1", "2", "5", "6", "3NT", "E", "8"),   # +50
    ("2", "3", "4", "5", "1NT", "S", "7"),   # +90    board 3 EW vul: datum 610/3 = 203.3 -> 200
    ("2", "3", "1", "3", "1NT", "S", "8"),   # +120
    ("2", "3", "2", "6", "3NT", "N", "9"),   # +400
    ("2", "4", "4", "5", "4H", "N", "10"),   # +620   board 4 all vul: datum 1140/3 = 380
    ("2", "4", "1", "3", "4H", "N", "9"),    # -100
    ("2", "4", "2", "6", "4H", "N", "10"),   # +620
]
# board IMPs (NS): b1 420-180=+240 -> 6, -50-180=-230 -> -6, 170-180 -> 0
#                  b2 -400+160=-240 -> -6, -140+160=20 -> 1, 50+160=210 -> 5
#                  b3 90-200=-110 -> -3, 120-200=-80 -> -2, 400-200 -> 5
#                  b4 620-380=240 -> 6, -100-380=-480 -> -10, 240 -> 6
# round 1: 1-2 6-6 = 0; 3-4 -6+1 = -5 (4: +5); 5-6 0+5 = +5 (6: -5)
# round 2: 4-5 -3+6 = +3 (5: -3); 1-3 -2-10 = -12 (3: +12); 2-6 5+6 = +11 (6: -11)
# WBF 2013 for 2 boards (blitz 15 x sqrt 2 = 21.2): 0 -> 10, 3 -> 12.42, 5 -> 13.78, 11 -> 16.90, 12 -> 17.31
DATUM = SwissPairsOptions(conventions=Conventions(datum_drop=0))


def _results(rows=ROWS):
    raw = pd.DataFrame(rows, columns=["round", "board", "ns", "ew", "contract", "declarer", "tricks"]).astype("string")
    raw["source"] = "event.csv"
    raw["line"] = pd.array(range(2, len(raw) + 2), dtype="Int64")
    checked = validate_results(raw.drop(columns=["round"])).results
    return checked.assign(round=raw["round"].to_numpy())


def test_match_imps_and_vps_by_hand():
    event = score_swiss_pairs(_results(), DATUM)
    played = event.matches.set_index(["round", "pair"])
    assert list(event.results["datum"]) == [180] * 3 + [-160] * 3 + [200] * 3 + [380] * 3
    expected = {(1, "1"): (0, 10.0), (1, "2"): (0, 10.0), (1, "3"): (-5, 6.22), (1, "4"): (5, 13.78),
                (1, "5"): (5, 13.78), (1, "6"): (-5, 6.22),
                (2, "4"): (3, 12.42), (2, "5"): (-3, 7.58), (2, "1"): (-12, 2.69), (2, "3"): (12, 17.31),
                (2, "2"): (11, 16.90), (2, "6"): (-11, 3.10)}
    assert {k: (played.loc[k, "imps"], round(played.loc[k, "vp"], 2)) for k in expected} == expected
    assert played.loc[(1, "1"), ["opponent", "boards", "imps_for", "imps_against"]].tolist() == ["2", 2, 6.0, 6.0]
    assert set(event.matches["status"]) == {"played"} and event.rounds == 2


def test_standings_by_vps_then_imps():
    table = score_swiss_pairs(_results(), DATUM).standings
    assert list(table["pair"]) == ["2", "4", "3", "5", "1", "6"]
    assert dict(zip(table["pair"], table["total"])) == pytest.approx(
        {"2": 26.90, "4": 26.20, "3": 23.53, "5": 21.36, "1": 12.69, "6": 9.32})
    assert list(table["rank"]) == ["1", "2", "3", "4", "5", "6"]


def test_the_default_datum_drops_top_and_bottom_so_three_results_take_the_median():
    event = score_swiss_pairs(_results())
    assert list(event.results["datum"]) == [170] * 3 + [-140] * 3 + [120] * 3 + [620] * 3


def test_cross_imps_average_over_the_comparisons():
    event = score_swiss_pairs(_results(), SwissPairsOptions(imps="cross"))
    # board 1, +420 against -50 (470: +10) and +170 (250: +6): 8 per comparison; -50 gets (-10 - 6) / 2
    assert event.results["imps_ns"].iloc[:3].tolist() == [8.0, -8.0, 0.0]


def test_a_bye_in_an_odd_field_and_the_draw_after_it():
    rows = [r for r in ROWS if "6" not in (r[2], r[3])]  # pair 6 never played: an odd field of 5
    rows = [r for r in rows if not (r[0] == "2" and r[2] == "2")]
    event = score_swiss_pairs(_results(rows), DATUM)
    byes = event.matches[event.matches["status"] != "played"]
    assert list(zip(byes["round"], byes["pair"], byes["status"], byes["vp"])) == [(1, "5", "bye", 12.0),
                                                                                     (2, "2", "bye", 12.0)]
    assert "round 1: pair 5 had the bye (12 VP)" in event.notes
    drawn = swiss_pairings(event.standings, event.meetings, event.byes, 3)
    assert drawn["home"].iloc[-1] not in event.byes and pd.isna(drawn["away"].iloc[-1])


def test_round_cells_are_checked():
    results = _results()
    results["round"] = ["1", "x", "", *results["round"].iloc[3:]]
    with pytest.raises(ValidationError) as caught:
        assign_rounds(results)
    problems = caught.value.problems
    assert list(zip(problems["line"], problems["column"], problems["message"].str[:20])) == [
        ("3", "round", "not a round number; "), ("4", "round", "no round for this re")]
    by_boards = assign_rounds(results.assign(round=pd.NA), boards_per_round=2)
    assert list(by_boards) == [1] * 6 + [2] * 6


def test_a_pair_meeting_two_pairs_in_one_round_is_refused():
    rows = list(ROWS)
    rows[3] = ("1", "2", "1", "4", "3NT", "E", "9")  # pair 1 meets 2 on board 1, 4 on board 2
    rows[4] = ("1", "2", "3", "2", "2H", "W", "9")
    with pytest.raises(ValidationError) as caught:
        score_swiss_pairs(_results(rows), DATUM)
    assert "pair 1 meets 2, 4 in round 1" in caught.value.full_text()
