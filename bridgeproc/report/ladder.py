"""A season ladder (archive.ladder) written as CSV or as a one-sheet workbook, atomically."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from bridgeproc.core.shown import shown_frame
from bridgeproc.io.atomic import atomic_path
from bridgeproc.report.styles import SUBTITLE, TITLE, a4, add_row, cell, header_row, new_sheet, new_workbook, set_widths
from bridgeproc.schema import LADDER_COLUMNS, check

#: Column titles of the ladder sheet.
TITLES = {"rank": "Rank", "names": "Names", "ids": "Member ids", "sessions": "Sessions", "counted": "Counted",
          "pct": "Average %", "best": "Best %"}
#: The suffixes :func:`write_ladder` writes.
LADDER_SUFFIXES = (".csv", ".xlsx")


def write_ladder(ladder: pd.DataFrame, path: str | os.PathLike, title: str = "Ladder",
                 lines: list[str] | None = None) -> None:
    """Write ``ladder`` (LADDER_COLUMNS) to ``path``: ``.csv`` (full precision, no title) or ``.xlsx``
    (``title``, then ``lines`` such as the rule and the notes, then the table)."""
    check(ladder, LADDER_COLUMNS)
    suffix = Path(path).suffix.lower()
    if suffix not in LADDER_SUFFIXES:
        raise ValueError(f"{path}: a ladder is written as .csv or .xlsx, not {suffix or 'no suffix'}")
    if suffix == ".csv":
        with atomic_path(path) as tmp:
            shown_frame(ladder).to_csv(tmp, index=False, lineterminator="\n")
        return
    wb = new_workbook()
    ws = new_sheet(wb, "Ladder")
    set_widths(ws, [7, 40, 20, 10, 10, 11, 9])
    add_row(ws, [cell(ws, title, font=TITLE)])
    for line in lines or []:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])
    header = len(lines or []) + 3
    a4(ws, f"{header}:{header}")
    add_row(ws, header_row(ws, [TITLES[c] for c in LADDER_COLUMNS]))
    for row in ladder.itertuples(index=False):
        add_row(ws, [row.rank, row.names, row.ids, int(row.sessions), int(row.counted),
                     cell(ws, float(row.pct), fmt="pct"), cell(ws, float(row.best), fmt="pct")])
    with atomic_path(path) as tmp:
        wb.save(tmp)
