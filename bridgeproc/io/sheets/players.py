"""A list of players with one number each (``players.csv``): their handicaps or their masterpoint holdings,
as a club keeps them. The header names the key column (``id``, ``member`` or ``number`` for the federation's
member number, ``name`` for a name, or both) and the value column (``handicap``, ``masterpoints``,
``holdings`` or ``rating``). Read with bounds; every row that is not a key and a number is a ParseError with
its line, all listed at once."""
from __future__ import annotations

import csv
import io
import os
import re

import pandas as pd

from bridgeproc.errors import ParseError
from bridgeproc.io.text import read_text

#: Header words of each column, lower case.
KEY_WORDS = {"id": "id", "member": "id", "member id": "id", "number": "id", "ebu": "id", "abf": "id", "name": "name",
             "player": "name"}
VALUE_WORDS = ("handicap", "masterpoints", "holdings", "rating", "mps", "points")
#: The most rows a players list may have (a federation's whole membership would be larger: a club's is far less).
MAX_ROWS = 200_000
_NUMBER = re.compile(r"[+-]?\d{1,7}(?:[.,]\d{1,6})?")


def read_player_values(path: str | os.PathLike, encoding: str | None = None) -> pd.DataFrame:
    """``id``, ``name`` (casefolded, spaces collapsed; either may be empty) and ``value`` (float64) of every player
    in ``path`` (see the module's text), with ``source`` and ``line``."""
    text, source = read_text(path, encoding)
    return parse_player_values(text, source)


def key_name(name: str) -> str:
    """A player's name as the lists are matched by it: spaces collapsed, case folded."""
    return " ".join(str(name).split()).casefold()


def parse_player_values(text: str, source: str = "<string>") -> pd.DataFrame:
    """:func:`read_player_values` on text."""
    delimiter = ";" if text.split("\n", 1)[0].count(";") > text.split("\n", 1)[0].count(",") else ","
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    if len(rows) > MAX_ROWS + 1:
        raise ParseError(source, MAX_ROWS + 2, f"more than {MAX_ROWS:,} players; a players list is a club's")
    header = [" ".join(c.split()).lower() for c in rows[0]] if rows else []
    keys = {KEY_WORDS[h]: i for i, h in enumerate(header) if h in KEY_WORDS}
    value = next((i for i, h in enumerate(header) if h in VALUE_WORDS), None)
    if not keys or value is None:
        raise ParseError(source, 1, "the header must name the player (id, member or name) and the number (handicap, "
                         f"masterpoints, holdings or rating), e.g. 'name,handicap'; found {', '.join(header) or 'none'}")
    out, wrong = [], []
    for line, row in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in row):
            continue
        cells = [c.strip() for c in row] + [""] * len(header)
        number = cells[value].replace(",", ".") if delimiter == ";" else cells[value]
        ident, name = cells[keys["id"]] if "id" in keys else "", cells[keys["name"]] if "name" in keys else ""
        if not _NUMBER.fullmatch(number) or not (ident or name):
            wrong.append(line)
            continue
        out.append({"id": ident, "name": key_name(name), "value": float(number.replace(",", ".")),
                    "source": source, "line": str(line)})
    if wrong:
        listed = ", ".join(map(str, wrong[:10])) + (f" and {len(wrong) - 10} more" if len(wrong) > 10 else "")
        raise ParseError(source, wrong[0], f"a row is not a player and a number (lines {listed}); write the "
                         f"{header[value]} as a number such as 2.5 or -1")
    frame = pd.DataFrame(out, columns=["id", "name", "value", "source", "line"])
    return frame.astype({"id": "string", "name": "string", "value": "float64", "source": "string", "line": "string"})
