"""The season from the archive: a ladder of pairs or players over a date range or a series.

Each pair's (or player's) session percentages of the latest versions in the range are read in a
few narrow queries; the ladder ranks by the average of the best ``best`` of them (every one when
``best`` is None), among those who played at least ``min_sessions``; the others are listed unranked
below. Players are told apart as :mod:`bridgeproc.archive.players` says (member id, else the name in
any case, order and spacing); a pair is its two players in either seat. Sessions scored by IMPs
have no percentage and are left out, with a note, as is every row that cannot count.

Speed (issue 17: 2,000 sessions well under a second): the driver's work per row fetched, not the
database's, was most of the time, so only the standings rows come as rows (their percentages must
arrive to the last bit); their players and the names lists' member ids each come as one row of
aggregated columns (numbers joined by commas, texts as a JSON array). Everything after is numpy on
integer codes, the text worked out once per distinct name, player or partnership.
"""
from __future__ import annotations

import json
import os
import re
from operator import itemgetter
from typing import Literal

import numpy as np
import pandas as pd
from sqlalchemy import Text, cast, exists, func, literal_column, or_, select
from sqlalchemy.dialects.postgresql import JSONB, aggregate_order_by

from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.history import IN_CHUNK, dated, fetch_frame, fetch_rows
from bridgeproc.archive.players import distinct_identities, seat_ids
from bridgeproc.archive.tables import names as names_table
from bridgeproc.archive.tables import players, sessions, standings
from bridgeproc.model import Ladder
from bridgeproc.rank import rank_text
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import LADDER_COLUMNS, LADDER_MASTERPOINTS, empty

#: A full ISO date: only such sessions fall in a date range (PBN's ``2026.10.??`` does not).
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: How many sessions a note names before "and N more".
SHOWN = 5

By = Literal["pair", "player"]


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f" and {len(items) - SHOWN} more" if len(items) > SHOWN else "")


def _ordinal(values: pd.Series | np.ndarray) -> np.ndarray:
    """Each value's place among the distinct values in sorted order (an integer that sorts as they
    do); a missing value after every other."""
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    place = np.empty(len(uniques) + 1, dtype=np.int64)
    place[np.argsort(np.asarray(uniques, dtype=object), kind="stable")] = np.arange(len(uniques))
    place[-1] = len(uniques)  # code -1: missing
    return place.take(codes)


def _first_valid(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The first value that is not NA in each group of ``values`` (groups beginning at ``starts``), as
    pandas' ``first`` takes it: NA when a group has none."""
    place = np.where(pd.isna(values), len(values), np.arange(len(values)))
    padded = np.empty(len(values) + 1, dtype=object)
    padded[:-1], padded[-1] = values, pd.NA
    return padded[np.minimum.reduceat(place, starts)]


def _ranked(entry: np.ndarray, session: np.ndarray, pct: np.ndarray, names: np.ndarray, ids: np.ndarray,
            best: int | None, min_sessions: int, by_entry: bool = False,
            points: np.ndarray | None = None) -> pd.DataFrame:
    """:func:`rank_ladder` on integer codes: ``entry`` 0, 1, ... (entries tied to the end keep this
    order), ``session`` codes in the sessions' order, ``pct``, and each row's ``names`` and ``ids``
    (``by_entry``: each entry's, none missing); with ``points`` (each row's masterpoints, NaN for none)
    a ``masterpoints`` column: each entry's season total, over every session, not only those counted."""
    order = np.lexsort((session, -pct, entry))  # each entry's rows, best first (NaN last)
    entry, pct = entry[order], pct[order]
    first = np.ones(len(entry), dtype=bool)
    first[1:] = entry[1:] != entry[:-1]
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    counted = np.arange(len(entry)) - starts[group] < best if best is not None else np.ones(len(entry), dtype=bool)
    # the mean as pandas takes it (compensated sums: the figures to the last bit as they always were)
    kept = pd.Series(pct[counted]).groupby(group[counted]).agg(["size", "mean"])
    played = np.diff(np.append(starts, len(entry)))
    average = kept["mean"].to_numpy()
    qualified = played >= min_sessions
    rank = np.full(len(starts), "", dtype=object)
    rank[qualified] = rank_text(pd.Series(average[qualified]), pd.Series("ladder", index=range(qualified.sum()))
                                ).to_numpy(dtype=object)
    # ranked first, best average first, then by names (NA last), then in entry order; the names are
    # sorted only where the first two tie
    if by_entry:
        shown, id_text = names[entry[starts]], ids[entry[starts]]
    else:
        shown, id_text = _first_valid(names[order], starts), _first_valid(ids[order], starts)
    rounded = -np.round(average, 6)
    out = np.lexsort((rounded, ~qualified))
    same = (qualified[out][1:] == qualified[out][:-1]) & (
        (rounded[out][1:] == rounded[out][:-1]) | (np.isnan(rounded[out][1:]) & np.isnan(rounded[out][:-1])))
    tied = np.zeros(len(out), dtype=bool)
    tied[1:] |= same
    tied[:-1] |= same
    if tied.any():
        by_name = np.zeros(len(out), dtype=np.int64)
        by_name[out[tied]] = _ordinal(shown[out[tied]])
        out = np.lexsort((by_name, rounded, ~qualified))
    table = pd.DataFrame({"rank": pd.array(rank[out], dtype="string"), "names": pd.array(shown[out], dtype="string"),
                          "ids": pd.array(id_text[out], dtype="string"), "sessions": played[out],
                          "counted": kept["size"].to_numpy()[out], "pct": average[out],
                          "best": np.fmax.reduceat(pct, starts)[out]})
    if points is not None:
        totals = np.add.reduceat(np.nan_to_num(points[order], nan=0.0), starts)
        return table.assign(masterpoints=totals[out]).astype(LADDER_COLUMNS | LADDER_MASTERPOINTS)
    return table.astype(LADDER_COLUMNS)


def rank_ladder(scores: pd.DataFrame, best: int | None = None, min_sessions: int = 1) -> pd.DataFrame:
    """The ladder of ``scores``: one row per ``entry`` (a pair's or player's identity), with its
    ``names``, ``ids`` and one ``pct`` per ``session_id`` (one row each).

    ``pct`` is the mean of the entry's best ``best`` percentages (all when None); ``counted`` how
    many that is, ``best`` its best session. Entries with fewer than ``min_sessions`` sessions get
    no rank and come after the ranked ones. Ties share a rank (``3=``). Columns: LADDER_COLUMNS.
    """
    if not len(scores):
        return empty(LADDER_COLUMNS)
    entry = pd.factorize(scores["entry"], sort=True)[0]
    session = pd.factorize(scores["session_id"], sort=True)[0]
    return _ranked(np.asarray(entry, dtype=np.int64), np.asarray(session, dtype=np.int64),
                   scores["pct"].to_numpy(dtype=np.float64), scores["names"].to_numpy(dtype=object),
                   scores["ids"].to_numpy(dtype=object), best, min_sessions)


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


def _sorted_by(major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """The order of rows by ``major`` then ``minor`` (non-negative integers), stable: one packed key
    when it fits in 62 bits, else two."""
    top_major, top_minor = int(major.max(initial=0)) + 1, int(minor.max(initial=0)) + 1
    if top_major * top_minor < 2 ** 62:
        return np.argsort(major * top_minor + minor, kind="stable")
    return np.lexsort((minor, major))


def _pair_entries(row: np.ndarray, by_standing: np.ndarray, who: np.ndarray, shown_order: np.ndarray,
                  shown: np.ndarray, member: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each standings row's partnership: its players' identities in a fixed order (either seat).

    Per player row: ``row`` its standings row, ``who`` the player's identity (0, 1, ... in the order
    of the keys); ``by_standing`` each standings row's place in (version, pos) order; per identity:
    ``shown_order`` its name's place among the names, ``shown`` the name, ``member`` the member id
    (None when none). Returns the standings rows (in version, pos order), their ``entry`` codes (in
    order of first appearance), and each entry's names and ids texts (``-`` for a player without an
    id, ``""`` when none of them has one)."""
    # the players of a row by name, then by identity
    seated = np.lexsort((np.arange(len(shown_order)), shown_order))
    place = np.empty(len(seated), dtype=np.int64)
    place[seated] = np.arange(len(seated))
    order = _sorted_by(by_standing[row], place[who])
    who, row = who[order], row[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = row[1:] != row[:-1]
    starts = np.flatnonzero(first)
    row_of = np.cumsum(first) - 1
    seat = np.arange(len(order)) - starts[row_of]  # 0, 1, ... within the standings row
    seats = np.full((len(starts), int(seat.max()) + 1), -1, dtype=np.int64)
    seats[row_of, seat] = who
    entry, together = partnerships(seats)
    ids = np.array(["-" if m is None else m for m in member], dtype=object)
    names, id_text = shown[together[:, 0]], ids[together[:, 0]]
    for column in range(1, together.shape[1]):
        there = together[:, column] >= 0
        at = np.maximum(together[:, column], 0)
        names = np.where(there, names + " & " + shown[at], names)
        id_text = np.where(there, id_text + " & " + ids[at], id_text)
    has_id = np.append(ids != "-", False)  # index -1 (an empty place): no id
    id_text = np.where(has_id.take(together).any(axis=1), id_text, "")
    return row[starts], entry, names, id_text


class _Gather:
    """Columns of many rows as one text each, in one dialect: numbers joined by commas (SQLite's
    ``group_concat``, PostgreSQL's ``string_agg``), texts as a JSON array (``json_group_array``,
    ``json_agg``). The aggregates of one query take the same rows in the same order, so their
    elements line up (PostgreSQL is told the order, ``by``; SQLite steps every aggregate per row)."""

    def __init__(self, conn, *by):
        self.postgres, self.by = conn.dialect.name == "postgresql", by

    def numbers(self, column):
        if self.postgres:
            return func.string_agg(cast(column, Text), aggregate_order_by(literal_column("','"), *self.by))
        return func.group_concat(column)  # a comma between; a bound separator would double its time

    def texts(self, column):
        if self.postgres:
            return cast(func.json_agg(aggregate_order_by(column, *self.by)), Text)
        return func.json_group_array(column)


def _gathered(conn, query_of, versions: list[int], kinds: str) -> list[np.ndarray]:
    """The columns of ``query_of(some_versions)`` (one row of :class:`_Gather` aggregates; ``kinds``:
    ``n`` a number, ``t`` a text per column) for ``versions`` in chunks, as arrays."""
    parts: list[list[np.ndarray]] = [[] for _ in kinds]
    for start in range(0, len(versions), IN_CHUNK):
        (row,) = fetch_rows(conn, query_of(versions[start:start + IN_CHUNK]))
        for part, kind, value in zip(parts, kinds, row):
            if kind == "n":
                part.append(np.fromstring(value or "", dtype=np.int64, sep=","))
            else:
                texts = json.loads(value or "[]")
                part.append(np.empty(len(texts), dtype=object))
                part[-1][:] = texts
    return [np.concatenate(p) if p else np.zeros(0, dtype=np.int64 if k == "n" else object)
            for p, k in zip(parts, kinds)]


def _ids_text(conn, extra):
    """A names row's ``ids`` (the member ids, in its ``extra`` JSON), a blank one NULL."""
    raw = cast(extra, JSONB)["ids"].astext if conn.dialect.name == "postgresql" else func.json_extract(extra, "$.ids")
    return func.nullif(func.trim(raw), "")


def _locate(version: np.ndarray, key: np.ndarray, at_version: np.ndarray, at_key: np.ndarray) -> np.ndarray:
    """The first place of each (``at_version``, ``at_key``) among the (``version``, ``key``) pairs
    (non-negative integers); -1 for none. One packed integer when it fits, else a MultiIndex."""
    width = int(max(key.max(initial=0), at_key.max(initial=0))) + 1
    top = int(max(version.max(initial=0), at_version.max(initial=0))) + 1
    if top * width < 2 ** 62:
        index, asked = pd.Index(version * width + key), pd.Index(at_version * width + at_key)
    else:
        index, asked = pd.MultiIndex.from_arrays([version, key]), pd.MultiIndex.from_arrays([at_version, at_key])
    if index.is_unique:
        return index.get_indexer(asked)
    first = np.flatnonzero(~index.duplicated())
    at = index[first].get_indexer(asked)
    return np.where(at >= 0, first[np.maximum(at, 0)], -1)


def _season(conn, where: list) -> tuple[pd.DataFrame, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The sessions (latest versions) meeting ``where``, their standings rows and the players of those.

    Returns ``listed`` (``version_id, version, session_id, event, date, kind``, by date, event and
    session), the standings rows (``version_id, pos, pct, method, pair, ids``: ``method`` and ``pair``
    only where ``pct`` is missing, the only rows that need them; ``ids`` the member ids text of the
    row's names, None when unknown) and the player rows (``version_id, pos, seat, player``)."""
    listed = fetch_frame(conn, select(sessions.c.latest_version_id, sessions.c.latest_version, sessions.c.session_id,
                                      sessions.c.event, sessions.c.date, sessions.c.kind)
                         .where(sessions.c.latest_version_id.is_not(None), *where)
                         .order_by(sessions.c.date, sessions.c.event, sessions.c.session_id),
                         {"version_id": "int64", "version": "Int64", "session_id": "string", "event": "string",
                          "date": "string", "kind": "string"})
    rows = fetch_rows(conn, select(standings.c.version_id, standings.c.pos, standings.c.pct, standings.c.names,
                                   standings.c.masterpoints)
                    .select_from(standings).join(sessions, sessions.c.latest_version_id == standings.c.version_id)
                    .where(*where))
    # column by column with itemgetter, not zip(*rows): zip's 48,000 iterators wake the garbage
    # collector, which then walks every object of the process (50 ms at 2,000 sessions)
    table = {"version_id": np.fromiter(map(itemgetter(0), rows), dtype=np.int64, count=len(rows)),
             "pos": np.fromiter(map(itemgetter(1), rows), dtype=np.int64, count=len(rows)),
             "pct": np.array(list(map(itemgetter(2), rows)), dtype=np.float64).reshape(-1),  # NULL: NaN
             "names": np.empty(len(rows), dtype=object)}
    table["names"][:] = list(map(itemgetter(3), rows))
    table["masterpoints"] = np.array(list(map(itemgetter(4), rows)), dtype=np.float64).reshape(-1)  # NULL: NaN
    # every later question asks for these versions by number: on PostgreSQL (read committed) a
    # version archived meanwhile changes no answer
    found = pd.unique(table["version_id"]).tolist()
    # the method and pair of the rows without a percentage (few; the notes say why each is left out)
    table["method"], table["pair"] = np.full(len(rows), None, dtype=object), np.full(len(rows), None, dtype=object)
    lacking = pd.unique(table["version_id"][np.isnan(table["pct"])]).tolist()
    missing = [row for start in range(0, len(lacking), IN_CHUNK) for row in fetch_rows(
        conn, select(standings.c.version_id, standings.c.pos, standings.c.method, standings.c.pair)
        .where(standings.c.version_id.in_(lacking[start:start + IN_CHUNK]), standings.c.pct.is_(None)))]
    if missing:
        version, pos, method, pair = (np.array(c, dtype=object) for c in zip(*missing))
        at = _locate(table["version_id"], table["pos"], version.astype(np.int64), pos.astype(np.int64))
        table["method"][at[at >= 0]], table["pair"][at[at >= 0]] = method[at >= 0], pair[at >= 0]

    seated_by = _Gather(conn, players.c.version_id, players.c.pos, players.c.seat)
    version, pos, seat, player = _gathered(conn, lambda some: select(
        seated_by.numbers(players.c.version_id), seated_by.numbers(players.c.pos), seated_by.numbers(players.c.seat),
        seated_by.texts(players.c.player)).where(players.c.version_id.in_(some)), found, "nnnt")
    seated = {"version_id": version, "pos": pos, "seat": seat, "player": player}

    # a standings row's member ids: its names row's, found by the names text, when every names row
    # of that text has the same ids (else whose they are is unknown)
    named, other = names_table.alias("named"), names_table.alias("other")
    mine, theirs = _ids_text(conn, named.c.extra), _ids_text(conn, other.c.extra)
    disagree = exists().where(other.c.version_id == named.c.version_id, other.c.names == named.c.names,
                              other.c.pos != named.c.pos, or_(theirs.is_(None), theirs != mine))
    named_by = _Gather(conn, named.c.version_id, named.c.pos)
    version, text, ids = _gathered(conn, lambda some: select(
        named_by.numbers(named.c.version_id), named_by.texts(named.c.names), named_by.texts(mine))
        .where(named.c.version_id.in_(some), mine.is_not(None), ~disagree), found, "ntt")
    table["ids"] = np.full(len(rows), None, dtype=object)
    named_rows = ~pd.isna(text)  # a names row without names matches no standings row
    version, text, ids = version[named_rows], text[named_rows], ids[named_rows]
    if len(ids):
        # the texts with ids, each as a number; a standings row's text among them (-1: not)
        texts = pd.Index(pd.unique(text))
        wanted = texts.get_indexer(table["names"])
        rows_with = np.flatnonzero(wanted >= 0)
        at = _locate(version, texts.get_indexer(text), table["version_id"][rows_with], wanted[rows_with])
        table["ids"][rows_with[at >= 0]] = ids[at[at >= 0]]
    return listed, table, seated


def ladder(url: str | os.PathLike | None = None, *, date_from: str | None = None, date_to: str | None = None,
           event: str | None = None, best: int | None = None, min_sessions: int = 1, by: By = "pair",
           fold_accents: bool = False) -> Ladder:
    """The ladder of the archived sessions from ``date_from`` to ``date_to`` (ISO dates, both
    included) and/or whose event name holds ``event`` (any case), by pair or by player.

    Returns
    -------
    Ladder
        ``table`` of LADDER_COLUMNS (see :func:`rank_ladder`), ``sessions`` (how many sessions with
        percentages the range holds: the M of "best N of M"), ``rule`` (in words) and ``notes``
        (the players taken as one, and every row or session left out, with why).
    """
    if best is not None and best < 1:
        raise ValueError(f"best must be at least 1, not {best}")
    if min_sessions < 1:
        raise ValueError(f"min_sessions must be at least 1, not {min_sessions}")
    if by not in ("pair", "player"):
        raise ValueError(f"by must be 'pair' or 'player', not {by!r}")
    where = dated(date_from, date_to)
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        listed, table, seated = _season(conn, where)
    notes: list[str] = []
    # the session filters, once per session (not per row)
    chosen = pd.Series(True, index=listed.index)
    counted = listed["version_id"].isin(pd.unique(table["version_id"])) | (listed["kind"] == "teams")
    if event:
        wanted = " ".join(event.split()).casefold()
        chosen &= pd.Series([wanted in " ".join(str(e).split()).casefold() for e in listed["event"]],
                            index=listed.index, dtype=bool)
        found = listed.loc[chosen & counted & (listed["kind"] != "teams"), "event"].value_counts(sort=False)
        notes.append("events: " + (", ".join(f"{name!r} ({n})" for name, n in found.items()) or "none"))
    if date_from or date_to:
        full_date = listed["date"].str.fullmatch(ISO_DATE.pattern).fillna(False).astype(bool)
        undated = sorted(listed.loc[chosen & counted & ~full_date, "session_id"])
        if undated:
            notes.append(f"sessions without a full date, outside any date range: {_listed(undated)}")
        chosen &= full_date
    teams = sorted(listed.loc[chosen & (listed["kind"] == "teams"), "session_id"])
    if teams:
        notes.append(f"teams sessions have no pair percentage, left out: {_listed(teams)}")

    # the standings rows of the sessions chosen, oldest first (date, event, version; pos)
    session = pd.Index(listed["version_id"]).get_indexer(table["version_id"])
    by_age = listed.assign(version=listed["version"].fillna(0)).sort_values(
        ["date", "event", "version", "version_id"], kind="stable").index.to_numpy()
    age = np.empty(len(listed), dtype=np.int64)
    age[by_age] = np.arange(len(listed))
    order = np.flatnonzero((session >= 0) & chosen.to_numpy(dtype=bool)[np.maximum(session, 0)])
    order = order[_sorted_by(age[session[order]], table["pos"][order])]
    table = {name: values[order] for name, values in table.items()}
    session = session[order]
    session_ids = listed["session_id"].to_numpy(dtype=object)
    # each player row's standings row (a player row of no standings row asked for is not one)
    row = _locate(table["version_id"], table["pos"], seated["version_id"], seated["pos"])
    seated = {name: values[row >= 0] for name, values in seated.items()}
    row = row[row >= 0]
    seats = np.bincount(row, minlength=len(order))

    no_pct = np.isnan(table["pct"])
    imps = no_pct & pd.Series(table["method"], dtype=object).isin(IMP_METHODS).to_numpy()
    if imps.any():
        notes.append(f"sessions scored by IMPs have no percentage, left out: "
                     f"{_listed(sorted(set(session_ids[session[imps]])))}")
    unnamed = ~imps & (seats == 0)
    if unnamed.any():
        notes.append(f"{int(unnamed.sum())} standings row(s) without names left out (a pair is known from one "
                     f"session to the next only by its names): {_listed(sorted(set(session_ids[session[unnamed]])))}")
    no_pct &= ~imps & ~unnamed
    if no_pct.any():
        lost = np.flatnonzero(no_pct)
        pairs = [f"{session_ids[session[i]]} pair {_text(table['pair'][i])}" for i in lost]
        notes.append(f"{len(lost)} pair(s) without a percentage left out: {_listed(pairs)}")
    kept = ~imps & ~unnamed & ~no_pct
    count = len(np.unique(session[kept]))
    rule = (f"best {best} of {count}" if best is not None else f"all of {count}") + f" sessions, by {by}"
    if min_sessions > 1:
        rule += f", at least {min_sessions} sessions to be ranked"
    if not kept.any():
        return Ladder(empty(LADDER_COLUMNS), count, rule, tuple(notes), _span(date_from, date_to, event))

    # the players of the rows that count, oldest first (row, seat), and who each is
    mine = kept[row]
    row, seat, player = row[mine], seated["seat"][mine], seated["player"][mine]
    by_row = _sorted_by(row, seat)
    row, seat, player = row[by_row], seat[by_row], player[by_row]
    member = np.full(len(row), None, dtype=object)
    has = ~pd.isna(table["ids"][row])
    if has.any():
        picked = seat_ids(pd.Series(table["ids"][row][has], dtype="string"), pd.Series(seat[has]),
                          pd.Series(seats[row][has]))
        member[has] = picked.astype(object).where(picked.notna(), None).to_numpy(dtype=object)
    codes, each = distinct_identities(player, member, fold_accents)
    notes = each.matches + notes
    # identities by key, each with its name and member id (every spelling of one key shows alike)
    key_of = _ordinal(each.key)
    identities = int(key_of.max()) + 1
    shown = np.empty(identities, dtype=object)
    shown[key_of] = each.name.to_numpy(dtype=object)
    ids = np.empty(identities, dtype=object)
    ids[key_of] = each.member_id.astype(object).where(each.member_id.notna(), None).to_numpy(dtype=object)
    who = key_of[codes]
    if by == "pair":
        by_standing = np.empty(len(order), dtype=np.int64)
        by_standing[_sorted_by(table["version_id"], table["pos"])] = np.arange(len(order))
        score_row, entry, names, id_text = _pair_entries(row, by_standing, who, _ordinal(shown), shown, ids)
    else:  # the identities, 0, 1 ... in the order of their keys, are the entries
        score_row, entry, names, id_text = row, who, shown, np.array(["" if m is None else m for m in ids], dtype=object)
    # sessions as integers sorted as their ids are; one score per entry and session (the better)
    sess = _ordinal(listed["session_id"])[session[score_row]]
    pct = table["pct"][score_row]
    ranked = np.lexsort((-pct, sess, entry))
    twice = np.zeros(len(ranked), dtype=bool)
    twice[1:] = (entry[ranked][1:] == entry[ranked][:-1]) & (sess[ranked][1:] == sess[ranked][:-1])
    if twice.any():
        notes.append("in two rows of one session, the better counts: " +
                     _listed([f"{names[entry[i]]} in {session_ids[session[score_row[i]]]}" for i in ranked[twice]]))
    once = ranked[~twice]  # every entry keeps a row: its codes stay 0, 1, ...
    awarded = table["masterpoints"][score_row]
    out = _ranked(entry[once], sess[once], pct[once], names, id_text, best, min_sessions, by_entry=True,
                  points=awarded[once] if (~np.isnan(awarded)).any() else None)
    unranked = int((out["rank"] == "").sum())
    if unranked:
        notes.append(f"{unranked} {by}(s) with fewer than {min_sessions} sessions listed unranked")
    return Ladder(out, count, rule, tuple(notes), _span(date_from, date_to, event))


def _span(date_from: str | None, date_to: str | None, event: str | None) -> str:
    """The sessions a ladder covers, in words: ``2026-09-01 to 2026-09-30, events holding 'Autumn'``."""
    span = " to ".join(d for d in (date_from, date_to) if d) or "every date"
    return span + (f", events holding {event!r}" if event else "")


def _text(value) -> str:
    """A text cell as the notes write it (a missing one as pandas prints NA)."""
    return str(pd.NA) if value is None else str(value)
