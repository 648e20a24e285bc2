"""Traveller sheets and names lists: CSV (``travellers``), XLSX (``xlsx``), names lists (``names``);
the header aliases are declared once in ``travellers``."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from bridgeproc.io.sheets.travellers import read_travellers_csv
from bridgeproc.io.sheets.xlsx import read_travellers_xlsx


def read_travellers(path: str | os.PathLike, encoding: str | None = None,
                    notes: list[dict] | None = None) -> pd.DataFrame:
    """Read a traveller file by its extension: ``.xlsx``/``.xlsm`` or CSV (``.csv .txt .tsv``).

    ``notes``: a list to which notes about the file are added (columns not read), as problem rows.
    """
    if Path(path).suffix.lower() in (".xlsx", ".xlsm"):
        return read_travellers_xlsx(path, notes=notes)
    return read_travellers_csv(path, encoding, notes)


__all__ = ["read_travellers"]
