"""An open rating of players from their session percentages, updated session by session.

The model, in full: every player has a rating ``r``, in percentage points above an average player (a new
player starts at 0). A pair's strength is the mean of its two players' ratings (an individual's, the
player's own); in a ranking group (the field compared: all pairs of a Howell, the NS or the EW pairs of a
Mitchell) a pair is expected to score ``50 + strength - the group's mean strength`` per cent. After the
session each player moves by ``k * (actual - expected)``, with ``k = max(K_FLOOR, 1 / (n + 1))`` for a player
with ``n`` sessions before: the running mean of the surprises for the first sessions, then an exponential
forgetting of old form. Every change is one line: ``+0.4: 58.0 % against an expected 54.0 % (k 0.10)``.

It is the classic Elo idea on the scale clubs read (percentages), open and explainable; it predicts a pair's
percentage from the partners' and opponents' ratings, which handicaps (``--handicaps``: a player's handicap
is minus half their rating, so a pair's is minus its strength) and strata can be built from.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

#: The least a session moves a rating, as a share of the surprise (after the first sessions).
K_FLOOR = 0.15
#: The columns :func:`rate_sessions` takes, one row per player of a standings row.
RATING_INPUT = ("session", "group", "entry", "player", "pct")


def rate_sessions(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Ratings from ``rows`` (``session`` an order, oldest first; ``group`` the field compared; ``entry`` the
    standings row, unique within a session; ``player`` who; ``pct``). Returns the ratings (``player, rating,
    sessions``, best first) and every change (``session, player, before, after, change, actual, expected, k,
    why``), in the order made. Sessions one after another (each one's field at once, as whole columns)."""
    rows = rows.dropna(subset=["pct", "player"]).reset_index(drop=True)
    code, players = pd.factorize(rows["player"])
    rating, played = np.zeros(len(players)), np.zeros(len(players), dtype=np.int64)
    session = rows["session"].to_numpy()
    changes = []
    for s in pd.unique(session):  # one session at a time: its ratings depend on the sessions before
        at = np.flatnonzero(session == s)
        part = rows.iloc[at]
        who = code[at]
        entry = pd.factorize(part["entry"].astype(str) + "\x1f" + part["group"].astype(str))[0]
        strength = np.bincount(entry, weights=rating[who]) / np.bincount(entry)
        group = pd.factorize(part["group"].astype(str))[0]
        entry_group = np.zeros(len(strength), dtype=np.int64)
        entry_group[entry] = group
        mean = np.bincount(entry_group, weights=strength) / np.bincount(entry_group)
        expected = 50.0 + strength - mean[entry_group]
        actual = part["pct"].to_numpy(dtype=float)
        k = np.maximum(K_FLOOR, 1.0 / (played[who] + 1.0))
        change = k * (actual - expected[entry])
        before = rating[who].copy()
        np.add.at(rating, who, change)
        np.add.at(played, who, 1)
        changes.append(pd.DataFrame({"session": part["session"].to_numpy(), "player": players[who],
                                     "before": before, "after": rating[who], "change": change, "actual": actual,
                                     "expected": expected[entry], "k": k}))
    log = (pd.concat(changes, ignore_index=True) if changes else
           pd.DataFrame(columns=["session", "player", "before", "after", "change", "actual", "expected", "k"]))
    log = log.assign(why=explain(log))
    table = pd.DataFrame({"player": pd.array(players, dtype="string"), "rating": rating, "sessions": played})
    table = table.sort_values(["rating", "player"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return table, log


def explain(log: pd.DataFrame) -> pd.Series:
    """Each change in one line: ``+0.4: 58.0 % against an expected 54.0 % (k 0.10)``."""
    if not len(log):
        return pd.Series([], dtype="string")
    change = log["change"].astype(float).map("{:+.1f}".format)
    actual = log["actual"].astype(float).map("{:.1f}".format)
    expected = log["expected"].astype(float).map("{:.1f}".format)
    k = log["k"].astype(float).map("{:.2f}".format)
    return (change + ": " + actual + " % against an expected " + expected + " % (k " + k + ")").astype("string")
