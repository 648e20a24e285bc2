"""Column names and dtypes of every frame, declared once.

Seats, strains and vulnerability are categoricals with fixed categories, so that
codes are small integers (fast to score) and the frame still reads as text.
"""
from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

SEATS = ("N", "E", "S", "W")
STRAINS = ("C", "D", "H", "S", "NT")
#: The boards frame's double-dummy columns: ``dd_<declarer>_<strain>`` (Int8 tricks), declarer-major.
DD_COLUMNS: tuple[str, ...] = tuple(f"dd_{seat}_{strain}" for seat in SEATS for strain in STRAINS)
VULS = ("None", "NS", "EW", "All")

SEAT = pd.CategoricalDtype(list(SEATS))
STRAIN = pd.CategoricalDtype(list(STRAINS), ordered=True)
VUL = pd.CategoricalDtype(list(VULS))

BOARDS_COLUMNS: dict[str, object] = {
    "board": "int64",
    "dealer": SEAT,
    "vul": VUL,
    "deal": "string",
    "source": "string",
    "line": "Int64",
}

#: Results after parsing and scoring. ``level`` 0 is a passed-out board.
RESULTS_COLUMNS: dict[str, object] = {
    "section": "string",
    "board": "int64",
    "ns": "string",
    "ew": "string",
    "level": "Int8",
    "strain": STRAIN,
    "doubled": "Int8",
    "declarer": SEAT,
    "tricks": "Int8",
    "lead": "string",
    "adjusted": "string",
    "score_ns": "Int64",
    "source": "string",
    "line": "Int64",
}

STANDINGS_COLUMNS: dict[str, object] = {
    "group": "string",
    "rank": "string",
    "pair": "string",
    "names": "string",
    "boards": "int64",
    "total": "float64",
    "pct": "float64",
}

#: One row per problem found in the input (see errors.ValidationError).
PROBLEM_COLUMNS: dict[str, object] = {
    "source": "string",
    "line": "string",
    "column": "string",
    "value": "string",
    "message": "string",
}

#: Columns of the scored-results CSV (design.md), before the per-method columns.
SCORED_CSV_COLUMNS = ["section", "board", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns"]


def empty(columns: dict[str, object]) -> pd.DataFrame:
    """An empty frame with the declared columns and dtypes."""
    return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in columns.items()})


def problems_frame(rows: list[dict]) -> pd.DataFrame:
    """Build a problems frame from dicts with (a subset of) PROBLEM_COLUMNS keys."""
    def text(value: object) -> object:
        return "" if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else value

    filled = [{name: text(row.get(name)) for name in PROBLEM_COLUMNS} for row in rows]
    return pd.DataFrame(filled, columns=list(PROBLEM_COLUMNS)).astype(PROBLEM_COLUMNS)


def check(frame: pd.DataFrame, columns: Mapping[str, object]) -> None:
    """Raise TypeError if ``frame`` lacks a declared column or holds it with another dtype (a
    programming error, not bad input: a step's entry says what it takes)."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TypeError(f"frame lacks columns {missing}")
    wrong = [f"{c} is {frame[c].dtype}, not {expected}" for c, expected in columns.items()
             if frame[c].dtype != pd.api.types.pandas_dtype(expected)]
    if wrong:
        raise TypeError("frame has other dtypes than declared: " + "; ".join(wrong))


def records(frame: pd.DataFrame):
    """Rows as objects with one attribute per column, for writers that lay out a few rows
    one by one (never for scoring or ranking, which work on whole columns)."""
    from types import SimpleNamespace

    return (SimpleNamespace(**row) for row in frame.to_dict("records"))
