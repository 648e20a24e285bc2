"""The movement check: each result against the movement a Bridgemate file (or, later, bridgeproc's own
movement) says was played: the pairs must meet at that table and round, sitting that way round, and play
one of that round's boards. Over whole columns, one problem row per fault, in the results' order."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame


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
    pairs = ns + "-" + ew
    m_ns_text, m_ew_text = m_ns.fillna("<NA>"), m_ew.fillna("<NA>")
    found = [
        (missing, 0, "round", "table " + table + " round " + rnd,
         where + " is not in the movement (RoundData); correct the table or round number"),
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
                           "line": j["line"][mask].to_numpy(), "column": column,
                           "value": pd.Series(value)[mask].to_numpy(), "message": pd.Series(message)[mask].to_numpy()})
             for mask, then, column, value, message in found if mask.any()]
    if not parts:
        return problems_frame([])
    rows = pd.concat(parts, ignore_index=True).sort_values(["order", "then"], kind="stable")
    return rows[list(PROBLEM_COLUMNS)].fillna("").astype(PROBLEM_COLUMNS).reset_index(drop=True)
