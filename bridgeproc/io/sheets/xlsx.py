"""Traveller workbooks (XLSX) -> the raw results frame, via openpyxl (imported lazily).

Layouts: one sheet with every result, or one sheet per board (the board number is
then taken from a Board column if there is one, else from the sheet name, ``Board 5``
or ``5``, else from a title cell such as ``Board 5`` above the header). Sheets with
no recognisable header in their first rows (notes, a names list) are skipped; a
sheet named like a names list (``Names``, ``Players``) is never read as results.

Positions are Excel's: source ``file.xlsx!Sheet``, ``line`` the Excel row number,
and ``cell_<column>`` the column letter, so a problem reads ``file.xlsx!Sheet:B7``.

Formulas: the workbook is read with ``data_only=True`` (the values Excel saved).
A formula cell without a saved value (a file written by a script and never
opened in Excel) in a column that is read is never taken as empty: its text is
kept in ``formula_<column>`` and validation reports it as a problem naming the
cell; so is a cell showing an Excel error (``#REF!``, ``error_<column>``).
Formulas in columns that are not read (MP, %, totals) do not matter.

Merged cells: a merge within one column (a board number spanning the rows of
its results) gives its value to every row of the range; a merge across columns
keeps the value in its first (left) column only, and the other cells are empty
(a problem about such a cell names the merged range, ``merged_<column>``). In
the header, a cell merged across columns over a row of sub-headers (``Score``
over ``NS | EW``) heads each of them (see io.travellers.find_header).
"""
from __future__ import annotations

import datetime as dt
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import pandas as pd

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets.travellers import (
    HEADER_SEARCH_ROWS,
    REQUIRED,
    canonical_header,
    check_columns,
    find_header,
    header_cells,
    raw_frame,
)

#: What Excel shows in a cell whose formula failed.
EXCEL_ERRORS = ("#REF!", "#DIV/0!", "#VALUE!", "#NAME?", "#N/A", "#NUM!", "#NULL!", "#SPILL!", "#CALC!")
#: Sheet names (compared lower-case) that hold player names, not results.
NAMES_SHEETS = ("names", "players", "pairs", "entries", "participants", "teilnehmer", "joueurs")
_BOARD_IN_TEXT = re.compile(r"^(?:board|bd|brd|deal|spiel|donne)?\s*(?:no\.?|nr\.?|#)?\s*(\d{1,3})\s*$", re.IGNORECASE)


def cell_text(value: Any) -> str:
    """An openpyxl cell value as the text a CSV export would hold (``3.0`` -> ``3``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.10g}"
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return str(value).strip()


def cell_name(row: int, column: int) -> str:
    """Excel name of a cell from its 1-based row and 0-based column position (``B7``)."""
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(column + 1)}{row}"


#: A loaded workbook as :func:`load_workbooks` returns it: (values workbook, formulas workbook).
#: Readers take one as ``workbooks`` so that a caller reading several things from one file
#: (results, then its names sheet) parses the file once.
Workbooks = tuple[Any, Any]


def load_workbooks(path: str | os.PathLike) -> Workbooks:
    """(values workbook, formulas workbook); ParseError if the file is not a readable XLSX."""
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    source = Path(path).name
    try:
        values = openpyxl.load_workbook(path, data_only=True)
        formulas = openpyxl.load_workbook(path, data_only=False)
    except (zipfile.BadZipFile, InvalidFileException, KeyError, EOFError) as exc:
        raise ParseError(source, None, f"not a readable .xlsx workbook ({type(exc).__name__}: {exc}); the file may be "
                         "truncated or in another format: open it in Excel and save it again as .xlsx") from None
    except OSError as exc:
        raise ParseError(source, None, f"cannot read file: {exc.strerror or exc}") from None
    return values, formulas


def sheet_grid(ws_values: Any, ws_formulas: Any) -> tuple[list[list[str]], list[int], dict[tuple[int, int], tuple[str, str]]]:
    """Non-empty rows of a sheet as text cells, with their Excel row numbers.

    Merged ranges are resolved as the module docstring says. The third item maps
    (index into the returned rows, column position) of an empty cell to why it is
    empty or unusable: ``("formula", text)`` for a formula with no saved value,
    ``("error", "#REF!")`` for a formula that failed, ``("merged", "B3:C3")`` for a
    cell covered by a merge across columns.
    """
    grid = [list(row) for row in ws_values.iter_rows(min_row=1, max_row=ws_values.max_row, min_col=1,
                                                     max_col=ws_values.max_column, values_only=True)]
    covered: dict[tuple[int, int], str] = {}
    for merged in ws_values.merged_cells.ranges:
        top = grid[merged.min_row - 1][merged.min_col - 1]
        for r in range(merged.min_row, merged.max_row + 1):
            grid[r - 1][merged.min_col - 1] = top
            for c in range(merged.min_col, merged.max_col):
                covered[(r - 1, c)] = merged.coord
    uncached: dict[tuple[int, int], tuple[str, str]] = {}
    for r, row in enumerate(ws_formulas.iter_rows(min_row=1, max_row=len(grid), min_col=1,
                                                  max_col=ws_values.max_column, values_only=True)):
        for c, formula in enumerate(row):
            if grid[r][c] is None and _is_formula(formula):
                uncached[(r, c)] = ("formula", _formula_text(formula))
            elif isinstance(grid[r][c], str) and grid[r][c] in EXCEL_ERRORS:
                uncached[(r, c)] = ("error", grid[r][c])
    rows: list[list[str]] = []
    numbers: list[int] = []
    notes: dict[tuple[int, int], tuple[str, str]] = {}
    for r, row in enumerate(grid):
        text = [cell_text(v) for v in row]
        if any(text) or any((r, c) in uncached for c in range(len(row))):
            notes.update({(len(rows), c): uncached[(r, c)] for c in range(len(row)) if (r, c) in uncached})
            notes.update({(len(rows), c): ("merged", covered[(r, c)]) for c in range(len(row)) if (r, c) in covered})
            rows.append(text)
            numbers.append(r + 1)
    return rows, numbers, notes


def _note(note: tuple[str, str] | None, kind: str) -> str | None:
    return note[1] if note is not None and note[0] == kind else None


def _is_formula(value: Any) -> bool:
    return (isinstance(value, str) and value.startswith("=")) or type(value).__name__ in ("ArrayFormula", "DataTableFormula")


def _formula_text(value: Any) -> str:
    return value if isinstance(value, str) else str(getattr(value, "text", value))


def _board_hint(title: str, rows: list[list[str]], header_index: int | None) -> str | None:
    m = _BOARD_IN_TEXT.match(title.strip())
    if m:
        return m.group(1)
    for row in rows[: header_index if header_index is not None else HEADER_SEARCH_ROWS]:
        for cell in row:
            m = _BOARD_IN_TEXT.match(cell)
            if m and not cell.strip().isdigit():
                return m.group(1)
    return None


def _has_header_cells(rows: list[list[str]]) -> bool:
    return sum(1 for row in rows[:HEADER_SEARCH_ROWS] for cell in row if cell and canonical_header(cell)) >= 2


def read_travellers_xlsx(path: str | os.PathLike, workbooks: Workbooks | None = None,
                         notes: list[dict] | None = None) -> pd.DataFrame:
    """Read every traveller sheet of a workbook into one raw results frame.

    ``workbooks``: the file as :func:`load_workbooks` already returned it (else it is loaded).
    ``notes``: a list to which notes about the sheets are added (columns not read; see
    ``travellers.check_columns``), as problem rows.

    Returns
    -------
    DataFrame
        As ``io.travellers.parse_travellers_csv``, plus ``cell_<column>`` (Excel
        column letters), and only when there are some: ``formula_<column>`` (formulas
        without a saved value), ``error_<column>`` (Excel errors such as ``#REF!``),
        ``merged_<column>`` (the merged range covering an empty cell); ``source`` is ``file.xlsx!Sheet``, ``line`` the Excel row.

    Raises
    ------
    ParseError
        Unreadable file, a sheet with a partial header (or without a declarer or result
        column the contract cells make up for), a header with no results, no traveller
        sheet at all.
    """
    from openpyxl.utils import get_column_letter

    name = Path(path).name
    values, formulas = workbooks if workbooks is not None else load_workbooks(path)
    frames = []
    candidates = [ws for ws in values.worksheets if ws.title.strip().lower() not in NAMES_SHEETS]
    for ws in candidates:
        source = f"{name}!{ws.title}"
        rows, numbers, uncached = sheet_grid(ws, formulas[ws.title])
        if not rows or (not _has_header_cells(rows) and len(candidates) > 1):
            continue
        hint = _board_hint(ws.title, rows, None)
        required = REQUIRED if hint is None else tuple(c for c in REQUIRED if c != "board")
        index, columns, span = find_header(rows, [f"{n}" for n in numbers], source, required)
        body, lines = rows[index + span:], numbers[index + span:]
        if not body:
            raise ParseError(source, numbers[index], "the sheet has a header but no results below it; "
                             "fill in the results or delete the sheet")
        check_columns(header_cells(rows, index, span), columns, body, numbers[index], source, notes)
        extra = {f"cell_{col}": [get_column_letter(pos + 1)] * len(body) for col, pos in columns.items()}
        if "board" not in columns:
            extra["board"] = [hint] * len(body)
        for col, pos in columns.items():
            for kind in ("formula", "error", "merged"):
                found = [_note(uncached.get((index + span + i, pos)), kind) for i in range(len(body))]
                if any(found):
                    extra[f"{kind}_{col}"] = found
        frames.append(raw_frame(columns, body, lines, source, extra))
    if not frames:
        raise ParseError(name, None, "no sheet with a traveller header (such as Board, NS, EW, Contract, Declarer, "
                         "Result, Lead) in its first rows; the workbook is empty or has only other sheets")
    return pd.concat(frames, ignore_index=True)
