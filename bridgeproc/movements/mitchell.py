"""Mitchell movements, computed on whole columns. The NS pairs stay at their tables, the EW pairs move
up one table and the boards down one after each round (tables, pairs and board sets numbered 1..n).

- An odd number of tables: n rounds, each EW pair meets every NS pair once and plays every board set once.
- An even number of tables: a skip Mitchell (E. T. Baker): after half the rounds the EW pairs move up two
  tables, not one, so that no pair meets a board set twice. It plays n - 1 rounds: a last round would be
  the revenge round (each EW pair meeting again the NS pair it started against); each EW pair misses the
  NS pair it skipped. It may be stopped after any round with every board played equally often.
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


def mitchell(tables: int, boards_per_round: int = 2, rounds: int | None = None, arrow_switch: Iterable[int] = (),
             section: str = "") -> Movement:
    """A Mitchell of ``tables`` tables (see the module's text); ValueError for a size it does not build."""
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise ValueError(f"a Mitchell of {tables} tables: give {MIN_TABLES} to {MAX_TABLES} tables")
    full = tables if tables % 2 else tables - 1
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
    skip = (r >= tables // 2).astype(np.int64) if tables % 2 == 0 else np.zeros_like(r)
    ew = (t - r - skip) % tables + 1  # the EW pair that reached table t: it moved up r (+1 after the skip) tables
    board_set = (t + r) % tables + 1  # the boards moved down r tables
    ns = t + 1
    switched = np.isin(r + 1, sorted(switched_rounds))
    seating = pd.DataFrame({"section": pd.array([section] * len(r), dtype="string"), "round": r + 1, "table": t + 1,
                            "ns": np.where(switched, ew, ns), "ew": np.where(switched, ns, ew),
                            "board_set": board_set, "switched": switched}).astype(SEATING_COLUMNS)
    kind = "skip Mitchell" if tables % 2 == 0 else "Mitchell"
    name = f"{kind}, {tables} tables, {rounds} rounds of {boards_per_round} boards"
    return Movement("mitchell", name, tables, rounds, boards_per_round, tables, "per-direction", seating)
