"""Standings: one row per pair per winner group, ranked, ties shown as ``3=``.

Winner groups: a two-winner movement (fixed NS and EW lines) ranks NS and EW apart
(groups ``NS``/``EW``); a one-winner movement (Howell, arrow-switch: pairs sit both
ways) ranks everyone together (``ALL``). When boards are compared within sections
and there are several sections, the group is prefixed by the section (``A NS``).
Individual events (every side ``north+south``, as the PBN reader gives them) are
ranked per player, in one group: each player scores the side's points.

Whole columns only: sections, pair ids and players are read once per distinct text
(:class:`bridgeproc.core.pairs.Sides`), and every grouping is on integer codes; text is
built for the standings rows, never for the results' rows.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.core.keys import first_match, key_codes
from bridgeproc.core.pairs import Sides, combine_codes, numbering_of, pair_sides, texts_at
from bridgeproc.rank._matchpoints import full_top_points
from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import STANDINGS_COLUMNS, typed

#: A section is one-winner when more than this share of its pairs sat both NS and EW.
#: Every Howell and arrow-switched Mitchell has most pairs in both directions; a stray
#: typo in a Mitchell has a few, and must not merge the two rankings.
ONE_WINNER_SHARE = 0.25

#: Decimals that totals are compared at for ties (float noise from Neuberg factoring).
_TIE_DECIMALS = 6

#: Direction codes of :class:`Sides` and the one-winner group, as the standings write them.
_BASES = np.array(["NS", "EW", "ALL"], dtype=object)
_ALL = 2


def rank_results(results: pd.DataFrame, conventions: Conventions = Conventions()) -> pd.DataFrame:
    """Add the columns of ``conventions.method`` (:func:`matchpoints`, :func:`cross_imps` or :func:`butler`)."""
    return ranking_method(conventions.method).scorer(results, conventions)


@dataclass(frozen=True)
class _Field:
    """What standings and winner groups read of the results, once: the sides, the decided numbering,
    each side's pair key code (-1: no pair), its section code (a missing section is ``""``) and texts."""

    sides: Sides
    numbering: str
    individual: bool
    key: np.ndarray
    n_keys: int
    section: np.ndarray
    sections: np.ndarray


def _field(results: pd.DataFrame, conv: Conventions) -> _Field:
    sides = pair_sides(results)
    numbering = (numbering_of(sides, results["board"].to_numpy()) if conv.pair_numbering == "auto"
                 else conv.pair_numbering)
    key, n_keys = sides.keys(numbering)  # type: ignore[arg-type]
    section, sections = sides.filled_section()
    return _Field(sides, numbering, _all_players(sides.ids), key, n_keys, np.concatenate([section, section]), sections)


def _all_players(ids: np.ndarray) -> bool:
    """True when there are ids and every one is two players ``north+south``."""
    return len(ids) > 0 and all("+" in str(i) for i in ids)


def _long(results: pd.DataFrame, conv: Conventions) -> pd.DataFrame:
    """One row per (result, side): section, pair id, pair key, direction of the pair's number.

    The sides are the seats (the NS seat's points first); on an arrow-switched row the NS seat
    holds an EW-numbered pair, so its points go to that pair in the EW ranking (``pair_directions``).
    The frame :func:`standings` works on as codes, in text (for reading and tests).
    """
    field = _field(results, conv)
    sides, n = field.sides, len(results)
    _, key_texts = sides.key_texts(field.numbering)  # type: ignore[arg-type]
    return pd.DataFrame({
        "row": np.concatenate([np.arange(n), np.arange(n)]),
        "section": pd.array(field.sections[field.section], dtype="string"),
        "pair": pd.array(texts_at(sides.ids, sides.pair), dtype="string"),
        "key": pd.array(texts_at(key_texts, field.key), dtype="string"),
        "direction": pd.array(_BASES[sides.direction], dtype="string"),
        "board": np.concatenate([results["board"].to_numpy()] * 2),
    })


def is_individual(results: pd.DataFrame) -> bool:
    """True when every side is two players ``north+south`` (an individual event, as the PBN reader gives it)."""
    ids = pd.concat([results["ns"], results["ew"]], ignore_index=True).dropna().astype("string")
    return _all_players(pd.unique(ids.to_numpy(dtype=object)))


def _winner_groups(field: _Field, conventions: Conventions) -> dict[str, str]:
    """:func:`winner_groups` on the codes of ``field``."""
    known = field.key >= 0
    present = pd.unique(field.section[known])  # pd.unique hashes: several times np.unique's speed
    sections = sorted(field.sections[present].tolist()) or [""]
    if conventions.winners != "auto":
        return {s: conventions.winners for s in sections}
    if field.individual:
        return {s: "one" for s in sections}
    if field.numbering == "per-direction":
        return {s: "two" for s in sections}
    seen = pd.unique(field.key[known] * 2 + field.sides.direction[known])  # each (key, direction) once
    key = seen // 2
    ways = np.bincount(key, minlength=field.n_keys)
    section_of_key = np.zeros(field.n_keys, dtype=np.int64)
    section_of_key[field.key[known]] = field.section[known]
    both = ways > 1
    has = ways > 0
    share = (np.bincount(section_of_key[has], weights=both[has], minlength=len(field.sections))
             / np.maximum(np.bincount(section_of_key[has], minlength=len(field.sections)), 1))
    by_text = {field.sections[s]: share[s] for s in present}
    return {s: ("one" if by_text.get(s, 0.0) > ONE_WINNER_SHARE else "two") for s in sections}


def winner_groups(results: pd.DataFrame, conventions: Conventions = Conventions()) -> dict[str, str]:
    """``"one"`` or ``"two"`` winners per section (the key is the section, ``""`` if none).

    ``conventions.winners`` forces the answer. Otherwise: per-direction pair numbering
    means two winners; with shared numbering, a section is one-winner when more than
    ``ONE_WINNER_SHARE`` of its pairs appear in both directions.
    """
    return _winner_groups(_field(results, conventions), conventions)


def rank_text(values: pd.Series, groups: pd.Series) -> pd.Series:
    """Competition rank within each group, highest value first, ties as ``3=`` (values equal once rounded to
    ``_TIE_DECIMALS``). Sorted once, each run of equal values in a group ranked by where it starts."""
    rounded = values.round(_TIE_DECIMALS).to_numpy(dtype=np.float64, na_value=np.nan)
    group, _ = pd.factorize(groups.to_numpy(dtype=object))
    if np.isnan(rounded).any() or (group < 0).any():
        raise ValueError("a contestant without a value or a group has no rank")
    order = np.lexsort((-rounded, group))
    in_group, value = group[order], rounded[order]
    position = np.arange(len(order))
    starts_group = np.ones(len(order), dtype=bool)
    starts_group[1:] = in_group[1:] != in_group[:-1]
    starts_run = starts_group.copy()
    starts_run[1:] |= value[1:] != value[:-1]
    run = np.cumsum(starts_run) - 1
    run_start = position[starts_run]
    group_start = np.maximum.accumulate(np.where(starts_group, position, 0))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = run_start[run] - group_start + 1
    tied = np.empty(len(order), dtype=bool)
    tied[order] = np.diff(np.append(run_start, len(order)))[run] > 1
    text = [f"{r}=" if t else str(r) for r, t in zip(rank.tolist(), tied.tolist())]
    return pd.Series(pd.array(text, dtype="string"), index=values.index)


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
    listed = {c: (names[c].astype("string").fillna("").to_numpy(dtype=object) if c in names.columns
                  else np.full(len(names), "", dtype=object)) for c in ["section", "pair", "direction", "names"]}
    mine = {c: table[c].astype("string").fillna("").to_numpy(dtype=object) for c in ["section", "pair", "direction"]}
    undirected = listed["direction"] == ""
    found = np.full(len(table), "", dtype=object)
    # a row of the list for the pair's own direction first, then one that fits either, then any of its number
    for rows, keys in ((~undirected, on + ["direction"]), (undirected, on), (np.ones(len(names), bool), on)):
        missing, at = np.flatnonzero(found == ""), np.flatnonzero(rows)
        if not len(missing) or not len(at):
            continue
        first = first_match([mine[k][missing] for k in keys], [listed[k][at] for k in keys])
        hit = first >= 0
        found[missing[hit]] = listed["names"][at[first[hit]]]
    return pd.Series(pd.array(found, dtype="string"), index=table.index).replace("", pd.NA)


@dataclass(frozen=True)
class _Entries:
    """One entry per (result, side) that scores, or per (result, player) in an individual: positions
    into the 2n sides (``side``), the key code and the shown pair (``pair`` codes into ``shown``)."""

    side: np.ndarray
    key: np.ndarray
    n_keys: int
    pair: np.ndarray
    shown: np.ndarray


def _pair_entries(field: _Field) -> _Entries:
    """The sides with a pair: keyed by section and pair (and direction when per direction)."""
    side = np.flatnonzero(field.key >= 0)
    return _Entries(side, field.key[side], field.n_keys, field.sides.pair[side], field.sides.ids)


def _player_entries(field: _Field) -> _Entries:
    """Each side ``north+south`` split into its players (each scores the side's points), keyed by
    section and player as written, in the order the sides come, each side's players in turn."""
    ids = field.sides.ids
    players = [[p.strip() for p in str(i).split("+")] for i in ids]
    lengths = np.array([len(p) for p in players], dtype=np.int64)
    codes, shown = pd.factorize(np.array([p for ps in players for p in ps], dtype=object))
    offsets = np.concatenate([[0], np.cumsum(lengths)])[:-1]
    side = np.flatnonzero(field.sides.pair >= 0)
    per_side = lengths[field.sides.pair[side]]
    within = np.arange(per_side.sum()) - np.repeat(np.cumsum(per_side) - per_side, per_side)
    player = codes[np.repeat(offsets[field.sides.pair[side]], per_side) + within] if len(codes) else within
    side = np.repeat(side, per_side)
    key, n_keys = combine_codes(field.section[side], player, len(shown))
    return _Entries(side, key, n_keys, player, np.asarray(shown, dtype=object))


def _first_positions(codes: np.ndarray) -> np.ndarray:
    """Where each code 0..k-1 first occurs, for codes numbered in order of first appearance
    (``pd.factorize``, :func:`combine_codes`): the running maximum steps up exactly there."""
    rising = np.maximum.accumulate(codes) if len(codes) else codes
    return np.flatnonzero(np.diff(rising, prepend=-1) > 0)


def _distinct_per(codes: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """How many distinct ``values`` each code 0..count-1 has."""
    value_code, uniques = pd.factorize(values)
    pairs = pd.unique(codes.astype(np.int64) * max(len(uniques), 1) + value_code)
    return np.bincount(pairs // max(len(uniques), 1), minlength=count)


def _shown_pairs(agg: pd.DataFrame, per_direction: bool) -> tuple[pd.Series, pd.Series]:
    """The pair as the standings show it, and the number it sorts by.

    Pairs ranked together across sections may share a number: ``A3`` and ``B3`` then. Numbered per
    direction and ranked together (one winner), NS 1 and EW 1 are two pairs: when two pairs of a
    group share a number so, every pair of that group is shown with the direction of its number,
    ``NS 1``/``EW 1`` (as the event ranking shows them and the group headings name the lines; a
    lone ``7`` among them would leave the director asking which), sorting by its number (pair 2
    before pair 10). Pair ids that already tell the directions apart are left as they are."""
    group, section, direction = (agg[c].to_numpy(dtype=object) for c in ("group", "section", "direction"))
    pair = agg["pair"].astype("string").to_numpy(dtype=object)
    code, count = key_codes(group, pair, direction) if per_direction else key_codes(group, pair)
    clash = np.bincount(code, minlength=count)[code] > 1  # another row of the group has this pair (and line)
    pair = np.where(clash, section + pair, pair)
    number = pd.to_numeric(pd.Series(pair, index=agg.index, dtype="string"), errors="coerce")
    if per_direction:
        code, count = key_codes(group, pair)
        shared = np.bincount(code, minlength=count)[code] > 1
        group_code, _ = pd.factorize(group)
        labelled = np.isin(group_code, group_code[shared])
        pair = np.where(labelled, direction + " " + pair, pair)
    return pd.Series(pd.array(pair, dtype="string"), index=agg.index), number


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
        (prefixed by its section when two sections ranked together share a number;
        ``NS 1``/``EW 1`` when pairs numbered per direction are ranked together), ``names``,
        ``boards`` (boards with a result or artificial score), ``total``
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
    field = _field(results, conv)
    n = len(results)

    def both(ns: np.ndarray, ew: np.ndarray) -> np.ndarray:
        return np.concatenate([ns, ew])

    def column(name: str) -> np.ndarray:
        return results[name].to_numpy(dtype=np.float64, na_value=np.nan)

    sums: dict[str, np.ndarray] = {"points": both(column(ns_col), column(ew_col))}
    if method.percentages and conv.mp_top == "board":
        # Compscore: the totals count every board factored to the full top (not the traveller's own top)
        total_ns, total_ew, full = full_top_points(results, conv)
        sums["top"] = both(full, full)
        sums["pct_points"] = both(total_ns, total_ew)
        sums["points"] = sums["pct_points"] - (sums["top"] / 2.0 if conv.centred else 0.0)
    elif method.percentages:
        top = column("top")
        sums["top"] = both(top, top)
        # the percentage follows the (possibly rounded) MPs, uncentred
        sums["pct_points"] = sums["points"] + (sums["top"] / 2.0 if conv.centred else 0.0)
    elif conv.method == "cross-imp":
        sums["comparisons"] = both(column("ximp_comparisons"), column("ximp_comparisons"))
    pct_row = both(column("pct_ns"), column("pct_ew")) if method.percentages else None

    entries = _player_entries(field) if field.individual else _pair_entries(field)
    scores = ~np.isnan(sums["points"][entries.side])
    side, key, pair = entries.side[scores], entries.key[scores], entries.pair[scores]
    section = field.section[side]
    direction = field.sides.direction[side].astype(np.int64)
    board = both(results["board"].to_numpy(), results["board"].to_numpy())[side] if n else np.zeros(0, np.int64)

    winners = _winner_groups(field, conv)
    multi = len(winners) > 1 and not conv.across_field
    one_sections = [i for i, s in enumerate(field.sections) if winners.get(s) == "one"]
    base = np.where(np.isin(section, one_sections), _ALL, direction)
    group, n_groups = combine_codes(section, base, 3) if multi else (base, 3)
    entry, count = combine_codes(group, key, entries.n_keys)  # one code per (group, pair), in order of appearance

    frame = pd.DataFrame({name: values[side] for name, values in sums.items()})
    # codes run in order of first appearance; a Series key, as pandas formats a bare array it looks up as a column
    grouped = frame.groupby(pd.Series(entry, index=frame.index), sort=True)
    totals = grouped.sum()
    first = _first_positions(entry)  # each standings row's first entry: its section, pair as written ...
    first_group, first_section = group[first], section[first]
    group_text = (field.sections[first_section] + " " + _BASES[base[first]]) if multi else _BASES[first_group]
    agg = pd.DataFrame({
        "group": pd.array(group_text, dtype="string"),
        "section": pd.array(field.sections[first_section], dtype="string"),
        "pair": pd.array(entries.shown[pair[first]], dtype="string"),
        "direction": pd.array(_BASES[direction[first]], dtype="string"),
        "boards": _distinct_per(entry, board, count),
        "total": totals["points"].to_numpy(),
    })
    if method.percentages:
        top_sum, pct_sum = totals["top"].to_numpy(), totals["pct_points"].to_numpy()
        # boards with a top of 0 (a single result expected) carry no weight; if that is
        # all a pair has, its percentage is the plain mean of its board percentages
        row_mean = pd.Series(pct_row[side] if pct_row is not None else np.zeros(0)).groupby(
            pd.Series(entry), sort=True).mean()
        agg["pct"] = np.where(top_sum > 0, pct_sum / np.where(top_sum > 0, top_sum, 1) * 100.0, row_mean.to_numpy())
    else:
        agg["pct"] = np.nan
        if conv.method == "cross-imp" and conv.cross_imp in ("average", "average-n"):
            comps = totals["comparisons"].to_numpy()
            if conv.cross_imp == "average-n":
                comps = comps + np.bincount(entry, minlength=count)
            agg["total"] = agg["total"] / np.where(comps > 0, comps, 1)
        if conv.imp_per_board:
            agg["total"] = agg["total"] / agg["boards"]
        elif conv.sitout == "scale":
            # every board of the pair's section (of the whole field when compared across it)
            if conv.across_field:
                full_boards = np.full(count, float(len(pd.unique(board))))
            else:
                per_section = _distinct_per(section, board, len(field.sections))
                full_boards = per_section[first_section].astype("float64")
            agg["total"] = agg["total"] * full_boards / agg["boards"]
    if conv.sitout == "most" and not (conv.imp_per_board and not method.percentages):
        # Compscore: every total scaled to the most boards played by a pair of its group (x B/b)
        most = np.zeros(max(n_groups, int(first_group.max(initial=-1)) + 1), dtype=np.int64)
        np.maximum.at(most, first_group, agg["boards"].to_numpy())
        agg["total"] = agg["total"] * most[first_group] / agg["boards"]
    agg["total"] = agg["total"] + 0.0
    key_values = agg["pct"] if method.percentages else agg["total"]
    agg["rank"] = rank_text(key_values, pd.Series(first_group, index=agg.index))
    agg["names"] = _names(agg, names)
    per_direction = field.numbering == "per-direction" and not field.individual
    agg["pair"], agg["_number"] = _shown_pairs(agg, per_direction)
    # by group, then best first, then pair number (a pair without one after those with), then pair as written
    group_code, _ = pd.factorize(agg["group"].to_numpy(dtype=object), sort=True)
    pair_code, _ = pd.factorize(agg["pair"].to_numpy(dtype=object), sort=True)
    number = agg["_number"].to_numpy(dtype=np.float64, na_value=np.nan)
    unnumbered = np.isnan(number)  # a key of its own: a pair named "inf" has a number, pandas' inf
    order = np.lexsort((pair_code, np.where(unnumbered, 0.0, number), unnumbered,
                        -key_values.round(_TIE_DECIMALS).to_numpy(dtype=np.float64), group_code))
    out = agg[list(STANDINGS_COLUMNS)].iloc[order].reset_index(drop=True)
    return typed(out, STANDINGS_COLUMNS)
