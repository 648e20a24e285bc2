"""The producers' conventions as small case tables: cross-IMPs averaged per board
(``cross_imp="board-average"``), each board on its own top (``mp_top="board"``), totals scaled to
the most boards (``sitout="most"``), the producers' profiles, and the published-numbers notes."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.rank import Conventions, cross_imps, matchpoints, parse_scoring_tag, profile, standings
from bridgeproc.rank.conventions import CONVENTION_HELP, PROFILES, scoring_tag
from bridgeproc.rank.published import published_differences
from tests.rank.test_rank_examples import board


def _frame(*boards: pd.DataFrame) -> pd.DataFrame:
    return pd.concat(boards, ignore_index=True)


def test_board_average_divides_each_result_by_its_comparisons():
    scores = [420, 420, 450, -100]
    summed = cross_imps(board(scores))
    averaged = cross_imps(board(scores), Conventions(cross_imp="board-average"))
    np.testing.assert_allclose(averaged["ximp_ns"], summed["ximp_ns"] / 3)
    np.testing.assert_allclose(averaged["ximp_ew"], -averaged["ximp_ns"])
    assert averaged["ximp_comparisons"].tolist() == [3, 3, 3, 3]
    assert averaged["ximp_ns"].iloc[3] == pytest.approx(-11.0)  # 3 x -11 IMPs over 3 comparisons


def test_board_average_artificial_rows_and_single_results():
    averaged = cross_imps(board([420, 450, None], adjusted=[None, None, "A+"]), Conventions(cross_imp="board-average"))
    assert averaged["ximp_ns"].tolist()[2] == pytest.approx(3.0)  # A+ per comparison, as it is
    single = cross_imps(board([420]), Conventions(cross_imp="board-average"))
    assert single["ximp_ns"].tolist() == [0.0]  # no comparison, no IMPs (not NaN)


def test_board_average_totals_are_sums_of_the_unrounded_board_values():
    frame = _frame(board([420, 420, 450, -100]), board([100, -50, 110], board_no=2))
    conventions = Conventions(method="cross-imp", cross_imp="board-average", winners="two")
    scored = cross_imps(frame, conventions)
    table = standings(scored, conventions).set_index("pair")
    expected = scored.groupby("ns")["ximp_ns"].sum()
    for pair in ("1", "2", "3"):
        assert table.loc[pair, "total"] == pytest.approx(expected[pair])


def test_board_tops_on_the_traveller_and_the_full_top_in_the_totals():
    """Board 1 played 6 times (top 10), board 2 5 times: its traveller is on a top of 8; the totals
    Neuberg-factor it to 10: (mp + 1) x 6/5 - 1."""
    frame = _frame(board([600, 500, 400, 300, 200, 100]), board([500, 400, 300, 200, 100], board_no=2))
    conventions = Conventions(mp_top="board", winners="two")
    scored = matchpoints(frame, conventions)
    second = scored[scored["board"] == 2]
    assert second["mp_ns"].tolist() == [8, 6, 4, 2, 0] and (second["top"] == 8).all()
    assert second["pct_ns"].tolist() == [100, 75, 50, 25, 0]
    table = standings(scored, conventions).set_index("pair")
    # pair 1: 10 on board 1, (8 + 1) x 6/5 - 1 = 9.8 on board 2; percentage over 2 x 10
    assert table.loc["1", "total"] == pytest.approx(19.8)
    assert table.loc["1", "pct"] == pytest.approx(99.0)
    full = standings(matchpoints(frame, Conventions(winners="two")), Conventions(winners="two")).set_index("pair")
    assert table.loc["1", "total"] == pytest.approx(full.loc["1", "total"])  # the same totals as Neuberg


def test_board_tops_neuberg_around_an_artificial_line():
    """Lindfield board 26: 5 results and an A5050 on a 6-line board: (raw + 1) x 6/5 - 1, the A5050 5 of 10."""
    scored = matchpoints(board([200, 230, None, 650, 170, 300], adjusted=[None, None, "50/50", None, None, None]),
                         Conventions(mp_top="board"))
    assert scored["mp_ns"].round(6).tolist() == [2.6, 5.0, 5.0, 9.8, 0.2, 7.4]
    assert (scored["top"] == 10).all()


def test_board_tops_default_is_unchanged():
    frame = _frame(board([600, 500, 400, 300, 200, 100]), board([500, 400, 300, 200, 100], board_no=2))
    default = matchpoints(frame)
    assert (default["top"] == 10).all()
    assert Conventions().mp_top == "full" and Conventions().cross_imp == "sum" and Conventions().sitout == "none"


@pytest.mark.parametrize("method", ["mp", "cross-imp", "butler"])
def test_sitout_most_scales_totals_to_the_most_boards_of_the_group(method):
    frame = _frame(board([420, 450, 100]), board([100, 140, -50], board_no=2))
    frame = frame[~((frame["board"] == 2) & (frame["ns"] == "1"))].reset_index(drop=True)  # pair 1 missed board 2
    plain = standings(frame, Conventions(method=method, winners="two")).set_index("pair")  # type: ignore[arg-type]
    most = standings(frame, Conventions(method=method, sitout="most", winners="two")).set_index("pair")  # type: ignore[arg-type]
    assert most.loc["1", "total"] == pytest.approx(plain.loc["1", "total"] * 2)
    assert most.loc["2", "total"] == pytest.approx(plain.loc["2", "total"])
    if method == "mp":
        assert most.loc["1", "pct"] == pytest.approx(plain.loc["1", "pct"])  # over the boards played


def test_producer_profiles_and_their_help():
    assert PROFILES["compscore"] == Conventions(mp_top="board", sitout="most", cross_imp="board-average")
    assert profile("kops").cross_imp == "board-average"
    assert profile("bbo").factoring == "none"
    assert {"mp_top", "cross_imp", "sitout"} <= set(CONVENTION_HELP)
    with pytest.raises(ValueError, match="mp_top"):
        Conventions(mp_top="half")  # type: ignore[arg-type]


def test_board_average_scoring_tag_reads_back():
    conventions = Conventions(method="cross-imp", cross_imp="board-average")
    assert parse_scoring_tag(scoring_tag(conventions)) == conventions


# --------------------------------------------------------------------------- published numbers


def _raw_and_ranked():
    ranked = matchpoints(board([420, 450, 100]).assign(source="f.xml", line=pd.array([1, 2, 3], dtype="Int64")))
    raw = pd.DataFrame({"source": ["f.xml"] * 3, "line": ["1", "2", "3"], "board": ["1"] * 3,
                        "mp_ns": ["2", "4", "1"]})
    return raw, ranked


def test_published_board_values_one_note_with_the_count_and_first_example():
    raw, ranked = _raw_and_ranked()
    notes = published_differences(raw, ranked, "mp")
    assert notes is not None and len(notes) == 1
    note = notes.iloc[0]
    assert note["line"] == "3" and note["column"] == "mp_ns" and note["value"] == "1"
    assert note["message"].startswith("1 of 3 published MP_NS differ from bridgeproc's (board 1: here 1, ours 0)")
    assert "--mp-top" in note["message"]


def test_published_totals_percentages_and_places_each_one_note():
    raw, ranked = _raw_and_ranked()
    table = standings(ranked, Conventions(winners="two"))
    ns = table[table["group"] == "NS"].set_index("pair")
    totals = pd.DataFrame({
        "source": ["f.xml"] * 3, "line": ["10", "11", "12"], "pair": ["1", "2", "3"], "direction": ["NS"] * 3,
        "total": [f"{ns.loc['1', 'total']:.2f}", "9.00", f"{ns.loc['3', 'total']:.2f}"],
        "percentage": [f"{ns.loc['1', 'pct']:.2f}", f"{ns.loc['2', 'pct']:.2f}", "12.5"],
        "place": ["2", "1", "2"],  # ties written without "=" compare equal to ours
    })
    notes = published_differences(raw.assign(mp_ns=["2", "4", "0"]), ranked, "mp", table, totals)
    assert notes is not None
    assert notes["column"].tolist() == ["total", "percentage", "place"]
    assert notes["message"].iloc[0].startswith("1 of 3 published totals differ from bridgeproc's (pair 2: here 9")
    assert notes["message"].iloc[1].startswith("1 of 3 published percentages differ")
    assert notes["message"].iloc[2].startswith("1 of 3 published places differ from bridgeproc's (pair 3: here 2")


def test_after_an_exact_reproduction_only_the_awards_are_compared():
    """The search compared the board values, totals, percentages and places and all agreed: they are not
    compared again, the masterpoint awards (which the search leaves out) still are."""
    raw, ranked = _raw_and_ranked()
    table = standings(ranked, Conventions(winners="two"))
    table = table.assign(masterpoints=[6.0 if (g, p) == ("NS", "1") else 0.0 for g, p in zip(table["group"], table["pair"])])
    totals = pd.DataFrame({
        "source": ["f.xml"] * 3, "line": ["10", "11", "12"], "pair": ["1", "2", "3"], "direction": ["NS"] * 3,
        "total": ["99"] * 3, "percentage": ["1"] * 3, "place": ["9"] * 3,  # all differ: compared, each a note
        "masterpoints": ["4", "", ""],  # pair 1 was given 4, ours 6; the others listed bare (0) as ours
    })
    everything = published_differences(raw, ranked, "mp", table, totals)
    assert everything is not None
    assert everything["column"].tolist() == ["mp_ns", "total", "percentage", "place", "masterpoints"]
    awards = published_differences(raw, ranked, "mp", table, totals, reproduced=True)
    assert awards is not None and awards["column"].tolist() == ["masterpoints"]
    assert awards["message"].iloc[0].startswith("1 of 3 published masterpoint awards differ from bridgeproc's "
                                                "(pair 1: here 4, ours 6)")
    assert published_differences(raw, ranked, "mp", table, totals.drop(columns="masterpoints"), reproduced=True) is None
    assert published_differences(raw, ranked, "mp", table.drop(columns="masterpoints"), totals, reproduced=True) is None
