"""Published numbers against ours: when a re-scored file's own numbers disagree with what
bridgeproc computes, the director is told (usually a convention differs: decimals, centring,
factoring, board tops, how totals are formed), instead of silently publishing other numbers
than the file.

Kinds compared, one grouped note per kind and file (a count and the first example, naming the
options that might reproduce the file): board values (the method's per-result points, NS),
Butler datums, and, where the file publishes standings (USEBIO ``PARTICIPANTS``), pair totals,
percentages and places. Places are compared without the ``=`` of a tie (Compscore writes tied
places without it).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.keys import inner_pairs
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import problems_frame

#: Files publish at one or two decimals: a difference within this is rounding, not a disagreement.
TOLERANCE = 0.051

#: The options that might reproduce each kind of published number, by method.
_OPTIONS = {
    ("points", "mp"): "--mp-top, --factoring, --mp-decimals, --centred, --adjusted",
    ("points", "cross-imp"): "--cross-imp, --imp-ave-plus, --across-field",
    ("points", "butler"): "--datum-drop, --datum-drop-share, --imp-ave-plus, --across-field",
    ("datum", "butler"): "--datum-drop, --datum-drop-share, --across-field",
    ("total", "mp"): "--mp-top, --sitout, --factoring, --mp-decimals, --centred",
    ("total", "cross-imp"): "--cross-imp, --sitout, --imp-per-board, --imp-ave-plus",
    ("total", "butler"): "--sitout, --imp-per-board, --datum-drop",
    ("percentage", "mp"): "--mp-top, --factoring, --adjusted, --mp-decimals",
    ("place", "mp"): "--winners, --mp-top, --factoring",
    ("place", "cross-imp"): "--winners, --cross-imp, --sitout",
    ("place", "butler"): "--winners, --sitout, --datum-drop",
}
_FALLBACK = "--mp-decimals, --centred, --factoring, --cross-imp, --datum-drop"


def _options(kind: str, method: str) -> str:
    return _OPTIONS.get((kind, method), _FALLBACK)


def _numbers(column: pd.Series) -> pd.Series:
    return pd.to_numeric(column.astype("string").str.strip(), errors="coerce").astype("float64")


def _grouped(both: pd.DataFrame, differ: np.ndarray, column: str, label: str, where: str, options: str,
             ours_format: str = "{:.4g}", searched: str | None = None) -> list[dict]:
    """One note per source: ``count of compared published <label> differ`` with the first example."""
    rows = []
    wrong = both[differ]
    compared = both.groupby("source", sort=False).size()
    for source, group in wrong.groupby("source", sort=False):
        first = group.iloc[0]
        published, ours = first["published"], first["ours"]
        shown = published if isinstance(published, str) else f"{published:g}"
        mine = ours if isinstance(ours, str) else ours_format.format(ours)
        place = f"{where.format(**first.to_dict())}: " if where else ""
        rows.append({"source": source, "line": str(first["line"]), "column": column, "value": shown,
                     "message": f"{len(group)} of {int(compared[source])} published {label} differ from "
                                f"bridgeproc's ({place}here {shown}, ours {mine}); "
                                + (searched or f"the file was scored with other conventions: see {options}")})
    return rows


#: One comparison of a kind of published number: (compared rows, which differ, column, label, where, options, format).
Comparison = tuple[pd.DataFrame, np.ndarray, str, str, str, str, str]


def _board_values(raw: pd.DataFrame, results: pd.DataFrame, method: str) -> list[Comparison]:
    known = ranking_method(method)
    # the PBN reader lower-cases ScoreTable columns; NS and EW are compared apart (a file may differ in one)
    pairs = [(ours, theirs.lower(), theirs.upper(), "points") for ours, theirs in zip(known.points, known.pbn_points)]
    if method == "butler":
        pairs.append(("datum", "butlerdatum", "datums", "datum"))
    rows: list[Comparison] = []
    for mine, column, label, kind in pairs:
        if column not in raw or mine not in results:
            continue
        published = pd.DataFrame({"source": raw["source"].astype("string"), "line": raw["line"].astype("Int64"),
                                  "board": raw["board"].astype("string"),
                                  "section": raw["section"].astype("string") if "section" in raw else "",
                                  "published": _numbers(raw[column])}).dropna(subset=["published"])
        if kind == "datum":  # one datum per board, written on each of its lines
            published = published.drop_duplicates(subset=["source", "section", "board"])
        if published.empty:
            continue
        values = pd.DataFrame({"source": results["source"].astype("string"), "line": results["line"].astype("Int64"),
                               "ours": results[mine].to_numpy(dtype=float, na_value=np.nan)})
        both = published.merge(values, on=["source", "line"], how="inner").dropna(subset=["ours"])
        differ = ((both["published"] - both["ours"]).abs() > TOLERANCE).to_numpy()
        rows.append((both, differ, column, label, "board {board}", _options(kind, method), "{:.4g}"))
    return rows


def published_standings(totals: pd.DataFrame) -> pd.DataFrame:
    """The published standings (text, as read) as they are compared: numbers as floats, places without the
    ``=`` of a tie. Made once per input and compared with each ranking tried (:func:`_matched`)."""
    return pd.DataFrame({
        "source": totals["source"].astype("string"), "line": totals["line"].astype("string"),
        "pair_key": totals["pair"].astype("string").fillna(""),
        "section": totals["section"].astype("string").fillna("").str.strip() if "section" in totals else "",
        "direction": totals["direction"].astype("string").fillna("") if "direction" in totals else "",
        "total": _numbers(totals["total"]), "percentage": _numbers(totals["percentage"]),
        "place": totals["place"].astype("string").str.replace("=", "", regex=False).str.strip(),
        "masterpoints": _numbers(totals["masterpoints"]) if "masterpoints" in totals else np.nan,
    })


def _group_parts(standings: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each standings row's section and direction as its group names them (``A NS``: section A, NS; ``B``:
    section B; ``EW``: EW), each distinct group split once."""
    codes, groups = pd.factorize(standings["group"].astype("string").fillna(""))
    words = [str(g).split() for g in groups]
    direction = np.array([w[-1] if w and w[-1] in ("NS", "EW") else "" for w in words] + [""], dtype=object)
    section = np.array([" ".join(w[:-1] if w and w[-1] in ("NS", "EW") else w) for w in words] + [""], dtype=object)
    return section[codes], direction[codes]


def _matched(theirs: pd.DataFrame, standings: pd.DataFrame, ours: list[str]) -> pd.DataFrame:
    """The published standings (:func:`published_standings`) beside ours (columns ``ours`` and ``row``, the
    standings' position), matched by pair (and section and direction where both say them)."""
    section, direction = _group_parts(standings)
    mine = {"pair_key": standings["pair"].astype("string").fillna("").to_numpy(dtype=object),
            "direction": direction, "section": section}
    on = ["pair_key"]
    if (theirs["direction"] != "").any() and (direction != "").any():
        on.append("direction")
    sections = set(theirs["section"].dropna()) - {""}
    if len(sections) > 1 and sections <= set(section):
        on.append("section")  # ranked section by section: pair 1 of each section is another pair
    their_rows, rows = inner_pairs([theirs[c] for c in on], [mine[c] for c in on])
    matched = theirs.iloc[their_rows].reset_index(drop=True)
    return matched.assign(**{c + "_ours" if c in theirs else c: standings[c].to_numpy()[rows] for c in ours},
                          row=rows)


def published_awards(totals: pd.DataFrame | None, standings: pd.DataFrame) -> pd.Series | None:
    """The masterpoints the input published for each contestant of ``standings`` (float64, aligned with it;
    0 for a contestant the file lists without an award); None when the input publishes no awards."""
    if totals is None or "masterpoints" not in totals or not _numbers(totals["masterpoints"]).notna().any():
        return None
    merged = _matched(published_standings(totals), standings, [])
    out = np.full(len(standings), np.nan)
    out[merged["row"].to_numpy(dtype=int)] = merged["masterpoints"].fillna(0.0).to_numpy(dtype=float)
    return pd.Series(out, index=standings.index, dtype="float64")


def _standings_values(theirs: pd.DataFrame, standings: pd.DataFrame, method: str) -> list[Comparison]:
    """Totals, percentages, places and masterpoint awards of the published standings
    (:func:`published_standings`) against ours, matched by pair (and section and direction where both say
    them)."""
    awarded = "masterpoints" in standings
    merged = _matched(theirs, standings, ["total", "pct", "rank"] + (["masterpoints"] if awarded else []))
    rows: list[Comparison] = []
    checks = [("total", "total", "totals"), ("percentage", "pct", "percentages")]
    for column, ours, label in checks:
        both = pd.DataFrame({"source": merged["source"], "line": merged["line"], "pair": merged["pair_key"],
                             "published": merged[column], "ours": merged[ours if ours != "total" else "total_ours"]})
        both = both.dropna(subset=["published", "ours"])
        differ = ((both["published"] - both["ours"]).abs() > TOLERANCE).to_numpy()
        rows.append((both, differ, column, label, "pair {pair}", _options(column, method), "{:.2f}"))
    both = pd.DataFrame({"source": merged["source"], "line": merged["line"], "pair": merged["pair_key"],
                         "published": merged["place"],
                         "ours": merged["rank"].astype("string").str.replace("=", "", regex=False).str.strip()})
    both = both[both["published"].notna() & (both["published"] != "") & both["ours"].notna()]
    differ = (both["published"] != both["ours"]).to_numpy(dtype=bool, na_value=False)
    rows.append((both, differ, "place", "places", "pair {pair}", _options("place", method), "{}"))
    if awarded:
        rows += _award_values(merged)
    return rows


def _awards(totals: pd.DataFrame, standings: pd.DataFrame) -> list[Comparison]:
    """The published masterpoint awards against ours (none when either side has none)."""
    if not len(totals) or "masterpoints" not in standings:
        return []
    return _award_values(_matched(published_standings(totals), standings, ["masterpoints"]))


def _award_values(merged: pd.DataFrame) -> list[Comparison]:
    """The awards of :func:`_matched`'s rows (ours in ``masterpoints_ours``), when the file awards any: a
    contestant it lists bare got 0."""
    if not merged["masterpoints"].notna().any():
        return []
    both = pd.DataFrame({"source": merged["source"], "line": merged["line"], "pair": merged["pair_key"],
                         "published": merged["masterpoints"].fillna(0.0), "ours": merged["masterpoints_ours"]})
    differ = ((both["published"] - both["ours"]).abs() > TOLERANCE).to_numpy()
    return [(both, differ, "masterpoints", "masterpoint awards", "pair {pair}", "--masterpoints", "{:g}")]


def published_differences(raw: pd.DataFrame, results: pd.DataFrame, method: str,
                          standings: pd.DataFrame | None = None,
                          totals: pd.DataFrame | None = None, searched: str | None = None,
                          reproduced: bool = False) -> pd.DataFrame | None:
    """One note per kind and input file whose published numbers differ from ours, with the first example.

    Parameters
    ----------
    raw : the raw results as read (published per-result columns ``mp_ns``, ``imp_ns``, ``butlerdatum``)
    results : the ranked results (the method's points, ``datum``)
    method : the ranking method's name
    standings : our standings (``group``, ``rank``, ``pair``, ``total``, ``pct``), to compare with ``totals``
    totals : the published standings (``source, line, pair, direction, place, percentage, total``, text)
    searched : what the search for the file's conventions tried, said instead of the options to try
    reproduced : the search for the file's conventions (rank.reproduce) compared the board values, totals,
        percentages and places with these conventions and every one agreed: only the awards, which it does not
        compare, are left to compare. This rests on nothing after the search changing a ranked number (the names,
        awards, handicaps and strata the run adds do not)
    """
    if reproduced:
        found = _awards(totals, standings) if standings is not None and totals is not None else []
        rows = [row for comparison in found for row in _grouped(*comparison)]
        return problems_frame(rows) if rows else None
    rows = [row for comparison in _comparisons(raw, results, method, standings, totals)
            for row in _grouped(*comparison, searched=searched)]
    return problems_frame(rows) if rows else None


def _comparisons(raw, results, method, standings, totals) -> list[Comparison]:
    found = _board_values(raw, results, method)
    if standings is not None and totals is not None and len(totals) and len(standings):
        found += _standings_values(published_standings(totals), standings, method)
    return found


def published_agreement(raw: pd.DataFrame, results: pd.DataFrame, method: str,
                        standings: pd.DataFrame | None = None,
                        totals: pd.DataFrame | None = None) -> pd.DataFrame:
    """How many published numbers of each kind ours reproduce: ``kind, compared, agree`` (all
    files together), in the order kinds are compared. Empty when the inputs publish nothing."""
    rows = [{"kind": label, "compared": len(both), "agree": int(len(both) - differ.sum())}
            for both, differ, _, label, *_ in _comparisons(raw, results, method, standings, totals) if len(both)]
    frame = pd.DataFrame(rows, columns=["kind", "compared", "agree"])
    return frame.groupby("kind", sort=False, as_index=False)[["compared", "agree"]].sum()


def awards_agreement(standings: pd.DataFrame, totals: pd.DataFrame | None) -> tuple[int, int] | None:
    """(agree, compared) of the input's published masterpoint awards against ours; None when either side
    has none to compare."""
    if totals is None:
        return None
    found = [(both, differ) for both, differ, *_ in _awards(totals, standings) if len(both)]
    return (int(len(found[0][0]) - found[0][1].sum()), len(found[0][0])) if found else None
