"""Rubber and Chicago score sheets (and Swiss standings) out: a text table for the console, CSV or an
xlsx sheet.

The frames come from ``rubber.rubber_sheet``, ``chicago.chicago_sheet`` and ``pipeline.swiss``; the
writers take a ``model.ScoreSheet`` or ``model.SwissRun`` and a plain path (``pipeline.publish`` stages it).
"""
from __future__ import annotations

import os

import pandas as pd

from bridgeproc.core.shown import shown_frame
from bridgeproc.model import ScoreSheet, SwissRun
from bridgeproc.report.csv_files import write_csv
from bridgeproc.report.styles import (
    BAND_FILL,
    BOLD,
    SUBTITLE,
    TITLE,
    a4,
    add_changed_text,
    add_row,
    cell,
    header_row,
    new_sheet,
    new_workbook,
    set_widths,
)

#: Column headings shown to people (sheet columns not listed keep their own name).
HEADINGS = {
    "rubber": "Rubber", "chicago": "Chicago", "deal": "Deal", "round_deal": "No", "dealer": "Dealer",
    "vul": "Vul", "declarer": "By", "contract": "Contract", "tricks": "Tricks", "result": "Result",
    "vulnerable": "Vul", "ns_below": "NS below", "ns_above": "NS above", "ew_below": "EW below",
    "ew_above": "EW above", "ns_points": "NS", "ew_points": "EW", "ns_total": "NS total", "ew_total": "EW total",
    "games_ns": "Games NS", "games_ew": "Games EW", "hcp_ns": "HCP NS", "target_side": "Target for",
    "target": "Target", "score_ns": "Score NS", "imps_ns": "IMPs NS", "imps_ew": "IMPs EW", "note": "Note",
}
_WIDE = {"note": 40, "contract": 9, "target_side": 10}


#: Output formats ``write_sheet`` knows, by extension.
SHEET_SUFFIXES = (".csv", ".xlsx")


def sheet_text(frame: pd.DataFrame) -> str:
    """The running score sheet as a plain-text table (blank for missing values), then one
    line per rubber/chicago with the final totals (``Rubber 1: NS 1070, EW 420: NS by 650``)."""
    shown = frame.rename(columns=HEADINGS).astype(object).where(frame.notna().to_numpy(), "")
    lines = [shown.to_string(index=False), ""]
    group = _group_column(frame)
    if group and len(frame):
        imps = "imps_ns" in frame
        last = frame.groupby(group, sort=True).tail(1)
        for number, ns_total, ew_total in zip(last[group], last["ns_total"], last["ew_total"]):
            ns, ew = int(ns_total), int(ew_total)
            if imps:
                lines.append(f"{group.capitalize()} {number}: NS {ns:+d} IMPs, EW {ew:+d} IMPs")
                continue
            verdict = "level" if ns == ew else f"{'NS' if ns > ew else 'EW'} by {abs(ns - ew)}"
            lines.append(f"{group.capitalize()} {number}: NS {ns}, EW {ew}: {verdict}")
    return "\n".join(lines)


def _group_column(frame: pd.DataFrame) -> str | None:
    return next((c for c in ("rubber", "chicago") if c in frame), None)


def write_xlsx(frame: pd.DataFrame, path: str | os.PathLike, title: str | None = None) -> None:
    """One sheet: a title, the headings, then one row per deal; rubbers/chicagos banded alternately."""
    wb = new_workbook()
    ws = new_sheet(wb, "Score sheet")
    columns = list(frame.columns)
    set_widths(ws, [_WIDE.get(c, max(7, len(HEADINGS.get(c, c)) + 2)) for c in columns])
    a4(ws, title_rows="3:3", landscape=len(columns) > 10)
    add_row(ws, [cell(ws, title or "Score sheet", font=TITLE)])
    add_row(ws, [cell(ws, f"{len(frame)} row(s)", font=SUBTITLE)])
    add_row(ws, header_row(ws, [HEADINGS.get(c, c) for c in columns]))
    group = _group_column(frame)
    values = frame.astype(object).where(frame.notna().to_numpy(), None).to_numpy()
    groups = frame[group].to_numpy() if group else [0] * len(frame)
    for row, number in zip(values, groups):
        fill = BAND_FILL if group and int(number) % 2 == 0 else None
        add_row(ws, [cell(ws, _plain(v), fill=fill, font=BOLD if c.endswith("_total") else None)
                   for c, v in zip(columns, row)])
    add_changed_text(ws)
    wb.save(path)


def _plain(value):
    """numpy and pandas scalars -> Python values openpyxl writes."""
    if value is None:
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


def write_sheet_csv(sheet: ScoreSheet, path: str | os.PathLike) -> None:
    """The score sheet as CSV, numbers as every output shows them (core.shown): no float noise."""
    write_csv(sheet.table, path)


def write_sheet_xlsx(sheet: ScoreSheet, path: str | os.PathLike) -> None:
    """The score sheet as a one-sheet workbook under its title (:func:`write_xlsx`)."""
    write_xlsx(shown_frame(sheet.table), path, sheet.title)


def write_swiss_csv(run: SwissRun, path: str | os.PathLike) -> None:
    """The Swiss standings, or the next round's draw when one was made, as CSV."""
    write_sheet_csv(ScoreSheet(run.written, run.title), path)


def write_swiss_xlsx(run: SwissRun, path: str | os.PathLike) -> None:
    """The Swiss standings, or the next round's draw when one was made, as a workbook."""
    write_sheet_xlsx(ScoreSheet(run.written, run.title), path)
