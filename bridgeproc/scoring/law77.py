"""Duplicate scores by Law 77, for whole columns at once.

Every (level, strain, doubled, vulnerable, tricks) combination is scored once into
``DECLARER_SCORE``, a small table built at import; scoring a frame is then an
index computation and one gather (``np.take``), with no Python loop per result.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.boards import VUL_CYCLE, declarer_vulnerable
from bridgeproc.core.notation import parse_results_text
from bridgeproc.schema import RESULTS_COLUMNS, check

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


#: Contract codes: ``level*15 + strain*3 + doubled``; 0..14 all mean passed out (level 0).
CONTRACT_CODES = LEVELS * STRAIN_COUNT * DOUBLINGS
#: Board phase: ``(board - 1) % 16``; phases 0..3 are None, NS, EW, All vulnerable.
PHASES = 16


def _build_ns_table() -> np.ndarray:
    """Each declarer's score read from ``DECLARER_SCORE`` for every (declarer, phase), NS's sign."""
    by_contract = DECLARER_SCORE.reshape(CONTRACT_CODES, VULNERABILITIES, TRICK_COUNTS)
    declarer = np.arange(4)[:, None]
    vulnerable = declarer_vulnerable(VUL_CYCLE[None, :], declarer).astype(np.intp)  # (declarer, phase)
    value = by_contract[:, vulnerable, :]  # (contract, declarer, phase, tricks)
    sign = np.where(declarer % 2 == 0, 1, -1).astype(np.int32)[None, :, :, None]
    return (value * sign).astype(np.int32).ravel()


#: NS score indexed by ``((contract*4 + declarer)*16 + phase)*14 + tricks`` (107,520 entries, 430 kB).
SCORE_NS = _build_ns_table()


def score_ns_codes(contract: np.ndarray, declarer: np.ndarray, phase: np.ndarray, tricks: np.ndarray) -> np.ndarray:
    """NS scores from int32 code arrays: one multiply-add chain and one gather.

    ``contract`` = level*15 + strain*3 + doubled (0 = passed out, whatever the rest),
    ``declarer`` 0..3 = N E S W, ``phase`` = (board-1) % 16 (or 0..3 to force None, NS,
    EW, All), ``tricks`` 0..13. Inputs must already be in range.
    """
    index = contract * 4
    index += declarer
    index *= PHASES
    index += phase
    index *= TRICK_COUNTS
    index += tricks
    return SCORE_NS.take(index)


def board_phase(board: np.ndarray) -> np.ndarray:
    """``(board - 1) % 16`` as int32, the vulnerability/dealer phase of each board."""
    return ((np.asarray(board, dtype=np.int32) - 1) & 15).astype(np.int32, copy=False)


#: What :func:`score` reads, as schema.RESULTS_COLUMNS declares it.
SCORED_FROM = {name: RESULTS_COLUMNS[name] for name in ("board", "level", "strain", "doubled", "declarer", "tricks")}


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
    check(results, SCORED_FROM)
    played = results["level"].notna().to_numpy()
    if "adjusted" in results:
        played = played & results["adjusted"].isna().to_numpy()
    level = results["level"].to_numpy(dtype=np.int32, na_value=0)
    level = np.where(played, level, 0)
    strain = results["strain"].cat.codes.to_numpy().astype(np.int32).clip(0)
    doubled = results["doubled"].to_numpy(dtype=np.int32, na_value=0)
    contract = np.where(level > 0, level * 15 + strain * 3 + doubled, 0).astype(np.int32)
    declarer = results["declarer"].cat.codes.to_numpy().astype(np.int32).clip(0)
    tricks = results["tricks"].to_numpy(dtype=np.int32, na_value=0)
    phase = board_phase(results["board"].to_numpy())
    if boards is not None and "vul" in boards and len(boards):
        # Phases 0..3 carry exactly the vulnerabilities None, NS, EW, All.
        lookup = pd.Series(boards["vul"].cat.codes.to_numpy(), index=boards["board"].to_numpy())
        vul = lookup.reindex(results["board"].to_numpy()).to_numpy()
        phase = np.where(np.isnan(vul.astype(float)), phase, np.nan_to_num(vul.astype(float))).astype(np.int32)
    score_ns = pd.array(score_ns_codes(contract, declarer, phase, tricks), dtype="Int64")
    score_ns[~played] = pd.NA
    return results.assign(score_ns=score_ns)


def score_text(board, contract, declarer, result, result_style="auto") -> np.ndarray:
    """NS scores straight from text columns; raises ValueError if any row is not a result.

    The fast path for clean data (benchmarks, scripts); files go through
    ``validate.validate_results`` instead, which reports every bad cell.
    """
    codes = parse_results_text(contract, declarer, result, result_style)
    if not codes.valid.all():
        raise ValueError(f"{int((~codes.valid).sum())} row(s) are not complete results")
    return score_ns_codes(codes.contract_code, codes.declarer.clip(0), board_phase(board), codes.tricks.clip(0))
