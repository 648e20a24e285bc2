"""Names lists (pair number -> player names), as CSV or as a sheet of a workbook.

Columns (any of the usual spellings): ``Pair`` (a number, or ``A3`` for pair 3 of
section A), optional ``Section``, optional ``Direction`` (``NS``/``EW``, when pairs
are numbered per direction), and either one ``Names`` column or two or more
player columns (``Player 1``, ``Player 2``, ``North``, ``South`` ...), joined with
`` & ``. In a workbook the sheet named ``Names``/``Players``/``Pairs`` is read (or
the only sheet).

Hostile lists, each an exact outcome (nothing is dropped silently):

* a pair listed twice: the same names are one note (read once); other names are a problem
  naming both lines (which is right?);
* a row with more cells than the header: when ``Names`` is the last column of a CSV header,
  the cells after it are the names cut by an unquoted comma (``1,NS,Berg, Anna & Lie, Bjørn``)
  and are joined back, with a note; otherwise a problem ("quote the names"); in a workbook the
  cells right of the header are named in a note (not read);
* a line break inside a quoted name (it would break the PBN written later): replaced by a
  space, with a note; a quoted cell that swallows the next rows is an unbalanced quote, one
  ParseError naming the line where it opens; other control characters become spaces (a note);
* a header and no pairs: a ParseError.

Row problems are collected and raised together as one ValidationError.
"""
from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pandas as pd

from bridgeproc.core.problems import UNCACHED_FORMULA
from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.sheets.travellers import HEADER_SEARCH_ROWS, header_key, sniff_delimiter
from bridgeproc.io.sheets.xlsx import NAMES_SHEETS, Workbooks, cell_name, formula_sheet, load_workbooks, sheet_grid
from bridgeproc.io.text import csv_field_limit, read_text
from bridgeproc.schema import NAMES_COLUMNS, NAMES_ID_COLUMNS, problems_frame

NAMES_ALIASES: dict[str, tuple[str, ...]] = {
    "section": ("Section", "Sect", "Sec"),
    "pair": ("Pair", "Pair no", "Pair number", "No", "Nr", "Number", "Pair id", "Id", "Team",
             "Player no", "Player number"),  # an individual's names are listed by player
    "direction": ("Direction", "Dir", "Line", "Seat", "NS/EW"),
    "names": ("Names", "Name", "Players", "Pair names", "Pair name"),
}
PLAYER_ALIASES = ("Player", "Player 1", "Player 2", "Player A", "Player B", "Name 1", "Name 2", "Player1", "Player2",
                  "North", "South", "East", "West", "First player", "Second player", "Partner")
_ALIASES = {header_key(a): col for col, names in NAMES_ALIASES.items() for a in names}
_PLAYERS = {header_key(a) for a in PLAYER_ALIASES}
#: The players' member (national federation) numbers, one column for the pair or one per player, as
#: Ruter's TotalScoreTable writes them (MemberID1, MemberID2): written to USEBIO's NATIONAL_ID_NUMBER.
#: (``Id`` alone is a pair number, see NAMES_ALIASES.)
ID_ALIASES = ("Member ID", "Member IDs", "Member no", "Member number", "MemberID1", "MemberID2", "Member ID 1",
              "Member ID 2", "National ID", "National IDs", "IDs", "EBU", "ACBL", "ABF")
_IDS = {header_key(a) for a in ID_ALIASES}
#: The players' club numbers (their home club's federation number), one column or one per player:
#: written to USEBIO's ``PLAYER/CLUB_ID_NUMBER``. ("Club" alone is the club's name, not read.)
CLUB_ID_ALIASES = ("Club ID", "Club IDs", "Club no", "Club number", "ClubID1", "ClubID2", "Club ID 1", "Club ID 2")
_CLUB_IDS = {header_key(a) for a in CLUB_ID_ALIASES}
_DIRECTIONS = {"NS": "NS", "N-S": "NS", "N/S": "NS", "N": "NS", "EW": "EW", "E-W": "EW", "E/W": "EW", "E": "EW",
               "OW": "EW", "O": "EW"}
_PAIR = re.compile(r"([A-Za-z]{1,2})?\s*-?\s*(\d{1,4})(?:\.0+)?")
#: Control characters a name cannot hold (they break the PBN and workbook written from it).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
#: How many lines a grouped note names before "and N more".
_SHOWN = 5


def _lines_text(lines: list[str]) -> str:
    shown = ", ".join(lines[:_SHOWN])
    return f"line {shown}" if len(lines) == 1 else f"lines {shown}" + (
        f" and {len(lines) - _SHOWN} more" if len(lines) > _SHOWN else "")


def _note(notes: list[dict] | None, source: str, lines: list[str], message: str) -> None:
    """One note for every line of one kind (``message`` follows "lines 3, 7: ")."""
    if notes is not None and lines:
        notes.append({"source": source, "line": lines[0], "column": "names", "value": "",
                      "message": f"{_lines_text(lines)}: {message}"})


def _filled_width(row: list[str]) -> int:
    width = len(row)
    while width and not str(row[width - 1]).strip():
        width -= 1
    return width


def _header(rows: list[list[str]], where: list[str], source: str
            ) -> tuple[int, dict[str, int], list[int], list[int], list[int]]:
    """(row index of the header, {column: position}, player column positions, member-id column positions,
    club-id column positions)."""
    for index, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        keys = [header_key(c) for c in row]
        if "pair" in {_ALIASES.get(k) for k in keys}:
            break
    else:
        raise ParseError(source, where[0] if where else 1, "no header with a Pair column found; expected e.g. "
                         "Pair,Names or Section,Pair,Player 1,Player 2")
    columns: dict[str, int] = {}
    players: list[int] = []
    ids: list[int] = []
    clubs: list[int] = []
    for position, key in enumerate(keys):
        name = _ALIASES.get(key)
        if name and name not in columns:
            columns[name] = position
        elif key in _PLAYERS or re.fullmatch(r"(player|name)\d", key):
            players.append(position)
        elif key in _IDS:
            ids.append(position)
        elif key in _CLUB_IDS:
            clubs.append(position)
    if "names" not in columns and not players:
        raise ParseError(source, where[index], "no Names or Player columns next to Pair; expected e.g. Pair,Names "
                         "or Pair,Player 1,Player 2")
    return index, columns, players, ids, clubs


def _table(rows: list[list[str]], where: list[str], source: str, notes: list[dict] | None = None,
           delimiter: str | None = None) -> pd.DataFrame:
    """The names frame of a list's rows (``delimiter``: the CSV's, None for a workbook sheet)."""
    index, columns, players, id_columns, club_columns = _header(rows, where, source)
    width = _filled_width(rows[index])
    body, lines = rows[index + 1:], where[index + 1:]
    if not body:
        raise ParseError(source, where[index], "the names list has a header but no pairs below it; "
                         "write one row per pair (e.g. 1,Ann Berg & Bo Lie)")
    names_last = columns.get("names") == width - 1 and not players

    def cell(row: list[str], pos: int | None) -> str:
        return row[pos].strip() if pos is not None and pos < len(row) else ""

    problems: list[dict] = []
    joined: list[str] = []
    beyond: list[str] = []
    controlled: list[str] = []
    repeated: list[str] = []
    seen: dict[tuple, tuple[str, str]] = {}
    out = []
    for row, line in zip(body, lines):
        def problem(column: str, value: str, message: str) -> None:
            problems.append({"source": source, "line": line, "column": column, "value": value, "message": message})

        extra = [c for c in row[width:] if str(c).strip()]
        names = cell(row, columns.get("names")) or " & ".join(p for p in (cell(row, i) for i in players) if p)
        if extra and delimiter is not None and names_last:
            names = delimiter.join(row[width - 1:]).strip()
            joined.append(line)
        elif extra and delimiter is not None:
            shown = delimiter.replace("\t", "\\t")
            problem("names", delimiter.join(row), f"{len(row)} cells but the header has {width}: a name holds an "
                    f"unquoted {shown!r}; quote the names (\"Berg, Anna & Lie, Bjørn\")")
            continue
        elif extra:
            beyond.append(line)
        raw_pair = cell(row, columns.get("pair"))
        m = _PAIR.fullmatch(raw_pair)
        if not m:
            problem("pair", raw_pair, f"{raw_pair!r} is not a pair number; write a number such as 7 (or A7)")
            continue
        section = cell(row, columns.get("section")).upper() or (m.group(1) or "").upper()
        direction = cell(row, columns.get("direction")).upper()
        if direction and direction not in _DIRECTIONS:
            problem("direction", direction, f"{direction!r} is not a direction; write NS or EW")
            continue
        if _CONTROL.search(names):
            names = re.sub(" {2,}", " ", _CONTROL.sub(" ", names)).strip()
            controlled.append(line)
        pair = str(int(m.group(2)))
        key = (section, pair, _DIRECTIONS.get(direction))
        if key in seen:
            first_line, first_names = seen[key]
            label = f"{section}{pair}" + (f" ({key[2]})" if key[2] else "")
            if names == first_names:
                repeated.append(line)
            else:
                problem("pair", raw_pair, f"pair {label} is listed twice: {names!r} here and {first_names!r} on "
                        f"line {first_line}; delete the wrong row (or correct its pair number)")
            continue
        seen[key] = (line, names)
        member_ids = " & ".join(i for i in (cell(row, p) for p in id_columns) if i)
        club_ids = " & ".join(i for i in (cell(row, p) for p in club_columns) if i)
        out.append({"section": section, "pair": pair, "names": names, "direction": _DIRECTIONS.get(direction),
                    "source": source, "line": str(line), "ids": member_ids, "club_ids": club_ids})
    if problems:
        raise ValidationError(problems_frame(problems))
    _note(notes, source, joined, f"more cells than the header: the names held an unquoted {delimiter!r} and "
          f"are read with it ({next((r['names'] for r in out if r['line'] == (joined or [''])[0]), '')!r}); "
          "quote such names")
    _note(notes, source, beyond, "cells right of the header are not read; give them a header or delete them")
    _note(notes, source, controlled, "a line break or control character in the names is read as a space")
    _note(notes, source, repeated, "a pair listed again with the same names: read once")
    frame = pd.DataFrame({name: pd.array([row[name] for row in out], dtype=dtype)  # column by column, no cast after
                          for name, dtype in {**NAMES_COLUMNS, **NAMES_ID_COLUMNS}.items()})
    if frame["direction"].isna().all():
        frame = frame.drop(columns="direction")
    for column in NAMES_ID_COLUMNS:  # only the id columns the list has
        if not (frame[column].fillna("") != "").any():
            frame = frame.drop(columns=column)
    return frame


#: A line that starts like a names row (``7,``, ``A7;``): a quoted cell running into it was not closed.
def _starts_row(text: str, delimiter: str) -> bool:
    return re.match(rf"\s*[A-Za-z]{{0,2}}\s*-?\s*\d{{1,4}}(?:\.0+)?\s*{re.escape(delimiter)}", text) is not None


def _rows(text: str, source: str, delimiter: str) -> tuple[list[list[str]], list[str]]:
    """Non-empty CSV rows and the line each starts on; an unbalanced quote is one ParseError."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows, where = [], []
    previous_end = 0
    with csv_field_limit(len(text)):
        try:
            for row in reader:
                start, previous_end = previous_end + 1, reader.line_num
                for cell in row:
                    inner = cell.strip()
                    if "\n" not in inner and "\r" not in inner:
                        continue
                    after = inner.splitlines()[1:]
                    if previous_end - start > 1 or any(_starts_row(part, delimiter) for part in after):
                        raise ParseError(source, start, f"a quoted cell opened on line {start} runs to line "
                                         f"{previous_end}: check line {start} for an unbalanced quote (\")")
                if any(c.strip() for c in row):
                    rows.append(row)
                    where.append(str(start))
        except csv.Error as exc:
            raise ParseError(source, reader.line_num, f"broken CSV: {exc}; check the quotes on this line") from None
    return rows, where


def parse_names_csv(text: str, source: str = "<string>", notes: list[dict] | None = None) -> pd.DataFrame:
    """Names CSV text -> frame ``section, pair, names`` (+ ``direction``, ``source``, ``line``).

    ``notes``: a list to which notes about the list are added (see the module docstring).
    Raises ParseError (no header, no pairs, an unbalanced quote) or ValidationError (every
    row problem: a pair listed twice with other names, a bad pair number or direction, a
    row with more cells than the header that cannot be read as names).
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ParseError(source, 1, "the names file is empty; expected a header such as Pair,Names")
    delimiter = sniff_delimiter(lines[:HEADER_SEARCH_ROWS])
    rows, where = _rows(text, source, delimiter)
    return _table(rows, where, source, notes, delimiter)


def read_names(path: str | os.PathLike, sheet: str | None = None, encoding: str | None = None,
               workbooks: Workbooks | None = None, notes: list[dict] | None = None) -> pd.DataFrame:
    """Read a names list from a CSV file or a workbook sheet.

    ``workbooks``: a workbook file as ``xlsx.load_workbooks`` already returned it (else it is loaded).
    ``notes``: a list to which notes about the list are added (bytes read as Windows-1252 in a UTF-8
    file, names joined back or cleaned, a pair listed twice with the same names).

    Returns
    -------
    DataFrame
        ``section`` ("" without sections), ``pair`` (number as text), ``names``
        (players joined with " & "), ``direction`` (``NS``/``EW``; only when the list
        numbers pairs per direction), ``source``, ``line``.
    """
    if Path(path).suffix.lower() not in (".xlsx", ".xlsm"):
        text, source = read_text(path, encoding, notes)
        return parse_names_csv(text, source, notes)
    values, formulas = workbooks if workbooks is not None else load_workbooks(path)
    titles = [ws.title for ws in values.worksheets]
    wanted = sheet or next((t for t in titles if t.strip().lower() in NAMES_SHEETS), titles[0] if len(titles) == 1 else None)
    if wanted not in titles:
        raise ParseError(Path(path).name, None, f"no names sheet (one of {', '.join(NAMES_SHEETS)}); "
                         f"the sheets are {', '.join(titles)}")
    source = f"{Path(path).name}!{wanted}"
    rows, numbers, uncached = sheet_grid(values[wanted], formula_sheet(formulas, str(wanted)))
    pending = [(at, text) for at, (kind, text) in uncached.items() if kind == "formula"]
    if pending:
        (r, c), formula = pending[0]
        raise ParseError(source, cell_name(numbers[r], c), UNCACHED_FORMULA.format(formula))
    return _table(rows, [str(n) for n in numbers], source, notes)


def workbook_names(path: str | os.PathLike, workbooks: Workbooks | None = None,
                   notes: list[dict] | None = None) -> pd.DataFrame | None:
    """The names sheet of a traveller workbook (``Names``, ``Players`` ...), or None if it has none.

    ``workbooks``: the file as ``xlsx.load_workbooks`` already returned it (else it is loaded).
    """
    workbooks = workbooks if workbooks is not None else load_workbooks(path)
    title = next((ws.title for ws in workbooks[0].worksheets if ws.title.strip().lower() in NAMES_SHEETS), None)
    return None if title is None else read_names(path, sheet=title, workbooks=workbooks, notes=notes)
