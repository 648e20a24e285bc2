"""Traveller sheets (CSV) -> the raw results frame: text cells plus where each came from.

Cells stay text here; ``validate.build_results`` turns them into typed columns, so a
bad cell becomes a listed problem instead of a silent NaN.
"""
from __future__ import annotations

import csv
import io
import os
import re

import pandas as pd

from ..errors import ParseError
from .text import read_text

#: Canonical column -> accepted header spellings (compared lower-case, without spaces, dots, underscores).
HEADER_ALIASES: dict[str, tuple[str, ...]] = {
    "section": ("section", "sect", "sec", "sektion", "secteur"),
    "table": ("table", "tbl", "tisch"),
    "round": ("round", "rnd", "rd", "runde"),
    "board": ("board", "bd", "brd", "boardno", "boardnumber", "bdno", "deal", "spiel", "donne"),
    "ns": ("ns", "nspair", "pairns", "ns pair", "pairidns", "nsno", "nspairno", "nspairnumber"),
    "ew": ("ew", "ewpair", "pairew", "pairidew", "ewno", "ewpairno", "ewpairnumber", "ow", "eo"),
    "contract": ("contract", "contr", "kontrakt", "contrat", "bid"),
    "declarer": ("declarer", "decl", "by", "dec", "alleinspieler", "declarant", "nsew"),
    "result": ("result", "res", "made", "tricks", "tr", "ergebnis", "resultat", "plis"),
    "lead": ("lead", "leadcard", "openinglead", "ld", "ausspiel", "entame"),
    "score": ("score", "nsscore", "scorens", "points", "nspoints", "ns+", "punkte"),
    "score_ew": ("ewscore", "scoreew", "ewpoints", "ew+"),
}
REQUIRED = ("board", "ns", "ew", "contract")
_ALIAS_TO_COLUMN = {alias.replace(" ", ""): col for col, aliases in HEADER_ALIASES.items() for alias in aliases}


def _key(header: str) -> str:
    return re.sub(r"[\s._\-/]", "", header.strip().lower()).replace("/", "")


def canonical_header(header: str) -> str | None:
    """Canonical column for a header cell, or None if it is not recognised."""
    return _ALIAS_TO_COLUMN.get(_key(header))


def _sniff_delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    return max(counts, key=counts.get) if max(counts.values()) else ","


def parse_travellers_csv(text: str, source: str = "<string>") -> pd.DataFrame:
    """Parse traveller CSV text into the raw results frame.

    Returns
    -------
    DataFrame
        Text (``string``) columns for every recognised header (see HEADER_ALIASES),
        ``source`` and ``line`` (the file line of the row).
    """
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise ParseError(source, 1, "the file is empty; expected a header such as Board,NS,EW,Contract,Declarer,Result,Lead")
    header_index = next(i for i, line in enumerate(lines) if line.strip())
    delimiter = _sniff_delimiter(lines[header_index])
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[list[str]] = []
    line_numbers: list[int] = []
    header: list[str] | None = None
    header_line = 0
    try:
        for row in reader:
            if header is None:
                if any(cell.strip() for cell in row):
                    header, header_line = row, reader.line_num
                continue
            if not any(cell.strip() for cell in row):
                continue
            rows.append(row)
            line_numbers.append(reader.line_num)
    except csv.Error as exc:
        raise ParseError(source, reader.line_num, f"broken CSV: {exc}; check the quotes on this line") from None
    assert header is not None
    columns: dict[str, int] = {}
    unknown = []
    for position, cell in enumerate(header):
        name = canonical_header(cell)
        if name is None:
            if cell.strip():
                unknown.append(cell.strip())
            continue
        if name in columns:
            raise ParseError(source, header_line, f"two columns mean {name!r} ({header[columns[name]]!r} and {cell!r}); keep one")
        columns[name] = position
    missing = [c for c in REQUIRED if c not in columns]
    if missing:
        accepted = "; ".join(f"{c}: {', '.join(HEADER_ALIASES[c][:5])}" for c in missing)
        raise ParseError(
            source, header_line,
            f"missing column(s) {', '.join(missing)} in header {header!r}; accepted spellings: {accepted}",
        )
    width = len(header)
    problems = [(n, len(r)) for r, n in zip(rows, line_numbers) if len(r) > width and any(c.strip() for c in r[width:])]
    if problems:
        n, count = problems[0]
        raise ParseError(source, n, f"{count} cells but the header has {width}; check for a stray {delimiter!r}")
    data = {name: [r[pos] if pos < len(r) else "" for r in rows] for name, pos in columns.items()}
    frame = pd.DataFrame({name: pd.array(values, dtype="string") for name, values in data.items()})
    return frame.assign(
        source=pd.array([source] * len(frame), dtype="string"),
        line=pd.array(line_numbers, dtype="Int64"),
    )


def read_travellers_csv(path: str | os.PathLike, encoding: str | None = None) -> pd.DataFrame:
    """Read a traveller CSV file (comma, semicolon or tab; any common encoding)."""
    text, source = read_text(path, encoding)
    return parse_travellers_csv(text, source)
