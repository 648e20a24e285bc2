"""The words a diff of two versions is told in, shared by the pairs diff (``archive.diff``) and the
teams diff (``archive.teams_diff``): lists joined, ranks as numbers, a frame keyed for comparison and
the headline's ranking part."""
from __future__ import annotations

import pandas as pd


def join_words(items) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rank_number(rank) -> float:
    """A rank text (``3=``) as a number to sort by; no rank sorts last."""
    text = str(rank or "").rstrip("=")
    return float(text) if text.isdigit() else float("inf")


def keyed(frame: pd.DataFrame, key: list[str]) -> pd.DataFrame:
    """``frame`` indexed by ``key`` as text (NA as ''), a running number apart repeated keys."""
    frame = frame.copy()
    for column in key:
        if column not in frame:
            frame[column] = ""
        frame[column] = frame[column].astype("string").fillna("")
    frame["_n"] = frame.groupby(key).cumcount()
    return frame.set_index(key + ["_n"])


def headline(parts: list[str], moves: list[str], corrected: bool, v1: int, v2: int) -> str:
    """The headline from what was corrected (``parts``) and the ranking's moves: the same versions said so,
    at most three moves, "ranking unchanged" after a correction that moved nobody."""
    if not parts and not moves:
        return f"versions {v1} and {v2} are the same"
    if moves:
        parts = [*parts, moves[0] if len(moves) == 1 else "; ".join(moves[:3]) + ("; ..." if len(moves) > 3 else "")]
    elif corrected:
        parts = [*parts, "ranking unchanged"]
    return ": ".join(parts)
