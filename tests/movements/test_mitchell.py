"""Mitchells for every size the library builds, checked exhaustively against what a Mitchell promises
(issue 30): one board set a table a round, no pair meets a board set twice, every set played equally
often, an NS pair meets an EW pair at most once, and where the pairs and boards go next."""
from __future__ import annotations

import itertools

import pandas as pd
import pytest

from bridgeproc.movements import mitchell
from bridgeproc.movements.mitchell import MAX_TABLES, MIN_TABLES
from bridgeproc.schema import SEATING_COLUMNS

SIZES = range(MIN_TABLES, MAX_TABLES + 1)


def _full(tables: int) -> int:
    return tables if tables % 2 else tables - 1


def _every_movement():
    for tables in SIZES:
        for rounds in range(1, _full(tables) + 1):
            yield tables, rounds


@pytest.mark.parametrize(("tables", "rounds"), list(_every_movement()))
def test_every_mitchell_keeps_its_promises(tables, rounds):
    seating = mitchell(tables, 3, rounds).seating
    assert dict(seating.dtypes.astype(str)) == SEATING_COLUMNS
    # one row, so one board set, per table per round; each set at one table at most in a round (one copy)
    assert len(seating) == tables * rounds and not seating.duplicated(["round", "table"]).any()
    assert not seating.duplicated(["round", "board_set"]).any()
    # every pair plays every round, once
    for side in ("ns", "ew"):
        assert (seating.groupby("round")[side].nunique() == tables).all()
    # no pair meets a board set twice
    assert not seating.duplicated(["ns", "board_set"]).any() and not seating.duplicated(["ew", "board_set"]).any()
    # every board set played as often as every other (each round plays all of them)
    counts = seating["board_set"].value_counts()
    assert set(counts) == {rounds} and len(counts) == tables
    # an NS pair meets an EW pair at most once
    assert not seating.duplicated(["ns", "ew"]).any()
    # the NS pairs stay; the boards move down one table
    assert (seating["ns"] == seating["table"]).all()
    by = seating.set_index(["round", "table"])["board_set"]
    for r, t in itertools.product(range(1, rounds), range(1, tables + 1)):
        assert by[(r + 1, t)] == by[(r, t % tables + 1)]  # table t gets the boards of table t + 1


@pytest.mark.parametrize("tables", [t for t in SIZES if t % 2])
def test_an_odd_mitchell_meets_every_pair_and_plays_every_board(tables):
    seating = mitchell(tables, 2).seating
    assert seating.groupby("ns")["ew"].nunique().eq(tables).all()  # every EW pair met once
    assert seating.groupby("ew")["board_set"].nunique().eq(tables).all()
    moves = seating.pivot(index="ew", columns="round", values="table")
    assert ((moves.diff(axis=1).iloc[:, 1:] % tables) == 1).all().all()  # EW up one table each round


@pytest.mark.parametrize("tables", [t for t in SIZES if t % 2 == 0])
def test_an_even_mitchell_skips_a_table_after_half_the_rounds(tables):
    seating = mitchell(tables, 2).seating
    moves = seating.pivot(index="ew", columns="round", values="table").diff(axis=1).iloc[:, 1:] % tables
    skip = tables // 2 + 1  # the first round after half
    assert (moves.drop(columns=skip) == 1).all().all() and (moves[skip] == 2).all()
    met = seating.groupby("ew")["ns"].nunique()
    assert met.eq(tables - 1).all()  # the NS pair skipped is the only one missed: no revenge round


def test_a_7_table_mitchell_of_28_boards():
    """The issue's example: 7 rounds of 4 boards; table 1 starts on boards 1-4, table 7 on 25-28."""
    movement = mitchell(7, 4)
    assert (movement.boards, movement.rounds, movement.name) == (28, 7, "Mitchell, 7 tables, 7 rounds of 4 boards")
    first = movement.seating[movement.seating["round"] == 1]
    assert [list(movement.board_range(s)) for s in first["board_set"]][::6] == [[1, 2, 3, 4], [25, 26, 27, 28]]
    travellers = movement.travellers()
    assert len(travellers) == 7 * 28 and travellers["board"].value_counts().eq(7).all()
    assert travellers.iloc[0].to_dict() == {"section": "", "board": 1, "round": 1, "table": 1, "ns": 1, "ew": 1,
                                            "switched": False}


def test_an_arrow_switch_swaps_the_seats_of_the_rounds_named():
    plain, switched = mitchell(7, 2).seating, mitchell(7, 2, arrow_switch=[6, 7]).seating
    later = switched["round"] >= 6
    assert switched["switched"].tolist() == later.tolist()
    pd.testing.assert_series_equal(switched.loc[later, "ns"], plain.loc[later, "ew"], check_names=False)
    pd.testing.assert_series_equal(switched.loc[later, "ew"], plain.loc[later, "ns"], check_names=False)
    assert switched.loc[~later].equals(plain.loc[~later].assign(switched=False))


@pytest.mark.parametrize(("call", "message"), [
    (lambda: mitchell(2), "give 3 to 15 tables"),
    (lambda: mitchell(16), "give 3 to 15 tables"),
    (lambda: mitchell(8, rounds=8), "plays 1 to 7 rounds, not 8"),
    (lambda: mitchell(7, 0), "at least one board"),
    (lambda: mitchell(7, arrow_switch=[8]), "among 1 to 7"),
])
def test_a_size_the_library_does_not_build_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
