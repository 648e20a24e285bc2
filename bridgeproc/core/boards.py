"""Board number -> dealer and vulnerability (the 16-board cycle), vectorised.

Reference: bridge-scoring-reference.md section 3 (Laws 2; endplay Vul.from_board).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.schema import SEAT, SEATS, VUL, VULS

# Vulnerability codes index schema.VULS: 0 None, 1 NS, 2 EW, 3 All.
#: Vulnerability of boards 1..16; board b behaves like board ((b-1) % 16) + 1.
VUL_CYCLE = np.array([0, 1, 2, 3, 1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2], dtype=np.int8)
#: How files write vulnerability (PBN ``None/Love/-/NS/EW/All/Both``, USEBIO ``Love/North-South/...``),
#: upper-cased -> schema.VULS.
VUL_ALIASES = {"NONE": "None", "LOVE": "None", "NIL": "None", "-": "None", "O": "None",
               "NS": "NS", "N-S": "NS", "N/S": "NS", "NORTH-SOUTH": "NS",
               "EW": "EW", "E-W": "EW", "E/W": "EW", "EAST-WEST": "EW",
               "ALL": "All", "BOTH": "All", "GAME ALL": "All"}


def vul_from_text(text: object) -> str | None:
    """The schema.VULS value a file's vulnerability text stands for, or None if it is not one."""
    return VUL_ALIASES.get(text.strip().upper()) if isinstance(text, str) else None


def board_dealer(board: int) -> str:
    """Dealer of one board number (the scalar :func:`dealer_of`)."""
    return SEATS[(board - 1) % 4]


def board_vul(board: int) -> str:
    """Vulnerability of one board number (the scalar :func:`vul_of`)."""
    return VULS[int(VUL_CYCLE[(board - 1) % 16])]


def dealer_codes(board: np.ndarray) -> np.ndarray:
    """Dealer seat code (0 N, 1 E, 2 S, 3 W) for each board number (>= 1)."""
    return ((np.asarray(board, dtype=np.int64) - 1) % 4).astype(np.int8)


def vul_codes(board: np.ndarray) -> np.ndarray:
    """Vulnerability code (0 None, 1 NS, 2 EW, 3 All) for each board number (>= 1)."""
    return VUL_CYCLE[(np.asarray(board, dtype=np.int64) - 1) % 16]


def dealer_of(board: pd.Series | np.ndarray) -> pd.Categorical:
    """Dealer (``N E S W``) of each board number."""
    return pd.Categorical.from_codes(dealer_codes(board), dtype=SEAT)


def vul_of(board: pd.Series | np.ndarray) -> pd.Categorical:
    """Vulnerability (``None NS EW All``) of each board number."""
    return pd.Categorical.from_codes(vul_codes(board), dtype=VUL)


def declarer_vulnerable(vul_code: np.ndarray, declarer_code: np.ndarray) -> np.ndarray:
    """True where the declaring side is vulnerable (declarer code 0..3 = N E S W)."""
    vul_code = np.asarray(vul_code)
    ns_declares = (np.asarray(declarer_code) % 2) == 0
    return (vul_code == 3) | np.where(ns_declares, vul_code == 1, vul_code == 2)
