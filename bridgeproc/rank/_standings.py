"""Standings: one row per pair per winner group, ranked, ties shown as ``3=``.

Winner groups: a two-winner movement (fixed NS and EW lines) ranks NS and EW apart
(groups ``NS``/``EW``); a one-winner movement (Howell, arrow-switch: pairs sit both
ways) ranks everyone together (``ALL``). When boards are compared within sections
and there are several sections, the group is prefixed by the section (``A NS``).
Individual events (every side ``north+south``, as the PBN reader gives them) are
ranked per player, in one group: each player scores the side's points.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import pair_directions, pair_keys, pair_numbering
from bridgeproc.rank._matchpoints import full_top_points
from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import STANDINGS_COLUMNS

#: A section is one-winner when more than this share of its pairs sat both NS and EW.
#: Every Howell and arrow-switched Mitchell has most pairs in both directions; a stray
#: typo in a Mitchell has a few, and must not merge the two rankings.
ONE_WINNER_SHARE = 0.25

#: Decimals that totals are compared at for ties (float noise from Neuberg factoring).
_TIE_DECIMALS = 6


def rank_results(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Add the columns of ``conventions.method`` (:func:`matchpoints`, :func:`cross_imps` or :func:`butler`)."""
    return ranking_method(conventions.method).scorer(results, conventions)


def _long(results: pd.DataFrame, conv: Conventions) -> pd.DataFrame:
    """One row per (result, side): section, pair id, pair key, direction of the pair's number.

    The sides are the seats (the NS seat's points first); on an arrow-switched row the NS seat
    holds an EW-numbered pair, so its points go to that pair in the EW ranking (``pair_directions``).
    """
    numbering = pair_numbering(results, conv.pair_numbering)  # type: ignore[arg-type]
    ns_key, ew_key = pair_keys(results, numbering)
    ns_dir, ew_dir = pair_directions(results)
    n = len(results)
    section = results["section"].astype("string").fillna("")
    return pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "section": pd.concat([section, section], ignore_index=True),
        "pair": pd.concat([results["ns"], results["ew"]], ignore_index=True).astype("string"),
        "key": pd.concat([ns_key, ew_key], ignore_index=True),
        "direction": pd.Series(np.concatenate([ns_dir, ew_dir]), dtype="string"),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
    })


def is_individual(results: pd.DataFrame) -> bool:
    """True when every side is two players ``north+south`` (an individual event, as the PBN reader gives it)."""
    ids = pd.concat([results["ns"], results["ew"]], ignore_index=True).dropna().astype("string")
    return len(ids) > 0 and bool(ids.str.contains("+", regex=False).all())


def _players(long: pd.DataFrame) -> pd.DataFrame:
    """One row per (result, player): each player of a side scores the side's points."""
    players = long.assign(pair=long["pair"].str.split("+")).explode("pair", ignore_index=True)
    players["pair"] = players["pair"].astype("string").str.strip()
    players["key"] = players["section"] + ":" + players["pair"]
    return players


def winner_groups(results: pd.DataFrame, conventions: Conventions = Conventions()) -> dict[str, str]:
    """``"one"`` or ``"two"`` winners per section (the key is the section, ``""`` if none).

    ``conventions.winners`` forces the answer. Otherwise: per-direction pair numbering
    means two winners; with shared numbering, a section is one-winner when more than
    ``ONE_WINNER_SHARE`` of its pairs appear in both directions.
    """
    long = _long(results, conventions).dropna(subset=["key"])
    sections = sorted(long["section"].unique().tolist()) or [""]
    if conventions.winners != "auto":
        return {s: conventions.winners for s in sections}
    if is_individual(results):
        return {s: "one" for s in sections}
    if pair_numbering(results, conventions.pair_numbering) == "per-direction":  # type: ignore[arg-type]
        return {s: "two" for s in sections}
    seen = long.drop_duplicates(subset=["section", "key", "direction"])
    ways = seen.groupby(["section", "key"], observed=True).size()
    share = (ways > 1).groupby(level="section").mean()
    return {s: ("one" if share.get(s, 0.0) > ONE_WINNER_SHARE else "two") for s in sections}


def rank_text(values: pd.Series, groups: pd.Series) -> pd.Series:
    """Competition rank within each group, highest value first, ties as ``3=``."""
    rounded = values.round(_TIE_DECIMALS)
    frame = pd.DataFrame({"g": groups.to_numpy(), "v": rounded.to_numpy()}, index=values.index)
    rank = frame.groupby("g", sort=False)["v"].rank(method="min", ascending=False).astype("int64")
    tied = frame.duplicated(subset=["g", "v"], keep=False)
    text = rank.astype("string") + pd.Series(np.where(tied, "=", ""), index=values.index, dtype="string")
    return text


def _names(table: pd.DataFrame, names: pd.DataFrame | Mapping[str, str] | None) -> pd.Series:
    """Names of each standings row: by section (if the list has one), pair and direction.

    A names list for a per-direction Mitchell gives NS 1 and EW 1 apart by its
    ``direction`` column; a row of the list without a direction fits either, and a
    pair whose direction the list does not know takes any row of its number.
    """
    if names is None:
        return pd.Series(pd.array([pd.NA] * len(table), dtype="string"), index=table.index)
    if not isinstance(names, pd.DataFrame):
        return table["pair"].map(dict(names)).astype("string")
    on = ["pair"] + (["section"] if "section" in names.columns and names["section"].notna().any() else [])
    right = pd.DataFrame({c: names[c].astype("string").fillna("") if c in names.columns else "" for c in
                          ["section", "pair", "direction", "names"]})
    left = table[["section", "pair", "direction"]].astype("string").fillna("").reset_index(drop=True)

    def lookup(rows: pd.DataFrame, keys: list[str]) -> pd.Series:
        found = left.merge(rows.drop_duplicates(subset=keys)[keys + ["names"]], on=keys, how="left")["names"]
        return found.replace("", pd.NA)

    found = lookup(right[right["direction"] != ""], on + ["direction"])
    found = found.fillna(lookup(right[right["direction"] == ""], on)).fillna(lookup(right, on))
    return pd.Series(found.to_numpy(), index=table.index, dtype="string")


def standings(results: pd.DataFrame, conventions: Conventions = Conventions(),
              names: pd.DataFrame | Mapping[str, str] | None = None) -> pd.DataFrame:
    """Rank the pairs by ``conventions.method``.

    Parameters
    ----------
    results : DataFrame
        Results; if the method's columns (e.g. ``mp_ns``) are missing they are
        computed with :func:`rank_results` first.
    conventions : Conventions
        Uses ``method``, ``winners``, ``pair_numbering``, ``across_field``,
        ``cross_imp`` (sum, average per comparison, or per result; ``board-average`` sums
        the per-board averages the scorer gave), ``sitout`` (``most``: totals x the most
        boards of a pair of the group / the pair's boards), ``imp_per_board`` and
        ``mp_top`` (``board``: totals and percentages over boards factored to the full top).
    names : DataFrame with ``pair`` (and ``section``) and ``names``, or a mapping pair -> names

    Returns
    -------
    DataFrame
        ``schema.STANDINGS_COLUMNS``: ``group`` (``NS``/``EW``/``ALL``, prefixed by the
        section when sections are ranked apart), ``rank`` (``3=`` for ties), ``pair``
        (prefixed by its section when two sections ranked together share a number),
        ``names``, ``boards`` (boards with a result or artificial score), ``total``
        (MPs; IMPs; for cross-IMP ``average``, IMPs per comparison) and ``pct``
        (matchpoints: sum of MPs / sum of tops x 100; NaN for IMP methods). Sorted by
        group, then rank. Matchpoint pairs are ranked by ``pct`` (equal to ranking by
        total when every board has the same top), IMP pairs by ``total``.
    """
    conv = conventions
    method = ranking_method(conv.method)
    ns_col, ew_col = method.points
    if ns_col not in results.columns:
        results = rank_results(results, conv)
    long = _long(results, conv)
    long["points"] = np.concatenate([results[ns_col].to_numpy(dtype=np.float64, na_value=np.nan),
                                     results[ew_col].to_numpy(dtype=np.float64, na_value=np.nan)])
    if method.percentages and conv.mp_top == "board":
        # Compscore: the totals count every board factored to the full top (not the traveller's own top)
        total_ns, total_ew, full = full_top_points(results, conv)
        long["top"] = np.concatenate([full, full])
        long["pct_points"] = np.concatenate([total_ns, total_ew])
        long["points"] = long["pct_points"] - (long["top"] / 2.0 if conv.centred else 0.0)
        long["pct_row"] = np.concatenate([results["pct_ns"].to_numpy(dtype=np.float64, na_value=np.nan),
                                          results["pct_ew"].to_numpy(dtype=np.float64, na_value=np.nan)])
    elif method.percentages:
        top = results["top"].to_numpy(dtype=np.float64, na_value=np.nan)
        long["top"] = np.concatenate([top, top])
        # the percentage follows the (possibly rounded) MPs, uncentred
        long["pct_points"] = long["points"] + (long["top"] / 2.0 if conv.centred else 0.0)
        long["pct_row"] = np.concatenate([results["pct_ns"].to_numpy(dtype=np.float64, na_value=np.nan),
                                          results["pct_ew"].to_numpy(dtype=np.float64, na_value=np.nan)])
    elif conv.method == "cross-imp":
        comparisons = results["ximp_comparisons"].to_numpy(dtype=np.float64, na_value=np.nan)
        long["comparisons"] = np.concatenate([comparisons, comparisons])
    if is_individual(results):
        long = _players(long)
    long = long[long["points"].notna() & long["key"].notna()]

    winners = winner_groups(results, conv)
    multi = len(winners) > 1 and not conv.across_field
    one = long["section"].isin([s for s, w in winners.items() if w == "one"]).to_numpy()
    base = pd.Series(np.where(one, "ALL", long["direction"].to_numpy()), index=long.index, dtype="string")
    long["group"] = (long["section"] + " " + base) if multi else base

    by = ["group", "key"]
    agg = long.groupby(by, sort=False, observed=True).agg(
        section=("section", "first"), pair=("pair", "first"), direction=("direction", "first"),
        boards=("board", "nunique"), total=("points", "sum"))
    if method.percentages:
        grouped = long.groupby(by, sort=False, observed=True)
        sums = grouped[["top", "pct_points"]].sum()
        # boards with a top of 0 (a single result expected) carry no weight; if that is
        # all a pair has, its percentage is the plain mean of its board percentages
        agg["pct"] = np.where(sums["top"] > 0, sums["pct_points"] / sums["top"].where(sums["top"] > 0, 1) * 100.0,
                              grouped["pct_row"].mean())
    else:
        agg["pct"] = np.nan
        if conv.method == "cross-imp" and conv.cross_imp in ("average", "average-n"):
            comps = long.groupby(by, sort=False, observed=True)["comparisons"].sum()
            if conv.cross_imp == "average-n":
                comps = comps + long.groupby(by, sort=False, observed=True)["board"].size()
            agg["total"] = agg["total"] / comps.where(comps > 0, 1)
        if conv.imp_per_board:
            agg["total"] = agg["total"] / agg["boards"]
        elif conv.sitout == "scale":
            # every board of the pair's section (of the whole field when compared across it)
            if conv.across_field:
                full = pd.Series(float(long["board"].nunique()), index=agg.index)
            else:
                per_section = long.groupby("section")["board"].nunique()
                full = agg["section"].map(per_section).astype("float64")
            agg["total"] = agg["total"] * full / agg["boards"]
    if conv.sitout == "most" and not (conv.imp_per_board and not method.percentages):
        # Compscore: every total scaled to the most boards played by a pair of its group (x B/b)
        most = agg.groupby(level="group", sort=False)["boards"].transform("max")
        agg["total"] = agg["total"] * most / agg["boards"]
    agg = agg.reset_index()
    agg["total"] = agg["total"] + 0.0
    key = agg["pct"] if method.percentages else agg["total"]
    agg["rank"] = rank_text(key, agg["group"])
    agg["names"] = _names(agg, names)
    # pairs ranked together across sections may share a number: show A3 and B3 then
    clash = agg.duplicated(subset=["group", "pair"], keep=False).to_numpy()
    agg.loc[clash, "pair"] = agg.loc[clash, "section"] + agg.loc[clash, "pair"]
    agg["_order"] = -key.round(_TIE_DECIMALS)
    agg["_number"] = pd.to_numeric(agg["pair"], errors="coerce")  # pair 2 before pair 10
    agg = agg.sort_values(["group", "_order", "_number", "pair"], kind="stable").reset_index(drop=True)
    out = agg[list(STANDINGS_COLUMNS)]
    return out.astype(STANDINGS_COLUMNS)
