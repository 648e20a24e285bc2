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

Weighted scores (Law 12C1c), a hook for later: a weighted row is a list of
(score, weight); its MP is the weighted sum of ``_mp_against`` for each score, which
already matchpoints any score against a group while leaving out the row's own result.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..movement import pair_keys, pair_numbering
from ._core import BoardGroups, artificial_sides, prepare
from .conventions import Conventions

#: Columns added by :func:`matchpoints`.
MP_COLUMNS = {"mp_ns": "float64", "mp_ew": "float64", "pct_ns": "float64", "pct_ew": "float64",
              "top": "float64", "mp_factor": "float64"}


def _mp_against(board: BoardGroups, group: np.ndarray, score: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Raw 2/1 matchpoints of ``score`` against the real results of ``group``, without the row's ``own`` score.

    Split and weighted scores query scores that are not the row's own result; the
    row's own result is in the sorted set and is taken out here.
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


def _factor(raw2: np.ndarray, n: np.ndarray, big_n: np.ndarray, conv: Conventions) -> tuple[np.ndarray, np.ndarray]:
    """Factored 2/1 MPs and the 2/1 top, given n real and N expected results."""
    if conv.factoring == "neuberg":
        with np.errstate(divide="ignore", invalid="ignore"):
            return (raw2 + 1.0) * big_n / n - 1.0, 2.0 * (big_n - 1)
    if conv.factoring == "average":
        full = np.maximum(big_n, n)
        return raw2 + (full - n), 2.0 * (full - 1)
    return raw2, 2.0 * (n - 1)


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


def matchpoints(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Matchpoint every board group.

    Parameters
    ----------
    results : DataFrame
        Reads ``section``, ``board``, ``ns``, ``ew``, ``adjusted``, ``score_ns``.
    conventions : Conventions
        Uses ``mp_scale``, ``factoring``, ``expected``, ``across_field``, ``centred``,
        ``mp_decimals``, ``ave_plus``/``ave``/``ave_minus``, ``adjusted_mode`` and
        ``pair_numbering`` (to find a pair's own boards for the session rule).

    Returns
    -------
    DataFrame
        A new frame: ``results`` plus ``mp_ns``, ``mp_ew`` (float64, on ``mp_scale``,
        rounded and centred if asked), ``pct_ns``, ``pct_ew`` (0-100 of the top), ``top`` (the
        board's full top on ``mp_scale``) and ``mp_factor`` (N/n for Neuberg, else 1;
        NaN on artificial rows). Rows with ``NP`` or no score have NaN everywhere.
    """
    conv = conventions
    board = prepare(results, conv)
    n_rows = len(results)
    real, art = board.real, board.artificial
    g = board.group
    n = board.count[g].astype(np.float64)
    big_n = board.expected[g].astype(np.float64)

    raw_ns = np.zeros(n_rows)
    raw_ns[board.rows] = _mp_sorted(board)
    raw_ew = 2.0 * (n - 1) - raw_ns
    mp2_ns, top2 = _factor(raw_ns, n, big_n, conv)
    mp2_ew, _ = _factor(raw_ew, n, big_n, conv)
    if conv.factoring == "none":
        # no factoring: artificial rows share the top their board's real results give
        top2 = np.where(real | (n > 0), top2, 2.0 * (big_n - 1))
    factor = np.where(real, big_n / np.where(n > 0, n, 1) if conv.factoring == "neuberg" else 1.0, np.nan)

    pct_ns = np.where(real, _percent(mp2_ns, top2), np.nan)
    pct_ew = np.where(real, _percent(mp2_ew, top2), np.nan)

    ns_art, ns_kind, ew_art, ew_kind = artificial_sides(results, conv)
    if conv.adjusted_mode == "session" and art.any():
        own_ns, own_ew = _own_percent(results, real, pct_ns, pct_ew, top2, conv)
        ns_art = _session_rule(ns_art, ns_kind, own_ns, conv)
        ew_art = _session_rule(ew_art, ew_kind, own_ew, conv)
    pct_ns = np.where(art, ns_art, pct_ns)
    pct_ew = np.where(art, ew_art, pct_ew)

    scored = real | art
    top = np.where(scored, top2 * conv.mp_scale / 2.0, np.nan)
    # real rows keep the exact factored MPs; artificial ones are their percentage of the top
    mp_ns = np.where(real, mp2_ns * conv.mp_scale / 2.0, pct_ns * top / 100.0)
    mp_ew = np.where(real, mp2_ew * conv.mp_scale / 2.0, pct_ew * top / 100.0)
    if conv.mp_decimals is not None:
        mp_ns, mp_ew = _round(mp_ns, conv.mp_decimals), _round(mp_ew, conv.mp_decimals)
    if conv.centred:
        mp_ns, mp_ew = mp_ns - top / 2.0, mp_ew - top / 2.0
    index = results.index
    added = {"mp_ns": mp_ns, "mp_ew": mp_ew, "pct_ns": pct_ns, "pct_ew": pct_ew, "top": top, "mp_factor": factor}
    return results.assign(**{name: pd.Series(values, index=index, dtype="float64") for name, values in added.items()})
