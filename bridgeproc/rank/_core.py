"""Shared machinery of the ranking methods: board groups, sorted scores, artificial codes.

Everything here works on whole columns. The central trick: encode each real result
as one int64 key ``group * span + (score - low)``, sort the keys once, and answer
"how many results of my group score below / at / at least b above me" with
``np.searchsorted``. Matchpoints, Neuberg counts, cross-IMPs (24 band bounds) and
the Butler trimmed mean all come from that one sorted array.

Weighted scores (``W:`` codes, Law 12C1c) add a second sorted array: the parts of
every weighted row, keyed the same way, with the cumulative sum of their weights, so
"how much weight of my group scores below / at me" is two searches and a difference.

Fouled boards: an optional ``fouled`` column (group label, NA for the board as dealt)
splits a board into groups; a board group is then (section, board, label), while the
number of results expected (N) stays a property of the board.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.notation import fouled_labels
from bridgeproc.core.weighted import parse_weighted
from bridgeproc.rank.conventions import Conventions
from bridgeproc.schema import check

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

    ``group``: group code of every row. ``real``/``artificial``/``weighted``: masks of
    played results (scored, no code), artificial scores (a code other than ``NP`` and
    ``W:``) and weighted scores (``W:``).
    ``keys``: sorted keys of the real rows and ``rows`` their row positions;
    ``start``/``count``: where each group code's keys begin and how many there are.
    ``expected``: N per group code (results expected on the board).
    ``low``/``span``: the key encoding; ``score``: score_ns of every row (0 if none).
    ``size``: results to compare per group (real and weighted rows);
    ``board_size``: the same summed over the group's board; ``largest``: the largest
    ``size`` of a group of that board; ``fouled``: the board has two or more groups.
    ``part_row``/``part_weight``/``part_score``: the parts of weighted rows (weight a
    fraction, summing to 1 per row); ``part_keys``: their keys, sorted (the part
    arrays in the same order); ``part_cum``: cumulative weight, with a leading 0;
    ``part_start``: where each group code's parts begin (one more entry, the end).
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
    weighted: np.ndarray
    size: np.ndarray
    board_size: np.ndarray
    largest: np.ndarray
    fouled: np.ndarray
    part_row: np.ndarray
    part_weight: np.ndarray
    part_score: np.ndarray
    part_keys: np.ndarray
    part_cum: np.ndarray
    part_start: np.ndarray

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

    def _weight_before(self, group: np.ndarray, key: np.ndarray, side: Literal["left", "right"]) -> np.ndarray:
        if not len(self.part_keys):
            return np.zeros(len(key))
        return self.part_cum[np.searchsorted(self.part_keys, key, side=side)] - self.part_cum[self.part_start[group]]

    def weight_below(self, group: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Weight of the weighted parts of ``group`` scoring < ``score``."""
        return self._weight_before(group, self.key_of(group, score), "left")

    def weight_at_most(self, group: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Weight of the weighted parts of ``group`` scoring <= ``score``."""
        return self._weight_before(group, self.key_of(group, score), "right")

    def weight_total(self, group: np.ndarray) -> np.ndarray:
        """Weight of all weighted parts of ``group`` (its number of weighted rows)."""
        return self.part_cum[self.part_start[group + 1]] - self.part_cum[self.part_start[group]]

    @property
    def part_group(self) -> np.ndarray:
        """Group code of every weighted part."""
        return self.group[self.part_row]


def distinct_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct sorted keys, number of keys before each, and each key's distinct index."""
    change = np.empty(len(keys), dtype=bool)
    change[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=change[1:])
    first = np.flatnonzero(change)
    inverse = np.cumsum(change) - 1
    return keys[first], first, inverse


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


def weighted_mask(results: pd.DataFrame) -> np.ndarray:
    """Rows whose ``adjusted`` code is a weighted score (``W:...``)."""
    return results["adjusted"].astype("string").str.startswith("W:").to_numpy(dtype=bool, na_value=False)


def played_masks(results: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Masks of real results, artificial scores (not NP, not weighted) and rows to count for N (not NP)."""
    adjusted = results["adjusted"]
    has_code = adjusted.notna().to_numpy()
    np_code = (adjusted == "NP").to_numpy(dtype=bool, na_value=False)
    weighted = weighted_mask(results)
    scored = results["score_ns"].notna().to_numpy()
    real = ~has_code & scored
    artificial = has_code & ~np_code & ~weighted
    return real, artificial, real | artificial | weighted


def weighted_parts(results: pd.DataFrame, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row position, weight (a fraction) and NS score of every part of the weighted rows ``mask``.

    Each distinct code is parsed once. Raises ValueError when a code does not parse
    or a part carries no score (validation writes the scores into the code).
    """
    at = np.flatnonzero(mask)
    if not len(at):
        return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0, dtype=np.int64)
    codes, uniques = pd.factorize(results["adjusted"].iloc[at].to_numpy(dtype=object))
    weights, scores = [], []
    for code in uniques:
        parsed = parse_weighted(str(code))
        if "error" in parsed:
            raise ValueError(f"weighted score {code!r} does not parse: {parsed['error']}")
        if any(p["score"] is None for p in parsed["parts"]):
            raise ValueError(f"weighted score {code!r} has no score for every part; score the results "
                             "first (validate_results writes e.g. W:50% 4SN= +420; 50% 4SN-1 -50)")
        weights.append(np.array([p["weight"] / 100.0 for p in parsed["parts"]]))
        scores.append(np.array([p["score"] for p in parsed["parts"]], dtype=np.int64))
    lengths = np.array([len(w) for w in weights], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    per_row = lengths[codes]
    # for each part of each row: the index of the part in the flattened per-code table
    within = np.arange(per_row.sum()) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    flat = np.repeat(offsets[codes], per_row) + within
    return np.repeat(at, per_row), np.concatenate(weights)[flat], np.concatenate(scores)[flat]


def _group_labels(results: pd.DataFrame, board_group: np.ndarray, n_boards: int) -> tuple[np.ndarray, np.ndarray]:
    """Group code of each row and board code of each group, splitting boards by ``fouled`` labels."""
    if "fouled" in results:
        labels = fouled_labels(results["fouled"])
        if labels.notna().any():
            label, _ = pd.factorize(labels.fillna(""), sort=True)
            pair, uniques = pd.factorize(board_group * (int(label.max()) + 1) + label, sort=True)
            return pair.astype(np.int64), (uniques // (int(label.max()) + 1)).astype(np.int64)
    return board_group, np.arange(n_boards, dtype=np.int64)


def _expected(board_group: np.ndarray, scope: np.ndarray, counted: np.ndarray, n_boards: int,
              conv: Conventions) -> np.ndarray:
    """N per board code: ``conv.expected``, else the most counted rows on a board of its scope."""
    if conv.expected is not None:
        return np.full(n_boards, conv.expected, dtype=np.int64)
    rows_per_board = np.bincount(board_group[counted], minlength=n_boards)
    board_scope = np.zeros(n_boards, dtype=np.int64)
    board_scope[board_group] = scope
    most = np.zeros(int(scope.max(initial=0)) + 1, dtype=np.int64)
    np.maximum.at(most, board_scope, rows_per_board)
    return most[board_scope]


def prepare(results: pd.DataFrame, conv: Conventions) -> BoardGroups:
    """Sort the real results of ``results`` by board group and score (see :class:`BoardGroups`)."""
    check(results, NEEDED)
    board_group, scope, n_boards = group_codes(results, conv.across_field)
    group, board_of = _group_labels(results, board_group, n_boards)
    n_groups = len(board_of)
    real, artificial, counted = played_masks(results)
    weighted = weighted_mask(results)
    part_row, part_weight, part_score = weighted_parts(results, weighted)
    score = results["score_ns"].to_numpy(dtype=np.float64, na_value=0).astype(np.int64)
    rows = np.flatnonzero(real)
    every = np.concatenate([score[rows], part_score])
    if len(every):
        low = int(every.min()) - int(IMP_BOUNDS[-1]) - 1
        span = int(every.max()) - low + int(IMP_BOUNDS[-1]) + 2
    else:
        low, span = 0, 1
    keys = group[rows] * span + (score[rows] - low)
    order = np.argsort(keys, kind="stable")
    keys, rows = keys[order], rows[order]
    count = np.bincount(group[rows], minlength=n_groups).astype(np.int64)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    expected = _expected(board_group, scope, counted, n_boards, conv)[board_of]

    part_keys = group[part_row] * span + (part_score - low)
    order = np.argsort(part_keys, kind="stable")
    part_row, part_weight, part_score, part_keys = part_row[order], part_weight[order], part_score[order], part_keys[order]
    part_cum = np.concatenate([[0.0], np.cumsum(part_weight)])
    part_start = np.concatenate([[0], np.cumsum(np.bincount(group[part_row], minlength=n_groups))]).astype(np.int64)
    size = count + np.bincount(group[weighted], minlength=n_groups)
    board_size = np.bincount(board_of, weights=size, minlength=n_boards).astype(np.int64)[board_of]
    groups_on_board = np.bincount(board_of, weights=size > 0, minlength=n_boards)[board_of]
    largest = np.zeros(n_boards, dtype=np.int64)
    np.maximum.at(largest, board_of, size)
    return BoardGroups(group, real, artificial, keys, rows, start, count, expected, low, span, score,
                       weighted, size, board_size, largest[board_of], groups_on_board >= 2,
                       part_row, part_weight, part_score, part_keys, part_cum, part_start)


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
        if code == "NP" or str(code).startswith("W:"):
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
