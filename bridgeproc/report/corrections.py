"""The workbook's Corrections sheet: every correction the director applied, with its reason.

Written only when the run had a corrections file with corrections in it; one row per
corrected cell (``schema.CORRECTIONS_COLUMNS``), text through ``styles.add_row`` (never a formula).
"""
from __future__ import annotations

import pandas as pd

from bridgeproc.model import Session
from bridgeproc.report.styles import SUBTITLE, TITLE, a4, add_row, cell, header_row, new_sheet, set_widths

#: Column titles of the sheet, after the optional Section.
TITLES = ["Board", "NS", "EW", "Field", "Was", "Now", "Reason", "Correction", "Result read from"]


def _place(source: object, line: object) -> str:
    """``file:line`` (the file alone when the line is unknown)."""
    if pd.isna(line) or line == "":
        return "" if pd.isna(source) else str(source)
    return f"{source}:{line}"


def write_corrections(wb, session: Session) -> None:
    """The Corrections sheet, when the session has corrections (nothing otherwise)."""
    corrections = session.corrections
    if corrections is None or not len(corrections):
        return
    ws = new_sheet(wb, "Corrections")
    sections = bool(corrections["section"].fillna("").ne("").any())
    titles = (["Section"] if sections else []) + TITLES
    set_widths(ws, ([9] if sections else []) + [7, 6, 6, 9, 10, 10, 50, 22, 40])
    a4(ws, title_rows="4:4", landscape=True)
    add_row(ws, [cell(ws, "Corrections applied to the inputs", font=TITLE)])
    add_row(ws, [cell(ws, f"{len(corrections)} correction(s); the results, rankings and outputs include them",
                      font=SUBTITLE)])
    add_row(ws, [])
    add_row(ws, header_row(ws, titles))
    for row in corrections.to_dict("records"):
        values = [int(row["board"]), row["ns"], row["ew"], row["field"], row["was"], row["now"], row["reason"],
                  _place(row["source"], row["line"]), _place(row["result_source"], row["result_line"])]
        add_row(ws, ([row["section"]] if sections else []) + ["" if pd.isna(v) else v for v in values])
