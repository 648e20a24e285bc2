"""Mitchell movements, computed on whole columns. The NS pairs stay at their tables, the EW pairs move
up one table and the boards down one after each round (tables, pairs and board sets numbered 1..n).

- An odd number of tables: n rounds, each EW pair meets every NS pair once and plays every board set once.
- An even number of tables: a skip Mitchell (E. T. Baker): after half the rounds the EW pairs move up two
  tables, not one, so that no pair meets a board set twice. It plays n - 1 rounds: a last round would be
  the revenge round (each EW pair meeting again the NS pair it started against); each EW pair misses the
  NS pair it skipped. It may be stopped after any round with every board played equally often.
- Or, an even number of tables with a relay and a bye stand (``even="relay"``): tables 1 and n share a board
  set each round (relayed between them) and a bye stand between tables n/2 and n/2 + 1 holds a set no one
  plays that round. The boards go round the circuit bye, n/2, ..., 2, 1 (with n), n - 1, ..., n/2 + 1,
  bye; n sets, n rounds: each EW pair meets every NS pair and plays every set once, each set played n
  times (twice in the round it is at tables 1 and n), one copy of the boards.
- ``rounds`` fewer than the full number curtails it (the skip stays at half the tables).
- ``arrow_switch`` names the rounds in which the EW pairs sit NS (a one-winner Mitchell switches the last
  rounds): the movement is the same, the seats swapped.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from bridgeproc.movements.model import Movement
from bridgeproc.schema import SEATING_COLUMNS

#: The sizes the library builds and checks.
MIN_TABLES, MAX_TABLES = 3, 15


#: How an even number of tables is played: a skip after half the rounds, or a relay and a bye stand.
EVEN = ("skip", "relay")


def _relay_sets(tables: int, rounds: int) -> np.ndarray:
    """The board set of each (round, table) of a relay-and-bye Mitchell, rows in round-then-table order."""
    half = tables // 2
    circuit = [0, *range(half, 1, -1), 1, *range(tables - 1, half, -1)]  # in the boards' order; 0: the bye stand
    start = np.array([tables if t == 0 else t for t in circuit])  # round 1: table t plays set t, the bye holds n
    place = {t: i for i, t in enumerate(circuit)}
    place[tables] = place[1]  # table n plays table 1's set (relayed)
    index = np.array([place[t] for t in range(1, tables + 1)])
    r = np.arange(rounds)[:, None]
    return start[(index[None, :] - r) % tables].ravel()


def mitchell(tables: int, boards_per_round: int = 2, rounds: int | None = None, arrow_switch: Iterable[int] = (),
             section: str = "", even: str = "skip") -> Movement:
    """A Mitchell of ``tables`` tables (see the module's text); ValueError for a size it does not build."""
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(f"a Mitchell of {tables} tables: give {MIN_TABLES} to {MAX_TABLES} tables")
    if even not in EVEN:
        raise ValueError(f"an even Mitchell is played with a skip or a relay, not {even!r}")
    relay = tables % 2 == 0 and even == "relay"
    if relay and boards_per_round < 2:
        raise ValueError("tables 1 and n share their boards in a relay Mitchell: give at least two boards a round")
    full = tables if tables % 2 or relay else tables - 1
    rounds = full if rounds is None else rounds
    if not 1 <= rounds <= full:
        raise ValueError(f"a {tables}-table Mitchell plays 1 to {full} rounds, not {rounds}")
    if boards_per_round < 1:
        raise ValueError("give at least one board a round")
    switched_rounds = set(arrow_switch)
    if not switched_rounds <= set(range(1, rounds + 1)):
        raise ValueError(f"arrow-switch rounds must be among 1 to {rounds}")
    r = np.repeat(np.arange(rounds), tables)  # 0-based round of each row
    t = np.tile(np.arange(tables), rounds)  # 0-based table
    skip = (r >= tables // 2).astype(np.int64) if tables % 2 == 0 and not relay else np.zeros_like(r)
    ew = (t - r - skip) % tables + 1  # the EW pair that reached table t: it moved up r (+1 after the skip) tables
    board_set = _relay_sets(tables, rounds) if relay else (t + r) % tables + 1  # the boards moved down r tables
    ns = t + 1
    switched = np.isin(r + 1, sorted(switched_rounds))
    seating = pd.DataFrame({"section": pd.array([section] * len(r), dtype="string"), "round": r + 1, "table": t + 1,
                            "ns": np.where(switched, ew, ns), "ew": np.where(switched, ns, ew),
                            "board_set": board_set, "switched": switched}).astype(SEATING_COLUMNS)
    kind = "relay-and-bye Mitchell" if relay else "skip Mitchell" if tables % 2 == 0 else "Mitchell"
    name = f"{kind}, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement("mitchell", name, tables, rounds, boards_per_round, tables, "per-direction", seating)
