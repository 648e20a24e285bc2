"""Events of several sessions: each session's standings combined into one event ranking.

Everything is done on one long frame of every session's standings rows (``schema.EVENT_SESSION_COLUMNS``)
with groupby, never pair by pair. Pairs are matched across sessions by a named key
(:data:`MATCH_BY`), a pair that missed a session is handled by a named rule (:data:`MISSING_RULES`)
and the event totals are formed by a named rule (:data:`EVENT_RULES`). The event ranking carries
Ruter's cumulative columns (TotalScoreMP, TotalPercentage, Rank, NrBoards, and the last session's
SessionScoreMP, SessionPercentage, SessionRank, NrBoardsSession).

A pair's ``top`` in a session is the matchpoints it could have scored there (the sum of its boards'
tops, as its percentage is counted): percentages over several sessions are formed from it, so
``sum`` gives Ruter's TotalPercentage, 2084.4 / (105 x 34) = 58.39 %.

The keys pairs are matched by, and the problems of matching them, are ``rank.event_keys``'.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bridgeproc.core.pairs import DIRECTION_MARK, SECTION_MARK, pair_directions, pair_numbering
from bridgeproc.errors import ValidationError
from bridgeproc.rank._matchpoints import full_top_points
from bridgeproc.rank._standings import is_individual, rank_text, standings
from bridgeproc.rank.conventions import Conventions
from bridgeproc.rank.event_keys import matched_keys, names_key, number_key
from bridgeproc.rank.event_rules import EVENT_RULES, MATCH_BY, MISSING_RULES
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import EVENT_SESSION_COLUMNS, EVENT_STANDINGS_COLUMNS, STANDINGS_COLUMNS, problems_frame


@dataclass(frozen=True)
class SessionStandings:
    """One session as the event sees it: ``standings`` is ``schema.STANDINGS_COLUMNS`` (a ``method``
    column may be there), with ``top`` (see :func:`pair_tops`) and ``ids`` where known, and each pair's
    ``section``, ``direction`` and ``number`` when made by :func:`session_table` (else the key by number
    is read from the group, see :func:`number_key`); ``label`` names
    the session in messages (its files, or its archived id); ``board_top`` is a board's full top
    (matchpoints; None for IMPs)."""

    label: str
    method: str
    standings: pd.DataFrame
    board_top: float | None = None


@dataclass(frozen=True)
class EventRanking:
    """The event: ``standings`` (``schema.EVENT_STANDINGS_COLUMNS``), every session's rows with their
    event key (``schema.EVENT_SESSION_COLUMNS``; ``imputed`` rows stand for a missed session),
    ``dropped`` (pairs left out by ``drop``: key, pair, names, missed) and ``notes`` (problems frame)."""

    standings: pd.DataFrame
    sessions: pd.DataFrame
    dropped: pd.DataFrame
    notes: pd.DataFrame
    rule: str
    missing: str
    match: str
    carry_over: float
    unit: str


def pair_tops(results: pd.DataFrame, conventions: Conventions) -> pd.DataFrame:
    """``group, pair, top``: the matchpoints each pair of ``standings(results, conventions)`` could
    have scored (its boards' tops, scaled as its total is), by ranking the tops in place of the
    matchpoints with the same conventions. Empty for IMP methods (no top)."""
    if not ranking_method(conventions.method).percentages or not len(results):
        return pd.DataFrame({"group": pd.Series([], dtype="string"), "pair": pd.Series([], dtype="string"),
                             "top": pd.Series([], dtype="float64")})
    _, _, top = full_top_points(results, conventions)
    played_ns, played_ew = results["mp_ns"].notna().to_numpy(), results["mp_ew"].notna().to_numpy()
    as_points = results.assign(mp_ns=np.where(played_ns, top, np.nan), mp_ew=np.where(played_ew, top, np.nan),
                               top=top)
    table = standings(as_points, conventions.replace(centred=False, mp_top="full"))
    return pd.DataFrame({"group": table["group"], "pair": table["pair"], "top": table["total"]})


#: Marks between a pair's section, number and direction in the ids ranked by :func:`session_table`.
_SECTION_MARK, _DIRECTION_MARK = SECTION_MARK, DIRECTION_MARK  # core.pairs


def _marked_results(results: pd.DataFrame, per_direction: bool) -> pd.DataFrame:
    """``results`` with every pair id naming its section (``A\\x1e3``) and, numbered per direction,
    the direction of its number (``...\\x1fNS``; ``core.pairs.pair_directions``: an arrow-switched
    row's NS seat holds an EW pair): each standings row then says whose it is."""
    section = results["section"].astype("string").fillna("") + _SECTION_MARK
    ns, ew = section + results["ns"].astype("string"), section + results["ew"].astype("string")
    if per_direction:
        ns_dir, ew_dir = pair_directions(results)
        ns = ns + _DIRECTION_MARK + pd.Series(ns_dir, index=results.index, dtype="string")
        ew = ew + _DIRECTION_MARK + pd.Series(ew_dir, index=results.index, dtype="string")
    return results.assign(ns=ns, ew=ew)


def _marked_names(names: pd.DataFrame | None, results: pd.DataFrame, per_direction: bool) -> pd.DataFrame:
    """``section, pair, direction, names, ids`` of a names list, its pairs marked as :func:`_marked_results`
    marks them: a row without a section names the pair in every section, one without a direction (numbered
    per direction) both its NS and its EW pair."""
    columns = ["pair", "direction", "names", "ids"]
    if names is None or not len(names):
        return pd.DataFrame({c: pd.Series([], dtype="string") for c in columns})
    rows = pd.DataFrame({c: names[c].astype("string") if c in names else pd.Series(pd.NA, index=names.index,
                                                                                 dtype="string")
                         for c in ["section", *columns]})
    rows["direction"] = rows["direction"].str.strip().str.upper().replace("", pd.NA)
    blank = rows["section"].fillna("").str.strip() == ""
    sections = pd.DataFrame({"section": pd.Series(results["section"].astype("string").fillna("").unique(),
                                                  dtype="string")})
    rows = pd.concat([rows[~blank], rows[blank].drop(columns="section").merge(sections, how="cross")],
                     ignore_index=True)
    rows["pair"] = rows["section"] + _SECTION_MARK + rows["pair"].str.strip()
    if per_direction:
        sides = [rows[rows["direction"].isna() | (rows["direction"] == side)].assign(direction=side)
                 for side in ("NS", "EW")]
        rows = pd.concat(sides, ignore_index=True)
        rows["pair"] = rows["pair"] + _DIRECTION_MARK + rows["direction"]
    return rows[columns]


def _looked_up(pairs: pd.Series, directions: pd.Series, names: pd.DataFrame, column: str) -> pd.Series:
    """``column`` of the names row of each (marked) pair: the row of its direction, else one without a
    direction, else any row of the pair."""
    left = pd.DataFrame({"pair": pairs.to_numpy(), "direction": directions.fillna("").to_numpy()})
    right = names.assign(direction=names["direction"].fillna(""))
    right = right[right[column].notna() & (right[column].str.strip() != "")]

    def lookup(rows: pd.DataFrame, keys: list[str]) -> pd.Series:
        return left.merge(rows.drop_duplicates(subset=keys)[[*keys, column]], on=keys, how="left")[column]

    found = lookup(right[right["direction"] != ""], ["pair", "direction"])
    found = found.fillna(lookup(right[right["direction"] == ""], ["pair"])).fillna(lookup(right, ["pair"]))
    return pd.Series(found.to_numpy(), index=pairs.index, dtype="string")


def session_table(results: pd.DataFrame, conventions: Conventions, names: pd.DataFrame | None = None) -> pd.DataFrame:
    """A session's standings as the event sees them: ``schema.STANDINGS_COLUMNS`` ranked as
    ``standings(results, conventions, names)`` ranks them, with each pair's ``section``, ``direction``
    (of its number, ``core.pairs.pair_directions``; empty when the session numbers pairs once),
    ``number``, ``top`` (its boards' tops, see :func:`pair_tops`) and member ``ids`` (names list).

    Ranked on pair ids that carry the section and direction, so NS 1 and EW 1 of a one-winner
    (arrow-switched) Mitchell are two rows that say which is which; such a pair is shown ``NS 1``.
    ``conventions.pair_numbering`` should be the session's decided numbering (not ``auto``)."""
    per_direction = pair_numbering(results, conventions.pair_numbering) == "per-direction"  # type: ignore[arg-type]
    conv = conventions.replace(pair_numbering="per-direction" if per_direction else "shared")
    if is_individual(results):  # players are their own identity: no marks
        table = standings(results, conv, names if names is not None and len(names) else None)
        table = table.merge(pair_tops(results, conv), on=["group", "pair"], how="left", validate="1:1")
        return table.assign(section="", direction="", number=table["pair"], ids=pd.Series(pd.NA, index=table.index,
                                                                                          dtype="string"))
    marked = _marked_results(results, per_direction)
    marked_names = _marked_names(names, results, per_direction)
    table = standings(marked, conv)
    table = table.drop(columns=["names"]).merge(pair_tops(marked, conv), on=["group", "pair"], how="left",
                                                validate="1:1")
    direction = table["group"].str.rsplit(" ", n=1).str[-1].where(lambda d: d.isin(["NS", "EW"]), "")
    if per_direction:
        direction = table["pair"].str.split(_DIRECTION_MARK, n=1, regex=False).str[1]
    table["names"] = _looked_up(table["pair"], direction, marked_names, "names")
    table["ids"] = _looked_up(table["pair"], direction, marked_names, "ids")
    parts = table["pair"].str.split(_DIRECTION_MARK, n=1, regex=False).str[0].str.split(_SECTION_MARK, n=1,
                                                                                        regex=False)
    table["section"], table["number"] = parts.str[0].astype("string"), parts.str[1].astype("string")
    table["direction"] = (direction if per_direction else pd.Series("", index=table.index)).astype("string")
    # shown as the session shows it: the number; with its section when two sections share it in one ranking,
    # with its direction when NS and EW share it (one winner of a per-direction Mitchell)
    shown = table["number"]
    clash = pd.DataFrame({"g": table["group"], "p": shown}).duplicated(keep=False).to_numpy()
    shown = shown.where(~clash, table["section"] + shown)
    clash = pd.DataFrame({"g": table["group"], "p": shown}).duplicated(keep=False).to_numpy()
    table["pair"] = shown.where(~clash, table["direction"] + " " + shown).astype("string")
    return table[[*STANDINGS_COLUMNS, "section", "direction", "number", "top", "ids"]]


def _long(sessions: Sequence[SessionStandings]) -> pd.DataFrame:
    """Every session's standings rows, numbered 1.. in the order given, with each row's ``number_key``."""
    frames = []
    for number, one in enumerate(sessions, start=1):
        table = one.standings
        n = len(table)
        frames.append(pd.DataFrame({
            "session": np.full(n, number, dtype="int64"), "group": table["group"], "rank": table["rank"],
            "pair": table["pair"], "names": table["names"],
            "ids": table["ids"] if "ids" in table else pd.Series(pd.NA, index=table.index, dtype="string"),
            "boards": table["boards"], "total": table["total"], "pct": table["pct"],
            "top": table["top"] if "top" in table else np.nan, "number_key": number_key(table)}))
    long = pd.concat(frames, ignore_index=True)
    long["key"], long["imputed"] = pd.NA, False
    return long.astype(EVENT_SESSION_COLUMNS)


def _check_rule(sessions: Sequence[SessionStandings], rule: str) -> str:
    """The event's unit (``mp``/``imp``); ValidationError when ``rule`` cannot combine these sessions."""
    units = [ranking_method(s.method).unit for s in sessions]
    rows: list[dict] = []
    for one, unit in zip(sessions, units):
        if unit != units[0]:
            rows.append({"source": one.label, "column": "method", "value": one.method,
                         "message": f"scored in {unit.upper()}s, {sessions[0].label} in {units[0].upper()}s: "
                                    "give the sessions one method (--method)"})
        elif unit == "imp" and rule in ("scaled", "percent-sum", "percent-average"):
            rows.append({"source": one.label, "column": "method", "value": one.method,
                         "message": f"IMPs have no top and no percentage: rule {rule} needs matchpoints; "
                                    "use --rule sum or carry-over"})
    if not rows and rule == "sum" and units[0] == "mp":
        first = sessions[0].board_top
        for one in sessions[1:]:
            if one.board_top is None or first is None or not np.isclose(one.board_top, first):
                here, there = (f"{t:g}" if t is not None else "unknown" for t in (one.board_top, first))
                rows.append({"source": one.label, "column": "top", "value": here,
                             "message": f"a board's top is {here} here but {there} in "
                                        f"{sessions[0].label}: matchpoints on different tops cannot be summed; "
                                        "use --rule scaled (to a common top) or percent-average"})
    if rows:
        raise ValidationError(problems_frame(rows))
    return units[0]


def _with_missing(long: pd.DataFrame, missing: str, rule: str, unit: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every (key, session): a missed session dropped, zero or the pair's average; and the dropped pairs."""
    sessions = np.sort(long["session"].unique())
    grid = pd.MultiIndex.from_product([long["key"].unique(), sessions], names=["key", "session"])
    full = long.set_index(["key", "session"]).reindex(grid).reset_index()
    gap = full["group"].isna()
    missed = full[gap].groupby("key", sort=False)["session"].agg(lambda s: ", ".join(map(str, s)))
    last = long.sort_values("session").groupby("key", sort=False).last()
    dropped = pd.DataFrame({"key": missed.index.astype("string"),
                            "pair": last["pair"].reindex(missed.index).to_numpy(),
                            "names": last["names"].reindex(missed.index).to_numpy(),
                            "missed": missed.to_numpy()}).astype("string")
    if missing == "drop":
        keep = ~long["key"].isin(missed.index)
        return long[keep].reset_index(drop=True), dropped
    per_session = long.groupby("session").agg(top=("top", "max"), boards=("boards", "max"))
    played = long.groupby("key", sort=False)
    if missing == "zero":
        total, pct = 0.0, (0.0 if unit == "mp" else np.nan)
    elif unit == "imp":
        per_board = played["total"].sum() / played["boards"].sum().where(lambda b: b > 0, 1)
        total = full["key"].map(per_board) * full["session"].map(per_session["boards"])
        pct = np.nan
    else:
        if rule in ("percent-sum", "percent-average"):
            own = played["pct"].mean()
        else:  # the matchpoints of the sessions played over their tops
            own = (long["pct"] * long["top"]).groupby(long["key"]).sum() / played["top"].sum() \
                .where(lambda t: t > 0, np.nan)
        pct = full["key"].map(own)
        total = pct * full["session"].map(per_session["top"]) / 100.0
    filled = full.assign(
        total=full["total"].where(~gap, total), pct=full["pct"].where(~gap, pct),
        top=full["top"].where(~gap, full["session"].map(per_session["top"])),
        boards=full["boards"].where(~gap, 0), imputed=gap)
    return filled.astype({"boards": "int64", "total": "float64", "pct": "float64", "top": "float64",
                          "imputed": "bool"}), dropped.iloc[0:0]


def _totals(grid: pd.DataFrame, rule: str, carry_over: float, unit: str,
            board_tops: pd.Series) -> pd.DataFrame:
    """``carry, total, pct`` per key by ``rule`` (groupby over the long frame)."""
    by = grid["key"]
    points = grid["pct"] * grid["top"] / 100.0  # matchpoints as the percentage counts them (uncentred)
    count = grid.groupby("key", sort=False).size()
    if rule in ("sum", "scaled"):
        factor = (board_tops.max() / grid["session"].map(board_tops)) if rule == "scaled" else 1.0
        total = (grid["total"] * factor).groupby(by, sort=False).sum()
        tops = (grid["top"] * factor).groupby(by, sort=False).sum()
        pct = (points * factor).groupby(by, sort=False).sum() / tops.where(tops > 0, np.nan) * 100.0
        carry = pd.Series(np.nan, index=total.index)
    elif rule == "percent-sum":
        total = grid.groupby("key", sort=False)["pct"].sum()
        pct, carry = total / count, pd.Series(np.nan, index=total.index)
    elif rule == "percent-average":
        total = grid.groupby("key", sort=False)["pct"].mean()
        pct, carry = total, pd.Series(np.nan, index=total.index)
    else:  # carry-over: all sessions but the last are the qualifying stage, the last is the final
        final_session = grid["session"].max()
        final = grid[grid["session"] == final_session].set_index("key")
        stage = grid[grid["session"] < final_session]
        if unit == "mp":
            final_top = grid.loc[grid["session"] == final_session, "top"].max()
            stage_points = (stage["pct"] * stage["top"] / 100.0).groupby(stage["key"]).sum()
            stage_pct = stage_points / stage.groupby("key")["top"].sum().where(lambda t: t > 0, np.nan) * 100.0
            carry = (carry_over * stage_pct / 100.0 * final_top).reindex(final.index)
            total = carry + final["total"]
            pct = (carry + final["pct"] * final["top"] / 100.0) / (carry_over * final_top + final["top"]) * 100.0
        else:
            carry = (carry_over * stage.groupby("key")["total"].sum()).reindex(final.index)
            total, pct = carry + final["total"], pd.Series(np.nan, index=final.index)
    if unit == "imp":
        pct = pd.Series(np.nan, index=total.index)
    return pd.DataFrame({"carry": carry, "total": total, "pct": pct})


def _name_notes(long: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    """Pairs matched by number whose names differ between sessions (a substitute, or another pair
    under the number): one note each, so the director can check or match by names."""
    named = long.assign(name_key=names_key(long["names"])).dropna(subset=["name_key"])
    differ = named.groupby("key")["name_key"].transform("nunique") > 1
    rows = []
    for key, group in named[differ].groupby("key", sort=False):
        shown = "; ".join(f"{labels[s - 1]}: {n}" for s, n in zip(group["session"], group["names"]))
        rows.append({"source": labels[int(group["session"].iloc[-1]) - 1], "column": "names",
                     "value": str(group["pair"].iloc[-1]),
                     "message": f"pair {group['pair'].iloc[-1]} is matched by number across sessions but its names "
                                f"differ ({shown}): check, or match by names"})
    return problems_frame(rows)


def combine_sessions(sessions: Sequence[SessionStandings], rule: str = "sum", missing: str = "drop",
                     match: str = "number", carry_over: float = 0.5) -> EventRanking:
    """The event ranking of ``sessions`` (in playing order) by ``rule`` (:data:`EVENT_RULES`),
    pairs matched by ``match`` (:data:`MATCH_BY`), a missed session handled by ``missing``
    (:data:`MISSING_RULES`), ``carry_over`` the qualifying share for ``carry-over`` (0 to 1).

    Ranked on the event total (competition ranks, ties ``3=``), one ranking (``ALL``) unless every
    session ranks NS and EW apart and each pair kept its line. Raises ValidationError (every problem)
    when pairs cannot be matched or the rule cannot combine these sessions (e.g. ``sum`` of
    different tops); ValueError for an unknown rule name (a programming error).
    """
    for name, known in ((rule, EVENT_RULES), (missing, MISSING_RULES), (match, MATCH_BY)):
        if name not in known:
            raise ValueError(f"unknown {name!r}: one of {', '.join(known)}")
    if not sessions:
        raise ValueError("an event needs at least one session")
    if rule == "carry-over" and (len(sessions) < 2 or not 0.0 <= carry_over <= 1.0):
        raise ValueError("carry-over needs a qualifying session and a final, and a share from 0 to 1")
    labels = [s.label for s in sessions]
    unit = _check_rule(sessions, rule)
    long = _long(sessions)
    long["key"] = matched_keys(long, match, labels)
    notes = _name_notes(long, labels) if match == "number" else problems_frame([])
    grid, dropped = _with_missing(long, missing, rule, unit)
    board_tops = pd.Series([s.board_top if s.board_top is not None else np.nan for s in sessions],
                           index=range(1, len(sessions) + 1), dtype="float64")
    totals = _totals(grid, rule, carry_over, unit, board_tops)
    real = grid[~grid["imputed"]].sort_values("session", kind="stable")
    last = real.groupby("key", sort=False).last()
    final = real[real["session"] == len(sessions)].set_index("key")
    groups = real.groupby("key", sort=False)["group"].nunique()
    apart = not (real["group"] == "ALL").any() and bool((groups == 1).all())
    table = pd.DataFrame({
        "group": last["group"] if apart else "ALL", "pair": last["pair"], "names": last["names"],
        "sessions": real.groupby("key", sort=False).size(), "boards": real.groupby("key", sort=False)["boards"].sum(),
    }).join(totals, how="inner")
    table = table.assign(session_boards=final["boards"].reindex(table.index).astype("Int64"),
                         session_total=final["total"].reindex(table.index),
                         session_pct=final["pct"].reindex(table.index),
                         session_rank=final["rank"].reindex(table.index))
    table = table.rename_axis("key").reset_index()
    table["group"] = table["group"].astype("string")
    table["rank"] = rank_text(table["total"], table["group"])
    order = pd.DataFrame({"group": table["group"], "o": -table["total"].round(6),
                          "n": pd.to_numeric(table["pair"], errors="coerce"), "p": table["pair"]})
    table = table.loc[order.sort_values(["group", "o", "n", "p"], kind="stable").index].reset_index(drop=True)
    rows = long if missing == "drop" else grid.sort_values(["session", "imputed"], kind="stable")
    return EventRanking(standings=table[list(EVENT_STANDINGS_COLUMNS)].astype(EVENT_STANDINGS_COLUMNS),
                        sessions=rows[list(EVENT_SESSION_COLUMNS)].astype(EVENT_SESSION_COLUMNS).reset_index(drop=True),
                        dropped=dropped, notes=notes, rule=rule, missing=missing, match=match,
                        carry_over=carry_over, unit=unit)


__all__ = ["EVENT_RULES", "MATCH_BY", "MISSING_RULES", "EventRanking", "SessionStandings", "combine_sessions",
           "pair_tops", "session_table"]
