"""Shared machinery of the ranking methods: board groups, sorted scores, artificial codes.

Everything here works on whole columns. The central trick: encode each real result
as one int64 key ``group * span + (score - low)``, sort the keys once, and answer
"how many results of my group score below / at / at least b above me" with
``np.searchsorted``. Matchpoints, Neuberg counts, cross-IMPs (24 band bounds) and
the Butler trimmed mean all come from that one sorted array.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..schema import check
from .conventions import Conventions

#: Columns every ranking function reads.
NEEDED = {"section": "string", "board": "int64", "adjusted": "string", "score_ns": "Int64"}

#: Lower bounds of the WBF IMP bands (Law 78B; reference section 5).
IMP_BOUNDS = np.array(
    [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500,
     1750, 2000, 2250, 2500, 3000, 3500, 4000], dtype=np.int64)


def to_imps(diff: np.ndarray | pd.Series | float) -> np.ndarray:
    """IMPs for score differences (any sign; non-multiples of 10 fall by the lower bounds)."""
    d = np.asarray(diff, dtype=np.float64)
    return np.sign(d) * np.searchsorted(IMP_BOUNDS, np.abs(d), side="right")


@dataclass(frozen=True)
class BoardGroups:
    """The real results of every board group, sorted by (group, score).

    ``group``: group code of every row. ``real``/``artificial``: masks of played
    results (scored, no code) and artificial scores (a code other than ``NP``).
    ``keys``: sorted keys of the real rows and ``rows`` their row positions;
    ``start``/``count``: where each group code's keys begin and how many there are.
    ``expected``: N per group code (results expected on the board).
    ``low``/``span``: the key encoding; ``score``: score_ns of every row (0 if none).
    """

    group: np.ndarray
    real: np.ndarray
    artificial: np.ndarray
    keys: np.ndarray
    rows: np.ndarray
    start: np.ndarray
    count: np.ndarray
    expected: np.ndarray
    low: int
    span: int
    score: np.ndarray

    def key_of(self, group: np.ndarray, score: np.ndarray) -> np.ndarray:
        # a query score beyond every real score of the field compares the same as the
        # nearest score kept inside the key range, so clip instead of spilling into a
        # neighbouring group
        return group * self.span + (np.clip(score, self.low + 1, self.low + self.span - 2) - self.low)

    def at_most(self, group: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Number of real results of ``group`` scoring <= ``score``."""
        return np.searchsorted(self.keys, self.key_of(group, score), side="right") - self.start[group]

    def below(self, group: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Number of real results of ``group`` scoring < ``score``."""
        return np.searchsorted(self.keys, self.key_of(group, score), side="left") - self.start[group]


def group_codes(results: pd.DataFrame, across_field: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """Code of each row's board group, code of its scope (section, or 0), and the number of codes.

    Codes need not be dense (a board number missing from the data leaves an empty
    group); they are dense enough for ``np.bincount``.
    """
    board = results["board"].to_numpy(dtype=np.int64)
    low = int(board.min()) if len(board) else 0
    width = int(board.max()) - low + 1 if len(board) else 1
    if width <= 4 * len(board) + 1024:  # board numbers are small: use them directly (fast)
        board_codes = board - low
    else:
        codes, uniques = pd.factorize(board, sort=True)
        board_codes, width = codes.astype(np.int64), len(uniques)
    if across_field:
        return board_codes, np.zeros(len(results), dtype=np.int64), width
    scope, sections = pd.factorize(results["section"].astype("string").fillna(""), sort=True)
    scope = scope.astype(np.int64)
    return scope * width + board_codes, scope, max(len(sections), 1) * width


def played_masks(results: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Masks of real results, artificial scores (not NP) and rows to count for N (not NP)."""
    adjusted = results["adjusted"]
    has_code = adjusted.notna().to_numpy()
    np_code = (adjusted == "NP").to_numpy(dtype=bool, na_value=False)
    scored = results["score_ns"].notna().to_numpy()
    real = ~has_code & scored
    artificial = has_code & ~np_code
    return real, artificial, real | artificial


def prepare(results: pd.DataFrame, conv: Conventions) -> BoardGroups:
    """Sort the real results of ``results`` by board group and score (see :class:`BoardGroups`)."""
    check(results, NEEDED)
    group, scope, n_groups = group_codes(results, conv.across_field)
    real, artificial, counted = played_masks(results)
    score = results["score_ns"].to_numpy(dtype=np.float64, na_value=0).astype(np.int64)
    rows = np.flatnonzero(real)
    if len(rows):
        low = int(score[rows].min()) - int(IMP_BOUNDS[-1]) - 1
        span = int(score[rows].max()) - low + int(IMP_BOUNDS[-1]) + 2
    else:
        low, span = 0, 1
    keys = group[rows] * span + (score[rows] - low)
    order = np.argsort(keys, kind="stable")
    keys, rows = keys[order], rows[order]
    count = np.bincount(group[rows], minlength=n_groups).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    if conv.expected is not None:
        expected = np.full(n_groups, conv.expected, dtype=np.int64)
    else:
        rows_per_group = np.bincount(group[counted], minlength=n_groups)
        group_scope = np.zeros(n_groups, dtype=np.int64)
        group_scope[group] = scope
        most = np.zeros(int(scope.max(initial=0)) + 1, dtype=np.int64)
        np.maximum.at(most, group_scope, rows_per_group)
        expected = most[group_scope]
    return BoardGroups(group, real, artificial, keys, rows, start, count, expected, low, span, score)


# --- artificial scores -------------------------------------------------------------

_TOKEN_KIND = {"A+": 1, "A": 0, "A-": -1}


def _decode_side(token: str, conv: Conventions) -> tuple[float, int]:
    """(percentage, kind) of one side's token: kind +1/0/-1 for A+/A/A-, 2 for a number."""
    if token in _TOKEN_KIND:
        kind = _TOKEN_KIND[token]
        return {1: conv.ave_plus, 0: conv.ave, -1: conv.ave_minus}[kind], kind
    try:
        return float(token), 2
    except ValueError:
        raise ValueError(f"artificial score {token!r} is not A+, A, A- or a percentage") from None


def artificial_sides(results: pd.DataFrame, conv: Conventions) -> tuple[np.ndarray, ...]:
    """Percent and kind of NS and EW for every row (NaN / 9 where the row is not artificial).

    Only rows with a code are looked at, and each distinct code (``A+/A-``, ``60/40``,
    ``A+/A+``) is decoded once.
    """
    out = np.full((len(results), 4), np.nan)
    out[:, 1] = out[:, 3] = 9
    adjusted = results["adjusted"]
    at = np.flatnonzero(adjusted.notna().to_numpy())
    if not len(at):
        return out[:, 0], out[:, 1], out[:, 2], out[:, 3]
    codes, uniques = pd.factorize(adjusted.iloc[at].to_numpy(dtype=object))
    table = np.full((len(uniques), 4), np.nan)
    table[:, 1] = table[:, 3] = 9
    for i, code in enumerate(uniques):
        if code == "NP":
            continue
        ns, _, ew = str(code).partition("/")
        ns_pct, ns_kind = _decode_side(ns, conv)
        ew_pct, ew_kind = _decode_side(ew, conv) if ew else (100 - ns_pct, -ns_kind if ns_kind != 2 else 2)
        table[i] = (ns_pct, ns_kind, ew_pct, ew_kind)
    out[at] = table[codes]
    return out[:, 0], out[:, 1], out[:, 2], out[:, 3]


def artificial_imps(results: pd.DataFrame, conv: Conventions) -> tuple[np.ndarray, np.ndarray]:
    """IMPs per comparison of NS and EW for artificial rows (A+ = +imp_ave_plus, A = 0, 60 % = +imp_ave_plus)."""
    ns_pct, _, ew_pct, _ = artificial_sides(results, conv)
    scale = conv.imp_ave_plus / 10.0
    return (ns_pct - 50.0) * scale, (ew_pct - 50.0) * scale


def as_float_column(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``values`` where ``mask``, NaN elsewhere."""
    return np.where(mask, values, np.nan)
