"""A simultaneous event's field ranked: many clubs' checked results (sections named ``club/section``)
scored once across the whole field (every board one group) and within each club's sections, with the
ranking functions of ``rank`` on whole columns; pair ids built once per distinct pair, not per row.
Frames in, frames out (``pipeline.sim`` reads the clubs and makes the result)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.core.notation import per_distinct
from bridgeproc.core.pairs import DIRECTION_MARK, SECTION_MARK, combine_codes, pair_directions
from bridgeproc.rank._standings import rank_results, standings
from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.frequencies import frequency_table
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import SIM_STANDINGS_COLUMNS

#: A pair of a club numbered per direction is marked with its direction, so that one shared numbering
#: identifies every pair of the field; its section joins its number (``core.pairs``).
_SECTION_MARK, _DIRECTION_MARK = SECTION_MARK, DIRECTION_MARK


@dataclass(frozen=True)
class FieldRanking:
    """The field ranked both ways: ``results`` with the field's points and each club's (``club_*``),
    the standings across the field and within the clubs, how often each result was scored, and the
    conventions the field was ranked by."""

    results: pd.DataFrame
    field_standings: pd.DataFrame
    club_standings: pd.DataFrame
    frequencies: pd.DataFrame
    conventions: Conventions
    clubs: tuple[str, ...]


def _field_pairs(results: pd.DataFrame, numbering: Mapping[str, str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``results`` with every pair id naming its section (``oakfield/A\x1e3``) and, for a club
    numbered per direction, its direction (``...3\x1fNS``): one shared numbering then tells
    every pair of the field apart, and a standings row says whose it is. The direction is that of
    the pair's number (``core.pairs.pair_directions``): on an arrow-switched row the NS seat holds
    an EW pair, marked ``EW`` as in every other round it plays. Each id's text is built once per
    distinct (section, pair, direction), from integer codes; the second frame lists the ids
    (``id``, its ``section`` and ``pair`` as written), so that standings need not split them."""
    n = len(results)
    section, section_texts = pd.factorize(results["section"].astype("string"))
    pair, pair_texts = pd.factorize(pd.concat([results["ns"].astype("string"), results["ew"].astype("string")],
                                              ignore_index=True))
    sections, pairs = np.asarray(section_texts, dtype=object), np.asarray(pair_texts, dtype=object)
    direction = np.zeros(2 * n, dtype=np.int64)  # 0: no direction marked, 1: NS, 2: EW
    per_direction = [c for c, m in numbering.items() if m == "per-direction"]
    if per_direction:
        mask = results["club"].isin(per_direction).to_numpy(dtype=bool, na_value=False)
        ns_dir, ew_dir = pair_directions(results)
        marked = np.concatenate([np.where(ns_dir == "NS", 1, 2), np.where(ew_dir == "NS", 1, 2)])
        direction = np.where(np.concatenate([mask, mask]), marked, 0)
    key, count = combine_codes(np.concatenate([section, section]), pair, len(pairs))
    key, count = combine_codes(key, direction, 3)
    marks = ("", f"{_DIRECTION_MARK}NS", f"{_DIRECTION_MARK}EW")
    first = np.unique(key, return_index=True)[1][int(bool((key < 0).any())):] if len(key) else key
    own_section, own_pair = sections[section[first % n]] if n else sections[:0], pairs[pair[first]]
    texts = np.array([f"{s}{_SECTION_MARK}{p}{marks[d]}" for s, p, d in zip(own_section, own_pair, direction[first])]
                     + [pd.NA], dtype=object)
    ids = pd.array(texts[np.where(key >= 0, key, count)], dtype="string")  # a missing section or pair: no id
    listed = pd.DataFrame({"id": pd.array(texts[:count], dtype="string"), "section": own_section, "pair": own_pair})
    return (results.assign(ns=pd.Series(ids[:n], index=results.index), ew=pd.Series(ids[n:], index=results.index)),
            listed)


def _field_names(names: pd.DataFrame | None, results: pd.DataFrame, numbering: Mapping[str, str]) -> pd.DataFrame | None:
    """The names lists with their pairs marked as :func:`_field_pairs` marks them: a row without a
    section names the pair in each of its club's sections, one without a direction of a club
    numbered per direction both its NS and its EW pair."""
    if names is None or not len(names):
        return None
    sections = results[["club", "section"]].drop_duplicates()
    names = names.assign(pair=names["pair"].astype("string"), names=names["names"].astype("string"),
                         direction=names["direction"].astype("string") if "direction" in names else pd.NA)
    given = names[names["section"].notna()]
    spread = names[names["section"].isna()].drop(columns="section").merge(sections, on="club")
    rows = pd.concat([given, spread], ignore_index=True)
    rows["pair"] = rows["section"].astype("string") + _SECTION_MARK + rows["pair"]
    per = rows["club"].map(lambda c: numbering.get(c) == "per-direction").to_numpy(dtype=bool)
    out = [rows[~per]]
    for side in ("NS", "EW"):
        mine = rows[per & (rows["direction"].isna() | (rows["direction"] == side)).to_numpy(dtype=bool)]
        out.append(mine.assign(pair=mine["pair"] + _DIRECTION_MARK + side, direction=side))
    return pd.concat(out, ignore_index=True).assign(section=pd.NA)[["section", "pair", "direction", "names"]]


def _standings(work: pd.DataFrame, results: pd.DataFrame, conventions: Conventions,
               names: pd.DataFrame | None, ids: pd.DataFrame) -> pd.DataFrame:
    """Standings of ``work`` (pairs marked; ``ids``: each marked id, its section and pair, as
    :func:`_field_pairs` lists them) with the club, its own section and the pair as numbered."""
    table = standings(work, conventions.replace(pair_numbering="shared"), names)
    at = pd.Index(ids["id"]).get_indexer(table["pair"].astype("string"))
    if (at >= 0).all():
        section = pd.Series(ids["section"].to_numpy()[at], index=table.index, dtype="string")
        pair = pd.Series(ids["pair"].to_numpy()[at], index=table.index, dtype="string")
    else:  # not an id as marked (never so far): read it back from its text
        marked = table["pair"].astype("string").str.split(_SECTION_MARK, n=1, regex=False)
        section = marked.str[0].astype("string")
        pair = marked.str[1].str.split(_DIRECTION_MARK, n=1, regex=False).str[0].astype("string")
    # ``oakfield/A NS`` -> ``NS``
    group = per_distinct(table["group"], lambda g: g.str.rsplit(" ", n=1).str[-1].astype("string"))
    codes, sections = pd.factorize(results["section"].astype("string"))
    known = np.flatnonzero(codes >= 0)
    first = known[np.unique(codes[known], return_index=True)[1]]
    where = pd.Index(sections).get_indexer(section)
    rows = np.where(where >= 0, first[np.maximum(where, 0)] if len(first) else -1, -1)
    out = table.assign(group=group.astype("string"), pair=pair.astype("string"))
    out.insert(0, "club_section", pd.array(results["club_section"].array.take(rows, allow_fill=True), dtype="string"))
    out.insert(0, "club", pd.array(results["club"].array.take(rows, allow_fill=True), dtype="string"))
    return out[list(SIM_STANDINGS_COLUMNS)].astype(SIM_STANDINGS_COLUMNS)


def _ordered(table: pd.DataFrame, clubs: Sequence[str], by_club: bool, percentages: bool) -> pd.DataFrame:
    """Standings sorted as ``standings`` sorts them (best first, pair 2 before pair 10), the field's
    by group, the clubs' by club (in the order given), section and group."""
    order = {club: i for i, club in enumerate(clubs)}
    key = (table["pct"] if percentages else table["total"]).round(6)
    sort = table.assign(_club=table["club"].map(order), _key=-key, _number=pd.to_numeric(table["pair"], errors="coerce"))
    by = (["_club", "club_section", "group"] if by_club else ["group"]) + ["_key", "_club", "_number", "pair"]
    sort = sort.sort_values(list(dict.fromkeys(by)), kind="stable")
    return sort[list(SIM_STANDINGS_COLUMNS)].reset_index(drop=True)


def _club_scoring(work: pd.DataFrame, conventions: Conventions, names: pd.DataFrame | None, ids: pd.DataFrame,
                  clubs: Sequence[str]) -> tuple[dict[str, pd.Series], pd.DataFrame]:
    """The clubs' half of :func:`score_field` (a task of the pool while the main process scores
    across the field): the points within each club's sections and the clubs' standings, ordered."""
    method = ranking_method(conventions.method)
    within = rank_results(work, conventions)
    table = _standings(within, work, conventions, names, ids)
    return {f"club_{name}": within[name] for name in method.columns}, _ordered(table, clubs, True, method.percentages)


def rank_field(results: pd.DataFrame, numbering: Mapping[str, str], conventions: Conventions, *,
               names: pd.DataFrame | None = None, clubs: Sequence[str] = (),
               pool: Executor | None = None) -> FieldRanking:
    """Rank a checked field (``results`` with ``club``, ``club_section`` and sections unique in the
    field) across the field and within each club's sections; with a ``pool``, the clubs' half in one
    of its processes meanwhile."""
    method = ranking_method(conventions.method)
    base = [c for c in results.columns if c not in method.columns and not c.startswith("club_") or c == "club_section"]
    results = results[base].reset_index(drop=True)
    work, ids = _field_pairs(results, numbering)
    shared = conventions.replace(pair_numbering="shared")
    field_conv, club_conv = shared.replace(across_field=True), shared.replace(across_field=False)
    marked_names = _field_names(names, results, numbering)
    order = list(dict.fromkeys(clubs or results["club"].unique()))
    clubs_job = pool.submit(_club_scoring, work, club_conv, marked_names, ids, order) if pool is not None else None
    across = rank_results(work, field_conv)
    field_table = _ordered(_standings(across, work, field_conv, marked_names, ids), order, False, method.percentages)
    club_points, club_table = (clubs_job.result() if clubs_job is not None
                               else _club_scoring(work, club_conv, marked_names, ids, order))
    added = {name: across[name] for name in method.columns}
    scored = results.assign(**added, **club_points)
    return FieldRanking(scored, field_table, club_table, frequency_table(scored, conventions),
                        field_conv.replace(pair_numbering=conventions.pair_numbering), tuple(order))
