"""Complete Howells, computed: ``n`` tables, ``2n`` pairs, ``2n - 1`` rounds, every pair meeting every other
once and playing every board set once.

The pairs are seated round a circle: pair ``2n`` stays NS at table 1 and meets pair ``r + 1`` in round
``r + 1``; the others, numbered ``0 .. 2n - 2`` round the circle, move one place a round: at table ``k + 1``
the pairs at places ``a(k) + r`` (NS) and ``c(k) + r`` (EW), modulo ``2n - 1``. The pairings ``a(k), c(k)``
(a *starter*: their differences ``±(a(k) - c(k))`` are every non-zero residue once) make every pair meet
every other once; the circle method's ``a(k) = k, c(k) = -k`` is one. Table ``k + 1`` plays board set
``r + s(k)``, for offsets ``s`` chosen so that every pair meets every board set exactly once: ``s(0)`` and
``{s(k) - a(k), s(k) - c(k)}`` must be every residue once. When the offsets can also all differ each set is
at one table a round and one copy of the boards goes round (the pairings and offsets are then a Room
square, which exists for every size but 2 and 3 tables): the circle method's pairings give that for 4, 6, 7
and 8 tables, and for 5 tables a searched starter does (as the published 5-table Howells need one set of
boards, with four sets on relay stands). For 2 and 3 tables no such movement exists and tables share board
sets: ``copies`` says how many tables play one set in a round (the 2-table Howell's "both tables share the
boards each round").

A short Howell (``rounds`` fewer than ``2n - 1``, when a complete one is too long for the evening) is the
complete one stopped after those rounds: every pair still meets another at most once and plays a board at
most once, but not every pair, and the boards are played unequally often (the ranking factors them); the
board sets no table reaches are left out and the others numbered in order.
"""
from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import numpy as np
import pandas as pd

from bridgeproc.movements.model import Movement
from bridgeproc.schema import SEATING_COLUMNS

#: The sizes the library builds and checks.
MIN_TABLES, MAX_TABLES = 2, 8


@functools.cache
def starter_offsets(tables: int) -> tuple[list[tuple[int, int]], list[int]]:
    """Each table's NS and EW places in round 1 (the hub, ``2n - 1``, meeting place 0 at its table) and the
    board offsets ``s``: boards moving down one table (``s(k) = k``, the sets not in play on relay stands
    between the first table and the last) where a starter allows it (5 and 7 tables, the hub then at a
    middle table); else the circle method's pairings, the hub at table 1, and then every starter in order,
    with as few equal offsets as can be. The first best is kept, so a size always gets the same movement."""
    m = 2 * tables - 1
    # the sets k - a, k - c and the hub's table's own must add up to those of every residue, 0 modulo m:
    # that places the hub at table n(n - 1) mod m + 1, which must be a table
    hub_table = tables * (tables - 1) % m
    found = _down_one_table(tables, hub_table) if hub_table < tables else None
    if found is not None:
        return found, list(range(tables))
    circle = [(k, (-k) % m) for k in range(1, tables)]
    best: list = [None, None, tables + 1]
    for pairings in itertools.chain([circle], _starters(m)):
        offsets = _offsets(pairings, m)
        if offsets is not None and tables - len(set(offsets)) < best[2]:
            best = [pairings, offsets, tables - len(set(offsets))]
        if best[2] == 0:
            break
    return [(m, 0), *best[0]], best[1]


def _down_one_table(tables: int, hub_table: int) -> list[tuple[int, int]] | None:
    """The places of a Howell whose table ``k`` plays set ``r + k`` (the boards down one table a round),
    the hub at ``hub_table``: table ``k``'s places ``a, c`` need unused differences ``±(a - c)`` and unused
    sets ``k - a, k - c``; None when there is none."""
    m = 2 * tables - 1
    order = [k for k in range(tables) if k != hub_table]

    def fill(i: int, free: list[int], differences: frozenset, sets: frozenset) -> list[tuple[int, int]] | None:
        if i == len(order):
            return []
        k = order[i]
        for at, a in enumerate(free):
            for c in free[at + 1:]:
                d, v = frozenset({(a - c) % m, (c - a) % m}), frozenset({(k - a) % m, (k - c) % m})
                if d & differences or v & sets or len(v) < 2:
                    continue
                rest = fill(i + 1, [x for x in free if x not in (a, c)], differences | d, sets | v)
                if rest is not None:
                    return [(a, c), *rest]
        return None

    found = fill(0, list(range(1, m)), frozenset(), frozenset({hub_table % m}))
    if found is None:
        return None
    places = iter(found)
    return [(m, 0) if k == hub_table else next(places) for k in range(tables)]


def board_offsets(tables: int) -> list[int]:
    """The board offsets of :func:`starter_offsets` (``s(k)``: table ``k + 1`` plays set ``r + s(k)``)."""
    return starter_offsets(tables)[1]


def _starters(m: int) -> Iterator[list[tuple[int, int]]]:
    """Every starter of Z_m that leaves 0 out, in order: the pairings of 1 .. m - 1 whose differences
    ``±(a - c)`` are every non-zero residue once."""
    def pair(left: list[int], used: frozenset) -> Iterator[list[tuple[int, int]]]:
        if not left:
            yield []
            return
        a, rest = left[0], left[1:]
        for c in rest:
            d = frozenset({(a - c) % m, (c - a) % m})
            if not d & used:
                for more in pair([x for x in rest if x != c], used | d):
                    yield [(a, c), *more]

    yield from pair(list(range(1, m)), frozenset())


def _offsets(pairings: list[tuple[int, int]], m: int) -> list[int] | None:
    """The offsets (``s(0) = 0``: the hub meets place 0) with which every pair meets every set once and
    fewest offsets are equal, by a search over the tables, last first; None when there are none."""
    tables = len(pairings) + 1
    best: list = [None, tables + 1]
    offsets = [0] * tables

    def place(k: int, covered: frozenset) -> None:
        if best[1] == 0:
            return
        if k == 0:
            shared = tables - len(set(offsets))
            if shared < best[1]:
                best[0], best[1] = list(offsets), shared
            return
        a, c = pairings[k - 1]
        for value in range(m):
            ns, ew = (value - a) % m, (value - c) % m
            if ns not in covered and ew not in covered and ns != ew:
                offsets[k] = value
                place(k - 1, covered | {ns, ew})

    place(tables - 1, frozenset({0}))
    return best[0]


def howell(tables: int, boards_per_round: int = 3, rounds: int | None = None, section: str = "") -> Movement:
    """A complete Howell of ``tables`` tables, or a short one of ``rounds`` (see the module's text); ValueError
    for a size it does not build."""
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(f"a complete Howell of {tables} tables: give {MIN_TABLES} to {MAX_TABLES} tables")
    if boards_per_round < 1:
        raise ValueError("give at least one board a round")
    m, hub = 2 * tables - 1, 2 * tables
    rounds = m if rounds is None else rounds
    if not 1 <= rounds <= m:
        raise ValueError(f"a {tables}-table Howell plays 1 to {m} rounds, not {rounds}")
    places, found = starter_offsets(tables)
    offsets = np.array(found, dtype=np.int64)
    a, c = (np.array([p[i] for p in places], dtype=np.int64) for i in (0, 1))
    r = np.repeat(np.arange(rounds), tables)
    k = np.tile(np.arange(tables), rounds)
    ns = np.where(a[k] == m, hub, (r + a[k]) % m + 1)
    ew = (r + c[k]) % m + 1
    sets, board_set = np.unique((r + offsets[k]) % m, return_inverse=True)  # the sets reached, numbered in order
    seating = pd.DataFrame({"section": pd.array([section] * len(r), dtype="string"), "round": r + 1, "table": k + 1,
                            "ns": ns, "ew": ew, "board_set": board_set + 1,
                            "switched": np.zeros(len(r), dtype=bool)}).astype(SEATING_COLUMNS)
    kind = "complete Howell" if rounds == m else f"short Howell ({rounds} of the complete Howell's {m} rounds)"
    name = f"{kind}, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement("howell", name, tables, rounds, boards_per_round, len(sets), "shared", seating)


def copies(movement: Movement) -> int:
    """How many tables play one board set in the same round, at most: the copies of the boards needed."""
    return movement.copies
