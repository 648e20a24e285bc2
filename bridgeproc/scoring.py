"""Duplicate scores by Law 77, for whole columns at once.

Every (level, strain, doubled, vulnerable, tricks) combination is scored once into
``DECLARER_SCORE``, a small table built at import; scoring a frame is then an
index computation and one gather (``np.take``), with no Python loop per result.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .boards import declarer_vulnerable, vul_codes

# Table axes. Level 0 is a passed-out board (score 0 whatever the other axes say).
LEVELS, STRAIN_COUNT, DOUBLINGS, VULNERABILITIES, TRICK_COUNTS = 8, 5, 3, 2, 14

#: Trick value per odd trick, by strain code (C D H S NT), Law 77 trick score.
TRICK_VALUE = np.array([20, 20, 30, 30, 30])
#: Extra for the first NT trick.
FIRST_TRICK_EXTRA = np.array([0, 0, 0, 0, 10])
#: Multiplier of trick score by doubling (undoubled, doubled, redoubled).
DOUBLING_FACTOR = np.array([1, 2, 4])
#: Premium for making a doubled / redoubled contract ("insult").
INSULT = np.array([0, 50, 100])
#: Game premium [not vul, vul]; part-score premium is 50.
GAME_PREMIUM = np.array([300, 500])
SMALL_SLAM = np.array([500, 750])
GRAND_SLAM = np.array([1000, 1500])
#: Value of each doubled overtrick [not vul, vul]; redoubled is twice this.
DOUBLED_OVERTRICK = np.array([100, 200])


def _undertrick_penalty(down: np.ndarray, doubled: np.ndarray, vul: np.ndarray) -> np.ndarray:
    """Cumulative penalty for ``down`` undertricks (Law 77 undertrick table)."""
    undoubled = down * np.where(vul, 100, 50)
    # Doubled: not vul 100, 300, 500, then +300; vul 200, then +300 each.
    nv_doubled = 100 * (down >= 1) + 200 * np.clip(down - 1, 0, 2) + 300 * np.clip(down - 3, 0, None)
    v_doubled = np.where(down >= 1, 200 + 300 * (down - 1), 0)
    doubled_pen = np.where(vul, v_doubled, nv_doubled)
    return np.where(doubled == 0, undoubled, doubled_pen * np.where(doubled == 2, 2, 1))


def _build_table() -> np.ndarray:
    level, strain, doubled, vul, tricks = np.meshgrid(
        np.arange(LEVELS), np.arange(STRAIN_COUNT), np.arange(DOUBLINGS),
        np.arange(VULNERABILITIES), np.arange(TRICK_COUNTS), indexing="ij",
    )
    needed = level + 6
    made = tricks >= needed
    over = np.clip(tricks - needed, 0, None)
    mult = DOUBLING_FACTOR[doubled]
    trick_score = (level * TRICK_VALUE[strain] + FIRST_TRICK_EXTRA[strain]) * mult
    game = trick_score >= 100
    premium = np.where(game, GAME_PREMIUM[vul], 50)
    premium += np.where(level == 6, SMALL_SLAM[vul], 0) + np.where(level == 7, GRAND_SLAM[vul], 0)
    overtricks = np.where(
        doubled == 0, over * TRICK_VALUE[strain], over * DOUBLED_OVERTRICK[vul] * (doubled)
    )
    made_score = trick_score + premium + INSULT[doubled] + overtricks
    down = np.clip(needed - tricks, 0, None)
    score = np.where(made, made_score, -_undertrick_penalty(down, doubled, vul))
    score[0] = 0  # passed out
    return score.astype(np.int32).ravel()


#: Declarer's score, indexed by ``(((level*5 + strain)*3 + doubled)*2 + vul)*14 + tricks``.
DECLARER_SCORE = _build_table()


def declarer_score_codes(level, strain, doubled, vul, tricks) -> np.ndarray:
    """Declarer's score from integer code arrays (strain 0..4 = C D H S NT, vul 0/1)."""
    index = (((level.astype(np.intp) * STRAIN_COUNT + strain) * DOUBLINGS + doubled) * VULNERABILITIES + vul) * TRICK_COUNTS + tricks
    return DECLARER_SCORE.take(index)


def score_ns_codes(board, level, strain, doubled, declarer, tricks, vul=None) -> np.ndarray:
    """NS score from code arrays; ``vul`` (0..3 per row) defaults to the board's cycle.

    Passed-out rows (level 0) may carry any strain/declarer/tricks codes; they score 0.
    """
    if vul is None:
        vul = vul_codes(board)
    decl_vul = declarer_vulnerable(vul, declarer)
    score = declarer_score_codes(level, strain, doubled, decl_vul.view(np.int8), tricks)
    return np.where((declarer & 1) == 0, score, -score)


def score(results: pd.DataFrame, boards: pd.DataFrame | None = None) -> pd.DataFrame:
    """Score every played result from North-South's side.

    Parameters
    ----------
    results : DataFrame
        ``board``, ``level`` (0 = passed out), ``strain``, ``doubled``, ``declarer``,
        ``tricks`` and optionally ``adjusted`` (rows with a code there get no score).
    boards : DataFrame, optional
        ``board`` and ``vul``; where given, its vulnerability is used instead of the
        board-number cycle (a hand record may deviate from the cycle).

    Returns
    -------
    DataFrame
        ``results`` plus ``score_ns`` (Int64; NA for artificial scores and not-played rows).
    """
    board = results["board"].to_numpy(dtype=np.int64)
    played = results["level"].notna().to_numpy()
    if "adjusted" in results:
        played = played & results["adjusted"].isna().to_numpy()
    level = results["level"].to_numpy(dtype=np.int64, na_value=0)
    passed = level == 0
    strain = np.where(passed | ~played, 0, results["strain"].cat.codes.to_numpy())
    declarer = np.where(passed | ~played, 0, results["declarer"].cat.codes.to_numpy())
    doubled = results["doubled"].to_numpy(dtype=np.int64, na_value=0)
    tricks = results["tricks"].to_numpy(dtype=np.int64, na_value=0)
    level = np.where(played, level, 0)
    vul = None
    if boards is not None and "vul" in boards and len(boards):
        lookup = pd.Series(boards["vul"].cat.codes.to_numpy(), index=boards["board"].to_numpy())
        mapped = lookup.reindex(board).to_numpy()
        vul = np.where(np.isnan(mapped.astype(float)), vul_codes(board), mapped).astype(np.int8)
    ns = score_ns_codes(board, level, strain, doubled, declarer, tricks, vul)
    score_ns = pd.array(ns, dtype="Int64")
    score_ns[~played] = pd.NA
    return results.assign(score_ns=score_ns)
