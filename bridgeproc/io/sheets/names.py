"""Names lists (pair number -> player names), as CSV or as a sheet of a workbook.

Columns (any of the usual spellings): ``Pair`` (a number, or ``A3`` for pair 3 of
section A), optional ``Section``, optional ``Direction`` (``NS``/``EW``, when pairs
are numbered per direction), and either one ``Names`` column or two or more
player columns (``Player 1``, ``Player 2``, ``North``, ``South`` ...), joined with
`` & ``. In a workbook the sheet named ``Names``/``Players``/``Pairs`` is read (or
the only sheet).
"""
from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pandas as pd

from bridgeproc.core.problems import UNCACHED_FORMULA
from bridgeproc.errors import ParseError
from bridgeproc.io.sheets.travellers import HEADER_SEARCH_ROWS, header_key, sniff_delimiter
from bridgeproc.io.sheets.xlsx import NAMES_SHEETS, Workbooks, cell_name, load_workbooks, sheet_grid
from bridgeproc.io.text import read_text
from bridgeproc.schema import NAMES_COLUMNS

NAMES_ALIASES: dict[str, tuple[str, ...]] = {
    "section": ("Section", "Sect", "Sec"),
    "pair": ("Pair", "Pair no", "Pair number", "No", "Nr", "Number", "Pair id", "Id", "Team"),
    "direction": ("Direction", "Dir", "Line", "Seat", "NS/EW"),
    "names": ("Names", "Name", "Players", "Pair names", "Pair name"),
}
PLAYER_ALIASES = ("Player", "Player 1", "Player 2", "Player A", "Player B", "Name 1", "Name 2", "Player1", "Player2",
                  "North", "South", "East", "West", "First player", "Second player", "Partner")
_ALIASES = {header_key(a): col for col, names in NAMES_ALIASES.items() for a in names}
_PLAYERS = {header_key(a) for a in PLAYER_ALIASES}
_DIRECTIONS = {"NS": "NS", "N-S": "NS", "N/S": "NS", "N": "NS", "EW": "EW", "E-W": "EW", "E/W": "EW", "E": "EW",
               "OW": "EW", "O": "EW"}


def _table(rows: list[list[str]], where: list[str], source: str) -> pd.DataFrame:
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        keys = [header_key(c) for c in row]
        if "pair" in {_ALIASES.get(k) for k in keys}:
            break
    else:
        raise ParseError(source, where[0] if where else 1, "no header with a Pair column found; expected e.g. "
                         "Pair,Names or Section,Pair,Player 1,Player 2")
    columns: dict[str, int] = {}
    players: list[int] = []
    for position, key in enumerate(keys):
        name = _ALIASES.get(key)
        if name and name not in columns:
            columns[name] = position
        elif key in _PLAYERS or re.fullmatch(r"(player|name)\d", key):
            players.append(position)
    if "names" not in columns and not players:
        raise ParseError(source, where[index], "no Names or Player columns next to Pair; expected e.g. Pair,Names "
                         "or Pair,Player 1,Player 2")
    body, lines = rows[index + 1:], where[index + 1:]

    def cell(row: list[str], pos: int | None) -> str:
        return row[pos].strip() if pos is not None and pos < len(row) else ""

    out = []
    for row, line in zip(body, lines):
        raw_pair = cell(row, columns.get("pair"))
        m = re.fullmatch(r"([A-Za-z]{1,2})?\s*-?\s*(\d{1,4})(?:\.0+)?", raw_pair)
        if not m:
            raise ParseError(source, line, f"{raw_pair!r} is not a pair number; write a number such as 7 (or A7)")
        section = cell(row, columns.get("section")).upper() or (m.group(1) or "").upper()
        names = cell(row, columns.get("names")) or " & ".join(p for p in (cell(row, i) for i in players) if p)
        direction = cell(row, columns.get("direction")).upper()
        if direction and direction not in _DIRECTIONS:
            raise ParseError(source, line, f"{direction!r} is not a direction; write NS or EW")
        out.append({"section": section, "pair": str(int(m.group(2))), "names": names,
                    "direction": _DIRECTIONS.get(direction), "source": source, "line": str(line)})
    frame = pd.DataFrame(out, columns=list(NAMES_COLUMNS)).astype(NAMES_COLUMNS)
    if frame["direction"].isna().all():
        frame = frame.drop(columns="direction")
    return frame


def parse_names_csv(text: str, source: str = "<string>") -> pd.DataFrame:
    """Names CSV text -> frame ``section, pair, names`` (+ ``direction``, ``source``, ``line``)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ParseError(source, 1, "the names file is empty; expected a header such as Pair,Names")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(lines[:HEADER_SEARCH_ROWS]))
    rows, where = [], []
    for row in reader:
        if any(c.strip() for c in row):
            rows.append(row)
            where.append(str(reader.line_num))
    return _table(rows, where, source)


def read_names(path: str | os.PathLike, sheet: str | None = None, encoding: str | None = None,
               workbooks: Workbooks | None = None) -> pd.DataFrame:
    """Read a names list from a CSV file or a workbook sheet.

    ``workbooks``: a workbook file as ``xlsx.load_workbooks`` already returned it (else it is loaded).

    Returns
    -------
    DataFrame
        ``section`` ("" without sections), ``pair`` (number as text), ``names``
        (players joined with " & "), ``direction`` (``NS``/``EW``; only when the list
        numbers pairs per direction), ``source``, ``line``.
    """
    if Path(path).suffix.lower() not in (".xlsx", ".xlsm"):
        text, source = read_text(path, encoding)
        return parse_names_csv(text, source)
    values, formulas = workbooks if workbooks is not None else load_workbooks(path)
    titles = [ws.title for ws in values.worksheets]
    wanted = sheet or next((t for t in titles if t.strip().lower() in NAMES_SHEETS), titles[0] if len(titles) == 1 else None)
    if wanted not in titles:
        raise ParseError(Path(path).name, None, f"no names sheet (one of {', '.join(NAMES_SHEETS)}); "
                         f"the sheets are {', '.join(titles)}")
    source = f"{Path(path).name}!{wanted}"
    rows, numbers, uncached = sheet_grid(values[wanted], formulas[wanted])
    pending = [(at, text) for at, (kind, text) in uncached.items() if kind == "formula"]
    if pending:
        (r, c), formula = pending[0]
        raise ParseError(source, cell_name(numbers[r], c), UNCACHED_FORMULA.format(formula))
    return _table(rows, [str(n) for n in numbers], source)


def workbook_names(path: str | os.PathLike, workbooks: Workbooks | None = None) -> pd.DataFrame | None:
    """The names sheet of a traveller workbook (``Names``, ``Players`` ...), or None if it has none.

    ``workbooks``: the file as ``xlsx.load_workbooks`` already returned it (else it is loaded).
    """
    workbooks = workbooks if workbooks is not None else load_workbooks(path)
    title = next((ws.title for ws in workbooks[0].worksheets if ws.title.strip().lower() in NAMES_SHEETS), None)
    return None if title is None else read_names(path, sheet=title, workbooks=workbooks)
