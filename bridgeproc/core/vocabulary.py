"""The words of a contract cell in every notation clubs write: strain, doubling, seat and
pass-out spellings, the contract/result pattern and the result grammar. Shared by the contract
grammar (``notation``) and the weighted-score grammar (``weighted``), which both build on it."""
from __future__ import annotations

import re
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.schema import SEAT, STRAIN

ResultStyle = Literal["auto", "tricks", "relative"]

SUIT_SYMBOLS = str.maketrans({"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"})
STRAIN_ALIASES = {
    "NT": 4, "N": 4, "SA": 4, "BA": 4, "БК": 4, "NOTRUMP": 4, "NOTRUMPS": 4,
    "S": 3, "H": 2, "D": 1, "C": 0,
    "П": 3, "Ч": 2, "Б": 1, "Т": 0,
}
#: Doubled and redoubled: ``X``/``XX`` (also Cyrillic ``Х``/``ХХ``), ``*``/``**``, ``D``/``R``, ``DBL``/``RDBL``,
#: Russian ``К``/``РК`` (контра, реконтра). ``3БК`` is 3NT (без козыря), never 3 diamonds doubled: write ``3БХ``
#: or ``3♦К`` for that.
DOUBLING_ALIASES = {"": 0, "X": 1, "*": 1, "D": 1, "DBL": 1, "XX": 2, "**": 2, "R": 2, "RDBL": 2,
                    "Х": 1, "ХХ": 2, "К": 1, "РК": 2}
SEAT_ALIASES = {
    "N": 0, "NORTH": 0, "NORD": 0, "NOORD": 0, "С": 0, "СЕВЕР": 0,
    "E": 1, "EAST": 1, "O": 1, "OST": 1, "EST": 1, "OOST": 1, "В": 1, "ВОСТОК": 1,
    "S": 2, "SOUTH": 2, "SUD": 2, "SÜD": 2, "Z": 2, "ZUID": 2, "Ю": 2, "ЮГ": 2,
    "W": 3, "WEST": 3, "OUEST": 3, "WESTEN": 3, "З": 3, "ЗАПАД": 3,
}
#: Passed out, also in German/French (``Passe``), Dutch (``Pas``) and Russian (``Пас``, ``Все пас``).
PASSED_OUT = {"PASS", "P", "AP", "PO", "PASSED", "PASSEDOUT", "PASSOUT", "ALLPASS", "0", "PASSES",
              "PASSE", "PAS", "ПАС", "ВСЕПАС"}


def alternation(words) -> str:
    """A regex alternation of ``words``, longest first (so ``XX`` is tried before ``X``)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_RESULT_RE = r"(?P<result>=|M|MADE|[+\-−]\d{1,2}|\d{1,2})"
CONTRACT_RE = re.compile(
    rf"^(?P<level>[1-7])(?P<strain>{alternation(STRAIN_ALIASES)})"
    rf"(?P<doubled>{alternation([d for d in DOUBLING_ALIASES if d])})?"
    rf"(?:[-/]?(?P<declarer>{alternation(SEAT_ALIASES)}))?"
    rf"{_RESULT_RE}?$"
)

#: Minus signs people type or paste for ``-``: the minus sign (U+2212) and the en dash (U+2013, what word
#: processors make of ``-1``). The em dash stays a dash (no value).
MINUS_SIGNS = str.maketrans({"−": "-", "–": "-"})


def normalise(text: str) -> str:
    """Upper case, suit symbols as letters, no spaces, a minus sign or en dash as -."""
    return text.translate(SUIT_SYMBOLS).translate(MINUS_SIGNS).upper().replace(" ", "")


def parse_result(text: str, style: ResultStyle = "auto") -> dict:
    """Parse one result cell into ``{"relative": n}`` or ``{"tricks": n}``."""
    t = normalise(text)
    if t in {"=", "M", "MADE", "==", "MAKE"}:
        return {"relative": 0}
    if re.fullmatch(r"[+\-]\d{1,2}", t):
        if style == "tricks":
            return {"error": f"{text!r} is relative but results are read as trick counts; write the tricks taken (0-13)"}
        return {"relative": int(t)}
    if re.fullmatch(r"\d{1,2}", t):
        if style == "relative":
            return {"relative": int(t)}
        return {"tricks": int(t)}
    return {"error": f"{text!r} is not a result; write =, +1, -2 or the tricks taken (0-13)"}



def seat_categorical(codes: np.ndarray) -> pd.Categorical:
    """Seat codes 0..3 (-1 missing) as the SEAT categorical."""
    return pd.Categorical.from_codes(codes, dtype=SEAT)


def strain_categorical(codes: np.ndarray) -> pd.Categorical:
    """Strain codes 0..4 (-1 missing) as the STRAIN categorical."""
    return pd.Categorical.from_codes(codes, dtype=STRAIN)


