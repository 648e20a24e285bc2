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

Hostile or broken files: the work is bounded by the cells the file holds (one empty
styled cell at ``XFD1048576`` does not make a sheet of 17 billion cells), and every
file openpyxl cannot load (not a zip, cut or corrupt parts, an encrypted workbook, XML
that declares entities, merged ranges covering millions of cells, more cells, shared
strings or style records than :data:`BOUNDS` allows) is a ParseError naming the file and
the fix, checked before openpyxl expands anything (see :func:`check_package`). A workbook
with no formula is loaded once (its saved values); one with formulas a second time for
them. The text read is bounded as for CSV (``travellers.MAX_CELL``, ``MAX_TEXT``). Nothing is left out silently: a sheet that is skipped, a
hidden sheet that is read and a hidden row of results are notes; a sheet named for a
board without a header bridgeproc knows, a value right of the last header column
(as in CSV) and a cell over 32,767 characters in a column that is read are errors.
"""
from __future__ import annotations

import datetime as dt
import io
import os
import re
import xml.parsers.expat
import zipfile
from pathlib import Path
from typing import IO, Any

import pandas as pd

from bridgeproc.errors import ParseError, TooLargeError
from bridgeproc.io.sheets.blocks import board_hint, board_titles, titled_blocks
from bridgeproc.io.sheets.own import OWN_TRAVELLERS, is_own
from bridgeproc.io.sheets.travellers import (
    EXAMPLE_HEADER,
    HEADER_SEARCH_ROWS,
    PUBLISHED_RAW,
    REQUIRED,
    canonical_header,
    check_columns,
    find_header,
    header_cells,
    raw_frame,
)
from bridgeproc.io.text import file_bytes

#: What Excel shows in a cell whose formula failed.
EXCEL_ERRORS = ("#REF!", "#DIV/0!", "#VALUE!", "#NAME?", "#N/A", "#NUM!", "#NULL!", "#SPILL!", "#CALC!")
#: Sheet names (compared lower-case) that hold player names, not results.
NAMES_SHEETS = ("names", "players", "pairs", "entries", "participants", "teilnehmer", "joueurs")
#: The most characters a cell holds in Excel; a longer cell was not written by a spreadsheet.
MAX_CELL_TEXT = 32_767
#: Limits no traveller workbook comes near, checked before openpyxl expands the file (it makes one
#: object per cell of a merged range or a hyperlink's range, and holds every part in memory).
MAX_UNPACKED = 256 * 1024 * 1024
MAX_RANGE_CELLS = 1_000_000
#: What openpyxl makes an object of, counted in the whole package before it loads: bridgeproc's own
#: workbook of 1,000 tables holds 814,217 cells, 30,000 shared strings, 12 fonts and 40 cell formats
#: (Excel itself allows 64,000 formats). Each bound: (elements, what they are, what a workbook holds).
BOUNDS = {
    "c": (4_000_000, "cells", "bridgeproc's own workbook of 1,000 tables holds 814,217"),
    "si": (2_000_000, "shared strings", "a traveller workbook holds a few thousand"),
    **{kind: (100_000, what, "a workbook holds a few dozen; Excel allows 64,000 cell formats")
       for kind, what in (("font", "fonts"), ("fill", "fills"), ("border", "borders"), ("xf", "cell formats"),
                          ("numFmt", "number formats"), ("dxf", "conditional formats"))},
}
#: How to repair a workbook that cannot be read (said in every such message).
RESAVE = "open it in Excel or LibreOffice and save it again as .xlsx"
_CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # OLE compound file: an encrypted workbook or an old .xls
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


#: A loaded workbook as :func:`load_workbooks` returns it: (values workbook, formulas workbook, None
#: when no cell holds a formula: the file is then loaded once). Readers take one as ``workbooks`` so that
#: a caller reading several things from one file (results, then its names sheet) parses the file once.
Workbooks = tuple[Any, Any]


def formula_sheet(formulas: Any, title: str) -> Any:
    """The sheet ``title`` of the formulas workbook, None when the file holds no formula."""
    return None if formulas is None else formulas[title]


def load_workbooks(path: str | os.PathLike) -> Workbooks:
    """(values workbook, formulas workbook or None); ParseError if the file is not a readable XLSX.

    The file is checked first (:func:`check_package`); then anything openpyxl raises while loading
    (a cut part, a corrupt deflate stream, an attribute it does not know) is a ParseError naming the
    file and the fix. MemoryError and KeyboardInterrupt are not caught.
    """
    import openpyxl

    source = Path(path).name
    data = file_bytes(path)  # once: what is checked is what is loaded, and no handle is left open
    with_formulas = check_package(data, source)
    try:
        values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
        formulas = openpyxl.load_workbook(io.BytesIO(data), data_only=False) if with_formulas else None
    except MemoryError:
        raise
    except Exception as exc:  # a broken or hostile file: openpyxl raises many kinds (KeyError, TypeError, ...)
        raise _unreadable(source, exc) from None
    return values, formulas


def _unreadable(source: str, exc: BaseException, what: str | None = None) -> ParseError:
    detail = what or f"{type(exc).__name__}: {str(exc)[:200]}"
    return ParseError(source, None, f"not a readable .xlsx workbook ({detail}); the file may be cut short, damaged "
                      f"or in another format: {RESAVE}")


def check_package(data: bytes, source: str) -> bool:
    """Refuse, before openpyxl loads it, a file (``data``, named ``source`` in messages) that is not an
    XLSX package or would make openpyxl expand it.

    Raises ParseError naming the file and the fix for: an encrypted
    workbook (or an old ``.xls``: both are OLE files), a file that is not a zip, an encrypted zip part,
    parts that unpack to more than :data:`MAX_UNPACKED` bytes, XML that declares a DOCTYPE or entities
    (Excel never writes one; ``billion laughs`` expands a few hundred bytes to gigabytes), and merged
    ranges or hyperlink ranges covering more than :data:`MAX_RANGE_CELLS` cells. Every part, whatever its
    name, is read in chunks with expat (the parser openpyxl reads worksheets with), never whole, and only
    up to the size its zip entry declares: the ranges are what the parser sees, however they are spelt;
    and more cells, shared strings or style records than :data:`BOUNDS` allows (200,000 fonts took openpyxl
    20 s). Returns whether any cell holds a formula (else the workbook need not be loaded a second time
    for its formulas). (openpyxl does not use defusedxml unless it is installed; Python's expat also limits entity
    amplification, so this is the first of two guards.)
    """
    if data[:8] == _CFB_MAGIC:
        raise ParseError(source, None, "an encrypted (password-protected) workbook or an old .xls file, not an "
                         ".xlsx; open it in Excel or LibreOffice, remove the password if it has one, and save it "
                         "as .xlsx")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            infos = package.infolist()
            if any(info.flag_bits & 0x1 for info in infos):
                raise ParseError(source, None, "the workbook's parts are encrypted; open it in Excel or "
                                 "LibreOffice, remove the password and save it again as .xlsx")
            unpacked = sum(info.file_size for info in infos)
            if unpacked > MAX_UNPACKED:
                raise ParseError(source, None, f"the workbook unpacks to {unpacked:,} bytes, more than a traveller "
                                 f"workbook ever holds ({MAX_UNPACKED:,}); {RESAVE}, or split it")
            counts: dict[str, int] = {}
            for info in infos:  # every part, whatever its name (a sheet can be stored as xl/media/x.png)
                if not info.is_dir():
                    with package.open(info) as part:
                        _check_part(part, info.filename, source, counts)
            return counts.get("f", 0) > 0
    except ParseError:
        raise
    except MemoryError:
        raise
    except zipfile.BadZipFile as exc:
        raise _unreadable(source, exc, "not a zip archive" if "not a zip" in str(exc).lower() else None) from None
    except Exception as exc:  # zlib.error, EOFError, NotImplementedError (compression method), RuntimeError ...
        raise _unreadable(source, exc) from None


def _check_part(part: IO[bytes], name: str, source: str, counts: dict[str, int]) -> None:
    """Read one part, in chunks, with the XML parser openpyxl reads worksheets with (expat): refuse a
    DOCTYPE or entity declaration, and merged or hyperlink ranges openpyxl would expand cell by cell,
    as the parser sees them (any spacing around ``=``, character references, UTF-16, any prefix). A part
    that is not XML (a picture) is left at its first bytes: openpyxl does not parse it."""
    parser = xml.parsers.expat.ParserCreate()
    covered = 0

    def doctype(*_args) -> None:
        raise ParseError(source, None, f"part {name} of the workbook declares a DOCTYPE or XML entities, which "
                         "Excel never writes and which can expand to gigabytes; refused unread. If the file is "
                         f"genuine, {RESAVE}")

    def start(tag: str, attributes: dict[str, str]) -> None:
        nonlocal covered
        kind = tag.rpartition(":")[2]
        if kind in BOUNDS or kind == "f":
            counts[kind] = counts.get(kind, 0) + 1
            bound = BOUNDS.get(kind)
            if bound is not None and counts[kind] > bound[0]:
                raise TooLargeError(source, None, f"the workbook holds more than {bound[0]:,} {bound[1]} (part {name}; "
                                 f"{bound[2]}), which would take openpyxl gigabytes or minutes to load; {RESAVE}, "
                                 "or split it")
        if kind not in ("mergeCell", "hyperlink") or "ref" not in attributes:
            return
        covered += sum(_range_cells(ref) for ref in attributes["ref"].split())
        if covered > MAX_RANGE_CELLS:
            what = "merged ranges" if kind == "mergeCell" else "hyperlink ranges"
            raise ParseError(source, None, f"the {what} of part {name} cover more than {MAX_RANGE_CELLS:,} cells "
                             f"(up to {attributes['ref'][:40]!r}); a traveller sheet has a few hundred; {RESAVE}, "
                             "after unmerging the cells")

    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.StartElementHandler = start
    while True:
        chunk = part.read(1 << 20)
        try:
            parser.Parse(chunk, not chunk)
        except xml.parsers.expat.ExpatError:
            return  # not XML (a picture), or broken: openpyxl refuses what it cannot parse
        if not chunk:
            return


_RANGE = re.compile(r"\$?([A-Za-z]{1,3})\$?(\d{1,7})(?::\$?([A-Za-z]{1,3})\$?(\d{1,7}))?")


def _range_cells(ref: str) -> int:
    """Cells in a range such as ``A1:XFD1048576`` (1 for a single cell or a reference openpyxl cannot read)."""
    from openpyxl.utils import column_index_from_string

    m = _RANGE.fullmatch(ref.strip())
    if m is None or m.group(3) is None:
        return 1
    try:
        width = abs(column_index_from_string(m.group(3).upper()) - column_index_from_string(m.group(1).upper()))
    except ValueError:
        return 1
    return (width + 1) * (abs(int(m.group(4)) - int(m.group(2))) + 1)


def sheet_grid(ws_values: Any, ws_formulas: Any) -> tuple[list[list[str]], list[int], dict[tuple[int, int], tuple[str, str]]]:
    """Non-empty rows of a sheet as text cells, with their Excel row numbers.

    Only the cells the file holds are visited (:func:`_filled`), and each row runs to its last
    non-empty cell (rows may differ in length), so the work is bounded by the file, not by the
    sheet's extent. Merged ranges are resolved as the module docstring says. The third item maps
    (index into the returned rows, column position) of an empty cell to why it is
    empty or unusable: ``("formula", text)`` for a formula with no saved value,
    ``("error", "#REF!")`` for a formula that failed, ``("merged", "B3:C3")`` for a
    cell covered by a merge across columns.
    """
    values = _filled(ws_values)
    covered: dict[tuple[int, int], str] = {}
    for merged in ws_values.merged_cells.ranges:  # their size is bounded by check_package
        top = values.get((merged.min_row, merged.min_col))
        for r in range(merged.min_row, merged.max_row + 1):
            if top is None:
                values.pop((r, merged.min_col), None)
            else:
                values[(r, merged.min_col)] = top
            for c in range(merged.min_col + 1, merged.max_col + 1):
                covered[(r, c)] = merged.coord
    uncached: dict[tuple[int, int], tuple[str, str]] = {}
    for at, formula in (_filled(ws_formulas) if ws_formulas is not None else {}).items():
        if at not in values and _is_formula(formula):
            uncached[at] = ("formula", _formula_text(formula))
    texts: dict[int, dict[int, str]] = {}
    for (r, c), value in values.items():
        if isinstance(value, str) and value in EXCEL_ERRORS:
            uncached[(r, c)] = ("error", value)
        text = cell_text(value)
        if text:
            texts.setdefault(r, {})[c] = text
    widths = {r: max(cells) for r, cells in texts.items()}
    for r, c in uncached:
        widths[r] = max(widths.get(r, 0), c)
    rows: list[list[str]] = []
    numbers = sorted(widths)
    index_of = {r: i for i, r in enumerate(numbers)}
    for r in numbers:
        cells = texts.get(r, {})
        row = [""] * widths[r]
        for c, text in cells.items():
            row[c - 1] = text
        rows.append(row)
    notes: dict[tuple[int, int], tuple[str, str]] = {}
    for (r, c), note in uncached.items():
        notes[(index_of[r], c - 1)] = note
    for (r, c), coord in covered.items():
        if r in index_of:
            notes[(index_of[r], c - 1)] = ("merged", coord)
    return rows, numbers, notes


def _filled(ws: Any) -> dict[tuple[int, int], Any]:
    """{(row, column): value} of the cells of ``ws`` that hold a value, 1-based.

    Read from openpyxl's store of the cells the file holds (``ws._cells``): ``iter_rows`` up to
    ``max_row``/``max_column`` would make every cell of the rectangle, and one empty styled cell at
    ``XFD1048576`` makes that 17 billion.
    """
    return {at: c.value for at, c in ws._cells.items() if c.value is not None}


def _add_note(notes: list[dict] | None, source: str, line: int | str, message: str, value: str = "") -> None:
    if notes is not None:
        notes.append({"source": source, "line": str(line), "column": "", "value": value, "message": message})


def _check_body(rows: list[list[str]], numbers: list[int], first: int, width: int, read: set[int], source: str,
                notes: list[dict] | None) -> None:
    """Refuse a value right of the last header column (it would be lost, as a CSV refuses it) and a cell
    that is read and holds more than a cell can (32,767 characters); note an over-long cell elsewhere."""
    beyond = [(i, c) for i in range(first, len(rows)) for c in range(width, len(rows[i])) if rows[i][c]]
    if beyond:
        from openpyxl.utils import get_column_letter

        cells = ", ".join(cell_name(numbers[i], c) for i, c in beyond[:5]) + (
            f" and {len(beyond) - 5} more" if len(beyond) > 5 else "")
        i, c = beyond[0]
        raise ParseError(source, cell_name(numbers[i], c), f"{rows[i][c][:40]!r} is right of the last header "
                         f"column ({get_column_letter(width)}), so it would not be read (cells {cells}); give "
                         "the column a header bridgeproc knows, or delete the cells")
    long = [(i, c) for i, row in enumerate(rows) for c, text in enumerate(row) if len(text) > MAX_CELL_TEXT]
    read_long = [(i, c) for i, c in long if i >= first and c in read]
    if read_long:
        i, c = read_long[0]
        raise ParseError(source, cell_name(numbers[i], c), f"the cell holds {len(rows[i][c]):,} characters, more than "
                         f"a spreadsheet cell can ({MAX_CELL_TEXT:,}): the file was not saved by Excel or "
                         "LibreOffice; correct the cell")
    if long:
        i, c = long[0]
        _add_note(notes, source, cell_name(numbers[i], c), f"{len(long)} cell(s) hold more than {MAX_CELL_TEXT:,} "
                  "characters, more than a spreadsheet cell can (first: "
                  f"{cell_name(numbers[i], c)}, {len(rows[i][c]):,}); they are not read")


def _note_hidden(ws: Any, lines: list[int], source: str, notes: list[dict] | None) -> None:
    """Note a hidden sheet and hidden rows of results: they are read, though nobody sees them in Excel."""
    if ws.sheet_state != "visible":
        _add_note(notes, source, "", f"the sheet is {'very ' if ws.sheet_state == 'veryHidden' else ''}hidden in the "
                  "workbook; its results are read: unhide it to check them, or delete it if they should not count",
                  ws.sheet_state)
    hidden = {r for r, dimension in ws.row_dimensions.items() if dimension.hidden}  # only the rows the file lists
    shown = [r for r in lines if r in hidden]
    if shown:
        listed = ", ".join(map(str, shown[:10])) + (f" and {len(shown) - 10} more" if len(shown) > 10 else "")
        _add_note(notes, source, shown[0], f"{len(shown)} row(s) of results are hidden in the workbook ({listed}); "
                  "they are read: unhide them to check them, or delete them if they should not count")


def _note(note: tuple[str, str] | None, kind: str) -> str | None:
    return note[1] if note is not None and note[0] == kind else None


def _is_formula(value: Any) -> bool:
    return (isinstance(value, str) and value.startswith("=")) or type(value).__name__ in ("ArrayFormula", "DataTableFormula")


def _formula_text(value: Any) -> str:
    return value if isinstance(value, str) else str(getattr(value, "text", value))


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
    own = [ws for ws in candidates if ws.title == OWN_TRAVELLERS]
    if own and is_own(values):
        # bridgeproc's own workbook: its results are its Travellers sheet; the others are made from them
        _add_note(notes, name, "", f"a workbook bridgeproc wrote ({values.properties.creator}): its results are "
                  f"read from its {OWN_TRAVELLERS} sheet, the other sheets are made from them")
        candidates = own
    for ws in candidates:
        source = f"{name}!{ws.title}"
        rows, numbers, uncached = sheet_grid(ws, formula_sheet(formulas, ws.title))
        if not rows:
            continue
        hint = board_hint(ws.title, rows, None)
        if not _has_header_cells(rows) and len(candidates) > 1 and hint is None:
            _add_note(notes, source, numbers[0], f"sheet not read: no traveller header in its first "
                      f"{HEADER_SEARCH_ROWS} rows ({len(rows)} rows with text); if it holds results, give it a "
                      f"header such as {EXAMPLE_HEADER}")
            continue
        # a sheet named for a board (``Board 5``, ``5``, or a ``Board 5`` title cell) is a traveller:
        # a header bridgeproc does not know there is an error naming the sheet, never a skipped board
        titles = board_titles(rows)
        required = REQUIRED if hint is None and not titles else tuple(c for c in REQUIRED if c != "board")
        index, columns, span = find_header(rows, [f"{n}" for n in numbers], source, required)
        body, lines = rows[index + span:], numbers[index + span:]
        blocks = None
        if "board" not in columns and any(i >= index + span for i in titles):
            body, lines, *blocks = titled_blocks(body, lines, titles, index + span)
        if not body:
            raise ParseError(source, numbers[index], "the sheet has a header but no results below it; "
                             "fill in the results or delete the sheet")
        header = header_cells(rows, index, span)
        _check_body(rows, numbers, index + span, len(header), set(columns.values()), source, notes)
        check_columns(header, columns, body, numbers[index], source, notes)
        _note_hidden(ws, lines, source, notes)
        extra = {f"cell_{col}": [get_column_letter(pos + 1)] * len(body) for col, pos in columns.items()}
        if "board" not in columns:
            extra["board"] = blocks[1] if blocks else [hint] * len(body)
            if blocks and "section" not in columns and any(blocks[0]):
                extra["section"] = blocks[0]
        for col, pos in columns.items():
            if col in PUBLISHED_RAW:
                continue  # published numbers are compared, never scored: a formula there is no problem
            for kind in ("formula", "error", "merged"):
                found = [_note(uncached.get((index + span + i, pos)), kind) for i in range(len(body))]
                if any(found):
                    extra[f"{kind}_{col}"] = found
        frames.append(raw_frame(columns, body, lines, source, extra))
    if not frames:
        raise ParseError(name, None, "no sheet with a traveller header (such as Board, NS, EW, Contract, Declarer, "
                         "Result, Lead) in its first rows; the workbook is empty or has only other sheets")
    return pd.concat(frames, ignore_index=True)
