"""Complete Howells for every size the library builds, checked exhaustively (issue 30): every pair meets
every other once, plays every board set once, each table plays one set a round, every set is played as
often, and one copy of the boards is enough wherever a strong starter exists."""
from __future__ import annotations

import itertools

import pytest

from bridgeproc.movements import howell
from bridgeproc.movements.howell import MAX_TABLES, MIN_TABLES, board_offsets, copies
from bridgeproc.schema import SEATING_COLUMNS

SIZES = range(MIN_TABLES, MAX_TABLES + 1)


@pytest.mark.parametrize("tables", SIZES)
def test_every_complete_howell_keeps_its_promises(tables):
    movement = howell(tables, 3)
    seating = movement.seating
    pairs, rounds = 2 * tables, 2 * tables - 1
    assert dict(seating.dtypes.astype(str)) == SEATING_COLUMNS
    assert (movement.rounds, movement.board_sets, movement.boards) == (rounds, rounds, 3 * rounds)
    assert len(seating) == tables * rounds and not seating.duplicated(["round", "table"]).any()
    # every pair plays every round once, and meets every other pair exactly once
    long = [(row.round, p) for row in seating.itertuples() for p in (row.ns, row.ew)]
    assert len(set(long)) == len(long) == pairs * rounds
    met = {frozenset((row.ns, row.ew)) for row in seating.itertuples()}
    assert met == {frozenset(c) for c in itertools.combinations(range(1, pairs + 1), 2)}
    # every pair plays every board set exactly once
    played = {(p, row.board_set) for row in seating.itertuples() for p in (row.ns, row.ew)}
    assert played == set(itertools.product(range(1, pairs + 1), range(1, rounds + 1)))
    # every set played by every table once, so as often as every other
    assert seating.groupby("table")["board_set"].nunique().eq(rounds).all()
    assert set(seating["board_set"].value_counts()) == {tables}
    # the top pair stays NS at table 1
    assert (seating.loc[seating["table"] == 1, "ns"] == pairs).all()


@pytest.mark.parametrize(("tables", "expected"), [(2, 2), (3, 3), (4, 1), (5, 2), (6, 1), (7, 1), (8, 1)])
def test_one_copy_of_the_boards_wherever_a_strong_starter_exists(tables, expected):
    """No strong starter exists modulo 3, 5 or 9: the 2-, 3- and 5-table Howells share board sets."""
    assert copies(howell(tables)) == expected


@pytest.mark.parametrize("tables", SIZES)
def test_the_offsets_are_a_starter(tables):
    m, offsets = 2 * tables - 1, board_offsets(tables)
    covered = [offsets[0] % m] + [(offsets[k] + s * k) % m for k in range(1, tables) for s in (1, -1)]
    assert sorted(covered) == list(range(m)) and offsets == board_offsets(tables)  # and always the same


def test_a_5_table_howell_of_27_boards():
    """The issue's example: 10 pairs, 9 rounds of 3 boards."""
    movement = howell(5, 3)
    assert movement.name == "complete Howell, 5 tables, 9 rounds of 3 boards" and movement.boards == 27
    travellers = movement.travellers()
    assert len(travellers) == 5 * 27 and travellers["board"].value_counts().eq(5).all()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: howell(1), "give 2 to 8 tables"), (lambda: howell(9), "give 2 to 8 tables"),
    (lambda: howell(4, 0), "at least one board"),
])
def test_a_size_the_library_does_not_build_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()
