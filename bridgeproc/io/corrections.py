"""A director's corrections file -> the raw corrections frame (text cells, ``source``, ``line``).

A director often cannot edit the file a result came from (a USEBIO or ``.bws`` export, a
published PBN); a corrections file says what was wrong instead, one correction per row:

CSV (comma, semicolon or tab; decoded and sniffed as traveller CSVs are)::

    Board,NS,EW,Field,Value,Reason
    3,2,5,result,-1,the Bridgemate entry was wrong

with an optional ``Section`` column; ``Board``/``NS``/``EW``/``Section`` take the traveller
spellings (``Bd``, ``N-S`` ...). Blank lines and lines starting with ``#`` are skipped. TOML::

    [[correction]]
    board = 3
    ns = "2"
    ew = "5"
    field = "result"
    value = "-1"
    reason = "the Bridgemate entry was wrong"

Only the file's shape is checked here (a ParseError names the line and the fix); what each
row says (the field, the value, the result it names) is checked by ``validate.corrections``,
every problem at once. A row's own fault that the reader sees (a cell right of the header, an
unknown TOML key) goes into its ``problem`` cell, so that it is listed with the others.
"""
from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path

import pandas as pd

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets.travellers import canonical_header, header_key, sniff_delimiter
from bridgeproc.io.text import csv_field_limit, read_text
from bridgeproc.schema import CORRECTIONS_FILE_COLUMNS

#: Header spellings of the columns that are not traveller columns (compared as ``header_key`` does).
HEADERS: dict[str, tuple[str, ...]] = {
    "field": ("Field", "Column", "What"),
    "value": ("Value", "New value", "Correct value", "Corrected value", "Now"),
    "reason": ("Reason", "Why", "Comment"),
}
#: Columns every corrections file has (``section`` is optional).
REQUIRED = ("board", "ns", "ew", "field", "value", "reason")
EXAMPLE = "Board,NS,EW,Field,Value,Reason"
_OWN = {header_key(spelling): column for column, spellings in HEADERS.items() for spelling in spellings}
#: The TOML table of one correction, and the keys it may hold.
TOML_TABLE = "correction"
TOML_KEYS = ("section", "board", "ns", "ew", "field", "value", "reason")
_TOML_HEADER = re.compile(r"^\s*\[\[\s*\"?correction\"?\s*\]\]")


def _column(cell: str) -> str | None:
    """The corrections column a header cell names, or None."""
    own = _OWN.get(header_key(cell))
    if own is not None:
        return own
    traveller = canonical_header(cell)
    return traveller if traveller in ("board", "ns", "ew", "section") else None


def _frame(rows: list[dict], source: str) -> pd.DataFrame:
    """Rows of text cells (missing keys NA) -> the raw corrections frame."""
    data = {name: [row.get(name) for row in rows] for name in CORRECTIONS_FILE_COLUMNS if name not in ("source",)}
    frame = pd.DataFrame(data, index=pd.RangeIndex(len(rows)))
    frame["source"] = source
    return frame.astype(CORRECTIONS_FILE_COLUMNS)[list(CORRECTIONS_FILE_COLUMNS)]


def parse_corrections_csv(text: str, source: str = "<string>", notes: list[dict] | None = None) -> pd.DataFrame:
    """Corrections CSV text -> the raw corrections frame (see the module docstring).

    Raises ParseError for an empty file, a first line that is not the header, a missing or
    repeated column, or an unbalanced quote. A header cell that is not a corrections column
    is not read, with a note in ``notes``.
    """
    kept = "".join("\n" if line.lstrip().startswith("#") else line + "\n" for line in text.splitlines())
    if not kept.strip():
        raise ParseError(source, 1, f"the corrections file is empty; write the header {EXAMPLE} and one row "
                         "per correction")
    delimiter = sniff_delimiter([line for line in kept.splitlines() if line.strip()][:10])
    reader = csv.reader(io.StringIO(kept, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    previous_end = 0
    try:
        with csv_field_limit(len(kept)):
            for row in reader:
                start, previous_end = previous_end + 1, reader.line_num
                if any("\n" in cell or "\r" in cell for cell in row):
                    end = "the end of the file" if reader.line_num == start else f"line {reader.line_num}"
                    raise ParseError(source, start, f"a quoted cell opened on line {start} runs to {end}; check "
                                     "this line for an unbalanced quote (\")")
                if any(cell.strip() for cell in row):
                    rows.append((start, row))
    except csv.Error as exc:
        raise ParseError(source, reader.line_num, f"broken CSV: {exc}; check the quotes on this line") from None
    header_line, header = rows[0]
    columns: dict[str, int] = {}
    unread = []
    for position, cell in enumerate(header):
        name = _column(cell) if cell.strip() else None
        if name is None:
            if cell.strip():
                unread.append(cell.strip())
            continue
        if name in columns:
            raise ParseError(source, header_line, f"two columns mean {name} ({header[columns[name]]!r} and "
                             f"{cell!r}); delete or rename one")
        columns[name] = position
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        raise ParseError(source, header_line, f"missing column {', '.join(missing)} in the header "
                         f"{', '.join(c.strip() for c in header if c.strip())}; the first line of a corrections "
                         f"file is the header {EXAMPLE} (Section optional)")
    if unread and notes is not None:
        notes.append({"source": source, "line": str(header_line), "column": "", "value": ", ".join(unread),
                      "message": f"column(s) {', '.join(repr(u) for u in unread)} are not read; a corrections "
                      f"file has the columns {EXAMPLE} and Section"})
    width = len(header)
    while width and not header[width - 1].strip():
        width -= 1
    records = []
    for line, row in rows[1:]:
        record: dict = {name: (row[pos] if pos < len(row) else "") for name, pos in columns.items()}
        stray = [cell for cell in row[width:] if cell.strip()]
        if stray:
            shown = delimiter.replace("\t", "\\t")
            record["problem"] = (f"{len(row)} cells but the header has {width}; quote a cell that holds a "
                                 f"{shown!r} (a reason with a comma: \"late, then corrected\")")
        record["line"] = line
        records.append(record)
    return _frame(records, source)


def _toml_text(value: object) -> tuple[str | None, str | None]:
    """A TOML value as the text of a cell, or a problem (a list, a table, true/false)."""
    if isinstance(value, bool) or isinstance(value, (list, dict)):
        return None, f"{value!r} is not text or a number; write it in quotes"
    return str(value), None


def parse_corrections_toml(text: str, source: str = "<string>") -> pd.DataFrame:
    """Corrections TOML text (``[[correction]]`` tables) -> the raw corrections frame.

    Each row's ``line`` is the line of its ``[[correction]]`` header. Raises ParseError for
    text that is not TOML (with TOML's line and column) and for anything at the top level but
    ``[[correction]]`` tables.
    """
    import tomllib  # only for a corrections file in TOML: not part of every run's start

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(source, None, f"not TOML: {exc}; write one [[correction]] table per correction") from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise ParseError(source, None, "not a corrections file: its values are nested too deeply; write one "
                         "[[correction]] table per correction") from None
    other = [key for key in data if key != TOML_TABLE]
    if other:
        raise ParseError(source, None, f"{', '.join(repr(k) for k in other)}: not a corrections table; write each "
                         "correction as a [[correction]] table (board, ns, ew, field, value, reason)")
    tables = data.get(TOML_TABLE, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise ParseError(source, None, "'correction' must be [[correction]] tables, one per correction")
    if not tables:
        raise ParseError(source, None, "the corrections file holds no [[correction]] table; write one per correction")
    headers = [number for number, line in enumerate(text.splitlines(), start=1) if _TOML_HEADER.match(line)]
    lines: list[int | None] = list(headers) if len(headers) == len(tables) else [None] * len(tables)
    records = []
    for table, line in zip(tables, lines):
        record: dict = {"line": line}
        problems = []
        for key, value in table.items():
            if key not in TOML_KEYS:
                problems.append(f"{key!r} is not a key of a correction; use {', '.join(TOML_KEYS)}")
                continue
            record[key], problem = _toml_text(value)
            if problem is not None:
                problems.append(f"{key}: {problem}")
        if problems:
            record["problem"] = "; ".join(problems)
        records.append(record)
    return _frame(records, source)


def read_corrections(path: str | os.PathLike, encoding: str | None = None,
                     notes: list[dict] | None = None) -> pd.DataFrame:
    """Read a corrections file by its extension: ``.toml`` as TOML, anything else as CSV."""
    text, source = read_text(path, encoding, notes)
    if Path(path).suffix.lower() == ".toml":
        return parse_corrections_toml(text, source)
    return parse_corrections_csv(text, source, notes)
