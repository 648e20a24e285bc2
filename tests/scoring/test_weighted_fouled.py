"""Weighted scores (Law 12C1c) and fouled boards, from the traveller cell to the ranking.

Every expected figure below is worked by hand in the comments (2/1 scale unless said).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.rank import Conventions, butler, cross_imps, matchpoints, profile, standings
from bridgeproc.schema import VUL
from bridgeproc.scoring.weighted import score_weighted
from bridgeproc.validate.results import validate_results

H = "Board,NS,EW,Contract,Declarer,Result,Lead\n"

# Board 2 (NS vulnerable): 4S= N +620, 4S-1 N -100, 3NT= S +600; the director weights
# them 50/30/20 at the table of NS 6 v EW 16.
BOARD_2 = H + """2,1,11,4S,N,=,
2,2,12,4S,N,=,
2,3,13,3NT,S,=,
2,4,14,2S,N,+2,
2,5,15,4S,N,-1,
2,6,16,"W 50% 4S=N; 30% 4S-1N; 20% 3NT=S",,,
"""
WEIGHTED_CODE = "W:50% 4SN= +620; 30% 4SN-1 -100; 20% 3NTS= +600"


def validated(text, fouled=None, **options):
    raw = parse_travellers_csv(text, "t.csv")
    if fouled is not None:
        raw["fouled"] = pd.Series(fouled, dtype="string")
    return validate_results(raw, **options)


def problems(text, fouled=None):
    with pytest.raises(ValidationError) as info:
        validated(text, fouled)
    frame = info.value.problems
    return [f"{s}:{line}: {c}: {m}" for s, line, c, m in zip(frame["source"], frame["line"], frame["column"],
                                                               frame["message"])]


def board(scores, adjusted=None, fouled=None, board_no=1):
    n = len(scores)
    frame = pd.DataFrame({
        "section": pd.Series(["A"] * n, dtype="string"),
        "board": np.full(n, board_no, dtype="int64"),
        "ns": pd.Series([str(1 + i) for i in range(n)], dtype="string"),
        "ew": pd.Series([str(101 + i) for i in range(n)], dtype="string"),
        "adjusted": pd.Series(adjusted or [None] * n, dtype="string"),
        "score_ns": pd.Series(scores, dtype="Int64"),
    })
    if fouled is not None:
        frame["fouled"] = pd.Series(fouled, dtype="string")
    return frame


# --- validation: the code keeps every part and its score -----------------------------

def test_weighted_row_keeps_every_part_with_its_score_on_the_board_vulnerability():
    results = validated(BOARD_2).results
    row = results.iloc[5]
    assert row["adjusted"] == WEIGHTED_CODE
    assert pd.isna(row["score_ns"]) and pd.isna(row["level"])
    assert results["score_ns"].iloc[:5].tolist() == [620, 620, 600, 170, -100]


def test_weighted_parts_use_the_hand_record_vulnerability():
    # the hand record says nobody is vulnerable on board 2: 4S= is +420, 4S-1 -50, 3NT= +400
    boards = pd.DataFrame({"board": np.array([2], dtype="int64"), "deal": pd.Series([""], dtype="string"),
                           "vul": pd.Series(pd.Categorical(["None"], dtype=VUL))})
    results = validated(BOARD_2, boards=boards).results
    assert results["adjusted"].iloc[5] == "W:50% 4SN= +420; 30% 4SN-1 -50; 20% 3NTS= +400"


def test_score_weighted_scores_each_code_per_board():
    frame = pd.DataFrame({"board": np.array([1, 2, 1], dtype="int64"),
                          "adjusted": pd.Series(["W:50% 4SN=; 50% PASS", "W:50% 4SN=; 50% PASS", None], dtype="string")})
    got = score_weighted(frame)
    assert got["adjusted"].tolist()[:2] == ["W:50% 4SN= +420; 50% PASS +0", "W:50% 4SN= +620; 50% PASS +0"]
    assert pd.isna(got["adjusted"].iloc[2])
    assert frame["adjusted"].iloc[0] == "W:50% 4SN=; 50% PASS"  # input untouched
    with pytest.raises(ValueError, match="the percentages add up to 50%"):
        score_weighted(frame.assign(adjusted=pd.Series(["W:50% 4SN=", None, None], dtype="string")))


@pytest.mark.parametrize("cell, message", [
    ("W 50% 4S=N; 40% 4S-1N", "t.csv:2: contract: 'W 50% 4S=N; 40% 4S-1N': the percentages add up to 90%, not "
                              "100%; correct them"),
    ("W 30% 4S=N; 30% 4S-1N; 30% 3NT=S", "t.csv:2: contract: 'W 30% 4S=N; 30% 4S-1N; 30% 3NT=S': the percentages "
                                         "add up to 90%, not 100%; correct them (thirds: 33.33, 33.33, 33.34)"),
    ("W 50% 4S=N; 50% 4Q-1N", "t.csv:2: contract: 'W 50% 4S=N; 50% 4Q-1N': part 2 '50% 4Q-1N' is not "
                              "'percentage contract result declarer'; write e.g. W 50% 4S=N; 30% 4S-1N; 20% 3NT=S"),
    ("W 50% 4S=N; 50% 4SN", "t.csv:2: contract: 'W 50% 4S=N; 50% 4SN': part 2 '50% 4SN' has no result; write the "
                            "result and declarer after the contract, e.g. 50% 4S-1N"),
    ("W 50% 4S=N; 50% 4S-1", "t.csv:2: contract: 'W 50% 4S=N; 50% 4S-1': part 2 '50% 4S-1' has no declarer; write "
                             "the result and declarer after the contract, e.g. 50% 4S-1N"),
    ("W 50% 4S=N; 50% 4S-11N", "t.csv:2: contract: 'W 50% 4S=N; 50% 4S-11N': part 2 '50% 4S-11N' means -1 tricks, "
                               "which is impossible (0-13); correct the contract or the result"),
    ("W 0% 4S=N; 100% 4S-1N", "t.csv:2: contract: 'W 0% 4S=N; 100% 4S-1N': part 1 '0% 4S=N' has weight 0%; each "
                              "percentage must be above 0 and at most 100"),
])
def test_weighted_problems_point_at_the_cell_and_say_how_to_fix(cell, message):
    assert problems(H + f'1,1,11,"{cell}",,,\n1,2,12,4S,N,=,\n') == [message]


# --- matchpoints --------------------------------------------------------------------

# Board 2: real 620 620 600 170 -100 and the weighted row (50% 620, 30% -100, 20% 600); n = 6, top 10.
# Weighted row: 620 part beats 3, ties 2 -> 8; -100 part ties 1 -> 1; 600 part beats 2, ties 1 -> 5:
#   0.5 x 8 + 0.3 x 1 + 0.2 x 5 = 5.3.
# 620: 6 + 1 against the real results, against the parts 0.5 x 1 + 0.3 x 2 + 0.2 x 2 = 1.5 -> 8.5 (twice).
# 600: 4 + 0.3 x 2 + 0.2 x 1 = 4.8;  170: 2 + 0.3 x 2 = 2.6;  -100: 0 + 0.3 x 1 = 0.3.  Sum 30 = 6 x 5.
@pytest.mark.parametrize("scale, mps, top", [
    (2, [8.5, 8.5, 4.8, 2.6, 0.3, 5.3], 10),
    (1, [4.25, 4.25, 2.4, 1.3, 0.15, 2.65], 5),
])
def test_weighted_matchpoints_by_hand(scale, mps, top):
    got = matchpoints(validated(BOARD_2).results, Conventions(mp_scale=scale))
    np.testing.assert_allclose(got["mp_ns"], mps)
    np.testing.assert_allclose(got["mp_ew"], [top - m for m in mps])
    assert (got["top"] == top).all()
    assert got["pct_ns"].iloc[5] == pytest.approx(53.0)
    assert got["mp_factor"].iloc[5] == 1.0


def test_weighted_row_on_a_short_board_is_neuberg_factored():
    # the board above with 8 results expected: (5.3 + 1) x 8/6 - 1 = 7.4 of 14
    got = matchpoints(validated(BOARD_2).results, Conventions(expected=8))
    assert got["mp_ns"].iloc[5] == pytest.approx(7.4)
    assert got["top"].iloc[5] == 14


def test_weighted_rows_compare_with_each_other_at_both_weights():
    # 620 and two weighted rows (50% 620 / 50% -100) and (100% 170); n = 3, top 4.
    # W1 v 620: 0.5 x 1 = 0.5; W1 v W2: 0.5 x 2 = 1 -> 1.5.  W2 v 620: 0; v W1: 0.5 x 2 -> 1.
    # 620 v W1: 0.5 x 1 + 0.5 x 2 = 1.5; v W2: 2 -> 3.5.  Sum 6 = 3 x 2.
    frame = board([620, None, None], adjusted=[None, "W:50% 4SN= +620; 50% 4SN-1 -100", "W:100% 2SN+2 +170"])
    got = matchpoints(frame)
    np.testing.assert_allclose(got["mp_ns"], [3.5, 1.5, 1.0])


def test_weighted_score_as_an_assigned_result_equals_the_played_result():
    played = matchpoints(board([620, 420, -100]))
    assigned = matchpoints(board([620, None, -100], adjusted=[None, "W:100% 4SN= +420", None]))
    np.testing.assert_allclose(played["mp_ns"], assigned["mp_ns"])


def test_ranking_needs_the_scores_in_the_code():
    with pytest.raises(ValueError, match="has no score for every part; score the results first"):
        matchpoints(board([620, None], adjusted=[None, "W:50% 4SN=; 50% 4SN-1"]))


# --- cross-IMPs and Butler ---------------------------------------------------------

# Cross-IMPs of the weighted row: 620 part against 620 620 600 170 -100: 0 0 1 10 12 = 23;
# -100 part: -12 -12 -12 -7 0 = -43; 600 part: -1 -1 0 10 12 = 20;
#   0.5 x 23 + 0.3 x -43 + 0.2 x 20 = 11.5 - 12.9 + 4 = 2.6 over 5 comparisons.
# 620: 0 + 1 + 10 + 12 = 23 against the real results; against the parts 0.3 x 12 + 0.2 x 1 = 3.8 -> 26.8.
def test_weighted_cross_imps_by_hand():
    got = cross_imps(validated(BOARD_2).results)
    assert got["ximp_ns"].iloc[5] == pytest.approx(2.6)
    assert got["ximp_ew"].iloc[5] == pytest.approx(-2.6)
    assert got["ximp_ns"].iloc[0] == pytest.approx(26.8)
    assert got["ximp_comparisons"].tolist() == [5] * 6
    assert got["ximp_ns"].sum() == pytest.approx(0)


# Butler: the datum drops -100 and one 620 from the played results: (620 + 600 + 170)/3 = 463.3 -> 460.
# Weighted row: 0.5 x IMP(160) + 0.3 x IMP(-560) + 0.2 x IMP(140) = 0.5 x 4 - 0.3 x 11 + 0.2 x 4 = -0.5.
def test_weighted_butler_by_hand():
    got = butler(validated(BOARD_2).results)
    assert (got["datum"] == 460).all()
    assert got["butler_ns"].iloc[5] == pytest.approx(-0.5)
    assert got["butler_ew"].iloc[5] == pytest.approx(0.5)


def test_weighted_butler_without_a_datum_scores_zero():
    got = butler(board([None], adjusted=["W:50% 4SN= +620; 50% 4SN-1 -100"]))
    assert got["butler_ns"].iloc[0] == 0 and pd.isna(got["datum"].iloc[0])


def test_weighted_row_counts_in_the_standings():
    frame = validated(BOARD_2).results
    table = standings(frame, Conventions(winners="two", pair_numbering="per-direction"))
    ns6 = table[(table["group"] == "NS") & (table["pair"] == "6")].iloc[0]
    assert ns6["boards"] == 1 and ns6["pct"] == pytest.approx(53.0)


# --- fouled boards -----------------------------------------------------------------

# 8 results on the board: 5 as dealt (620 600 170 140 -100) and 3 fouled (F: 300 110 -50); N = 8, top 14.
# As dealt, n = 5, raw 8 6 4 2 0 -> (raw + 1) x 8/5 - 1 = 13.4 10.2 7 3.8 0.6.
# F, n = 3, raw 4 2 0 -> (raw + 1) x 8/3 - 1 = 12.333 7 1.667.
FOULED_SCORES = [620, 600, 170, 140, -100, 300, 110, -50]
FOULED_LABELS = [None] * 5 + ["F"] * 3


@pytest.mark.parametrize("scale, mps, top", [
    (2, [13.4, 10.2, 7, 3.8, 0.6, 37 / 3, 7, 5 / 3], 14),
    # ACBLscore's M = N S/n + (N - n)/2n on 1/½: 8 x 4/5 + 3/10 = 6.7 for the 620
    (1, [6.7, 5.1, 3.5, 1.9, 0.3, 37 / 6, 3.5, 5 / 6], 7),
])
def test_fouled_groups_are_neuberg_factored_to_the_full_top(scale, mps, top):
    got = matchpoints(board(FOULED_SCORES, fouled=FOULED_LABELS), Conventions(mp_scale=scale))
    np.testing.assert_allclose(got["mp_ns"], mps)
    np.testing.assert_allclose(got["mp_ew"], [top - m for m in mps])
    assert (got["top"] == top).all()
    np.testing.assert_allclose(got["mp_factor"], [8 / 5] * 5 + [8 / 3] * 3)


def test_fouled_group_of_three_gets_70_60_50_under_acbl():
    # the group of 3 is not the largest: 70 / 60 / 50 % of 14 for NS; EW the mirror (50 / 60 / 70 %)
    got = matchpoints(board(FOULED_SCORES, fouled=FOULED_LABELS), Conventions(fouled="acbl"))
    np.testing.assert_allclose(got["mp_ns"].iloc[5:], [9.8, 8.4, 7.0])
    np.testing.assert_allclose(got["pct_ew"].iloc[5:], [50, 60, 70])
    np.testing.assert_allclose(got["mp_ns"].iloc[:5], [13.4, 10.2, 7, 3.8, 0.6])  # 5: the formula
    assert got["mp_factor"].iloc[5:].isna().all()


@pytest.mark.parametrize("scores, labels, pct_ns, pct_ew", [
    # hermandw.be (WBF proposal): 620 620 -100 in a group of 3 -> NS 65 65 50, EW 55 55 70
    ([620, 620, -100, 100, 200, 300, 400], ["F"] * 3 + [None] * 4, [65, 65, 50], [55, 55, 70]),
    # a group of 2: 65 / 55 each way; tied, 60 each
    ([420, 170, 1, 2, 3], ["F", "F", None, None, None], [65, 55], [55, 65]),
    ([420, 420, 1, 2, 3], ["F", "F", None, None, None], [60, 60], [60, 60]),
    # a single result: 60 % for each direction
    ([420, 1, 2, 3], ["F", None, None, None], [60], [60]),
    # a group of 3 that is the largest group keeps the formula: (4 + 1) x 5/3 - 1 = 22/3 of 8
    ([620, 170, -100, 1, 2], ["F"] * 3 + [None] * 2, [22 / 3 / 8 * 100, 50, (5 / 3 - 1) / 8 * 100], None),
])
def test_acbl_small_fouled_groups(scores, labels, pct_ns, pct_ew):
    got = matchpoints(board(scores, fouled=labels), Conventions(fouled="acbl"))
    k = len(pct_ns)
    np.testing.assert_allclose(got["pct_ns"].iloc[:k], pct_ns)
    if pct_ew is not None:
        np.testing.assert_allclose(got["pct_ew"].iloc[:k], pct_ew)


def test_fouled_groups_compare_imps_within_the_group():
    # as dealt 620 / 170: IMP(450) = 10; fouled 140 / -100: IMP(240) = 6
    frame = board([620, 170, 140, -100], fouled=[None, None, "F", "F"])
    assert cross_imps(frame)["ximp_ns"].tolist() == [10, -10, 6, -6]
    # Butler, 2 results each, nothing dropped: datum (620 + 170)/2 = 395 -> 400; (140 - 100)/2 = 20
    got = butler(frame)
    assert got["datum"].tolist() == [400, 400, 20, 20]
    assert got["butler_ns"].tolist() == [6, -6, 3, -3]


def test_one_group_label_on_every_row_is_not_fouled():
    plain = matchpoints(board([620, 170, 140]))
    labelled = matchpoints(board([620, 170, 140], fouled=["F", "f ", "F"]))
    np.testing.assert_allclose(plain["mp_ns"], labelled["mp_ns"])


@pytest.mark.parametrize("main", ["", "-", "0", "no", "N", None])
def test_main_deal_spellings(main):
    got = matchpoints(board([620, 170, 140, -100], fouled=[main, main, "F", "F"]), Conventions(expected=4))
    # two groups of 2 factored to N = 4: (2 + 1) x 2 - 1 = 5 and (0 + 1) x 2 - 1 = 1 of 6
    assert got["mp_ns"].tolist() == [5, 1, 5, 1]


def test_fouled_board_with_average_and_no_factoring():
    frame = board([620, 170, 140, -100], fouled=[None, None, "F", "F"])
    # average: N = max(4, 4) = 4 -> as above; none: N = the 4 results of the board
    for factoring in ("average", "none"):
        assert matchpoints(frame, Conventions(factoring=factoring))["mp_ns"].tolist() == [5, 1, 5, 1]


def test_fouled_board_with_an_artificial_score_and_a_weighted_one():
    # as dealt: 620, 170 and A+/A- (60 % of the full top); fouled: 140 and a weighted row 50% 140 / 50% -100
    # N = 5 (rows on the board), top 8. As dealt n = 2: (2 + 1) x 5/2 - 1 = 6.5, 1.5.
    # Fouled n = 2: 140 v W: 0.5 x 1 + 0.5 x 2 = 1.5 -> (1.5 + 1) x 5/2 - 1 = 5.25; W: 0.5 -> 2.75.
    frame = board([620, 170, None, 140, None], adjusted=[None, None, "A+/A-", None, "W:50% 1NTN+2 +140; 50% 4SN-1 -100"],
                  fouled=[None, None, None, "F", "F"])
    got = matchpoints(frame)
    np.testing.assert_allclose(got["mp_ns"], [6.5, 1.5, 4.8, 5.25, 2.75])
    assert (got["top"] == 8).all()


# --- validation of fouled groups ---------------------------------------------------

FOULED_TRAVELLER = H + """3,1,11,4S,N,=,
3,2,12,4S,N,-1,
3,3,13,3NT,S,=,
3,4,14,2S,N,+2,
3,5,15,NP,,,
"""


def test_fouled_column_is_carried_and_each_fouled_board_noted():
    # group X holds only a not-played row: no group of the ranking
    checked = validated(FOULED_TRAVELLER, fouled=["", " f", "F", "-", "x"])
    assert checked.results["fouled"].tolist() == [pd.NA, "F", "F", pd.NA, "X"]
    assert checked.notes["message"].tolist() == [
        "board 3 is fouled: scored as 2 groups (2 results as dealt, 2 results in group F), "
        "each scored on its own against the board's full top (IMPs within the group)"]
    assert checked.notes["line"].tolist() == ["2"]


def test_no_fouled_column_no_fouled_results_column():
    checked = validated(FOULED_TRAVELLER)
    assert "fouled" not in checked.results and checked.notes.empty


def test_fouled_label_too_long_is_a_problem():
    got = problems(FOULED_TRAVELLER, fouled=["", "", "played the wrong deal", "", ""])
    assert got == ["t.csv:4: fouled: 'PLAYED THE WRONG DEAL' is too long for a fouled-board group; write a short "
                   "label such as F or 2, and leave the cell blank for the board as dealt"]


# --- conventions -------------------------------------------------------------------

def test_fouled_convention_default_profiles_and_validation():
    assert Conventions().fouled == "neuberg"
    assert profile("acbl").fouled == "acbl" and profile("ebu").fouled == "neuberg"
    with pytest.raises(ValueError, match="fouled='asc'; expected one of neuberg, acbl"):
        Conventions(fouled="asc")  # type: ignore[arg-type]


def test_weighted_board_counts_for_the_session_percentage_rule():
    # pair 1 (NS): board 1 played, 620 v 170 -> 100 %; board 2 weighted 50% 620 / 50% -100 v 170 -> 50 %;
    # board 3 A+ -> max(60, own 75) = 75 % of the top.
    frame = pd.concat([board([620, 170], board_no=1), board([None, 170], adjusted=["W:50% 4SN= +620; 50% 4SN-1 -100", None],
                                                           board_no=2),
                       board([None, 170], adjusted=["A+/A-", None], board_no=3)], ignore_index=True)
    got = matchpoints(frame, Conventions(adjusted_mode="session", pair_numbering="per-direction"))
    assert got["pct_ns"].tolist() == [100, 0, 50, 50, 75, 50]  # the lone 170 on board 3: (0 + 1) x 2/1 - 1 = 1 of 2
