"""What the results say about the movement: how pairs are numbered and who meets whom.

Clubs number Mitchell pairs 1..n in *each* direction (NS 1 and EW 1 are different
pairs), while Howell pairs and many Mitchells use one number per pair. Read with
one shared numbering, a per-direction Mitchell shows almost every pair on almost
every board in both directions; a Howell shows that for at most a stray typo. So:
if more than a quarter of the (section, pair, board) entries occur in both
directions, the numbering is per direction, else shared. ``--pair-numbering``
forces either reading.
"""
from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

PairNumbering = Literal["auto", "shared", "per-direction"]

#: Share of (pair, board) entries seen in both directions above which numbering is per direction.
PER_DIRECTION_SHARE = 0.25


def _entries(results: pd.DataFrame) -> pd.DataFrame:
    n = len(results)
    return pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "section": pd.concat([results["section"], results["section"]], ignore_index=True),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
        "pair": pd.concat([results["ns"], results["ew"]], ignore_index=True),
        "direction": np.repeat(np.array(["NS", "EW"]), n),
    }).dropna(subset=["pair"])


def pair_numbering(results: pd.DataFrame, forced: PairNumbering = "auto") -> Literal["shared", "per-direction"]:
    """Decide whether pair numbers are shared by both directions or counted per direction."""
    if forced != "auto":
        return forced
    entries = _entries(results).drop_duplicates(subset=["section", "board", "pair", "direction"])
    if entries.empty:
        return "shared"
    both = entries.duplicated(subset=["section", "board", "pair"], keep=False)
    return "per-direction" if both.mean() > PER_DIRECTION_SHARE else "shared"


def pair_keys(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[pd.Series, pd.Series]:
    """Identity of the NS and EW pair of each row: ``section:pair`` plus ``:NS``/``:EW`` when per direction.

    Compared without case: a pair known by its players' names (BBO user names, pbntools
    conversions) is the same pair as ``Cheryl O`` on one board and ``cheryl o`` on another."""
    section = results["section"].fillna("").astype("string")
    ns = section + ":" + results["ns"].astype("string").str.casefold()
    ew = section + ":" + results["ew"].astype("string").str.casefold()
    if numbering == "per-direction":
        return ns + ":NS", ew + ":EW"
    return ns, ew


def repeated_pairs(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[np.ndarray, np.ndarray]:
    """Rows where a pair appears again on a board it already played, and which pair.

    With shared numbering this includes a pair sitting both NS and EW on one board.
    """
    ns_key, ew_key = pair_keys(results, numbering)
    n = len(results)
    long = pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
        "key": pd.concat([ns_key, ew_key], ignore_index=True),
        "pair": pd.concat([results["ns"], results["ew"]], ignore_index=True),
    }).dropna(subset=["key"])
    dup = long[long.duplicated(subset=["board", "key"], keep="first")]
    mask = np.zeros(n, dtype=bool)
    pair = np.full(n, "", dtype=object)
    mask[dup["row"].to_numpy()] = True
    pair[dup["row"].to_numpy()] = dup["pair"].to_numpy(dtype=object)
    return mask, pair
