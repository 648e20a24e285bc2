"""Standings: winner groups, totals, percentages, ties as ``2=``, IMP totals."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.rank import Conventions, matchpoints, rank_text, standings, winner_groups
from bridgeproc.schema import STANDINGS_COLUMNS


def results(rows, section="A"):
    """rows: (board, ns, ew, score_ns or artificial code)."""
    scores = [r[3] if isinstance(r[3], int) else None for r in rows]
    codes = [r[3] if isinstance(r[3], str) else None for r in rows]
    return pd.DataFrame({
        "section": pd.Series([section] * len(rows), dtype="string"),
        "board": np.array([r[0] for r in rows], dtype="int64"),
        "ns": pd.Series([str(r[1]) for r in rows], dtype="string"),
        "ew": pd.Series([str(r[2]) for r in rows], dtype="string"),
        "adjusted": pd.Series(codes, dtype="string"),
        "score_ns": pd.Series(scores, dtype="Int64"),
    })


# 4-pair Howell: every pair sits both ways; no pair twice on a board.
HOWELL_ROWS = [
    (1, 1, 2, 100), (1, 3, 4, 50),
    (2, 4, 1, 200), (2, 2, 3, 200),
    (3, 1, 3, -100), (3, 4, 2, 300),
]
HOWELL = results(HOWELL_ROWS)

# 3-table Mitchell numbered per direction: NS 1-3 and EW 1-3 are different pairs.
MITCHELL = results([
    (1, 1, 1, 420), (1, 2, 2, 450), (1, 3, 3, -50),
    (2, 1, 2, 110), (2, 2, 3, 140), (2, 3, 1, 140),
    (3, 1, 3, -200), (3, 2, 1, 100), (3, 3, 2, -100),
])


def test_howell_is_one_winner_with_ties():
    assert winner_groups(HOWELL) == {"A": "one"}
    table = standings(HOWELL)
    assert list(table.columns) == list(STANDINGS_COLUMNS)
    assert table["group"].tolist() == ["ALL"] * 4
    assert table["pair"].tolist() == ["4", "1", "3", "2"]
    assert table["rank"].tolist() == ["1", "2=", "2=", "4"]
    assert table["total"].tolist() == [5, 3, 3, 1]
    assert table["pct"].round(4).tolist() == [83.3333, 50, 50, 16.6667]
    assert (table["boards"] == 3).all()
    assert table.dtypes.astype(str).tolist() == [str(v) for v in STANDINGS_COLUMNS.values()]


def test_mitchell_per_direction_is_two_winners():
    assert winner_groups(MITCHELL) == {"A": "two"}
    table = standings(MITCHELL)
    assert table["group"].tolist() == ["EW"] * 3 + ["NS"] * 3
    scored = matchpoints(MITCHELL)
    ns_totals = scored.groupby("ns")["mp_ns"].sum()
    ns = table[table["group"] == "NS"].set_index("pair")["total"]
    assert ns.to_dict() == ns_totals.to_dict()
    assert table["total"].sum() == pytest.approx(9 * 4)  # 9 results, top 4 each, NS + EW


def test_winners_override():
    table = standings(HOWELL, Conventions(winners="two"))
    assert set(table["group"]) == {"NS", "EW"}
    assert winner_groups(MITCHELL, Conventions(winners="one")) == {"A": "one"}


def test_sections_are_ranked_apart_unless_across_the_field():
    two = pd.concat([HOWELL, results(HOWELL_ROWS, section="B")], ignore_index=True)
    table = standings(two)
    assert sorted(set(table["group"])) == ["A ALL", "B ALL"]
    assert len(standings(two, Conventions(across_field=True))) == 8


def test_rank_text():
    values = pd.Series([10.0, 12.0, 10.0, 9.0, 12.0, 1.0])
    groups = pd.Series(["x", "x", "x", "x", "y", "y"])
    assert rank_text(values, groups).tolist() == ["2=", "1", "2=", "4", "1", "2"]


def test_names_from_mapping_and_frame():
    by_map = standings(HOWELL, names={"1": "Ann - Bob", "4": "Cy - Di"})
    assert by_map.set_index("pair")["names"].to_dict()["1"] == "Ann - Bob"
    assert pd.isna(by_map.set_index("pair")["names"]["2"])
    frame = pd.DataFrame({"section": ["A"], "pair": ["4"], "names": ["Cy - Di"]})
    assert standings(HOWELL, names=frame)["names"].iloc[0] == "Cy - Di"


def test_artificial_rows_count_as_boards_and_score_their_percentage():
    rows = HOWELL.copy()
    rows.loc[5, "score_ns"] = pd.NA
    rows.loc[5, "adjusted"] = "A+/A-"
    table = standings(rows).set_index("pair")
    assert table.loc["4", "boards"] == 3
    assert table.loc["4", "total"] == pytest.approx(2 + 1 + 0.6 * 2)


def test_cross_imp_totals_sum_and_average_per_comparison():
    board = results([(1, 1, 11, 620), (1, 2, 12, 170), (1, 3, 13, 140), (1, 4, 14, 140), (1, 5, 15, -100)])
    summed = standings(board, Conventions(method="cross-imp")).set_index("pair")["total"]
    assert summed["1"] == 42 and summed["15"] == 31
    averaged = standings(board, Conventions(method="cross-imp", cross_imp="average")).set_index("pair")["total"]
    assert averaged["1"] == 10.5 and averaged["5"] == -7.75
    per_result = standings(board, Conventions(method="cross-imp", cross_imp="average-n")).set_index("pair")["total"]
    assert per_result["1"] == 42 / 5


def test_butler_totals_scaled_for_a_sit_out():
    """A pair that sat out a board gets its own average on it: total x boards / played."""
    rows = results([
        (1, 1, 2, 620), (1, 3, 4, 170),
        (2, 1, 3, 100), (2, 2, 4, 100),
        (3, 2, 3, 50),  # pairs 1 and 4 sit out board 3
    ])
    plain = standings(rows, Conventions(method="butler", winners="one")).set_index("pair")
    scaled = standings(rows, Conventions(method="butler", winners="one", sitout="scale")).set_index("pair")
    assert plain.loc["1", "boards"] == 2
    assert scaled.loc["1", "total"] == pytest.approx(plain.loc["1", "total"] * 3 / 2)
    assert scaled.loc["2", "total"] == pytest.approx(plain.loc["2", "total"])
    assert np.isnan(scaled["pct"]).all()


def test_standings_do_not_mutate_and_accept_scored_results():
    before = HOWELL.copy()
    scored = matchpoints(HOWELL)
    pd.testing.assert_frame_equal(standings(scored), standings(HOWELL))
    pd.testing.assert_frame_equal(HOWELL, before)


def test_names_per_direction_mitchell():
    names = pd.DataFrame({"pair": ["1", "1", "2"], "direction": ["NS", "EW", None],
                          "names": ["North One", "East One", "Both Two"]})
    table = standings(MITCHELL, names=names).set_index(["group", "pair"])["names"]
    assert table[("NS", "1")] == "North One" and table[("EW", "1")] == "East One"
    assert table[("NS", "2")] == "Both Two" and table[("EW", "2")] == "Both Two"
    assert pd.isna(table[("NS", "3")])


def test_individual_event_ranks_players():
    rows = results([(1, "1+2", "3+4", 100), (1, "5+6", "7+8", 50), (2, "1+3", "2+4", 0), (2, "5+7", "6+8", 0)])
    assert winner_groups(rows) == {"A": "one"}
    table = standings(rows).set_index("pair")
    assert len(table) == 8 and set(table["group"]) == {"ALL"}
    assert table.loc["1", "total"] == 2 + 1 and table.loc["4", "total"] == 0 + 1
    assert table.loc["1", "rank"] == "1="


def test_pairs_of_several_sections_ranked_together_keep_apart():
    two = pd.concat([HOWELL, results(HOWELL_ROWS, section="B")], ignore_index=True)
    table = standings(two, Conventions(across_field=True))
    assert sorted(table["pair"]) == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4"]
    assert table["rank"].tolist()[:2] == ["1=", "1="]
