"""Every data CSV bridgeproc writes, written one way: the numbers as every output shows them
(``core.shown``) and each text cell a spreadsheet would run as a formula begun with ``'``.

A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return (or their full-width forms, which some spreadsheets take for them) as a formula:
``=HYPERLINK(...)`` typed as a pair's name, ``-2+3+cmd|...`` as a lead. Such a cell is written with
a leading apostrophe, the mark a spreadsheet shows as "text" (OWASP's advice on CSV injection); a
plain number written as text (``-110``, ``+1``) is left as it is, as a spreadsheet reads it as a
number, never a formula. Names, sections, titles, leads and notes all reach CSVs through here.

A carriage return inside a text cell is kept, and the file then quotes every text cell: the csv module
quotes a field holding the line end (``\n``) but not a lone ``\r``, which a reader takes for the end of
the row.
"""
from __future__ import annotations

import csv
import os
import re

import pandas as pd

from bridgeproc.core.shown import shown_frame

#: The start of a cell a spreadsheet would run as a formula.
FORMULA = re.compile(r"[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]")
#: A plain number: read as a number, never run.
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_text(value: object) -> object:
    """One cell as a spreadsheet will read it as text (``None`` as an empty cell)."""
    if isinstance(value, str) and FORMULA.match(value) and not NUMBER.fullmatch(value):
        return "'" + value
    return "" if value is None else value


def safe_frame(frame: pd.DataFrame, shown: bool = True) -> pd.DataFrame:
    """A copy of ``frame`` with its numbers as shown (``shown``; else as they are, for scripts) and its
    risky text cells begun with ``'``."""
    out = shown_frame(frame) if shown else frame.copy()
    for column in out.columns:
        kind = out[column].dtype
        if pd.api.types.is_object_dtype(kind) or isinstance(kind, (pd.StringDtype, pd.CategoricalDtype)):
            text = out[column].astype("string")
            risky = text.str.match(FORMULA.pattern, na=False) & ~text.str.fullmatch(NUMBER.pattern, na=False)
            if risky.any():
                out[column] = text.where(~risky, "'" + text)
    return out


def quoting(frame: pd.DataFrame) -> int:
    """How the csv module must quote ``frame``: every text cell when one holds a carriage return."""
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column].dtype) and \
                frame[column].astype("string").str.contains("\r", regex=False, na=False).any():
            return csv.QUOTE_NONNUMERIC
    return csv.QUOTE_MINIMAL


def write_csv(frame: pd.DataFrame, path: str | os.PathLike, float_format: str | None = None) -> None:
    """``frame`` as a CSV file (UTF-8, ``\\n`` line ends, no index), safe to open in a spreadsheet."""
    safe = safe_frame(frame)
    safe.to_csv(path, index=False, lineterminator="\n", float_format=float_format, quoting=quoting(safe))


def csv_text(frame: pd.DataFrame, float_format: str | None = None, shown: bool = True) -> str:
    """``frame`` as CSV text (for standard output), safe to open in a spreadsheet; ``shown=False`` keeps
    every digit of the numbers (``archive list --csv`` for scripts)."""
    safe = safe_frame(frame, shown)
    return safe.to_csv(index=False, lineterminator="\n", float_format=float_format, quoting=quoting(safe))
