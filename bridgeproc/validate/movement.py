"""The movement check: each result against the movement a Bridgemate file (or, later, bridgeproc's own
movement, ``movement.csv`` or the entry workbook) says was played: the pairs must meet at that table and
round, sitting that way round, and play one of that round's boards. Over whole columns, one problem row per
fault, in the results' order, each at its cell when the results came from a spreadsheet."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.problems import cell_label
from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame


def _cells(results: pd.DataFrame, column: str) -> np.ndarray:
    """Where each result's ``column`` was written: its cell (``D5``) when it came from a spreadsheet that says
    (``cell_<column>``), else its line."""
    return np.asarray(cell_label(results, np.arange(len(results)), column), dtype=object)


def check_movement(results: pd.DataFrame, movement: pd.DataFrame) -> pd.DataFrame:
    """Check each result against the movement: the pairs must meet there and play that board.

    Parameters
    ----------
    results : DataFrame
        ``section table round board ns ew source line`` (as ``io.bws.read_bws`` gives them).
    movement : DataFrame
        MOVEMENT_COLUMNS (``BwsFile.movement``).

    Returns
    -------
    DataFrame
        Problems (schema.PROBLEM_COLUMNS), one per result whose table and round are not in
        the movement, whose pairs did not meet there (or sat the wrong way round), and one per
        result whose board is not one of that round's boards. Empty when everything agrees.
    """
    keys = ["section", "table", "round"]
    left = pd.DataFrame({
        "section": results["section"].astype("string").fillna(""),
        "table": pd.to_numeric(results["table"], errors="coerce").astype("Int64"),
        "round": pd.to_numeric(results["round"], errors="coerce").astype("Int64"),
        "board": pd.to_numeric(results["board"], errors="coerce").astype("Int64"),
        "ns": results["ns"].astype("string"), "ew": results["ew"].astype("string"),
        "source": results["source"].astype("string"), "line": results["line"].astype("string"),
    })
    right = movement.assign(section=movement["section"].astype("string").fillna("")).drop_duplicates(subset=keys)
    j = left.merge(right.rename(columns={"ns": "m_ns", "ew": "m_ew"}), on=keys, how="left")
    m_ns, m_ew = j["m_ns"].astype("string"), j["m_ew"].astype("string")
    table, rnd = j["table"].astype("string").fillna("<NA>"), j["round"].astype("string").fillna("<NA>")
    ns, ew = j["ns"].fillna("<NA>"), j["ew"].fillna("<NA>")
    where = "table " + table + ", round " + rnd + np.where(j["section"] != "", " of section " + j["section"], "")
    missing = (m_ns.isna() & m_ew.isna()).to_numpy()
    same = ((j["ns"] == m_ns) & (j["ew"] == m_ew)).fillna(False).to_numpy(dtype=bool)
    swapped = ~same & ((j["ns"] == m_ew) & (j["ew"] == m_ns)).fillna(False).to_numpy(dtype=bool)
    met_not = ~missing & ~same & ~swapped
    low, high = pd.to_numeric(j["low_board"], errors="coerce"), pd.to_numeric(j["high_board"], errors="coerce")
    board = j["board"].astype("Float64")
    outside = (~missing & (low.notna() & high.notna() & (low > 0) & board.notna()
                           & ~((low <= board) & (board <= high))).fillna(False).to_numpy(dtype=bool))
    # the pairs met in that round at another table, on that board: the table number is what is wrong
    meets = right[["section", "round", "table", "ns", "ew", "low_board", "high_board"]].astype(
        {"ns": "string", "ew": "string"}).rename(columns={"table": "at", "low_board": "at_low", "high_board": "at_high"}).drop_duplicates(
        ["section", "round", "ns", "ew"])
    other = j[["section", "round", "ns", "ew"]].merge(meets, on=["section", "round", "ns", "ew"], how="left")
    at_low = pd.to_numeric(other["at_low"], errors="coerce")
    at_high = pd.to_numeric(other["at_high"], errors="coerce")
    moved = ((met_not | outside) & other["at"].notna().to_numpy()
             & ((at_low <= board) & (board <= at_high)).fillna(False).to_numpy(dtype=bool))
    met_not, outside = met_not & ~moved, outside & ~moved
    at_text = other["at"].astype("Int64").astype("string").fillna("<NA>")
    pairs = ns + "-" + ew
    m_ns_text, m_ew_text = m_ns.fillna("<NA>"), m_ew.fillna("<NA>")
    found = [
        (moved, 0, "table", table,
         "NS " + ns + " v EW " + ew + " played round " + rnd + " at table " + at_text + ", not " + table
         + np.where(j["section"] != "", " (section " + j["section"] + ")", "") + ", in the movement; correct the "
         "table number"),
        (missing, 0, "round", "table " + table + " round " + rnd,
         where + " is not in the movement; correct the table or round number"),
        (swapped, 0, "ns", pairs,
         "pairs " + ns + " and " + ew + " sat the wrong way round at " + where + ": the movement has " + m_ns_text
         + " NS and " + m_ew_text + " EW; swap the pair numbers if the result is from NS's side"),
        (met_not, 0, "ns", pairs,
         "pairs " + ns + " (NS) and " + ew + " (EW) did not meet at " + where + ": the movement has " + m_ns_text
         + " v " + m_ew_text + " there; correct the pair numbers or the table/round"),
        (outside, 1, "board", j["board"].astype("string").fillna("<NA>"),
         "board " + j["board"].astype("string").fillna("<NA>") + " is not played at " + where + " (boards "
         + low.astype("Int64").astype("string").fillna("<NA>") + "-" + high.astype("Int64").astype("string").fillna("<NA>")
         + "); correct the board number or the table/round"),
    ]
    parts = [pd.DataFrame({"order": np.flatnonzero(mask), "then": then, "source": j["source"][mask].to_numpy(),
                           "line": _cells(results, column)[mask], "column": column,
                           "value": pd.Series(value)[mask].to_numpy(), "message": pd.Series(message)[mask].to_numpy()})
             for mask, then, column, value, message in found if mask.any()]
    if not parts:
        return problems_frame([])
    rows = pd.concat(parts, ignore_index=True).sort_values(["order", "then"], kind="stable")
    return rows[list(PROBLEM_COLUMNS)].fillna("").astype(PROBLEM_COLUMNS).reset_index(drop=True)


def check_meetings(results: pd.DataFrame, movement: pd.DataFrame) -> pd.DataFrame:
    """Check results that carry no table and round against a movement: the NS and EW pair of each result
    must meet on that board somewhere in it (``movement`` as :func:`check_movement` takes it). One problem
    row per result they did not, with what the movement has them play instead."""
    rows = movement.assign(section=movement["section"].astype("string").fillna(""))
    low = pd.to_numeric(rows["low_board"], errors="coerce").astype("Int64")
    high = pd.to_numeric(rows["high_board"], errors="coerce").astype("Int64")
    sizes = (high - low + 1).fillna(0).astype("int64").clip(lower=0).to_numpy()
    played = rows.loc[rows.index.repeat(sizes)].reset_index(drop=True)  # one row per board of each table-round
    starts = np.repeat(np.cumsum(sizes) - sizes, sizes)
    played = played.assign(board=np.repeat(low.fillna(0).to_numpy(dtype=np.int64), sizes)
                           + np.arange(int(sizes.sum())) - starts)
    meets = pd.DataFrame({"section": played["section"], "board": played["board"].astype("int64"),
                          "ns": played["ns"].astype("string"), "ew": played["ew"].astype("string"), "met": True})
    left = pd.DataFrame({"section": results["section"].astype("string").fillna("") if "section" in results
                         else pd.Series("", index=results.index, dtype="string"),
                         "board": pd.to_numeric(results["board"], errors="coerce").astype("Int64"),
                         "ns": results["ns"].astype("string"), "ew": results["ew"].astype("string")})
    found = left.merge(meets.astype({"board": "Int64"}).drop_duplicates(["section", "board", "ns", "ew"]),
                       on=["section", "board", "ns", "ew"], how="left")["met"]
    bad = found.isna().to_numpy() & left["board"].notna().to_numpy() & left["ns"].notna().to_numpy() \
        & left["ew"].notna().to_numpy()
    if not bad.any():
        return problems_frame([])
    at = np.flatnonzero(bad)
    where = left.iloc[at]
    in_section = np.where(where["section"] != "", " of section " + where["section"], "")
    message = ("NS " + where["ns"] + " v EW " + where["ew"] + " do not meet on board "
               + where["board"].astype("string") + in_section + " in the movement; correct the pair numbers or the board")
    cells = _cells(results, "ns")
    return problems_frame([{"source": str(results["source"].iloc[i]), "line": cells[i],
                            "column": "ns", "value": f"{w.ns}-{w.ew}", "message": m}
                           for i, w, m in zip(at, where.itertuples(), message)])

