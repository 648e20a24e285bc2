"""A movement file (``movement.csv``, as ``bridgeproc movement`` writes it) -> the movement frame the
checks take (``schema.MOVEMENT_COLUMNS``): one row per section, round and table, the boards as
``first-last`` or one board; a row with one pair blank is a sit-out (no result is played there); a
``switched`` column (``Y``) marks the arrow-switched rounds, kept as ``switched``. Read with bounds; every cell
that is not what it must be is a ParseError with its line."""
from __future__ import annotations

import csv
import os
import re

import pandas as pd

from bridgeproc.errors import ParseError
from bridgeproc.io.text import read_text
from bridgeproc.schema import MOVEMENT_COLUMNS, MOVEMENT_SWITCHED_COLUMNS

#: The columns a movement file must have (``switched`` may follow).
HEADER = ("section", "round", "table", "ns", "ew", "boards")
_BOARDS = re.compile(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?")


def read_movement(path: str | os.PathLike, encoding: str | None = None) -> pd.DataFrame:
    """The movement in ``path`` (see the module's text)."""
    text, source = read_text(path, encoding)
    return movement_rows(list(csv.reader(text.splitlines())), source)


def entry_movement(workbook, source: str) -> pd.DataFrame | None:
    """The movement an entry workbook carries (its ``Movement`` sheet, as ``bridgeproc movement -o
    entry.xlsx`` writes it), None for another workbook."""
    if "Movement" not in workbook.sheetnames:
        return None
    rows = [["" if v is None else str(v) for v in row] for row in workbook["Movement"].iter_rows(values_only=True)]
    return movement_rows(rows, f"{source}!Movement")


def movement_rows(rows: list[list[str]], source: str) -> pd.DataFrame:
    """The movement frame of a movement's rows of text cells, its header first (see the module's text)."""
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    if tuple(header[:len(HEADER)]) != HEADER:
        raise ParseError(source, 1, f"not a movement file: the header must begin {', '.join(HEADER)} (as "
                         "bridgeproc movement writes it)")
    problems, out = [], []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, (cell.strip() for cell in row)))
        m = _BOARDS.fullmatch(cells.get("boards", ""))
        numbers = [cells.get(k, "") for k in ("round", "table")]
        mark = cells.get("switched", "").upper()
        if (m is None or not all(n.isdigit() for n in numbers) or not (cells.get("ns") or cells.get("ew"))
                or mark not in ("", "Y", "N")):
            problems.append(f"line {number}")
            continue
        if not cells.get("ns") or not cells.get("ew"):
            continue  # a half table: one pair there, who sits out; no result is played at that table
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        out.append({"section": cells["section"], "table": int(cells["table"]), "round": int(cells["round"]),
                    "ns": cells["ns"], "ew": cells["ew"], "low_board": min(low, high), "high_board": max(low, high),
                    "switched": mark == "Y"})
    if problems:
        listed = ", ".join(problems[:10]) + (f" and {len(problems) - 10} more" if len(problems) > 10 else "")
        raise ParseError(source, problems[0].split()[1], f"a row of the movement is not round, table, NS and EW "
                         f"pairs and boards as first-last, switched Y or blank ({listed}); write it again with bridgeproc movement")
    if not out:
        raise ParseError(source, 1, "the movement file has a header but no rows")
    columns = MOVEMENT_COLUMNS | MOVEMENT_SWITCHED_COLUMNS
    return pd.DataFrame(out, columns=list(columns)).astype(columns)
