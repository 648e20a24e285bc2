"""A movement before play, for the director: ``movement.csv``, one row per section, round and table
(``section, round, table, ns, ew, boards``, the boards as ``first-last``; the cell of a pair missing at a
half table left blank: the other pair sits out; an individual's sides as ``north+south``), which ``score --movement`` will read back."""
from __future__ import annotations

import os

import pandas as pd

from bridgeproc.movements.model import PHANTOM, Movement
from bridgeproc.report.csv_files import write_csv

#: The columns of ``movement.csv``, in order.
MOVEMENT_CSV = ("section", "round", "table", "ns", "ew", "boards")


def movement_table(movement: Movement) -> pd.DataFrame:
    """The seating with each board set as its boards, ``first-last`` (``switched`` kept when a round is)."""
    seating, sides = movement.seating, movement.sides()
    first = (seating["board_set"] - 1) * movement.boards_per_round + 1
    last = first + movement.boards_per_round - 1
    boards = first.astype("string").where(first == last, first.astype("string") + "-" + last.astype("string"))
    kind = "string" if movement.players is not None else "Int64"  # a pair's number stays a number
    pairs = {side: sides[side].astype(kind).mask(seating[side] == PHANTOM) for side in ("ns", "ew")}
    table = seating.assign(boards=boards, **pairs)[list(MOVEMENT_CSV)]  # a missing pair's cell left blank
    if seating["switched"].any():
        table = table.assign(switched=seating["switched"].map({True: "Y", False: ""}))
    return table


def write_movement_csv(movement: Movement, path: str | os.PathLike) -> None:
    """``movement.csv`` (see the module's text)."""
    write_csv(movement_table(movement), path)
