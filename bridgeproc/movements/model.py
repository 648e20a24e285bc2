"""A movement as data: one row per round and table (:data:`SEATING_COLUMNS`), with the boards of each
board set; pure, no I/O, so the entry workbook, the table cards and the checks all read the same thing."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from bridgeproc.schema import SEATING_COLUMNS  # noqa: F401  (the seating's contract, re-exported)

#: The number in the seating of a pair that is not there (a half table): the pair it meets sits out.
PHANTOM = 0


@dataclass(frozen=True)
class Movement:
    """A movement: its ``kind`` (``mitchell``), ``name`` as a director says it, ``tables``, ``rounds``,
    ``boards_per_round``, how the pairs are numbered (``per-direction`` for a Mitchell) and its
    ``seating`` (``schema.SEATING_COLUMNS``). Board set ``s`` (1-based) holds boards
    ``(s-1)*boards_per_round+1`` to ``s*boards_per_round``. ``sitout`` names the missing pair of a half table
    (``7NS``; its place in the seating is :data:`PHANTOM`), empty when every pair is there. An individual
    (``numbering`` ``individual``) has its four players at each table in ``players``
    (``schema.INDIVIDUAL_SEATING_COLUMNS``); its seating's ``ns`` and ``ew`` then hold the North and East players."""

    kind: str
    name: str
    tables: int
    rounds: int
    boards_per_round: int
    board_sets: int
    numbering: str
    seating: pd.DataFrame
    sitout: str = ""
    players: pd.DataFrame | None = None

    @property
    def boards(self) -> int:
        """How many boards are in play."""
        return self.board_sets * self.boards_per_round

    @property
    def copies(self) -> int:
        """How many tables play one board set in the same round, at most: the copies of the boards needed
        (a relay or tables sharing the boards count; a half table's phantom rows are no table)."""
        seating = self.seating
        playing = seating[(seating["ns"] != PHANTOM) & (seating["ew"] != PHANTOM)]
        return int(playing.groupby(["section", "round", "board_set"]).size().max()) if len(playing) else 0

    def board_range(self, board_set: int) -> range:
        """The boards of ``board_set``."""
        first = (board_set - 1) * self.boards_per_round + 1
        return range(first, first + self.boards_per_round)

    def sides(self) -> pd.DataFrame:
        """The seating with ``ns`` and ``ew`` as the results name the sides: a pair's number, or an
        individual's two players ``north+south`` (as ``score`` reads them)."""
        if self.players is None:
            return self.seating
        players = self.players.astype({seat: "string" for seat in ("north", "south", "east", "west")})
        return self.seating.assign(ns=(players["north"] + "+" + players["south"]).to_numpy(),
                                   ew=(players["east"] + "+" + players["west"]).to_numpy())

    def travellers(self) -> pd.DataFrame:
        """One row per board played at a table in a round (``board, round, table, ns, ew, switched`` and the
        section), in the order of the travellers: by board, then round; a table where a pair sits out has
        none."""
        seating = self.sides()[(self.seating["ns"] != PHANTOM) & (self.seating["ew"] != PHANTOM)]
        offsets = pd.RangeIndex(self.boards_per_round)
        rows = seating.loc[seating.index.repeat(self.boards_per_round)].reset_index(drop=True)
        board = (rows["board_set"] - 1) * self.boards_per_round + 1 + list(offsets) * len(seating)
        out = rows.assign(board=board.astype("int64")).drop(columns="board_set")
        return out.sort_values(["section", "board", "round", "table"], kind="stable").reset_index(drop=True)[
            ["section", "board", "round", "table", "ns", "ew", "switched"]]
