"""Standings: totals, round-robin and Swiss tie-breaks, shared ranks."""
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError
from bridgeproc.teams import TeamsOptions, parse_vp_table, standings, swiss_pairings, totals_from_imps
from bridgeproc.teams.standings import event_format

# A simple scale so the VP totals are easy to check: draw 10-10, any win 12-8, 10+ IMPs 15-5.
SCALE = parse_vp_table("margin,winner,loser\n0,10,10\n1,12,8\n10,15,5\n", "simple.csv")
#   R1: A-B 25-20, C-D 4-4;  R2: A-C 10-15, B-D 30-25;  R3: A-D 7-7, B-C 3-3
ROUND_ROBIN = pd.DataFrame({
    "round": pd.array([1, 1, 2, 2, 3, 3], dtype="Int64"),
    "home": ["A", "C", "A", "B", "A", "B"], "away": ["B", "D", "C", "D", "D", "C"],
    "imps_home": [25.0, 4, 10, 30, 7, 3], "imps_away": [20.0, 4, 15, 25, 7, 3],
})


def _table(options, frame=ROUND_ROBIN):
    options = options.replace(scale=SCALE, boards_per_match=8)
    return standings(totals_from_imps(frame, options), options).set_index("team")


def test_totals_and_imp_figures():
    s = _table(TeamsOptions())
    assert s["total"].to_dict() == {"C": 32.0, "A": 30.0, "B": 30.0, "D": 28.0}
    assert (s.loc["A", "imps_for"], s.loc["A", "imps_against"], s.loc["A", "imp_quotient"]) == (42.0, 42.0, 1.0)
    assert s.loc["C", "matches"] == 3 and s.loc["C", "boards"] == 24


def test_round_robin_head_to_head_breaks_the_tie():
    s = _table(TeamsOptions())
    assert event_format(totals_from_imps(ROUND_ROBIN, TeamsOptions(boards_per_match=8))) == "round-robin"
    assert s["rank"].to_dict() == {"C": "1", "A": "2", "B": "3", "D": "4"}
    assert s.loc["A", "decided_by"] == "head-to-head-vp" and s.loc["C", "decided_by"] == ""


def test_swiss_default_quotient_leaves_equal_teams_tied():
    s = _table(TeamsOptions(format="swiss"))
    assert s.loc["A", "rank"] == "2=" and s.loc["B", "rank"] == "2=" and s.loc["D", "rank"] == "4"
    assert s.loc["A", "decided_by"] == "tied"


def test_configured_chain_is_applied_in_order():
    s = _table(TeamsOptions(tie_breaks=("imps-for",)))
    assert s.loc["B", "rank"] == "2" and s.loc["A", "rank"] == "3"  # B won 53 IMPs, A 42
    assert s.loc["B", "decided_by"] == "imps-for"


def test_head_to_head_imps_when_their_vps_are_equal():
    scale = parse_vp_table("margin,winner,loser\n0,10,10\n3,12,8\n10,15,5\n", "draws.csv")
    #   R1: A-B 22-20 (a VP draw, A +2 IMPs), C-D 4-4;  R2: A-C 10-15, B-D 27-25;  R3: A-D 15-7, B-C 3-3
    frame = ROUND_ROBIN.assign(imps_home=[22.0, 4, 10, 27, 15, 3], imps_away=[20.0, 4, 15, 25, 7, 3])
    options = TeamsOptions(scale=scale, boards_per_match=8)
    s = standings(totals_from_imps(frame, options), options).set_index("team")
    assert s["total"].to_dict() == {"C": 32.0, "A": 30.0, "B": 30.0, "D": 28.0}
    assert (s.loc["A", "rank"], s.loc["B", "rank"]) == ("2", "3")
    assert s.loc["A", "decided_by"] == "head-to-head-imps"


def test_unknown_tie_break():
    with pytest.raises(BridgeprocError, match="unknown tie-break coin-toss"):
        _table(TeamsOptions(tie_breaks=("coin-toss",)))


def test_zero_imps_against_gives_infinite_quotient_ranked_first():
    frame = pd.DataFrame({"round": pd.array([1, 1], dtype="Int64"), "home": ["A", "C"], "away": ["B", "D"],
                          "imps_home": [12.0, 30.0], "imps_away": [0.0, 18.0]})
    s = _table(TeamsOptions(format="swiss"), frame)
    assert s.loc["A", "imp_quotient"] == float("inf")
    assert s.loc["A", "rank"] == "1" and s.loc["C", "rank"] == "2" and s.loc["A", "decided_by"] == "imp-quotient"


def test_standings_through_a_round():
    s = _table(TeamsOptions(format="swiss"))
    options = TeamsOptions(scale=SCALE, boards_per_match=8, format="swiss")
    after_one = standings(totals_from_imps(ROUND_ROBIN, options), options, through_round=1).set_index("team")
    assert after_one["total"].to_dict() == {"A": 12.0, "C": 10.0, "D": 10.0, "B": 8.0}
    assert s.loc["A", "matches"] == 3 and after_one.loc["A", "matches"] == 1


def test_swiss_pairings_top_down_avoiding_rematches():
    options = TeamsOptions(scale=SCALE, boards_per_match=8, format="swiss")
    matches = totals_from_imps(ROUND_ROBIN.iloc[:2], options)  # R1: A-B, C-D
    table = standings(matches, options)
    pairs = swiss_pairings(table, matches)
    # after R1: A 12, C 10 = D 10, B 8 -> A meets C (not B again); D meets B
    assert list(zip(pairs["home"], pairs["away"])) == [("A", "C"), ("D", "B")]


def test_swiss_pairings_odd_number_gives_a_bye():
    table = pd.DataFrame({"team": ["A", "B", "C"]})
    pairs = swiss_pairings(table, pd.DataFrame({"home": [], "away": []}), byes={"C"})
    assert list(zip(pairs["home"], pairs["away"].fillna("-"))) == [("A", "C"), ("B", "-")]
