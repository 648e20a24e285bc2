"""Complete Howells for every size the library builds, checked exhaustively (issue 30): every pair meets
every other once, plays every board set once, each table plays one set a round, every set is played as
often, and one copy of the boards is enough wherever a Room square exists."""
from __future__ import annotations

import itertools

import pytest

from bridgeproc.movements import howell
from bridgeproc.movements.howell import MAX_TABLES, MIN_TABLES, board_offsets, copies, starter_offsets
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
    # the top pair stays NS at one table: table 1, or the middle table where the boards move down one table
    hub = seating[seating["ns"] == pairs]
    assert len(hub) == rounds and hub["table"].nunique() == 1 and not (seating["ew"] == pairs).any()
    assert hub["table"].iat[0] == {5: 3, 7: 4}.get(tables, 1)


@pytest.mark.parametrize(("tables", "expected"), [(2, 2), (3, 3), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1)])
def test_one_copy_of_the_boards_wherever_a_room_square_exists(tables, expected):
    """No Room square of side 3 or 5 exists: the 2- and 3-table Howells share board sets; every other size
    needs one set of boards."""
    assert copies(howell(tables)) == expected


@pytest.mark.parametrize("tables", SIZES)
def test_the_places_are_a_starter_and_the_offsets_fit_them(tables):
    m = 2 * tables - 1
    places, offsets = starter_offsets(tables)
    paired = [(a, c) for a, c in places if a != m]
    differences = sorted(d % m for a, c in paired for d in (a - c, c - a))
    assert differences == list(range(1, m))  # every pair meets every other once
    sets = [(offsets[k] - place) % m for k, (a, c) in enumerate(places) for place in ((c,) if a == m else (a, c))]
    assert sorted(sets) == list(range(m))  # every pair meets every board set once
    assert offsets == board_offsets(tables)


@pytest.mark.parametrize(("tables", "relays"), [(5, 4), (7, 6)])
def test_the_5_and_7_table_howells_move_the_boards_down_one_table(tables, relays):
    """As the published 5- and 7-table Howells do (sets of boards down one table a round, 4 or 6 relay stands
    between the first and the last table): the set at table t goes to table t - 1, table 1's to the relays,
    and the last relay's to table n."""
    movement = howell(tables, 2)
    at = movement.seating.set_index(["round", "table"])["board_set"]
    for r in range(1, movement.rounds):
        for t in range(2, tables + 1):
            assert at[(r + 1, t - 1)] == at[(r, t)]
    resting = movement.board_sets - tables
    assert resting == relays
    assert at[(1 + relays + 1, tables)] == at[(1, 1)]  # table 1's set comes back to the last table after the relays


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
