"""Board-a-match: each board is won (1), tied (½) or lost (0) on the net score.

The points of a won board are ``TeamsOptions.bam_win``: 1 (1 / ½ / 0, the ACBL's) or 2 (2 / 1 / 0,
the English point-a-board as EBUScoreTeams publishes it: totals twice the 1 / ½ / 0 ones).

Reference section 9 (ACBL Handbook): on each board compare the team's two table
results; the higher net total wins 1 point, equal nets give ½ each. The home net is
the IMP swing's raw form, (open NS score) - (closed NS score). ``bam_tie`` widens
the tie (some clubs call a 10-point difference a tie); the default is 0.

Boards without two real results follow the IMP conventions of
:mod:`bridgeproc.teams.matches`: an artificial award decides by its sign (A+ wins,
A ties, A- loses, each team its own); a board with a result in one room only, or
none, is a tie (½ each), and is listed with its status.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.schema import TEAM_BOARD_COLUMNS, check


def board_bam(boards: pd.DataFrame, tie: int = 0, win: float = 1.0) -> pd.DataFrame:
    """``boards`` (from :func:`~bridgeproc.teams.matches.board_imps`) plus ``bam_home``/``bam_away`` (float64):
    ``win`` for a board won, half of it for a tie, 0 for a loss."""
    check(boards, TEAM_BOARD_COLUMNS)
    swing = boards["swing"].to_numpy(dtype=np.float64, na_value=np.nan)
    played = (boards["status"] == "played").to_numpy(dtype=bool)
    home_net = np.where(played, np.where(np.abs(swing) <= tie, 0.0, swing), boards["imps_home"].to_numpy())
    away_net = np.where(played, -home_net, boards["imps_away"].to_numpy())
    return boards.assign(bam_home=win * (np.sign(home_net) + 1.0) / 2.0, bam_away=win * (np.sign(away_net) + 1.0) / 2.0)


def add_bam(matches: pd.DataFrame, boards: pd.DataFrame, tie: int = 0, win: float = 1.0) -> pd.DataFrame:
    """``matches`` plus ``bam_home``/``bam_away``: board-a-match points per match (NaN if not played)."""
    scored = board_bam(boards, tie, win)
    sums = scored.groupby("match", sort=False)[["bam_home", "bam_away"]].sum()
    played = (matches["status"] == "played").to_numpy()
    out = {side: np.where(played, sums[side].reindex(matches["match"]).fillna(0.0).to_numpy(), np.nan)
           for side in ("bam_home", "bam_away")}
    return matches.assign(**out)
