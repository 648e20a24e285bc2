"""Matchpoints (Law 78A) with Neuberg or average factoring and artificial scores (Law 12C).

Per board group (section + board, or board across the field):

1. The real results are matchpointed against each other: on the 2/1 scale a result
   gets 2 per result it beats and 1 per tie, ``MP = 2 x below + (equal - 1)``.
2. If the group has n real results and N are expected (the most rows on any board of
   the section, ``NP`` rows not counted, or ``Conventions.expected``), MPs are
   factored to the full top 2(N - 1):
   ``neuberg``  MP' = (MP + 1) N/n - 1 (reference 7.2; on 1/½ it is (MP + ½) N/n - ½);
   ``average``  MP' = MP + (N - n): every missing result counts as a tie;
   ``none``     MP' = MP and the top stays 2(n - 1).
3. Artificial rows (``A+/A-``, ``60/40`` ...) take no part in steps 1-2 (so the board's
   other results are factored over them, reference 7.3) and get their percentage of the
   full top; each side its own (split scores). ``NP`` rows get nothing.
4. ``mp_scale=1`` halves everything; ``mp_decimals`` rounds the board MPs as a
   program prints them; ``centred`` subtracts top/2 (Norway).

Board tops (``Conventions.mp_top="board"``, Compscore): in steps 2-3 N is the board's own
line count L (real, weighted and artificial rows; not ``NP``), so the traveller shows each
board on its own top 2(L - 1), the real results Neuberg-factored around artificial lines
((MP + 1) L/n - 1, Lindfield board 26: 2.6). :func:`full_top_points` gives what the totals
count: every board factored from L to the full N (``factoring``), an artificial line its
percentage of the full top.

Weighted scores (Law 12C1c, ``W:50% 4SN= +420; 50% 4SN-1 -50``): a weighted row is a
result of its board like a played one, made of parts (score s_k, weight p_k). Each
part is matchpointed against the real results (``_mp_against``) and against the parts
of the board's other weighted rows, and the row's MPs are the weighted sum; every
other result counts a part as p_k of a result (beating a 50 % part is half a beat).
So n counts real and weighted rows alike, MP_NS + MP_EW = top on every row, and a
board's MPs add up as usual. (A row's own parts weigh exactly 1 against themselves,
the "- 1" of a real result's own tie.) Weighted rows count as played boards for the
session rule (``adjusted_mode="session"``).

Fouled boards (a ``fouled`` group label, reference 7.3): each group of a board is
matchpointed on its own and Neuberg-factored to the board's N (with ``factoring``
``average`` to max(N, results on the board), with ``none`` to the results on the
board), so every group shares the board's full top. ``Conventions.fouled="acbl"``
gives groups of 1-3 fixed percentages instead: with raw 2/1 MPs r in the group,
pct = 60 (1 result), 55 + 5r (2), 50 + 5r (3, unless the largest group of the board).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import pair_keys, pair_numbering
from bridgeproc.rank._core import BoardGroups, artificial_sides, distinct_keys, group_codes, played_masks, prepare
from bridgeproc.rank.conventions import Conventions


def _mp_against(board: BoardGroups, group: np.ndarray, score: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Raw 2/1 matchpoints of ``score`` against the real results of ``group``, without the row's ``own`` score.

    Split and weighted scores query scores that are not the row's own result; the
    row's own result is in the sorted set and is taken out here. A row that is not a
    real result (a weighted row) passes ``own = inf``, which matches nothing.
    """
    below = board.below(group, score) - (own < score)
    equal = board.at_most(group, score) - board.below(group, score) - (own == score)
    return 2.0 * below + equal


def _mp_sorted(board: BoardGroups) -> np.ndarray:
    """Raw 2/1 matchpoints of the real results, in sorted order (sorted needles search fast)."""
    keys = board.keys
    left = np.searchsorted(keys, keys, side="left")
    right = np.searchsorted(keys, keys, side="right")
    return 2.0 * (left - board.start[board.group[board.rows]]) + (right - left - 1)


def _raw_ns(board: BoardGroups) -> np.ndarray:
    """Raw 2/1 NS matchpoints of every real and weighted row against the rest of its group."""
    raw = np.zeros(len(board.group))
    raw[board.rows] = _mp_sorted(board)
    if not len(board.part_row):
        return raw
    _, first, inverse = distinct_keys(board.keys)  # equal (group, score) share the answer
    group, score = board.group[board.rows[first]], board.score[board.rows[first]]
    raw[board.rows] += (board.weight_below(group, score) + board.weight_at_most(group, score))[inverse]
    group, score = board.part_group, board.part_score
    each = (_mp_against(board, group, score, np.full(len(score), np.inf))
            + board.weight_below(group, score) + board.weight_at_most(group, score))
    raw += np.bincount(board.part_row, weights=board.part_weight * each, minlength=len(raw))
    raw[board.weighted] -= 1.0
    return raw


def _factor(raw2: np.ndarray, n: np.ndarray, big_n: np.ndarray, conv: Conventions) -> tuple[np.ndarray, np.ndarray]:
    """Factored 2/1 MPs and the 2/1 top, given n real and N expected results."""
    if conv.factoring == "neuberg":
        with np.errstate(divide="ignore", invalid="ignore"):
            return (raw2 + 1.0) * big_n / n - 1.0, 2.0 * (big_n - 1)
    if conv.factoring == "average":
        full = np.maximum(big_n, n)
        return raw2 + (full - n), 2.0 * (full - 1)
    return raw2, 2.0 * (n - 1)


def _fouled_target(board: BoardGroups, g: np.ndarray, big_n: np.ndarray, conv: Conventions) -> np.ndarray:
    """N a fouled group is factored to: the board's N (see the module docstring)."""
    on_board = board.board_size[g].astype(np.float64)
    if conv.factoring == "average":
        return np.maximum(big_n, on_board)
    return on_board if conv.factoring == "none" else big_n


#: ACBL fixed percentages of small fouled groups: pct = base + slope x raw 2/1 MPs, by group size.
SMALL_GROUP_BASE = {1: 60.0, 2: 55.0, 3: 50.0}
SMALL_GROUP_SLOPE = 5.0


def _small_groups(board: BoardGroups, g: np.ndarray, conv: Conventions) -> np.ndarray:
    """Rows in fouled groups that get ACBL's fixed percentages (none unless ``fouled="acbl"``)."""
    size = board.size[g]
    if conv.fouled != "acbl":
        return np.zeros(len(g), dtype=bool)
    return board.fouled[g] & ((size <= 2) | ((size == 3) & (size < board.largest[g])))


def _round(values: np.ndarray, decimals: int) -> np.ndarray:
    """Round halves away from zero (as printed by the scoring programs), not to even."""
    scale = 10.0 ** decimals
    return np.sign(values) * np.floor(np.abs(values) * scale + 0.5 + 1e-9) / scale


def _percent(mp: np.ndarray, top: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(top > 0, mp / np.where(top > 0, top, 1) * 100.0, 50.0)


def _own_percent(results: pd.DataFrame, real: np.ndarray, pct_ns: np.ndarray, pct_ew: np.ndarray,
                 top: np.ndarray, conv: Conventions) -> tuple[np.ndarray, np.ndarray]:
    """Each row's NS and EW pair's session % over its real boards (NaN if it has none)."""
    ns_key, ew_key = pair_keys(results, pair_numbering(results, conv.pair_numbering))  # type: ignore[arg-type]
    n = len(results)
    keys = pd.concat([ns_key, ew_key], ignore_index=True).fillna("")
    codes, _ = pd.factorize(keys.to_numpy(dtype=object))
    weight = np.concatenate([np.where(real, top, 0.0)] * 2)
    points = np.concatenate([np.where(real, pct_ns * top / 100.0, 0.0), np.where(real, pct_ew * top / 100.0, 0.0)])
    sum_points = np.bincount(codes, weights=points)
    sum_top = np.bincount(codes, weights=weight)
    with np.errstate(divide="ignore", invalid="ignore"):
        own = np.where(sum_top > 0, sum_points / np.where(sum_top > 0, sum_top, 1) * 100.0, np.nan)
    return own[codes[:n]], own[codes[n:]]


def _session_rule(pct: np.ndarray, kind: np.ndarray, own: np.ndarray, conv: Conventions) -> np.ndarray:
    """A+ = max(ave_plus, own %), A- = min(ave_minus, own %); A and numbers unchanged."""
    known = ~np.isnan(own)
    out = np.where((kind == 1) & known, np.fmax(conv.ave_plus, own), pct)
    return np.where((kind == -1) & known, np.fmin(conv.ave_minus, own), out)


def _board_lines(results: pd.DataFrame, conv: Conventions) -> np.ndarray:
    """Lines of each row's board (real, weighted and artificial rows; ``NP`` not), per section
    unless ``across_field``: the board's own N when ``mp_top="board"``."""
    board_group, _, n_boards = group_codes(results, conv.across_field)
    _, _, counted = played_masks(results)
    return np.bincount(board_group[counted], minlength=n_boards)[board_group].astype(np.float64)


def full_top_points(results: pd.DataFrame, conventions: Conventions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NS MPs, EW MPs and the top each row counts in the totals (on ``mp_scale``, not centred).

    With ``mp_top="full"`` these are the traveller's own (``mp_ns``/``mp_ew`` uncentred, ``top``).
    With ``mp_top="board"`` each played row's MPs on its board's top 2(L - 1) are factored to the
    full N per ``factoring`` (Neuberg: (MP + 1) N/L - 1), an artificial row (and an ACBL small
    fouled group) keeps its percentage of the full top 2(N - 1). Reads the columns
    :func:`matchpoints` added.
    """
    conv = conventions
    top = results["top"].to_numpy(dtype=np.float64, na_value=np.nan)
    shift = top / 2.0 if conv.centred else 0.0
    ns = results["mp_ns"].to_numpy(dtype=np.float64, na_value=np.nan) + shift
    ew = results["mp_ew"].to_numpy(dtype=np.float64, na_value=np.nan) + shift
    if conv.mp_top != "board":
        return ns, ew, top
    board = prepare(results, conv)
    big_n = board.expected[board.group].astype(np.float64)
    lines = top * 2.0 / conv.mp_scale / 2.0 + 1.0  # L from the board's own 2/1 top 2(L - 1)
    pct_ns = results["pct_ns"].to_numpy(dtype=np.float64, na_value=np.nan)
    pct_ew = results["pct_ew"].to_numpy(dtype=np.float64, na_value=np.nan)
    f_ns, full2 = _factor(pct_ns / 100.0 * 2.0 * (lines - 1), lines, big_n, conv)
    f_ew, _ = _factor(pct_ew / 100.0 * 2.0 * (lines - 1), lines, big_n, conv)
    exact = (board.real | board.weighted) & results["mp_factor"].notna().to_numpy()
    full = full2 * conv.mp_scale / 2.0
    out_ns = np.where(exact, f_ns * conv.mp_scale / 2.0, pct_ns * full / 100.0)
    out_ew = np.where(exact, f_ew * conv.mp_scale / 2.0, pct_ew * full / 100.0)
    scored = ~np.isnan(top)
    return np.where(scored, out_ns, np.nan), np.where(scored, out_ew, np.nan), np.where(scored, full, np.nan)


def matchpoints(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Matchpoint every board group.

    Parameters
    ----------
    results : DataFrame
        Reads ``section``, ``board``, ``ns``, ``ew``, ``adjusted`` (artificial and
        weighted ``W:`` codes), ``score_ns`` and, if present, ``fouled`` (group labels).
    conventions : Conventions
        Uses ``mp_scale``, ``factoring``, ``expected``, ``across_field``, ``centred``,
        ``mp_decimals``, ``ave_plus``/``ave``/``ave_minus``, ``adjusted_mode``, ``fouled``,
        ``mp_top`` and ``pair_numbering`` (to find a pair's own boards for the session rule).

    Returns
    -------
    DataFrame
        A new frame: ``results`` plus ``mp_ns``, ``mp_ew`` (float64, on ``mp_scale``,
        rounded and centred if asked), ``pct_ns``, ``pct_ew`` (0-100 of the top), ``top`` (the
        board's full top on ``mp_scale``) and ``mp_factor`` (N/n for Neuberg and for
        every fouled group, else 1; NaN on artificial rows and ACBL small fouled
        groups). Rows with ``NP`` or no score have NaN everywhere.
    """
    conv = conventions
    board = prepare(results, conv)
    real, art = board.real, board.artificial
    played = real | board.weighted
    g = board.group
    n = board.size[g].astype(np.float64)
    big_n = _board_lines(results, conv) if conv.mp_top == "board" else board.expected[g].astype(np.float64)

    raw_ns = _raw_ns(board)
    raw_ew = 2.0 * (n - 1) - raw_ns
    mp2_ns, top2 = _factor(raw_ns, n, big_n, conv)
    mp2_ew, _ = _factor(raw_ew, n, big_n, conv)
    if conv.factoring == "none":
        # no factoring: artificial rows share the top their board's real results give
        top2 = np.where(played | (n > 0), top2, 2.0 * (big_n - 1))
    factor = np.where(played, big_n / np.where(n > 0, n, 1) if conv.factoring == "neuberg" else 1.0, np.nan)
    fouled = board.fouled[g]
    if fouled.any():
        target = _fouled_target(board, g, big_n, conv)
        neuberg = conv.replace(factoring="neuberg")
        f_ns, f_top2 = _factor(raw_ns, n, target, neuberg)
        f_ew, _ = _factor(raw_ew, n, target, neuberg)
        mp2_ns, mp2_ew = np.where(fouled, f_ns, mp2_ns), np.where(fouled, f_ew, mp2_ew)
        top2 = np.where(fouled, f_top2, top2)
        factor = np.where(fouled & played, target / np.where(n > 0, n, 1), factor)

    pct_ns = np.where(played, _percent(mp2_ns, top2), np.nan)
    pct_ew = np.where(played, _percent(mp2_ew, top2), np.nan)
    small = _small_groups(board, g, conv) & played
    if small.any():
        base = np.select([n == 1, n == 2], [SMALL_GROUP_BASE[1], SMALL_GROUP_BASE[2]], SMALL_GROUP_BASE[3])
        pct_ns = np.where(small, base + SMALL_GROUP_SLOPE * raw_ns, pct_ns)
        pct_ew = np.where(small, base + SMALL_GROUP_SLOPE * raw_ew, pct_ew)
        factor = np.where(small, np.nan, factor)

    ns_art, ns_kind, ew_art, ew_kind = artificial_sides(results, conv)
    if conv.adjusted_mode == "session" and art.any():
        own_ns, own_ew = _own_percent(results, played, pct_ns, pct_ew, top2, conv)
        ns_art = _session_rule(ns_art, ns_kind, own_ns, conv)
        ew_art = _session_rule(ew_art, ew_kind, own_ew, conv)
    pct_ns = np.where(art, ns_art, pct_ns)
    pct_ew = np.where(art, ew_art, pct_ew)

    scored = played | art
    top = np.where(scored, top2 * conv.mp_scale / 2.0, np.nan)
    # played rows keep the exact factored MPs; artificial ones are their percentage of the top
    exact = played & ~small
    mp_ns = np.where(exact, mp2_ns * conv.mp_scale / 2.0, pct_ns * top / 100.0)
    mp_ew = np.where(exact, mp2_ew * conv.mp_scale / 2.0, pct_ew * top / 100.0)
    if conv.mp_decimals is not None:
        mp_ns, mp_ew = _round(mp_ns, conv.mp_decimals), _round(mp_ew, conv.mp_decimals)
    if conv.centred:
        mp_ns, mp_ew = mp_ns - top / 2.0, mp_ew - top / 2.0
    index = results.index
    added = {"mp_ns": mp_ns, "mp_ew": mp_ew, "pct_ns": pct_ns, "pct_ew": pct_ew, "top": top, "mp_factor": factor}
    return results.assign(**{name: pd.Series(values, index=index, dtype="float64") for name, values in added.items()})
