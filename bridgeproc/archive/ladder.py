"""The season from the archive: a ladder of pairs or players over a date range or a series.

Each pair's (or player's) session percentages of the latest versions in the range are read in one
query; the ladder ranks by the average of the best ``best`` of them (every one when ``best`` is
None), among those who played at least ``min_sessions``; the others are listed unranked below.
Players are told apart as :mod:`bridgeproc.archive.players` says (member id, else the name in any
case, order and spacing); a pair is its two players in either seat. Sessions scored by IMPs have
no percentage and are left out, with a note, as is every row that cannot count.
"""
from __future__ import annotations

import os
import re
from typing import Literal

import numpy as np
import pandas as pd
from sqlalchemy import select

from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.history import fetch_frame, standing_players
from bridgeproc.archive.players import identify
from bridgeproc.archive.tables import sessions
from bridgeproc.rank import rank_text
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import LADDER_COLUMNS, empty

#: A full ISO date: only such sessions fall in a date range (PBN's ``2026.10.??`` does not).
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: How many sessions a note names before "and N more".
SHOWN = 5

By = Literal["pair", "player"]


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def rank_ladder(scores: pd.DataFrame, best: int | None = None, min_sessions: int = 1) -> pd.DataFrame:
    """The ladder of ``scores``: one row per ``entry`` (a pair's or player's identity), with its
    ``names``, ``ids`` and one ``pct`` per ``session_id`` (one row each).

    ``pct`` is the mean of the entry's best ``best`` percentages (all when None); ``counted`` how
    many that is, ``best`` its best session. Entries with fewer than ``min_sessions`` sessions get
    no rank and come after the ranked ones. Ties share a rank (``3=``). Columns: LADDER_COLUMNS.
    """
    if not len(scores):
        return empty(LADDER_COLUMNS)
    ordered = scores.sort_values(["entry", "pct", "session_id"], ascending=[True, False, True], kind="stable")
    place = ordered.groupby("entry", sort=False).cumcount()
    counted = ordered[place < best] if best is not None else ordered
    table = ordered.groupby("entry", sort=False).agg(names=("names", "first"), ids=("ids", "first"),
                                                     sessions=("session_id", "size"), best=("pct", "max"))
    kept = counted.groupby("entry", sort=False)["pct"].agg(["size", "mean"])
    table["counted"], table["pct"] = kept["size"], kept["mean"]
    qualified = table["sessions"] >= min_sessions
    ranks = rank_text(table.loc[qualified, "pct"], pd.Series("ladder", index=table.index[qualified]))
    table["rank"] = ranks.reindex(table.index).fillna("").astype("string")
    table["_order"] = -table["pct"].round(6)
    table = table.assign(_out=~qualified).sort_values(["_out", "_order", "names"], kind="stable")
    return table[list(LADDER_COLUMNS)].astype(LADDER_COLUMNS).reset_index(drop=True)


def _ordinal(values: pd.Series) -> np.ndarray:
    """Each value's place among the distinct values in sorted order (an integer that sorts as they do)."""
    codes, uniques = pd.factorize(values.to_numpy(dtype=object))
    place = np.empty(len(uniques), dtype=np.int64)
    place[np.argsort(np.asarray(uniques, dtype=object), kind="stable")] = np.arange(len(uniques))
    return place.take(codes)


def partnerships(seats: np.ndarray, pack: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(code of each row, the distinct rows) of ``seats``: one row per standings row, its players'
    identity codes (0, 1, ...; -1 for an empty place). Rows packed into one integer each and hashed
    when they fit in 62 bits (``pack`` None: whenever they do), else sorted (numpy.unique)."""
    width, base = seats.shape[1], int(seats.max(initial=-1)) + 2
    if pack if pack is not None else width * np.log2(max(base, 2)) < 62:
        packed = (seats + 1) @ (base ** np.arange(width, dtype=np.int64))
        entry, kept = pd.factorize(packed)
        together = np.empty((len(kept), width), dtype=np.int64)
        together[entry] = seats  # the rows of one code are alike
        return np.asarray(entry, dtype=np.int64), together
    together, entry = np.unique(seats, axis=0, return_inverse=True)
    return np.asarray(entry, dtype=np.int64).reshape(-1), together


def _pairs(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per standings row: ``entry`` its players' identities in a fixed order (either seat),
    as an integer code, ``names`` and ``ids`` (``-`` for a player without one) in the same order.
    Worked out on integer codes, the text once per partnership."""
    key, name = _ordinal(rows["key"]), _ordinal(rows["name"])
    version, pos = rows["version_id"].to_numpy(dtype=np.int64), rows["pos"].to_numpy(dtype=np.int64)
    order = np.lexsort((key, name, pos, version))
    key, version, pos = key[order], version[order], pos[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (version[1:] != version[:-1]) | (pos[1:] != pos[:-1])
    starts = np.flatnonzero(first)
    row_of = np.cumsum(first) - 1
    seat = np.arange(len(order)) - starts[row_of]  # 0, 1, ... within the standings row
    width, identities = int(seat.max()) + 1, int(key.max()) + 2
    seats = np.full((len(starts), width), -1, dtype=np.int64)
    seats[row_of, seat] = key
    entry, together = partnerships(seats)
    # each identity's name and id (its code is its place among the identities: 0, 1, ...)
    shown = np.empty(identities - 1, dtype=object)
    shown[key] = rows["name"].astype(str).to_numpy(dtype=object)[order]
    ids = np.empty(identities - 1, dtype=object)
    ids[key] = rows["member_id"].astype("string").fillna("-").astype(str).to_numpy(dtype=object)[order]
    names, id_text = shown[together[:, 0]], ids[together[:, 0]]
    for column in range(1, width):
        there = together[:, column] >= 0
        at = np.maximum(together[:, column], 0)
        names = np.where(there, names + " & " + shown[at], names)
        id_text = np.where(there, id_text + " & " + ids[at], id_text)
    has_id = np.append(ids != "-", False)  # index -1 (an empty place): no id
    id_text = np.where(has_id.take(together).any(axis=1), id_text, "")
    heads = rows[["version_id", "pos", "session_id", "event", "date", "pair", "pct"]]
    out = heads.take(order[starts]).reset_index(drop=True)
    out["entry"] = entry
    out["names"] = pd.array(names, dtype="string").take(out["entry"].to_numpy())
    out["ids"] = pd.array(id_text, dtype="string").take(out["entry"].to_numpy())
    return out


def ladder(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
           event: str | None = None, best: int | None = None, min_sessions: int = 1, by: By = "pair",
           fold_accents: bool = False) -> pd.DataFrame:
    """The ladder of the archived sessions from ``date_from`` to ``date_to`` (ISO dates, both
    included) and/or whose event name holds ``event`` (any case), by pair or by player.

    Returns
    -------
    DataFrame
        LADDER_COLUMNS (see :func:`rank_ladder`); ``attrs``: ``sessions`` (how many sessions with
        percentages the range holds: the M of "best N of M"), ``rule`` (in words) and ``notes``
        (the players taken as one, and every row or session left out, with why).
    """
    if best is not None and best < 1:
        raise ValueError(f"best must be at least 1, not {best}")
    if min_sessions < 1:
        raise ValueError(f"min_sessions must be at least 1, not {min_sessions}")
    if by not in ("pair", "player"):
        raise ValueError(f"by must be 'pair' or 'player', not {by!r}")
    where = []
    if date_from:
        where.append(sessions.c.date >= date_from)
    if date_to:
        where.append(sessions.c.date <= date_to)
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        listed = fetch_frame(conn, select(sessions.c.latest_version_id, sessions.c.session_id, sessions.c.event,
                                     sessions.c.date, sessions.c.kind)
                        .where(sessions.c.latest_version_id.is_not(None), *where)
                        .order_by(sessions.c.date, sessions.c.event, sessions.c.session_id),
                        {"version_id": "int64", "session_id": "string", "event": "string", "date": "string",
                         "kind": "string"})
        rows = standing_players(conn, *where, fields=("method", "pair", "pct"))
    notes: list[str] = []
    # the session filters, once per session (not per player row)
    chosen = pd.Series(True, index=listed.index)
    counted = listed["version_id"].isin(pd.unique(rows["version_id"].to_numpy())) | (listed["kind"] == "teams")
    if event:
        wanted = " ".join(event.split()).casefold()
        chosen &= pd.Series([wanted in " ".join(str(e).split()).casefold() for e in listed["event"]],
                            index=listed.index, dtype=bool)
        found = listed.loc[chosen & counted & (listed["kind"] != "teams"), "event"].value_counts(sort=False)
        notes.append("events: " + (", ".join(f"{name!r} ({n})" for name, n in found.items()) or "none"))
    if date_from or date_to:
        dated = listed["date"].str.fullmatch(ISO_DATE.pattern).fillna(False).astype(bool)
        undated = sorted(listed.loc[chosen & counted & ~dated, "session_id"])
        if undated:
            notes.append(f"sessions without a full date, outside any date range: {_listed(undated)}")
        chosen &= dated
    teams = sorted(listed.loc[chosen & (listed["kind"] == "teams"), "session_id"])
    if teams:
        notes.append(f"teams sessions have no pair percentage, left out: {_listed(teams)}")
    rows = rows[rows["version_id"].isin(listed.loc[chosen, "version_id"])]
    imps = rows["method"].isin(IMP_METHODS) & rows["pct"].isna()
    if imps.any():
        notes.append(f"sessions scored by IMPs have no percentage, left out: "
                     f"{_listed(sorted(set(rows.loc[imps, 'session_id'])))}")
    rows = rows[~imps]
    unnamed = rows["player"].isna()
    if unnamed.any():
        lost = rows[unnamed]
        notes.append(f"{len(lost)} standings row(s) without names left out (a pair is known from one session "
                     f"to the next only by its names): {_listed(sorted(set(lost['session_id'])))}")
    rows = rows[~unnamed]
    no_pct = rows.drop_duplicates(["version_id", "pos"])
    no_pct = no_pct[no_pct["pct"].isna()]
    if len(no_pct):
        notes.append(f"{len(no_pct)} pair(s) without a percentage left out: "
                     f"{_listed([f'{r.session_id} pair {r.pair}' for r in no_pct.itertuples()])}")
    rows = rows[rows["pct"].notna()].reset_index(drop=True)
    count = int(rows["session_id"].nunique())
    rule = (f"best {best} of {count}" if best is not None else f"all of {count}") + f" sessions, by {by}"
    if min_sessions > 1:
        rule += f", at least {min_sessions} sessions to be ranked"
    if rows.empty:
        out = empty(LADDER_COLUMNS)
        out.attrs.update(sessions=count, rule=rule, notes=notes)
        return out
    who = identify(rows["player"], rows["member_id"], fold_accents)
    rows["key"], rows["name"], rows["member_id"] = who.key, who.name, who.member_id
    notes = who.matches + notes
    if by == "pair":
        scores = _pairs(rows)
    else:
        scores = rows.assign(entry=_ordinal(rows["key"]), names=rows["name"], ids=rows["member_id"].fillna(""))
    # sorted and grouped on integer codes (in the text's order), not on 50,000 texts
    scores["session_id"] = pd.Categorical(scores["session_id"].astype(str))
    scores = scores.sort_values(["entry", "session_id", "pct"], ascending=[True, True, False], kind="stable")
    twice = scores.duplicated(["entry", "session_id"])
    if twice.any():
        again = scores[twice]
        notes.append("in two rows of one session, the better counts: " +
                     _listed([f"{r.names} in {r.session_id}" for r in again.itertuples()]))
    out = rank_ladder(scores[~twice], best, min_sessions)
    unranked = int((out["rank"] == "").sum())
    if unranked:
        notes.append(f"{unranked} {by}(s) with fewer than {min_sessions} sessions listed unranked")
    out.attrs.update(sessions=count, rule=rule, notes=notes)
    return out

