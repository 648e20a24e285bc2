"""Complete Howells, computed: ``n`` tables, ``2n`` pairs, ``2n - 1`` rounds, every pair meeting every other
once and playing every board set once.

The pairs are seated by the circle method: pair ``2n`` stays NS at table 1 and meets pair ``r + 1`` in
round ``r + 1``; the others, numbered ``0 .. 2n - 2`` round a circle, meet across it, ``r + k`` against
``r - k`` at table ``k + 1`` (modulo ``2n - 1``). Table ``k + 1`` plays board set ``r + s(k)``, for offsets
``s`` chosen so that every pair meets every board set exactly once: ``{s(0)}`` and ``{s(k) + k, s(k) - k}``
must be every residue modulo ``2n - 1`` once (a *starter*). When the offsets can also all differ (a strong
starter, which exists for 4, 6, 7 and 8 tables) each set is at one table a round and one copy of the boards
goes round; for 2, 3 and 5 tables no strong starter exists and tables share board sets: ``copies`` says
how many tables play one set in a round (the 2-table Howell's "both tables share the boards each round").

A short Howell (``rounds`` fewer than ``2n - 1``, when a complete one is too long for the evening) is the
complete one stopped after those rounds: every pair still meets another at most once and plays a board at
most once, but not every pair, and the boards are played unequally often (the ranking factors them); the
board sets no table reaches are left out and the others numbered in order.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.movements.model import Movement
from bridgeproc.schema import SEATING_COLUMNS

#: The sizes the library builds and checks.
MIN_TABLES, MAX_TABLES = 2, 8


def board_offsets(tables: int) -> list[int]:
    """The offsets ``s(0) .. s(n - 1)`` (``s(0) = 0``) of a starter modulo ``2n - 1`` with as few equal
    offsets as can be (none where a strong starter exists), found by a search over the differences,
    largest first; the first best is kept, so a size always gets the same movement."""
    m = 2 * tables - 1
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
        for value in range(m):
            up, down = (value + k) % m, (value - k) % m
            if up not in covered and down not in covered:
                offsets[k] = value
                place(k - 1, covered | {up, down})

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
    offsets = np.array(board_offsets(tables), dtype=np.int64)
    r = np.repeat(np.arange(rounds), tables)
    k = np.tile(np.arange(tables), rounds)
    ns = np.where(k == 0, hub, (r + k) % m + 1)
    ew = np.where(k == 0, r + 1, (r - k) % m + 1)
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
