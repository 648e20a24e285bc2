"""Individual movements for 2 to 4 tables: ``4n`` players, ``4n - 1`` rounds, every player partnering every
other once and meeting every other twice as an opponent (a whist tournament), playing every board set once.

The movement is cyclic: player ``4n`` stays North at table 1; the others move one place round a circle of
``4n - 1`` places each round (the player at place ``p`` in round ``r`` is player ``(p + r) mod (4n - 1) + 1``).
:data:`BASE_ROUNDS` gives each table's North, South, East and West places in round 1, found by
:func:`find_base_round`: the partnerships' differences modulo ``4n - 1`` are every non-zero residue once, and
the oppositions' twice, which is what makes every pair of players partners once and opponents twice.

Table ``t`` plays board set ``r + s(t)`` in round ``r``. A player meets every set once when the offsets
``s(t) - p`` over the places ``p`` of each table are every residue once. For 2 and 3 tables that forces every
table to play the same set each round (the boards shared between the tables, as a 2-table individual's
are: with 3 and 4 places at the tables the counts modulo 7 and 11 leave no other choice); for 4 tables the
offsets of :data:`BASE_ROUNDS` have two tables share a set each round. ``copies`` (``movements.howell``)
says how many copies of the boards are needed.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from bridgeproc.movements.model import Movement
from bridgeproc.schema import INDIVIDUAL_SEATING_COLUMNS, SEATING_COLUMNS

#: The sizes the library builds and checks.
MIN_TABLES, MAX_TABLES = 2, 4

#: Round 1 of each size: the places (North, South, East, West) of each table, place ``4n - 1`` being the
#: stationary player; then each table's board-set offset. Found by :func:`find_base_round` and
#: :func:`board_offsets` (a test runs the search again).
BASE_ROUNDS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    2: ((7, 0, 1, 3, 2, 6, 4, 5), (0, 0)),
    3: ((11, 0, 1, 3, 2, 9, 6, 7, 4, 10, 5, 8), (0, 0, 0)),
    4: ((15, 0, 1, 2, 3, 7, 10, 12, 4, 11, 8, 13, 5, 14, 6, 9), (0, 14, 1, 0)),
}


def find_base_round(tables: int, skip: int = 0) -> tuple[int, ...] | None:
    """The ``skip``-th base round (in the search's order) of a cyclic whist tournament of ``tables`` tables:
    places filled table by table, N S E W, each partnership's and opposition's differences counted as they
    are placed. None when there are fewer."""
    m = 4 * tables - 1
    hub = m
    places = [hub] + [-1] * (4 * tables - 1)
    partners, opponents = [0] * m, [0] * m
    used = {hub}
    found: list[tuple[int, ...]] = []

    def count(a: int, b: int, counts: list[int], step: int) -> None:
        if hub not in (a, b):
            counts[(a - b) % m] += step
            counts[(b - a) % m] += step

    def fits(counts: list[int], limit: int, a: int, b: int) -> bool:
        return hub in (a, b) or (counts[(a - b) % m] < limit and counts[(b - a) % m] < limit)

    def place(k: int) -> bool:
        if k == len(places):
            found.append(tuple(places))
            return len(found) > skip
        table, seat = divmod(k, 4)
        for value in range(m):
            if value in used or (k == 1 and value != 0):
                continue
            north, south, east = places[4 * table], places[4 * table + 1], places[4 * table + 2]
            pairs = ([(north, value, partners, 1)] if seat == 1 else []) + \
                ([(east, value, partners, 1)] if seat == 3 else []) + \
                ([(north, value, opponents, 2), (south, value, opponents, 2)] if seat >= 2 else [])
            taken: list = []
            ok = True
            for a, b, counts, limit in pairs:
                if not fits(counts, limit, a, b):
                    ok = False
                    break
                count(a, b, counts, 1)
                taken.append((a, b, counts))
            if ok:
                places[k] = value
                used.add(value)
                if place(k + 1):
                    return True
                used.discard(value)
                places[k] = -1
            for a, b, counts in taken:
                count(a, b, counts, -1)
        return False

    place(1)
    return found[skip] if len(found) > skip else None


def board_offsets(base: tuple[int, ...], tables: int) -> tuple[int, ...] | None:
    """The board-set offsets (the first 0) with which every player meets every set once and as few tables
    as can be share a set in a round; None when there are none (every design has all zero)."""
    m = 4 * tables - 1
    at = [[p for p in base[4 * t:4 * t + 4] if p != m] for t in range(tables)]
    best: tuple[int, tuple[int, ...]] | None = None
    for rest in itertools.product(range(m), repeat=tables - 1):
        offsets = (0, *rest)
        if len({(offsets[t] - p) % m for t in range(tables) for p in at[t]}) == m:
            shared = max(offsets.count(o) for o in offsets)
            if best is None or shared < best[0]:
                best = (shared, offsets)
    return None if best is None else best[1]


def individual(tables: int, boards_per_round: int = 2, rounds: int | None = None) -> Movement:
    """The individual movement of ``tables`` tables (see the module's text), or its first ``rounds`` rounds
    (each player then meets some others less often and the boards are played unequally often: factored);
    ValueError for a size it does not build."""
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(f"an individual of {tables} tables: give {MIN_TABLES} to {MAX_TABLES} tables")
    if boards_per_round < 1:
        raise ValueError("give at least one board a round")
    m = 4 * tables - 1
    rounds = m if rounds is None else rounds
    if not 1 <= rounds <= m:
        raise ValueError(f"a {tables}-table individual plays 1 to {m} rounds, not {rounds}")
    base, offsets = (np.array(part, dtype=np.int64) for part in BASE_ROUNDS[tables])
    r = np.repeat(np.arange(rounds), tables)
    t = np.tile(np.arange(tables), rounds)
    seats = base.reshape(tables, 4)[t]  # the places at each row's table
    players = np.where(seats == m, 4 * tables, (seats + r[:, None]) % m + 1)
    sets, board_set = np.unique((r + offsets[t]) % m, return_inverse=True)
    section = pd.array([""] * len(r), dtype="string")
    seating = pd.DataFrame({"section": section, "round": r + 1, "table": t + 1, "ns": players[:, 0],
                            "ew": players[:, 2], "board_set": board_set + 1,
                            "switched": np.zeros(len(r), dtype=bool)}).astype(SEATING_COLUMNS)
    seated = pd.DataFrame({"section": section, "round": r + 1, "table": t + 1, "north": players[:, 0],
                           "south": players[:, 1], "east": players[:, 2], "west": players[:, 3]}
                          ).astype(INDIVIDUAL_SEATING_COLUMNS)
    kind = "individual" if rounds == m else f"short individual ({rounds} of the individual's {m} rounds)"
    name = f"{kind}, {tables} tables, {4 * tables} players, {rounds} rounds of {boards_per_round} boards"
    return Movement("individual", name, tables, rounds, boards_per_round, len(sets), "individual", seating,
                    players=seated)
