"""Traveller sheets and names lists: CSV (``travellers``), XLSX (``xlsx``), names lists (``names``);
the header aliases are declared once in ``travellers``."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from bridgeproc.io.sheets.travellers import parse_travellers_csv, read_travellers_csv
from bridgeproc.io.sheets.xlsx import read_travellers_xlsx
from bridgeproc.io.text import csv_field_limit, read_text


def read_travellers(path: str | os.PathLike, encoding: str | None = None,
                    notes: list[dict] | None = None) -> pd.DataFrame:
    """Read a traveller file by its extension: ``.xlsx``/``.xlsm`` or CSV (``.csv .txt .tsv``).

    ``notes``: a list to which notes about the file are added (columns not read, bytes read as
    Windows-1252 in a UTF-8 file, trailing NUL padding dropped), as problem rows. A CSV cell may be
    as long as the file (the csv module's 131,072-character limit is raised to the file's size).
    """
    if Path(path).suffix.lower() in (".xlsx", ".xlsm"):
        return read_travellers_xlsx(path, notes=notes)
    if encoding:  # read_travellers_csv names the line of a byte the given encoding cannot decode
        with csv_field_limit(_size(path)):
            return read_travellers_csv(path, encoding, notes)
    text, source = read_text(path, None, notes)
    with csv_field_limit(len(text)):
        return parse_travellers_csv(text, source, notes)


def _size(path: str | os.PathLike) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # read_travellers_csv reports the unreadable file


__all__ = ["read_travellers"]
