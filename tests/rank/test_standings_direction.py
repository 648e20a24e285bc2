"""Standings of an arrow-switched Mitchell numbered per direction, called on the results by seat: each
seat's points go to the pair that sat there, in the ranking of its number's direction."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.core.pairs import as_numbered
from bridgeproc.rank import Conventions, rank_results, standings, winner_groups
from bridgeproc.rank._standings import _long
from bridgeproc.schema import SWITCHED_COLUMNS

PER_DIRECTION = Conventions(pair_numbering="per-direction")


def results(rows) -> pd.DataFrame:
    """rows: (board, pair in the NS seat, pair in the EW seat, NS seat's score, switched)."""
    return pd.DataFrame({
        "section": pd.Series([""] * len(rows), dtype="string"),
        "board": np.array([r[0] for r in rows], dtype="int64"),
        "ns": pd.Series([str(r[1]) for r in rows], dtype="string"),
        "ew": pd.Series([str(r[2]) for r in rows], dtype="string"),
        "adjusted": pd.Series([None] * len(rows), dtype="string"),
        "score_ns": pd.Series([r[3] for r in rows], dtype="Int64"),
        "switched": pd.Series([r[4] for r in rows], dtype=SWITCHED_COLUMNS["switched"]),
    })


# Board 1 at three tables; at the third the EW pair 3 sat NS (and scored the NS seat's 150), NS 3 sat EW.
# NS seats 150 > 120 > 90: 4, 2, 0 MPs of 4; the EW seats 0, 2, 4.
BOARD_1 = results([(1, 1, 1, 120, False), (1, 2, 2, 90, False), (1, 3, 3, 150, True)])


def test_long_gives_each_side_the_direction_of_its_number():
    long = _long(BOARD_1, PER_DIRECTION)
    assert list(zip(long["pair"], long["direction"], long["key"])) == [
        ("1", "NS", ":1:NS"), ("2", "NS", ":2:NS"), ("3", "EW", ":3:EW"),
        ("1", "EW", ":1:EW"), ("2", "EW", ":2:EW"), ("3", "NS", ":3:NS")]


def test_standings_on_the_results_by_seat():
    table = standings(BOARD_1, PER_DIRECTION)
    assert table[["group", "rank", "pair", "boards", "total", "pct"]].values.tolist() == [
        ["EW", "1=", "2", 1, 4.0, 100.0],
        ["EW", "1=", "3", 1, 4.0, 100.0],  # EW 3 sat NS and beat the field's NS seats
        ["EW", "3", "1", 1, 2.0, 50.0],
        ["NS", "1", "1", 1, 2.0, 50.0],
        ["NS", "2=", "2", 1, 0.0, 0.0],
        ["NS", "2=", "3", 1, 0.0, 0.0],  # NS 3 sat EW against the best NS score
    ]
    assert winner_groups(BOARD_1, PER_DIRECTION) == {"": "two"}


# A 3-table Mitchell over 3 boards; round 3 (board 3) arrow-switched at every table.
MITCHELL = results([
    (1, 1, 1, 420, False), (1, 2, 2, 450, False), (1, 3, 3, -50, False),
    (2, 1, 2, 110, False), (2, 2, 3, 140, False), (2, 3, 1, 140, False),
    (3, 3, 1, -200, True), (3, 1, 2, 100, True), (3, 2, 3, -100, True),
])


@pytest.mark.parametrize("method", ["mp", "cross-imp", "butler"])
def test_by_seat_and_by_number_give_the_same_standings(method):
    conventions = PER_DIRECTION.replace(method=method)
    scored = rank_results(MITCHELL, conventions)
    by_seat = standings(scored, conventions)
    by_number = standings(as_numbered(scored), conventions)
    pd.testing.assert_frame_equal(by_seat, by_number)
    assert sorted(by_seat["group"] + " " + by_seat["pair"]) == ["EW 1", "EW 2", "EW 3", "NS 1", "NS 2", "NS 3"]
    assert (by_seat["boards"] == 3).all()


def test_switched_board_credited_by_number_in_the_mitchell():
    table = standings(MITCHELL, PER_DIRECTION)
    # boards 1-2 as played: NS 1 2+0, NS 2 4+3, NS 3 0+3; EW 1 2+1, EW 2 0+4, EW 3 4+1
    # board 3 NS seats: 100 (EW 1) > -100 (EW 2) > -200 (EW 3): 4, 2, 0; the EW seats NS 2, NS 3, NS 1: 0, 2, 4
    totals = dict(zip(table["group"] + " " + table["pair"], table["total"]))
    assert totals == {"NS 1": 6.0, "NS 2": 7.0, "NS 3": 5.0, "EW 1": 7.0, "EW 2": 6.0, "EW 3": 5.0}


def test_without_a_switched_column_the_sides_are_the_seats():
    plain = MITCHELL.drop(columns="switched")
    long = _long(plain, PER_DIRECTION)
    assert list(long["direction"]) == ["NS"] * 9 + ["EW"] * 9
