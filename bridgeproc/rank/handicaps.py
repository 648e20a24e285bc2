"""Handicapped and stratified rankings beside the scratch one, from a list of players' numbers
(``io.sheets.players``: a handicap, or masterpoint holdings, per member id or name).

Handicaps: a contestant's handicap is the sum of its players' (a pair listed by its names, ``Anna Berg &
Bjørn Lie``, takes that row instead); ``+`` helps. Two conventions: ``percentage`` (the EBU's: the handicap
is added to the percentage) and ``score`` (Norway's: added to the total, in the method's own units); the
scratch ranking is kept and the handicapped one stands beside it (``handicap``, ``handicapped``,
``handicap_rank``). A player the list lacks counts 0, and is named in the notes.

Strata (ACBL style): a contestant's holdings are its players' average; with limits 500 and 100, stratum A
is everyone, B those under 500, C those under 100; each contestant is ranked in its own stratum and every
stratum above it (``stratum``, ``strata_ranks`` such as ``A 7, B 3, C 1``). Over whole columns.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.io.sheets.players import key_name
from bridgeproc.rank._standings import rank_text

#: How a handicap applies (the convention's values).
STYLES = ("percentage", "score")
#: Columns a ranking carries beside the scratch one when asked, and their titles (the workbook, the website).
BESIDE = (("handicap", "Handicap"), ("handicapped", "Handicapped"), ("handicap_rank", "Handicapped rank"),
          ("stratum", "Stratum"), ("strata_ranks", "Rank in strata"))
#: Stratum letters, best first.
LETTERS = "ABCDEFGH"


def _players(standings: pd.DataFrame, names: pd.DataFrame | None) -> pd.DataFrame:
    """One row per player of each contestant: ``row`` (its standings position), ``name`` (as the lists are
    matched) and ``id`` (the member number the names list gives, else empty)."""
    text = standings["names"].astype("string").fillna("")
    ids = pd.Series("", index=standings.index, dtype="string")
    if names is not None and "ids" in names and len(names):
        known = names.assign(names=names["names"].astype("string")).dropna(subset=["names"])
        known = known[known["ids"].astype("string").fillna("").str.strip() != ""].drop_duplicates("names")
        ids = text.map(dict(zip(known["names"], known["ids"].astype("string")))).astype("string").fillna("")
    split_names = text.str.split(r"\s*&\s*|\s+-\s+", regex=True)
    split_ids = ids.str.split(r"\s*&\s*", regex=True)
    frame = pd.DataFrame({"row": np.arange(len(standings)), "name": split_names.to_numpy(), "id": split_ids.to_numpy()})
    frame["id"] = [i if isinstance(i, list) and len(i) == len(n) else [""] * len(n)
                   for i, n in zip(frame["id"], frame["name"])]
    long = frame.explode(["name", "id"], ignore_index=True).dropna(subset=["name"])
    long = long[long["name"].astype(str).str.strip() != ""]
    return long.assign(name=long["name"].map(key_name), id=long["id"].astype("string").fillna("").str.strip())


def _values(players: pd.DataFrame, listed: pd.DataFrame) -> pd.Series:
    """Each player's number from ``listed``: by member id where both have one, else by name (NaN: not listed)."""
    by_id = listed[listed["id"].fillna("") != ""].drop_duplicates("id").set_index("id")["value"]
    by_name = listed[listed["name"].fillna("") != ""].drop_duplicates("name").set_index("name")["value"]
    found = players["id"].map(by_id).astype("float64")
    return found.fillna(players["name"].map(by_name).astype("float64"))


def with_handicaps(standings: pd.DataFrame, names: pd.DataFrame | None, listed: pd.DataFrame,
                   style: str = "percentage") -> tuple[pd.DataFrame, list[str]]:
    """``standings`` with ``handicap``, ``handicapped`` and ``handicap_rank`` (see the module's text), and the
    notes (players the list lacks)."""
    if style not in STYLES:
        raise ValueError(f"handicap style {style!r}; expected one of {', '.join(STYLES)}")
    players = _players(standings, names)
    values = _values(players, listed)
    per_row = values.fillna(0.0).groupby(players["row"]).sum().reindex(np.arange(len(standings)), fill_value=0.0)
    # a contestant listed as a whole (its names text) takes that row
    whole = listed[listed["name"].fillna("") != ""].drop_duplicates("name").set_index("name")["value"]
    as_pair = standings["names"].astype("string").fillna("").map(key_name).map(whole).astype("float64").to_numpy()
    handicap = np.where(np.isnan(as_pair), per_row.to_numpy(dtype=float), as_pair)
    missing = players[values.isna().to_numpy() & np.isnan(as_pair)[players["row"].to_numpy(dtype=int)]]
    base = standings["pct"] if style == "percentage" else standings["total"]
    handicapped = base.to_numpy(dtype=float) + handicap
    out = standings.assign(handicap=handicap, handicapped=handicapped,
                           handicap_rank=rank_text(pd.Series(handicapped, index=standings.index), standings["group"]))
    notes = []
    if len(missing):
        shown = sorted(set(missing["name"]))
        notes.append(f"no handicap listed for {len(shown)} player(s), counted 0: {', '.join(shown[:10])}"
                     + (" ..." if len(shown) > 10 else ""))
    return out, notes


def strata_limits(text: str) -> tuple[float, ...]:
    """``500,100`` -> (500.0, 100.0): the holdings under which each stratum below A begins, descending."""
    try:
        limits = tuple(float(t) for t in text.split(",") if t.strip())
    except ValueError:
        raise ValueError(f"strata {text!r}: give the limits as numbers, highest first, e.g. 500,100") from None
    if list(limits) != sorted(limits, reverse=True) or len(limits) >= len(LETTERS):
        raise ValueError(f"strata {text!r}: give at most {len(LETTERS) - 1} limits, highest first, e.g. 500,100")
    return limits


def with_strata(standings: pd.DataFrame, names: pd.DataFrame | None, listed: pd.DataFrame,
                limits: tuple[float, ...] = (500.0, 100.0)) -> tuple[pd.DataFrame, list[str]]:
    """``standings`` with ``holdings`` (the players' average), ``stratum`` and ``strata_ranks`` (see the
    module's text), and the notes (players the list lacks, counted as holding none)."""
    players = _players(standings, names)
    values = _values(players, listed)
    holdings = values.fillna(0.0).groupby(players["row"]).mean().reindex(np.arange(len(standings)), fill_value=0.0)
    held = holdings.to_numpy(dtype=float)
    # stratum index: 0 (A) unless under the first limit, 1 (B) unless under the second ...
    level = np.zeros(len(standings), dtype=int)
    for limit in limits:
        level += held < limit
    ranks = []
    for k in range(len(limits) + 1):  # a few strata: a column each, over all contestants at once
        eligible = level >= k
        text = pd.Series(pd.NA, index=standings.index, dtype="string")
        if eligible.any():
            text[eligible] = rank_text(standings.loc[eligible, "pct"].fillna(standings.loc[eligible, "total"]),
                                       standings.loc[eligible, "group"])
        ranks.append((LETTERS[k] + " " + text).where(eligible))
    joined = ranks[0].fillna("")
    for more in ranks[1:]:  # A's rank always, then each lower stratum the contestant is in
        joined = joined.where(more.isna(), joined + ", " + more.fillna(""))
    out = standings.assign(holdings=held, stratum=pd.array([LETTERS[i] for i in level], dtype="string"),
                           strata_ranks=joined.astype("string"))
    missing = players[values.isna().to_numpy()]
    notes = [f"no holdings listed for {len(set(missing['name']))} player(s), counted as none: "
             f"{', '.join(sorted(set(missing['name']))[:10])}"] if len(missing) else []
    return out, notes
