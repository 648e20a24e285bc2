"""Worked examples of reference sections 5, 7 and 8, as parametrised tables."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.rank import Conventions, butler, cross_imps, matchpoints, parse_scoring_tag, profile, to_imps
from bridgeproc.rank.imps import drop_counts, round_datum


def board(scores, adjusted=None, section="A", board_no=1, first_pair=1):
    n = len(scores)
    return pd.DataFrame({
        "section": pd.Series([section] * n, dtype="string"),
        "board": np.full(n, board_no, dtype="int64"),
        "ns": pd.Series([str(first_pair + i) for i in range(n)], dtype="string"),
        "ew": pd.Series([str(first_pair + 100 + i) for i in range(n)], dtype="string"),
        "adjusted": pd.Series(adjusted or [None] * n, dtype="string"),
        "score_ns": pd.Series(scores, dtype="Int64"),
    })


REFERENCE_7_1 = [620, 170, 140, 140, -100]


@pytest.mark.parametrize("scale, mps, top", [
    (2, [8, 6, 3, 3, 0], 8),
    (1, [4, 3, 1.5, 1.5, 0], 4),
])
def test_basic_matchpoints_reference_7_1(scale, mps, top):
    got = matchpoints(board(REFERENCE_7_1), Conventions(mp_scale=scale))
    assert got["mp_ns"].tolist() == mps
    assert got["mp_ew"].tolist() == [top - m for m in mps]
    assert got["pct_ns"].tolist() == [100, 75, 37.5, 37.5, 0]
    assert (got["top"] == top).all()


def test_neuberg_ebu_example_reference_7_2():
    """10 results where 11 were expected: raw 18, 16, ..., 0 become 19.9, 17.7, ..., 0.1 of 20."""
    ten = board([100 * i for i in range(10, 0, -1)])
    frame = pd.concat([ten, board([0] * 11, board_no=2)], ignore_index=True)
    got = matchpoints(frame)
    first = got[got["board"] == 1]
    assert first["mp_ns"].round(6).tolist() == [19.9, 17.7, 15.5, 13.3, 11.1, 8.9, 6.7, 4.5, 2.3, 0.1]
    assert (first["top"] == 20).all()
    assert first["mp_factor"].iloc[0] == pytest.approx(1.1)


def test_neuberg_expected_count_given():
    got = matchpoints(board([100 * i for i in range(10, 0, -1)]), Conventions(expected=11))
    assert got["mp_ns"].round(6).tolist()[:2] == [19.9, 17.7]


@pytest.mark.parametrize("scale, first, last", [(2, 19.9, 0.1), (1, 9.95, 0.05)])
def test_neuberg_one_half_scale(scale, first, last):
    """1/½ scale: MP' = (MP + ½) N/n - ½ is exactly half of the 2/1 figure."""
    got = matchpoints(board([100 * i for i in range(10, 0, -1)]), Conventions(expected=11, mp_scale=scale))
    assert got["mp_ns"].iloc[0] == pytest.approx(first)
    assert got["mp_ns"].iloc[-1] == pytest.approx(last)


def test_average_factoring_counts_missing_results_as_ties():
    got = matchpoints(board(REFERENCE_7_1), Conventions(factoring="average", expected=6))
    assert got["mp_ns"].tolist() == [9, 7, 4, 4, 1]
    assert (got["top"] == 10).all()


def test_no_factoring_keeps_the_board_top():
    got = matchpoints(board(REFERENCE_7_1), Conventions(factoring="none", expected=6))
    assert got["mp_ns"].tolist() == [8, 6, 3, 3, 0]
    assert (got["top"] == 8).all()


def test_artificial_rows_are_left_out_and_the_rest_factored_to_the_full_top():
    """French file convention: 21 real results and one A+/A+ on a 22-result board, top 42."""
    scores = list(range(2100, 0, -100))
    frame = board(scores + [None], adjusted=[None] * 21 + ["A+/A+"])
    got = matchpoints(frame)
    assert (got["top"] == 42).all()
    assert got["mp_ns"].iloc[0] == pytest.approx((40 + 1) * 22 / 21 - 1)
    assert got["mp_ns"].iloc[-1] == pytest.approx(25.2)  # 60 % of 42, as published
    assert got["mp_ew"].iloc[-1] == pytest.approx(25.2)
    assert got["pct_ew"].iloc[-1] == 60


@pytest.mark.parametrize("code, ns_pct, ew_pct", [
    ("A+/A-", 60, 40), ("A-/A+", 40, 60), ("A/A", 50, 50), ("A+/A+", 60, 60), ("60/40", 60, 40),
    ("60/60", 60, 60), ("55/45", 55, 45), ("A-/A-", 40, 40),
])
def test_artificial_codes(code, ns_pct, ew_pct):
    got = matchpoints(board(REFERENCE_7_1 + [None], adjusted=[None] * 5 + [code]))
    assert (got["pct_ns"].iloc[-1], got["pct_ew"].iloc[-1]) == (ns_pct, ew_pct)
    assert got["mp_ns"].iloc[-1] == pytest.approx(ns_pct / 100 * 10)


def test_not_played_rows_are_absent_and_the_board_is_factored():
    frame = pd.concat([board(REFERENCE_7_1 + [None], adjusted=[None] * 5 + ["NP"]),
                       board([10] * 6, board_no=2)], ignore_index=True)
    got = matchpoints(frame)
    assert np.isnan(got["mp_ns"].iloc[5]) and np.isnan(got["top"].iloc[5])
    assert got["mp_ns"].iloc[0] == pytest.approx(9.8)


def test_centred_matchpoints_norway():
    """Published = MP(2/1) - (n - 1): 4 results give -3 .. +3."""
    got = matchpoints(board([620, 170, 140, -100]), Conventions(centred=True))
    assert got["mp_ns"].tolist() == [3, 1, -1, -3]
    assert got["mp_ew"].tolist() == [-3, -1, 1, 3]
    assert got["pct_ns"].tolist()[0] == 100


def test_across_the_field_compares_sections():
    frame = pd.concat([board([620, 170], section="A"), board([140, -100], section="B", first_pair=50)],
                      ignore_index=True)
    assert matchpoints(frame)["mp_ns"].tolist() == [2, 0, 2, 0]
    assert matchpoints(frame, Conventions(across_field=True))["mp_ns"].tolist() == [6, 4, 2, 0]


# --- IMPs ---------------------------------------------------------------------------

@pytest.mark.parametrize("diff, size", [
    (0, 0), (10, 0), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (120, 3), (130, 4), (160, 4),
    (170, 5), (210, 5), (220, 6), (260, 6), (270, 7), (310, 7), (320, 8), (360, 8), (370, 9),
    (420, 9), (430, 10), (490, 10), (500, 11), (590, 11), (600, 12), (740, 12), (750, 13),
    (890, 13), (900, 14), (1090, 14), (1100, 15), (1290, 15), (1300, 16), (1490, 16), (1500, 17),
    (1740, 17), (1750, 18), (1990, 18), (2000, 19), (2240, 19), (2250, 20), (2490, 20), (2500, 21),
    (2990, 21), (3000, 22), (3490, 22), (3500, 23), (3990, 23), (4000, 24), (7600, 24),
    (-20, -1), (-4000, -24), (19.9, 0), (-97.5, -3), (2.5, 0),
])
def test_imp_scale_reference_5(diff, size):
    assert to_imps(np.array([diff]))[0] == size


def test_cross_imps_reference_8_1():
    got = cross_imps(board(REFERENCE_7_1))
    assert got["ximp_ns"].tolist() == [42, -1, -5, -5, -31]
    assert got["ximp_ew"].tolist() == [-42, 1, 5, 5, 31]
    per_comparison = got["ximp_ns"] / got["ximp_comparisons"].astype("float64")
    assert per_comparison.tolist() == [10.5, -0.25, -1.25, -1.25, -7.75]


def test_cross_imps_artificial_award_per_comparison():
    """The Swedish file: A+/A+ on a board of 39 real results gives 58.5 = 1.5 x 39 to each side."""
    frame = board(list(range(-1900, 2000, 100)) + [None], adjusted=[None] * 39 + ["A+/A+"])
    got = cross_imps(frame, Conventions(imp_ave_plus=1.5))
    assert got["ximp_ns"].iloc[-1] == 58.5 and got["ximp_ew"].iloc[-1] == 58.5
    assert got["ximp_comparisons"].iloc[-1] == 39 and got["ximp_comparisons"].iloc[0] == 38


@pytest.mark.parametrize("scores, drop, datum, butler_ns", [
    ([650, 170, 200], 0, 340, [7, -5, -4]),  # bridge-scorer: 3 results, nothing dropped
    ([650, 170, 200], 1, 200, [10, -1, 0]),  # one dropped at each end: the median (Finnish file)
    ([-650, -170, -1440, 100, -170, -200], 1, -300, [-8, 4, -15, 9, 4, 3]),  # mean -297.5
    ([620] * 4 + [170] * 3, 1, 440, [5] * 4 + [-7] * 3),  # Hemel BC
])
def test_butler_reference_8_2(scores, drop, datum, butler_ns):
    got = butler(board(scores), Conventions(datum_drop=drop))
    assert (got["datum"] == datum).all()
    assert got["butler_ns"].tolist() == butler_ns
    assert got["butler_ew"].tolist() == [-x for x in butler_ns]


@pytest.mark.parametrize("total, count, datum", [
    (-2975, 10, -300), (-295, 1, -300), (295, 1, 300), (-285, 1, -290), (285, 1, 290),
    (2949, 10, 290), (-25, 1, -30), (25, 1, 30), (-24, 1, -20), (4, 1, 0), (-4, 1, 0), (0, 5, 0),
])
def test_datum_rounds_halves_away_from_zero(total, count, datum):
    assert round_datum(np.array([total]), np.array([count]))[0] == datum


@pytest.mark.parametrize("total, count, datum", [
    (-2975, 10, -298), (-295, 1, -295), (2949, 10, 295), (5, 2, 3), (-5, 2, -3), (4, 3, 1), (0, 5, 0),
])
def test_a_datum_rounded_to_the_point(total, count, datum):
    assert round_datum(np.array([total]), np.array([count]), 1)[0] == datum


def test_datum_round_is_one_declaration_plus_its_code():
    """Issue 27's proof: ``datum_round`` is one declared field and one argument of round_datum; its
    option, help, words and search come from the declaration."""
    scores = [620, 620, 170, 170, 140]  # dropping 620 and 140 at the ends: mean of 620, 170, 170 = 320
    tens, point = (butler(board(scores), Conventions(method="butler", datum_round=r)) for r in (10, 1))
    assert tens["datum"].tolist() == [320] * 5 and point["datum"].tolist() == [320] * 5
    uneven = [600, 430, 420, 100, 90]  # mean of 430, 420, 100 = 316.67
    tens, point = (butler(board(uneven), Conventions(method="butler", datum_round=r)) for r in (10, 1))
    assert tens["datum"].tolist() == [320] * 5 and point["datum"].tolist() == [317] * 5
    # 100 against 320 is -220, 6 IMPs; against 317, -217: 5 IMPs
    assert tens["butler_ns"].tolist() == [7, 3, 3, -6, -6] and point["butler_ns"].tolist() == [7, 3, 3, -5, -6]


@pytest.mark.parametrize("n, drop, share, kept", [
    (8, 1, None, 6), (3, 1, None, 1), (2, 1, None, 2), (1, 1, None, 1), (4, 1, None, 2),
    (5, 3, None, 1), (6, 3, None, 2), (20, 1, 0.1, 16), (25, 1, 0.1, 19), (15, 1, 0.1, 11), (40, 1, 0.1, 32),
])
def test_butler_drop_counts(n, drop, share, kept):
    k = drop_counts(np.array([n]), Conventions(datum_drop=drop, datum_drop_share=share))[0]
    assert n - 2 * k == kept


def test_butler_artificial_and_no_real_results():
    frame = board([None, None], adjusted=["A+/A-", "NP"])
    got = butler(frame)
    assert got["butler_ns"].iloc[0] == 3 and got["butler_ew"].iloc[0] == -3
    assert got["datum"].isna().all()


# --- conventions ------------------------------------------------------------------

@pytest.mark.parametrize("tag, method, changes", [
    ("MatchPoints", "mp", {}),
    ("MatchPoints;MP1", "mp", {"mp_scale": 2}),
    ("MatchPoints;MP2", "mp", {"mp_scale": 1}),
    ("IMP;Cross", "cross-imp", {"cross_imp": "sum"}),
    ("IMP;Cross1", "cross-imp", {"cross_imp": "average-n"}),
    ("IMP;Cross2", "cross-imp", {"cross_imp": "average"}),
    ("IMP;Butler-2;Mean", "butler", {"datum_drop": 1}),
    ("IMP;Butler", "butler", {"datum_drop": 1}),
    ("IMP;Butler-4", "butler", {"datum_drop": 2}),
])
def test_parse_scoring_tag(tag, method, changes):
    conv = parse_scoring_tag(tag)
    assert conv.method == method
    for name, value in changes.items():
        assert getattr(conv, name) == value


def test_parse_scoring_tag_keeps_base_and_rejects_unknown():
    assert parse_scoring_tag("MatchPoints", profile("acbl")).mp_scale == 1
    with pytest.raises(ValueError, match="names no pairs method"):
        parse_scoring_tag("Rubber")


def test_profiles_and_validation():
    assert profile("EBU").adjusted_mode == "session"
    assert profile("acbl").mp_scale == 1
    assert profile("wbf", datum_drop=2).datum_drop == 2
    with pytest.raises(ValueError, match="unknown profile"):
        profile("nope")
    with pytest.raises(ValueError, match="factoring"):
        Conventions(factoring="bogus")  # type: ignore[arg-type]


# --- edges and the split/weighted-score hook --------------------------------------

@pytest.mark.parametrize("function", [matchpoints, cross_imps, butler])
def test_empty_results(function):
    from bridgeproc.schema import RESULTS_COLUMNS, empty

    got = function(empty(RESULTS_COLUMNS))
    assert len(got) == 0 and len(got.columns) > len(RESULTS_COLUMNS)


def test_board_of_only_artificial_and_not_played_rows():
    frame = board([None, None], adjusted=["NP", "A+/A-"])
    got = matchpoints(frame)
    assert np.isnan(got["mp_ns"].iloc[0])
    assert got["pct_ns"].iloc[1] == 60 and got["pct_ew"].iloc[1] == 40
    assert cross_imps(frame)["ximp_comparisons"].iloc[1] == 0


def test_mp_against_leaves_out_the_rows_own_result():
    """The hook for split and weighted scores: any score against a board, minus the row's own result."""
    from bridgeproc.rank._core import prepare
    from bridgeproc.rank._matchpoints import _mp_against

    prepared = prepare(board(REFERENCE_7_1), Conventions())
    group = np.repeat(prepared.group[1], 3)
    # the 170 row scored as if 140 (against 620, 140, 140, -100), as 620 and as -100
    got = _mp_against(prepared, group, np.array([140, 620, -100]), np.array([170, 170, 170]))
    assert got.tolist() == [2 * 1 + 2, 2 * 3 + 1, 0 + 1]


def test_mp_against_scores_beyond_the_field():
    from bridgeproc.rank._core import prepare
    from bridgeproc.rank._matchpoints import _mp_against

    frame = pd.concat([board(REFERENCE_7_1), board([0, 10], board_no=2)], ignore_index=True)
    prepared = prepare(frame, Conventions())
    group = prepared.group[[0, 0, 5]]
    got = _mp_against(prepared, group, np.array([9990, -9990, 9990]), prepared.score[[0, 0, 5]])
    assert got.tolist() == [8, 0, 2]


def test_cross_imps_artificial_on_a_board_without_played_results():
    """A board of only A+/A- and A/A rows in a 3-result section: N - 1 = 2 comparisons, as MPs and Butler award it."""
    frame = pd.concat([board([620, 170, -100]), board([None, None], adjusted=["A+/A-", "A/A"], board_no=2)],
                      ignore_index=True)
    got = cross_imps(frame)
    assert got["ximp_ns"].tolist()[3:] == [6.0, 0.0]
    assert got["ximp_ew"].tolist()[3:] == [-6.0, 0.0]
    assert got["ximp_comparisons"].tolist() == [2, 2, 2, 2, 2]
    assert butler(frame)["butler_ns"].iloc[3] == 3.0
    assert matchpoints(frame)["pct_ns"].iloc[3] == 60
