"""How often each result was scored: a board's frequency table (per NS score, an artificial code apart)
with the field's points for it, and one club's share of it (the simultaneous event's pages)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import SIM_FREQUENCY_COLUMNS


def frequency_table(results: pd.DataFrame, conventions: Conventions) -> pd.DataFrame:
    """The field's frequencies: per board and NS score (an artificial code apart), how many
    results have it, and the field's points for it (their mean: equal results score alike)."""
    method = ranking_method(conventions.method)
    ns_col, ew_col = method.points
    frame = pd.DataFrame({
        "board": results["board"].to_numpy(), "score_ns": results["score_ns"],
        "adjusted": results["adjusted"].astype("string").fillna(""),
        "points_ns": results[ns_col].astype("float64"), "points_ew": results[ew_col].astype("float64"),
        "pct_ns": results["pct_ns"].astype("float64") if "pct_ns" in results else np.nan,
        "pct_ew": results["pct_ew"].astype("float64") if "pct_ew" in results else np.nan,
    })
    grouped = frame.groupby(["board", "score_ns", "adjusted"], dropna=False, sort=True)
    table = grouped.agg(results=("board", "size"), points_ns=("points_ns", "mean"), points_ew=("points_ew", "mean"),
                        pct_ns=("pct_ns", "mean"), pct_ew=("pct_ew", "mean")).reset_index()
    table["adjusted"] = table["adjusted"].replace("", pd.NA)
    table = table.sort_values(["board", "score_ns"], ascending=[True, False], kind="stable", na_position="last")
    return table[list(SIM_FREQUENCY_COLUMNS)].astype(SIM_FREQUENCY_COLUMNS).reset_index(drop=True)


def frequencies_of(results: pd.DataFrame, frequencies: pd.DataFrame, club: str) -> pd.DataFrame:
    """``frequencies`` with ``here``: how many of ``club``'s results have each board and score."""
    mine = results[results["club"] == club]
    counts = (pd.DataFrame({"board": mine["board"].to_numpy(), "score_ns": mine["score_ns"].to_numpy(),
                            "adjusted": mine["adjusted"].astype("string").fillna("").to_numpy()})
              .groupby(["board", "score_ns", "adjusted"], dropna=False).size().rename("here").reset_index())
    keyed = frequencies.assign(adjusted=frequencies["adjusted"].fillna(""))
    merged = keyed.merge(counts, on=["board", "score_ns", "adjusted"], how="left")
    merged["here"] = merged["here"].fillna(0).astype("int64")
    merged["adjusted"] = merged["adjusted"].replace("", pd.NA).astype("string")
    return merged
