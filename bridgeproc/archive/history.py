"""A player's (or a partnership's) history over the archive, and the row loaders it is built from.

:func:`history` finds a player's results in every archived pairs and teams session, matched by
member id or by name (``archive.players``). :func:`standing_players` and :func:`team_players` load
one row per player of the standings rows asked for, in narrow queries read column by column from
the driver (:func:`fetch_frame`); the season's ladder (``archive.ladder``) reads them too.
"""
from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable

import numpy as np
import pandas as pd
from sqlalchemy import and_, case, cast, exists, func, or_, select, true, tuple_
from sqlalchemy.dialects.postgresql import JSONB

from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.players import BY_ID, identify, name_key, name_keys, seat_ids, split_names
from bridgeproc.archive.tables import names as names_table
from bridgeproc.archive.tables import players, sessions, standings, team_standings, versions
from bridgeproc.model import History
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import HISTORY_COLUMNS, empty


def _ids_text(conn, extra):
    """The names row's ``ids`` (member ids, kept in its ``extra`` JSON) as an SQL expression."""
    if conn.dialect.name == "postgresql":
        return cast(extra, JSONB)["ids"].astext
    return func.json_extract(extra, "$.ids")


#: The standings columns :func:`standing_players` can give: frame name -> (SQL column, dtype).
STANDING_FIELDS = {"method": (standings.c.method, "string"), "group": (standings.c.grp, "string"),
                   "pair": (standings.c.pair, "string"), "names": (standings.c.names, "string"),
                   "rank": (standings.c.rank, "string"), "boards": (standings.c.boards, "Int64"),
                   "pct": (standings.c.pct, "float64"), "total": (standings.c.total, "float64"),
                   "masterpoints": (standings.c.masterpoints, "float64")}
#: What identifies a session's version in every row of those frames.
_HEADS = {"session_id": "string", "event": "string", "date": "string", "version": "int64"}


def dated(date_from: str | None = None, date_to: str | None = None) -> list:
    """The SQL conditions of a season: sessions from ``date_from`` to ``date_to`` (ISO dates, both included;
    either may be None)."""
    return ([sessions.c.date >= date_from] if date_from else []) + ([sessions.c.date <= date_to] if date_to else [])


def _current(all_versions: bool):
    """The versions a question reads: each session's latest, or (``all_versions``) every complete one."""
    return versions.c.complete.is_(True) if all_versions else sessions.c.latest_version_id == versions.c.version_id


def fetch_rows(conn, query) -> list[tuple]:
    """The rows of ``query`` as the driver's plain tuples: SQLAlchemy's Row objects cost as much as the
    database's own work on a season's 100,000 rows (for plain numbers and text, which need no result
    processing)."""
    compiled = query.compile(dialect=conn.dialect, compile_kwargs={"render_postcompile": True})
    named = compiled.params  # built anew on each access
    params = tuple(named[name] for name in compiled.positiontup or ()) if compiled.positional else named
    cursor = conn.connection.driver_connection.cursor()
    try:
        cursor.execute(str(compiled), params)
        return cursor.fetchall()
    finally:
        cursor.close()


def fetch_frame(conn, query, dtypes: dict[str, str]) -> pd.DataFrame:
    """The rows of ``query`` (its columns named and typed by ``dtypes``, in order), built column by
    column from :func:`fetch_rows`."""
    values = list(zip(*fetch_rows(conn, query))) or [()] * len(dtypes)
    return pd.DataFrame({c: pd.Series(v, dtype=d) for (c, d), v in zip(dtypes.items(), values)})


#: Parameters per ``IN (...)`` list (well below SQLite's and PostgreSQL's limits).
IN_CHUNK = 5_000
#: Up to this many standings rows, their players are asked for row by row (``(version_id, pos)
#: IN ...``: a player's history); more, version by version (a season's ladder).
FEW_ROWS = 2_000


def _among(conn, query, columns: tuple, keys: list, dtypes: dict[str, str]) -> pd.DataFrame:
    """:func:`fetch_frame` of ``query`` restricted to ``columns IN keys`` (values, or tuples of as many
    as ``columns``), in chunks: the rows of what was already found, without asking the question's
    conditions again."""
    column = columns[0] if len(columns) == 1 else tuple_(*columns)
    step = IN_CHUNK // len(columns)
    parts = [fetch_frame(conn, query.where(column.in_(keys[start:start + step])), dtypes)
             for start in range(0, len(keys), step)]
    if not parts:
        return empty(dict(dtypes))
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


def _heads(conn, version_ids: np.ndarray) -> pd.DataFrame:
    """``session_id, event, date, version`` and ``order`` (by date, event, version) of each of
    ``version_ids``, indexed by version_id (cheaper than repeating them in every player's row)."""
    query = (select(versions.c.version_id, sessions.c.session_id, sessions.c.event, sessions.c.date,
                    versions.c.version).join(sessions, sessions.c.session_id == versions.c.session_id))
    heads = _among(conn, query, (versions.c.version_id,), version_ids.tolist(), {"version_id": "int64", **_HEADS})
    heads = heads.sort_values(["date", "event", "version"], kind="stable")
    return heads.assign(order=np.arange(len(heads), dtype=np.int64)).set_index("version_id")


def _with_heads(rows: pd.DataFrame, heads: pd.DataFrame) -> pd.DataFrame:
    """``rows`` (with ``version_id, pos, seat``) with their version's heads in front, in the order of
    date, event, version, pos and seat."""
    at = heads.index.get_indexer(rows["version_id"])
    front = {c: heads[c].take(at).reset_index(drop=True) for c in _HEADS}
    rows = pd.concat([pd.DataFrame(front), rows.reset_index(drop=True)], axis=1)
    order = np.lexsort((rows["seat"].fillna(-1).to_numpy(dtype=np.int64), rows["pos"].to_numpy(dtype=np.int64),
                        heads["order"].to_numpy().take(at)))
    return rows.take(order).reset_index(drop=True)


def standing_players(conn, *where, all_versions: bool = False, fields: Iterable[str] | None = None) -> pd.DataFrame:
    """One row per player of each pairs standings row meeting ``where`` (SQL conditions on the
    ``standings``, ``versions`` and ``sessions`` tables); a row without names comes once with
    ``player`` NA. Latest versions only, unless ``all_versions`` (then every complete one).

    Three narrow queries joined here (the standings rows with their names rows' member ids, their
    players, their versions), not one wide one: the versions' text repeated per player cost most of
    the time.

    Returns
    -------
    DataFrame
        ``session_id, event, date, version, version_id, pos``, the standings ``fields`` (default all of
        ``method, group, pair, names, rank, boards, pct, total``), ``seat, player``, ``players`` (of the
        row) and ``member_id`` (the player's, from the names list's ids; NA when it has none or not one
        per player, or two names rows with the row's names text disagree).
    """
    wanted = list(STANDING_FIELDS) if fields is None else [f for f in STANDING_FIELDS if f in set(fields)]
    scope = (select(standings.c.version_id, standings.c.pos).select_from(standings)
             .join(versions, versions.c.version_id == standings.c.version_id)
             .join(sessions, sessions.c.session_id == versions.c.session_id)
             .where(_current(all_versions), *where))
    rows = fetch_frame(conn, scope.add_columns(*[STANDING_FIELDS[f][0] for f in wanted], _names_ids(conn)),
                       {"version_id": "int64", "pos": "int64", **{f: STANDING_FIELDS[f][1] for f in wanted},
                        "ids": "string"})
    found = pd.unique(rows["version_id"].to_numpy())
    few = len(rows) <= FEW_ROWS
    keys = list(zip(rows["version_id"].tolist(), rows["pos"].tolist())) if few else found.tolist()
    seated = _among(conn, select(players.c.version_id, players.c.pos, players.c.seat, players.c.player),
                    (players.c.version_id, players.c.pos) if few else (players.c.version_id,), keys,
                    {"version_id": "int64", "pos": "int64", "seat": "Int64", "player": "string"})
    heads = _heads(conn, found)
    frame = rows.merge(seated, on=["version_id", "pos"], how="left", sort=False)
    frame = _with_heads(frame, heads)
    frame["players"] = frame.groupby(["version_id", "pos"], sort=False)["seat"].transform("count").astype("int64")
    member = pd.Series(pd.NA, index=frame.index, dtype="string")
    has = frame["ids"].notna().to_numpy()
    if has.any():
        member[has] = seat_ids(frame["ids"][has], frame["seat"][has].fillna(0), frame["players"][has])
    frame["member_id"] = member
    order = ["session_id", "event", "date", "version", "version_id", "pos", *wanted, "seat", "player", "players",
             "member_id"]
    return frame[order]


def _names_ids(conn):
    """The ids text (member ids) of a standings row's names row, found by its names text (indexed),
    as a scalar subquery: NULL when none, or when two names rows of that text differ (a row without
    ids differs from one with them), for then whose ids they are is unknown."""
    listed = names_table.alias("listed")
    ids = func.nullif(func.trim(_ids_text(conn, listed.c.extra)), "")
    agreed = and_(func.count() == func.count(ids), func.min(ids) == func.max(ids))
    return (select(case((agreed, func.min(ids)))).select_from(listed)
            .where(listed.c.version_id == standings.c.version_id, listed.c.names == standings.c.names)
            .scalar_subquery())


def team_players(conn, *where, all_versions: bool = False) -> pd.DataFrame:
    """One row per player of each teams standings row (``team_standings``) meeting ``where``, in the
    columns of :func:`standing_players`: ``pair`` is the team, ``group`` empty, ``pct`` NaN, ``names``
    the team's names text (else its players), ``member_id`` the player's (the room games' ``#23324``);
    and ``imps``, the team's IMP difference. Latest versions only, unless ``all_versions``."""
    query = (select(team_standings.c.version_id, team_standings.c.pos, versions.c.method, team_standings.c.team,
                    team_standings.c.names, team_standings.c.rank, team_standings.c.boards, team_standings.c.total,
                    team_standings.c.imp_difference, players.c.seat, players.c.player, players.c.member_id)
             .select_from(team_standings)
             .join(versions, versions.c.version_id == team_standings.c.version_id)
             .join(sessions, sessions.c.session_id == versions.c.session_id)
             .join(players, (players.c.version_id == team_standings.c.version_id)
                   & (players.c.pos == team_standings.c.pos))
             .where(_current(all_versions), sessions.c.kind == "teams", *where))
    rows = fetch_frame(conn, query, {"version_id": "int64", "pos": "int64", "method": "string", "pair": "string",
                                     "names": "string", "rank": "string", "boards": "Int64", "total": "float64",
                                     "imps": "float64", "seat": "Int64", "player": "string", "member_id": "string"})
    rows = _with_heads(rows, _heads(conn, pd.unique(rows["version_id"].to_numpy())))
    team = rows.groupby(["version_id", "pos"], sort=False)["player"]
    rows["names"] = rows["names"].fillna(team.transform(" & ".join).astype("string"))
    rows["players"] = team.transform("count").astype("int64")
    rows["member_id"] = rows["member_id"].str.strip().str.upper().replace("", pd.NA)
    rows["group"], rows["pct"] = pd.Series("", index=rows.index, dtype="string"), np.nan
    rows["masterpoints"] = np.nan  # a teams session's awards are not archived per team
    return rows[["session_id", "event", "date", "version", "version_id", "pos", *STANDING_FIELDS, "seat", "player",
                 "players", "member_id", "imps"]]


def _like_any(column, words: list[str]):
    """``column`` holds every word of one of the names (a superset of the matches, for the index)."""
    def holds(word: str):
        forms = {word, unicodedata.normalize("NFD", word)}
        return or_(*[column.contains(f, autoescape=True) for f in forms])
    return or_(*[and_(*[holds(w) for w in name.split()]) for name in words])


def history(url: str | os.PathLike | None, player_or_pair: str, all_versions: bool = False,
            fold_accents: bool = False) -> History:
    """A player's (or a partnership's) results over every archived session, oldest first.

    Parameters
    ----------
    player_or_pair : str
        One player's name (``"Ann Smith"``, ``"Smith, Ann"``) or member id, or a partnership
        (``"Ann Smith & Bob Jones"``, either order). Players are matched as
        :mod:`bridgeproc.archive.players` says: by member id where the names list gave one (a
        name finds every row of its member, whatever the spelling there), else by name in any case,
        word order and spacing; accents count unless ``fold_accents``.
    all_versions : bool
        Also rows of superseded versions (default: the latest version of each session); a
        version whose run did not write every output (incomplete) is never shown.

    Returns
    -------
    History
        ``table``: ``date, event, session_id, version, method, group, pair, partner`` (the other
        player(s), for a one-player query), ``names, rank`` (text, ``2=``), ``boards``,
        ``pct`` (session percentage, matchpoints), ``imps`` (total IMPs for cross-IMP and
        Butler, else NaN), ``total``; ``matches``: the spellings and member ids taken as
        one player (:class:`Identities`).
    """
    wanted = split_names(player_or_pair)
    if not wanted:
        return History(empty(HISTORY_COLUMNS))
    keys = [name_key(p, fold_accents) for p in wanted]
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        rows = _history_rows(conn, wanted, keys, all_versions, fold_accents)
    if rows.empty:
        return History(empty(HISTORY_COLUMNS))
    who = identify(rows["player"], rows["member_id"], fold_accents)
    rows["key"] = who.key
    present = set(rows["key"])
    # each player asked for: every identity their name has (its member, or the name), or the member id given
    asked = [set(rows.loc[who.name_key == k, "key"]) | ({BY_ID + w.upper()} & present) for w, k in zip(wanted, keys)]
    row_id = rows["version_id"].astype("string") + ":" + rows["pos"].astype("string")
    hit = pd.Series(True, index=rows.index)
    for item in asked:
        hit &= row_id.isin(set(row_id[rows["key"].isin(item)]))
    mine = set().union(*asked)
    partner = rows[hit & ~rows["key"].isin(mine) & rows["player"].notna()]
    partners = partner.groupby(row_id[partner.index], sort=False)["player"].agg(" & ".join).astype("string")
    chosen = rows[hit & ~row_id.duplicated()].copy()
    chosen["partner"] = row_id[chosen.index].map(partners).astype("string").fillna("")
    is_imps = chosen["method"].isin(IMP_METHODS)
    # a pairs session by IMPs: its total; a teams session: the team's IMP difference (its total is VPs)
    teams = chosen["imps"] if "imps" in chosen else pd.Series(np.nan, index=chosen.index)
    chosen["imps"] = chosen["total"].where(is_imps, teams)
    chosen["pct"] = chosen["pct"].where(~is_imps | chosen["pct"].notna())
    chosen = chosen.sort_values(["date", "event", "version", "pos"], kind="stable")
    out = chosen[list(HISTORY_COLUMNS)].astype(HISTORY_COLUMNS).reset_index(drop=True)
    spellings = set(rows.loc[rows["key"].isin(mine), "player"].dropna())
    return History(out, tuple(m for m in who.matches if any(repr(p) in m for p in spellings)))


def _history_rows(conn, wanted: list[str], keys: list[str], all_versions: bool, fold_accents: bool) -> pd.DataFrame:
    """The standings rows of pairs and teams sessions (one row per player) that may hold the players
    asked for: a name's words (every row, with ``fold_accents``) or a member id; then every row of
    the members so found. Oldest first (date, event, version, row, seat)."""
    listed, named_player = names_table.alias("listed"), players.alias("named_player")

    def by_words(table, words: list[str]):
        return true() if fold_accents else exists().where(
            named_player.c.version_id == table.c.version_id, named_player.c.pos == table.c.pos,
            _like_any(named_player.c.player_key, words))

    def pairs_with_ids(ids: list[str]):
        extra = func.lower(listed.c.extra)
        return exists().where(listed.c.version_id == standings.c.version_id, listed.c.names == standings.c.names,
                              or_(*[extra.contains(i.lower(), autoescape=True) for i in ids]))

    def teams_with_ids(ids: list[str]):
        return exists().where(named_player.c.version_id == team_standings.c.version_id,
                              named_player.c.pos == team_standings.c.pos,
                              func.upper(func.trim(named_player.c.member_id)).in_([i.upper() for i in ids]))

    def both(pairs_where, teams_where) -> pd.DataFrame:
        found = [standing_players(conn, pairs_where, all_versions=all_versions),
                 team_players(conn, teams_where, all_versions=all_versions)]
        return pd.concat([f for f in found if len(f)] or found[:1], ignore_index=True)

    rows = both(or_(by_words(standings, keys), pairs_with_ids(wanted)),
                or_(by_words(team_standings, keys), teams_with_ids(wanted)))
    found_keys = name_keys(rows["player"], fold_accents)
    # the member ids of the names asked for, and the names of the member ids asked for (a name
    # without an id elsewhere is that member when it has no other id: players.identify decides)
    members = sorted(set(rows.loc[found_keys.isin(keys), "member_id"].dropna()) - {w.upper() for w in wanted})
    their_names = sorted(set(found_keys[rows["member_id"].isin({w.upper() for w in wanted})]) - set(keys) - {""})
    if (members or their_names) and not fold_accents:
        pairs_more = ([pairs_with_ids(members)] if members else []) + (
            [by_words(standings, their_names)] if their_names else [])
        teams_more = ([teams_with_ids(members)] if members else []) + (
            [by_words(team_standings, their_names)] if their_names else [])
        more = both(or_(*pairs_more), or_(*teams_more))
        rows = pd.concat([rows, more], ignore_index=True).drop_duplicates(["version_id", "pos", "seat"])
    rows = rows.sort_values(["date", "event", "version", "pos", "seat"], kind="stable", na_position="first")
    return rows.reset_index(drop=True)
