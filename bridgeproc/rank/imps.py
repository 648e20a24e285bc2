"""IMP pairs: cross-IMPs (IMPs across the field) and Butler (IMPs against a datum).

Reference section 8. Both compare a board group's real results; artificial rows are
left out of the comparison and get ``Conventions.imp_ave_plus`` per comparison (A+),
its negative (A-) or 0 (A), each side its own; ``NP`` rows get nothing. On a board
group with no played result the comparisons are those a played result would have
had (N - 1), not none.

Cross-IMPs without a loop over pairs of results: with the real results sorted by
(group, score), the IMPs of s against every other result t of its group are
``sum over the 24 band bounds b of #(t <= s - b) - #(t >= s + b)``, and each count is
one ``np.searchsorted``. Equal scores share their answer, so the searches run over
the distinct (group, score) keys only: O(u log u x 24) for u distinct keys.

Weighted scores (``W:`` codes, Law 12C1c): a weighted row's IMPs are the weighted
average of its parts' IMPs. Cross-IMPs: each part is compared with every real result
and with the parts of the group's other weighted rows (weight x weight), and every
other result compares with a part at the part's weight; a weighted row counts as one
comparison like a real one. Butler: the datum is taken over the real (played)
results only, and a weighted row scores sum of p_k x IMP(s_k - datum) (0 when its
group has no played result, so no datum).

Fouled boards: the ``fouled`` groups of a board are compared apart (IMPs within the
group; the Butler datum of each group), with no factoring.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.rank._core import IMP_BOUNDS, BoardGroups, artificial_imps, distinct_keys, prepare, to_imps
from bridgeproc.rank.conventions import Conventions


def _cross_sorted(board: BoardGroups) -> np.ndarray:
    """Sum of IMPs against every other real result of the group, per real result in sorted order."""
    keys = board.keys
    if not len(keys):
        return np.zeros(0)
    distinct, first, inverse = distinct_keys(keys)
    before = np.append(first, len(keys))  # keys before distinct i; before[-1] = all keys
    group = board.group[board.rows[first]]
    start = board.start[group]
    end = start + board.count[group]
    total = np.zeros(len(distinct), dtype=np.int64)
    for bound in IMP_BOUNDS:
        at_most_lower = before[np.searchsorted(distinct, distinct - bound, side="right")] - start
        at_least_upper = end - before[np.searchsorted(distinct, distinct + bound, side="left")]
        total += at_most_lower - at_least_upper
    return total[inverse].astype(np.float64)


def _imps_against(board: BoardGroups, group: np.ndarray, score: np.ndarray, real: bool = True) -> np.ndarray:
    """Sum of IMPs of ``score`` against the weighted parts of ``group`` (at their weight) and, with ``real``, its real results."""
    total = np.zeros(len(score))
    weight_total = board.weight_total(group)
    for bound in IMP_BOUNDS:
        total += board.weight_at_most(group, score - bound) - (weight_total - board.weight_below(group, score + bound))
        if real:
            total += board.at_most(group, score - bound) - (board.count[group] - board.below(group, score + bound))
    return total


def cross_imps(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Cross-IMPs: each result against every other result of its board group.

    Parameters
    ----------
    results : DataFrame
        Reads ``section``, ``board``, ``adjusted`` (artificial and weighted ``W:``
        codes), ``score_ns`` and, if present, ``fouled`` (group labels).
    conventions : Conventions
        Uses ``across_field`` (compare over all sections), ``imp_ave_plus`` and
        ``cross_imp`` (``"board-average"`` divides each row's IMPs by its comparisons).

    Returns
    -------
    DataFrame
        A new frame: ``results`` plus ``ximp_ns`` = sum over the other real results t
        of IMP(score_ns - t) (PBN ``Cross``; float64; with ``cross_imp="board-average"``
        that sum divided by ``ximp_comparisons``, 0 without a comparison, as Compscore,
        KoPS and BBO publish a board's value), ``ximp_ew`` (its negative, or
        EW's own award on an artificial row) and ``ximp_comparisons`` (Int64: n - 1 for
        a real or weighted result, n for an artificial one, where n is the group's real
        and weighted results; N - 1 for an artificial row of a group with none, N being
        the results expected on the board as in matchpoints).
        The per-comparison figure (PBN ``Cross2``) is ``ximp_ns / ximp_comparisons``;
        :func:`bridgeproc.rank.standings` forms totals per ``Conventions.cross_imp``.
    """
    board = prepare(results, conventions)
    n_rows = len(results)
    real, art, weighted = board.real, board.artificial, board.weighted
    played = real | weighted
    n = board.size[board.group]
    ximp = np.full(n_rows, np.nan)
    ximp[board.rows] = _cross_sorted(board)
    if len(board.part_row):
        _, first, inverse = distinct_keys(board.keys)  # equal (group, score) share the answer
        rows = board.rows[first]
        ximp[board.rows] += _imps_against(board, board.group[rows], board.score[rows], real=False)[inverse]
        each = _imps_against(board, board.part_group, board.part_score)
        ximp[weighted] = np.bincount(board.part_row, weights=board.part_weight * each, minlength=n_rows)[weighted]
    award_ns, award_ew = artificial_imps(results, conventions)
    # An artificial row is compared with the group's n real and weighted results; on a board
    # with none (only artificial rows) it takes the comparisons a played result of the board
    # would have had, N - 1 (N as in matchpoints), so A+ still wins what Butler and MPs give it.
    n_art = np.where(n > 0, n, np.maximum(board.expected[board.group] - 1, 0))
    ximp_ns = np.where(art, award_ns * n_art, ximp)
    ximp_ew = np.where(art, award_ew * n_art, -ximp)
    count = np.where(played, n - 1, n_art)
    if conventions.cross_imp == "board-average":
        per = np.where(count > 0, count, 1).astype(np.float64)
        ximp_ns = np.where(count > 0, ximp_ns / per, 0.0 * ximp_ns)
        ximp_ew = np.where(count > 0, ximp_ew / per, 0.0 * ximp_ew)
    comparisons = pd.array(count, dtype="Int64")
    comparisons[~(played | art)] = pd.NA
    index = results.index
    return results.assign(
        ximp_ns=pd.Series(ximp_ns + 0.0, index=index, dtype="float64"),
        ximp_ew=pd.Series(ximp_ew + 0.0, index=index, dtype="float64"),
        ximp_comparisons=pd.Series(comparisons, index=index),
    )


def drop_counts(n: np.ndarray, conventions: Conventions) -> np.ndarray:
    """Results dropped at each end of a Butler board with ``n`` real results.

    ``datum_drop`` (or round-half-up of ``datum_drop_share`` x n), but never so many
    that no result is left: with one dropped at each end a board of 3 results takes
    its median (as the Finnish Butler file does) and a board of 2 their mean.
    """
    n = np.asarray(n, dtype=np.int64)
    if conventions.datum_drop_share is not None:
        k = np.floor(conventions.datum_drop_share * n + 0.5).astype(np.int64)
    else:
        k = np.full(n.shape, conventions.datum_drop, dtype=np.int64)
    return np.minimum(k, np.maximum((n - 1) // 2, 0))


def round_datum(total: np.ndarray, count: np.ndarray, multiple: int = 10) -> np.ndarray:
    """total/count rounded to a multiple of ``multiple`` (10, the usual rule; 1: to the point), halves
    away from zero, in exact integers.

    -297.5 -> -300, -295 -> -300, 295 -> 300, 294.9 -> 290 (to the point: -298, -295, 295, 295).
    """
    total = np.asarray(total, dtype=np.int64)
    count = np.asarray(count, dtype=np.int64)
    unit = multiple * np.maximum(count, 1)
    return np.sign(total) * ((2 * np.abs(total) + unit) // (2 * unit)) * multiple


def butler(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Butler IMPs: each result against its board group's datum.

    The datum is the mean of the group's real NS scores after dropping
    :func:`drop_counts` results at each end, rounded by :func:`round_datum`. A
    weighted row scores the weighted sum of its parts' IMPs against that datum.

    Parameters
    ----------
    results : DataFrame
        Reads ``section``, ``board``, ``adjusted`` (artificial and weighted ``W:``
        codes), ``score_ns`` and, if present, ``fouled`` (group labels).
    conventions : Conventions
        Uses ``datum_drop``, ``datum_drop_share``, ``datum_round``, ``across_field``, ``imp_ave_plus``.

    Returns
    -------
    DataFrame
        A new frame: ``results`` plus ``butler_ns`` = IMP(score_ns - datum) (float64;
        the A+/A/A- award on an artificial row, NaN on ``NP``), ``butler_ew`` (its
        negative, or EW's own award) and ``datum`` (Int64, NA when the group has no
        real result).
    """
    board = prepare(results, conventions)
    n_groups = len(board.count)
    rows = board.rows
    sorted_group = board.group[rows]
    position = np.arange(len(rows)) - board.start[sorted_group]
    k = drop_counts(board.count, conventions)
    n = board.count[sorted_group]
    keep = (position >= k[sorted_group]) & (position < n - k[sorted_group])
    sums = np.bincount(sorted_group[keep], weights=board.score[rows][keep].astype(np.float64), minlength=n_groups)
    datum_group = round_datum(np.rint(sums).astype(np.int64), board.count - 2 * k, conventions.datum_round)

    g = board.group
    real, art = board.real, board.artificial
    has_datum = board.count[g] > 0
    datum = datum_group[g]
    ximp = np.where(real, to_imps(board.score - datum), np.nan)
    if len(board.part_row):
        part_group = board.part_group
        each = np.where(board.count[part_group] > 0, to_imps(board.part_score - datum_group[part_group]), 0.0)
        weighted = board.weighted
        ximp[weighted] = np.bincount(board.part_row, weights=board.part_weight * each, minlength=len(g))[weighted]
    award_ns, award_ew = artificial_imps(results, conventions)
    index = results.index
    datum_col = pd.array(datum, dtype="Int64")
    datum_col[~has_datum] = pd.NA
    return results.assign(
        butler_ns=pd.Series(np.where(art, award_ns, ximp) + 0.0, index=index, dtype="float64"),
        butler_ew=pd.Series(np.where(art, award_ew, -ximp) + 0.0, index=index, dtype="float64"),
        datum=pd.Series(datum_col, index=index),
    )
