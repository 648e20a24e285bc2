"""Pairwise cross-IMPs inside a teams event (TeamsScorer's ``PAIRWISE_SCORING_METHOD`` CROSS_IMPS).

Beside the team match, each pair gets a pairs score of its own: every result of a board is
compared with every other result of that board in the event (all matches, both rooms) and the
IMPs averaged per comparison (``Conventions.cross_imp="board-average"``: the sum over the other
n - 1 results / (n - 1)). A pair's total is the sum of its board values as published, rounded to
2 decimals first (TeamsScorer: ``PAIR_IMPS`` -20.99 where the exact sum is -21.00).
Pairs are the traveller lines' own names (``1-3-4``: team 1's players 3 and 4).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.imps import cross_imps
from bridgeproc.schema import PAIR_IMPS_COLUMNS

__all__ = ["PAIR_IMPS_COLUMNS", "PAIR_DECIMALS", "pair_cross_imps", "pair_imps"]

#: Decimals of a board's published pairwise value, summed as rounded (TeamsScorer).
PAIR_DECIMALS = 2


def pair_cross_imps(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` plus ``ximp_ns``/``ximp_ew``: each line's cross-IMPs per comparison against every other
    result of its board in the event (artificial results as the pairs ranking gives them)."""
    flat = results.assign(section=pd.array([""] * len(results), dtype="string"))
    crossed = cross_imps(flat, Conventions(cross_imp="board-average"))
    return results.assign(ximp_ns=crossed["ximp_ns"].to_numpy(), ximp_ew=crossed["ximp_ew"].to_numpy())


def pair_imps(results: pd.DataFrame) -> pd.DataFrame:
    """PAIR_IMPS_COLUMNS, one row per pair (``ns_pair``/``ew_pair``): boards it played and the sum of its
    board values rounded to PAIR_DECIMALS; sorted by pair as written."""
    if not len(results):
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in PAIR_IMPS_COLUMNS.items()})
    sides = [pd.DataFrame({"pair": results[f"{side}_pair"].astype("string"),
                           "team": results[f"{side}_team"].astype("string"),
                           "imps": np.round(results[f"ximp_{side}"].to_numpy(dtype=np.float64), PAIR_DECIMALS)})
             for side in ("ns", "ew")]
    both = pd.concat(sides, ignore_index=True).dropna(subset=["pair"])
    grouped = both.groupby(["pair", "team"], sort=True)["imps"]
    out = pd.DataFrame({"boards": grouped.size().astype("int64"),
                        "imps": np.round(grouped.sum(min_count=1), PAIR_DECIMALS)}).reset_index()
    return out.astype({"pair": "string", "team": "string"})[list(PAIR_IMPS_COLUMNS)]
