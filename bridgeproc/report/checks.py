"""What the checks found, for a director to keep or send: ``bridgeproc check -o`` as a workbook or
a CSV (the standalone HTML page is :mod:`bridgeproc.report.check_page`), and the Checks sheet of the
results workbook.

Every row is one error, warning or note with its position as the terminal gives it (the file,
or ``file.xlsx!Sheet``; the line, or the row; the column), the value and the message, then the
section, board and pairs of the result it points at when one result was read there. Rows come
in the order the terminal shows them: errors first, then warnings and notes; a cause with many
rows keeps its rows together, causes in the order they first appear (``errors.summarize_problems``).

Text from the files stays text: the workbook writes every string as a string cell
(``styles.add_row``), the page escapes it, and the CSV, which a spreadsheet opens too, begins
with ``'`` a cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, a tab or a
carriage return first, unless it is a plain number such as ``-1``), as a spreadsheet marks text.
"""
from __future__ import annotations

import csv
import datetime
import os
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.core.keys import first_match, key_codes
from bridgeproc.errors import GROUP_ABOVE, problem_cause
from bridgeproc.model import CheckReport, Session
from bridgeproc.report.csv_files import safe_text
from bridgeproc.report.styles import (
    RED_FONT,
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
from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame
from bridgeproc.validate.plausibility import check_plausibility

#: The report's columns: the kind (error, warning, note), the position and the message, then the
#: result it points at (when known).
FIELDS = ["kind", "source", "line", "column", "value", "message", "section", "board", "ns", "ew"]
#: How the workbook and the page head the columns (the CSV uses ``CSV_HEADER``, for scripts too).
HEADINGS = ["Kind", "File", "Line", "Column", "Value", "Message", "Section", "Board", "NS", "EW"]
CSV_HEADER = ["kind", "file", "line", "column", "value", "message", "section", "board", "ns", "ew"]
KINDS = ("error", "warning", "note")
_WIDTHS = [9, 28, 7, 10, 14, 100, 9, 7, 6, 6]


def in_terminal_order(problems: pd.DataFrame) -> pd.DataFrame:
    """``problems`` in the order the terminal lists them: as found, unless a cause has more rows than
    the terminal shows of it; then each cause's rows together, causes in order of first appearance."""
    causes = [problem_cause(c, m) for c, m in zip(problems["column"], problems["message"])]
    if all(n <= GROUP_ABOVE for n in Counter(causes).values()):
        return problems.reset_index(drop=True)
    first: dict[tuple[str, str], int] = {}
    for cause in causes:
        first.setdefault(cause, len(first))
    order = sorted(range(len(causes)), key=lambda i: first[causes[i]])  # stable: found order within a cause
    return problems.iloc[order].reset_index(drop=True)


def located(problems: pd.DataFrame, results: pd.DataFrame | None) -> pd.DataFrame:
    """``problems`` with the section, board and pairs of the result read at each one's position
    (``source`` and ``line``), when exactly one result was read there; empty otherwise."""
    frame = problems.reset_index(drop=True)
    if results is None or not len(results) or not len(frame):
        return frame.assign(section=pd.array([None] * len(frame), dtype="string"),
                            board=pd.array([None] * len(frame), dtype="Int64"),
                            ns=pd.array([None] * len(frame), dtype="string"),
                            ew=pd.array([None] * len(frame), dtype="string"))
    source = results["source"].astype("string").to_numpy(dtype=object)
    line = results["line"].astype("string").to_numpy(dtype=object)
    code, count = key_codes(source, line)
    once = np.flatnonzero(~pd.isna(line) & (np.bincount(code, minlength=count)[code] == 1))  # one result read there
    found = first_match([frame["source"], frame["line"]], [source[once], line[once]])
    row = np.where(found >= 0, once[np.maximum(found, 0)] if len(once) else 0, -1)

    def at_row(column: pd.Series, dtype: str) -> pd.Series:
        values = column.astype(dtype).array.take(row, allow_fill=True)  # -1: no result there, missing
        return pd.Series(values, index=frame.index)

    return frame.assign(section=at_row(results["section"], "string"), board=at_row(results["board"], "Int64"),
                        ns=at_row(results["ns"], "string"), ew=at_row(results["ew"], "string"))


def report_rows(report: CheckReport) -> pd.DataFrame:
    """Every row of the report (:data:`FIELDS`): the errors, then the warnings and notes, each in
    the terminal's order, located."""
    errors = report.errors.assign(kind=pd.array(["error"] * len(report.errors), dtype="string"))
    rows = [in_terminal_order(f[["kind", *PROBLEM_COLUMNS]]) for f in (errors, report.warnings) if len(f)]
    frame = pd.concat(rows, ignore_index=True) if rows else \
        problems_frame([]).assign(kind=pd.array([], dtype="string"))[["kind", *PROBLEM_COLUMNS]]
    return located(frame, report.results)[FIELDS]


def session_rows(session: Session) -> pd.DataFrame:
    """The notes of a run (``Session.notes``) as report rows: what the plausibility checks found is
    a warning, the rest a note; in the order ``score`` shows them, located."""
    notes = session.notes
    if notes is None or not len(notes):
        return located(problems_frame([]).assign(kind=pd.array([], dtype="string")), None)[FIELDS]
    suspicious = session.warnings
    if suspicious is None and len(session.results) and session.boards is not None:
        suspicious = check_plausibility(session.results, session.boards)  # a session the run did not make
    columns = list(PROBLEM_COLUMNS)
    notes = notes[columns].astype("string").fillna("")
    warned = pd.Series(False, index=notes.index)
    if suspicious is not None and len(suspicious):
        found = suspicious[columns].astype("string").fillna("")
        warned = pd.Series(first_match([notes[c] for c in columns], [found[c] for c in columns]) >= 0,
                           index=notes.index)
    kind = pd.Series(np.where(warned, "warning", "note"), index=notes.index, dtype="string")
    frame = notes.assign(kind=kind)[["kind", *PROBLEM_COLUMNS]]
    return located(in_terminal_order(frame), session.results)[FIELDS]


def counts(rows: pd.DataFrame, kinds: tuple[str, ...] = KINDS) -> str:
    """``1 error, 2 warnings, 0 notes``."""
    found = Counter(rows["kind"].astype(str))
    return ", ".join(f"{found[k]} {k}{'' if found[k] == 1 else 's'}" for k in kinds)


def _whole(value: object) -> object:
    """A whole number written as text (a line, a pair, a board) as a number, so a spreadsheet sorts 2
    before 10; ``12A``, ``C7`` and names stay text; empty text is None."""
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    return None if value == "" else value


def row_values(rows: pd.DataFrame) -> list[list[object]]:
    """Each row's cells as plain values: text, whole numbers for line, board and pairs, None where unknown."""
    whole = {FIELDS.index(f) for f in ("line", "board", "ns", "ew")}
    columns = [[_whole(str(v)) if i in whole and not pd.isna(v) else None if pd.isna(v) or v == "" else v
                for v in rows[name].astype("object").tolist()] for i, name in enumerate(rows.columns)]
    return [list(row) for row in zip(*columns)]  # each column read once, not a pandas row tuple a row


def report_heading(report: CheckReport, rows: pd.DataFrame) -> tuple[str, list[str]]:
    """The title (the files checked) and the lines under it: the summary, counts, version and date."""
    title = "Check of " + (", ".join(Path(p).name for p in report.inputs) or "the inputs")
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z").strip()
    return title, [*report.summary.splitlines(), counts(rows), f"bridgeproc {__version__}, {when}"]


def add_checks(ws, rows: pd.DataFrame) -> None:
    """Append the header and one row per error, warning or note to ``ws`` (errors in red)."""
    add_row(ws, header_row(ws, HEADINGS))
    for kind, values in zip(rows["kind"], row_values(rows)):
        font = RED_FONT if kind == "error" else None
        add_row(ws, [cell(ws, v, font=font) if isinstance(v, str) and font is not None else v for v in values])


def write_checks_sheet(wb, session: Session) -> None:
    """The results workbook's Checks sheet: the run's notes and warnings with their positions; no
    sheet when there are none, nor for hand records alone (no results were checked; the notes of
    reading them are the terminal's)."""
    rows = session_rows(session) if len(session.results) else None
    if rows is None or not len(rows):
        return
    ws = new_sheet(wb, "Checks")
    set_widths(ws, _WIDTHS)
    a4(ws, title_rows="4:4", landscape=True)
    add_row(ws, [cell(ws, "Checks", font=TITLE)])
    add_row(ws, [cell(ws, "What was read with a note, and what is only suspicious (warnings): scored as it "
                          "stands; the director decides. " + counts(rows, KINDS[1:]), font=SUBTITLE)])
    add_row(ws, [])
    add_checks(ws, rows)


def write_check_xlsx(report: CheckReport, path: str | os.PathLike) -> None:
    rows = report_rows(report)
    wb = new_workbook()
    ws = new_sheet(wb, "Checks")
    set_widths(ws, _WIDTHS)
    title, lines = report_heading(report, rows)
    a4(ws, title_rows=f"{len(lines) + 3}:{len(lines) + 3}", landscape=True)
    add_row(ws, [cell(ws, title, font=TITLE)])
    for line in lines:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])
    add_checks(ws, rows)
    add_changed_text(ws)  # a control character, text too long for a cell: never changed silently
    wb.save(path)


def write_check_csv(report: CheckReport, path: str | os.PathLike) -> None:
    rows = report_rows(report)
    with open(path, "w", encoding="utf-8-sig", newline="") as out:  # the BOM: a spreadsheet reads UTF-8
        cells = [[safe_text(v) for v in values] for values in row_values(rows)]
        cr = any(isinstance(v, str) and "\r" in v for row in cells for v in row)  # see report.csv_files
        writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_NONNUMERIC if cr else csv.QUOTE_MINIMAL)
        writer.writerow(CSV_HEADER)
        writer.writerows(cells)


__all__ = ["CheckReport", "located", "in_terminal_order", "report_rows",
           "session_rows", "write_check_csv", "write_check_xlsx", "write_checks_sheet"]
