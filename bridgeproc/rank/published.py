"""Published numbers against ours: when a re-scored file's own ScoreTable disagrees with what
bridgeproc computes, the director is told (usually a convention differs: decimals, centring,
factoring), instead of silently publishing other numbers than the file."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import problems_frame

#: Files publish at one or two decimals: a difference within this is rounding, not a disagreement.
TOLERANCE = 0.051


def published_differences(raw: pd.DataFrame, results: pd.DataFrame, method: str) -> pd.DataFrame | None:
    """One note per input file whose published points differ from ours, with the first example."""
    known = ranking_method(method)
    ours, theirs = known.points[0], known.pbn_points[0].lower()  # the PBN reader lower-cases ScoreTable columns
    if theirs not in raw or ours not in results:
        return None
    published = pd.DataFrame({"source": raw["source"].astype("string"), "line": raw["line"].astype("Int64"),
                              "published": pd.to_numeric(raw[theirs], errors="coerce")}).dropna(subset=["published"])
    if published.empty:
        return None
    mine = pd.DataFrame({"source": results["source"].astype("string"), "line": results["line"].astype("Int64"),
                         "ours": results[ours].to_numpy(dtype=float, na_value=np.nan)})
    both = published.merge(mine, on=["source", "line"], how="inner").dropna(subset=["ours"])
    differ = both[(both["published"] - both["ours"]).abs() > TOLERANCE]
    rows = []
    for source, group in differ.groupby("source", sort=False):
        first = group.iloc[0]
        rows.append({"source": source, "line": str(first["line"]), "column": theirs, "value": f"{first['published']:g}",
                     "message": f"{len(group)} of {int((both['source'] == source).sum())} published {theirs.upper()} "
                                f"differ from bridgeproc's (here {first['published']:g}, ours {first['ours']:.4g}); "
                                "the file was scored with other conventions: see --mp-decimals, --centred, "
                                "--factoring, --cross-imp, --datum-drop"})
    return problems_frame(rows) if rows else None
