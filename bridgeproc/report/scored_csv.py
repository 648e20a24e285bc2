"""The scored results table as CSV (design.md: one row per result, then one column per method)."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.core.shown import shown_frame
from bridgeproc.rank.methods import METHODS
from bridgeproc.report.csv_files import write_csv
from bridgeproc.schema import RESULTS_COLUMNS, SCORED_CSV_COLUMNS, SWITCHED_COLUMNS, check

#: Per-method columns written after the fixed ones, when present.
METHOD_COLUMNS = [column for m in METHODS.values() for column, _, _ in m.shown] + ["datum"]


def scored_table(results: pd.DataFrame) -> pd.DataFrame:
    """The frame written to CSV: fixed columns, then whichever method columns exist."""
    table = results.assign(contract=contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"]))
    fouled = ["fouled"] if "fouled" in table and table["fouled"].notna().any() else []  # read back as a Fouled column
    switched = []
    if "switched" in table and table["switched"].any():
        # read back as a Switched column (Y): the pairs stay by seat, credited by their numbers
        check(table, SWITCHED_COLUMNS)
        table["switched"] = pd.Series(np.where(table["switched"].to_numpy(dtype=bool, na_value=False), "Y", ""),
                                      index=table.index, dtype="string")
        switched = ["switched"]
    return table[SCORED_CSV_COLUMNS + fouled + switched + [c for c in METHOD_COLUMNS if c in table]]


def write_scored_csv(results: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write the scored results table to ``path``, its numbers as every output shows them
    (core.shown: two decimals at most, a result's NS and EW adding up to the top)."""
    check(results, RESULTS_COLUMNS)
    write_csv(scored_table(shown_frame(results)), path)


def write_session_csv(session, path: str | os.PathLike) -> None:
    """Write a Session's scored results (the ``.csv`` output of ``bridgeproc score``)."""
    write_scored_csv(session.results, path)
