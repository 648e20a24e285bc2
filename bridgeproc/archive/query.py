"""Read-only questions to the archive: which sessions, which versions, a player's history, is it sound."""
from __future__ import annotations

import os
import unicodedata
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import and_, cast, exists, func, or_, select, text, true
from sqlalchemy.dialects.postgresql import JSONB

from bridgeproc.archive.db import ArchiveError, engine_for, reading
from bridgeproc.archive.players import BY_ID, identify, name_key, name_keys, seat_ids, split_names
from bridgeproc.archive.store import load_session, resolve_version
from bridgeproc.archive.tables import FRAME_TABLES, frames, players, sessions, standings, versions
from bridgeproc.archive.tables import names as names_table
from bridgeproc.archive.teams import content_digest
from bridgeproc.model import Session
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import HISTORY_COLUMNS, empty


def list_sessions(url: str | os.PathLike | None = None) -> pd.DataFrame:
    """Every archived session, newest date first.

    Returns
    -------
    DataFrame
        ``session_id, event, date, site, versions`` (latest version number: the latest
        complete one, 0 when none is), ``method`` (of the latest version), ``updated_at``
        (UTC, when it was archived), ``incomplete`` (the versions whose run did not write
        every output, e.g. ``"3"``; empty when none).
    """
    engine = engine_for(url, readonly=True)
    query = (select(sessions.c.session_id, sessions.c.event, sessions.c.date, sessions.c.site,
                    func.coalesce(sessions.c.latest_version, 0).label("versions"), versions.c.method,
                    sessions.c.updated_at)
             .outerjoin(versions, versions.c.version_id == sessions.c.latest_version_id)
             .order_by(sessions.c.date.desc(), sessions.c.event))
    pending = (select(versions.c.session_id, versions.c.version).where(versions.c.complete.is_(False))
               .order_by(versions.c.session_id, versions.c.version))
    with reading(engine) as conn:
        rows = conn.execute(query).all()
        incomplete: dict[str, list[str]] = {}
        for sid, number in conn.execute(pending).all():
            incomplete.setdefault(sid, []).append(str(number))
    frame = pd.DataFrame(rows, columns=["session_id", "event", "date", "site", "versions", "method", "updated_at"])
    frame["incomplete"] = [", ".join(incomplete.get(sid, [])) for sid in frame["session_id"]]
    return frame.astype({"session_id": "string", "event": "string", "date": "string", "site": "string",
                         "versions": "int64", "method": "string", "updated_at": "string", "incomplete": "string"})


def session_versions(url: str | os.PathLike | None, session_id: str) -> pd.DataFrame:
    """Every version of ``session_id``: ``version, created_at, method, results, content_hash,
    comment, complete`` (False: its run did not write every output; it never was the latest)."""
    engine = engine_for(url, readonly=True)
    count = (select(frames.c.n_rows).where(frames.c.version_id == versions.c.version_id,
                                           frames.c.frame == "results").scalar_subquery())
    query = (select(versions.c.version, versions.c.created_at, versions.c.method, count.label("results"),
                    versions.c.content_hash, versions.c.comment, versions.c.complete)
             .where(versions.c.session_id == session_id).order_by(versions.c.version))
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    if not rows:
        raise ArchiveError(f"no session {session_id!r} in the archive; `bridgeproc archive list` shows them")
    frame = pd.DataFrame(rows, columns=["version", "created_at", "method", "results", "content_hash", "comment",
                                        "complete"])
    return frame.astype({"version": "int64", "created_at": "string", "method": "string", "results": "Int64",
                         "content_hash": "string", "comment": "string", "complete": "bool"})


def _ids_text(conn, extra):
    """The names row's ``ids`` (member ids, kept in its ``extra`` JSON) as an SQL expression."""
    if conn.dialect.name == "postgresql":
        return cast(extra, JSONB)["ids"].astext
    return func.json_extract(extra, "$.ids")


def standing_players(conn, *where, all_versions: bool = False) -> pd.DataFrame:
    """One row per player of each pairs standings row meeting ``where`` (SQL conditions), in one query;
    a row without names comes once with ``player`` NA. Latest versions only, unless
    ``all_versions`` (then every complete one).

    Returns
    -------
    DataFrame
        ``session_id, event, date, version, version_id, pos, method, group, pair, names, rank,
        boards, pct, total, seat, player``, ``players`` (of the row) and ``member_id`` (the
        player's, from the names list's ids; NA when it has none or not one per player).
    """
    named = names_table.alias("named")
    query = (select(sessions.c.session_id, sessions.c.event, sessions.c.date, versions.c.version,
                    standings.c.version_id, standings.c.pos, standings.c.method, standings.c.grp, standings.c.pair,
                    standings.c.names, standings.c.rank, standings.c.boards, standings.c.pct, standings.c.total,
                    players.c.seat, players.c.player, _ids_text(conn, named.c.extra).label("ids"))
             .select_from(standings)
             .join(versions, versions.c.version_id == standings.c.version_id)
             .join(sessions, sessions.c.session_id == versions.c.session_id)
             .outerjoin(players, (players.c.version_id == standings.c.version_id) & (players.c.pos == standings.c.pos))
             .outerjoin(named, (named.c.version_id == standings.c.version_id) & (named.c.names == standings.c.names))
             .where(*where)
             .order_by(sessions.c.date, sessions.c.event, versions.c.version, standings.c.pos, players.c.seat))
    if all_versions:
        query = query.where(versions.c.complete.is_(True))
    else:
        query = query.where(sessions.c.latest_version_id == versions.c.version_id)
    result = conn.execute(query)
    columns = ["session_id", "event", "date", "version", "version_id", "pos", "method", "group", "pair", "names",
               "rank", "boards", "pct", "total", "seat", "player", "ids"]
    # column by column from plain tuples: building a frame from Row objects costs several times more
    values = list(zip(*result.all())) or [()] * len(columns)
    frame = pd.DataFrame({c: pd.Series(v, dtype="object") for c, v in zip(columns, values)})
    frame = frame.astype({"session_id": "string", "event": "string", "date": "string", "version": "int64",
                          "version_id": "int64", "pos": "int64", "method": "string", "group": "string",
                          "pair": "string", "names": "string", "rank": "string", "boards": "Int64",
                          "pct": "float64", "total": "float64", "seat": "Int64", "player": "string", "ids": "string"})
    frame["players"] = frame.groupby(["version_id", "pos"])["seat"].transform("count").astype("int64")
    frame["member_id"] = seat_ids(frame["ids"], frame["seat"].fillna(0), frame["players"])
    # two names rows with the same names text: one player row each; their ids only when they agree
    seat = ["version_id", "pos", "seat"]
    frame = frame.drop_duplicates(seat + ["member_id"])
    frame.loc[frame.duplicated(seat, keep=False), "member_id"] = pd.NA
    return frame.drop_duplicates(seat).drop(columns="ids").reset_index(drop=True)


def _like_any(column, words: list[str]):
    """``column`` holds every word of one of the names (a superset of the matches, for the index)."""
    def holds(word: str):
        forms = {word, unicodedata.normalize("NFD", word)}
        return or_(*[column.contains(f, autoescape=True) for f in forms])
    return or_(*[and_(*[holds(w) for w in name.split()]) for name in words])


def history(url: str | os.PathLike | None, player_or_pair: str, all_versions: bool = False,
            fold_accents: bool = False) -> pd.DataFrame:
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
    DataFrame
        ``date, event, session_id, version, method, group, pair, partner`` (the other
        player(s), for a one-player query), ``names, rank`` (text, ``2=``), ``boards``,
        ``pct`` (session percentage, matchpoints), ``imps`` (total IMPs for cross-IMP and
        Butler, else NaN), ``total``. ``attrs["matches"]``: the spellings and member ids taken as
        one player (:class:`Identities`).
    """
    wanted = split_names(player_or_pair)
    if not wanted:
        return empty(HISTORY_COLUMNS)
    keys = [name_key(p, fold_accents) for p in wanted]
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        rows = _history_rows(conn, wanted, keys, all_versions, fold_accents)
    if rows.empty:
        return empty(HISTORY_COLUMNS)
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
    chosen["imps"] = chosen["total"].where(is_imps)
    chosen["pct"] = chosen["pct"].where(~is_imps | chosen["pct"].notna())
    chosen = chosen.sort_values(["date", "event", "version", "pos"], kind="stable")
    out = chosen[list(HISTORY_COLUMNS)].astype(HISTORY_COLUMNS).reset_index(drop=True)
    spellings = set(rows.loc[rows["key"].isin(mine), "player"].dropna())
    out.attrs["matches"] = [m for m in who.matches if any(repr(p) in m for p in spellings)]
    return out


def _history_rows(conn, wanted: list[str], keys: list[str], all_versions: bool, fold_accents: bool) -> pd.DataFrame:
    """The standings rows (one row per player) that may hold the players asked for: a name's words
    (every row, with ``fold_accents``) or a member id; then every row of the members so found."""
    listed, named_player = names_table.alias("listed"), players.alias("named_player")

    def with_ids(ids: list[str]):
        extra = func.lower(listed.c.extra)
        return exists().where(listed.c.version_id == standings.c.version_id, listed.c.names == standings.c.names,
                              or_(*[extra.contains(i.lower(), autoescape=True) for i in ids]))

    by_words = true() if fold_accents else exists().where(
        named_player.c.version_id == standings.c.version_id, named_player.c.pos == standings.c.pos,
        _like_any(named_player.c.player_key, keys))
    rows = standing_players(conn, or_(by_words, with_ids(wanted)), all_versions=all_versions)
    named = name_keys(rows["player"], fold_accents).isin(keys)
    members = sorted(set(rows.loc[named, "member_id"].dropna()) - {w.upper() for w in wanted})
    if members:
        more = standing_players(conn, with_ids(members), all_versions=all_versions)
        rows = pd.concat([rows, more], ignore_index=True).drop_duplicates(["version_id", "pos", "seat"])
    return rows.reset_index(drop=True)


def check_archive(url: str | os.PathLike | None = None, deep: bool = False) -> list[str]:
    """Problems found in the archive (empty when sound).

    Runs SQLite's ``PRAGMA integrity_check`` and checks that every version is
    complete: each frame it declares has exactly ``n_rows`` rows, version numbers
    run 1..n without gaps, and each session's latest version exists, is complete and is its
    highest complete version (incomplete ones are no problem: a run was interrupted). With ``deep``
    every version is also read back and its content hash recomputed (slow on big
    archives).
    """
    engine = engine_for(url, readonly=True)
    problems: list[str] = []
    with reading(engine) as conn:
        if conn.dialect.name == "sqlite":
            verdict = [r[0] for r in conn.execute(text("PRAGMA integrity_check")).all()]
            if verdict != ["ok"]:
                problems += [f"integrity_check: {v}" for v in verdict]
        for name, table in FRAME_TABLES.items():
            counts: dict[int, int] = dict(conn.execute(select(table.c.version_id, func.count()).group_by(table.c.version_id)).all())
            declared = conn.execute(select(frames.c.version_id, frames.c.n_rows)
                                    .where(frames.c.frame == name)).all()
            for version_id, n_rows in declared:
                if counts.get(version_id, 0) != n_rows:
                    problems.append(f"version_id {version_id}: {name} has {counts.get(version_id, 0)} rows, "
                                    f"expected {n_rows}")
            orphans = set(counts) - {v for v, _ in declared}
            problems += [f"version_id {v}: {name} rows without a frames entry" for v in sorted(orphans)]
        numbers: dict[str, list[int]] = {}
        complete: dict[str, list[int]] = {}
        ids: dict[int, tuple[str, int, bool]] = {}
        for version_id, sid, number, done in conn.execute(select(versions.c.version_id, versions.c.session_id,
                                                                 versions.c.version, versions.c.complete)).all():
            numbers.setdefault(sid, []).append(number)
            if done:
                complete.setdefault(sid, []).append(number)
            ids[version_id] = (sid, number, bool(done))
        for sid, latest, latest_id in conn.execute(select(sessions.c.session_id, sessions.c.latest_version,
                                                          sessions.c.latest_version_id)).all():
            have = sorted(numbers.get(sid, []))
            if have != list(range(1, len(have) + 1)) or (latest or 0) != max(complete.get(sid, [0])):
                problems.append(f"session {sid}: versions {have}, latest recorded as {latest}")
            elif latest_id is not None and ids.get(latest_id) != (sid, latest, True):
                problems.append(f"session {sid}: its latest version_id {latest_id} is not its complete version {latest}")
        no_frames = conn.execute(select(versions.c.version_id).where(
            ~select(frames.c.version_id).where(frames.c.version_id == versions.c.version_id).exists())).all()
        problems += [f"version_id {v}: no frames stored" for (v,) in no_frames]
        if deep and not problems:
            problems += _rehash(conn)
    return problems


def _rehash(conn) -> list[str]:
    out = []
    for sid, number in conn.execute(select(versions.c.session_id, versions.c.version)
                                    .order_by(versions.c.session_id, versions.c.version)).all():
        row = resolve_version(conn, sid, number)
        if content_digest(conn, row) != row["content_hash"]:  # a pairs or a teams session
            out.append(f"session {sid} version {number}: content differs from its hash")
    return out


@dataclass
class SessionView:
    """One archived session for ``bridgeproc archive show``: its versions and one version's data."""

    session_id: str
    version: int
    versions: pd.DataFrame
    session: Session

    def __str__(self) -> str:
        meta = self.session.meta or {}
        head = [f"session {self.session_id}: {meta.get('event', '')} {meta.get('date', '')}".rstrip(),
                f"version {self.version} of {len(self.versions)}; {self.session.movement}", "", "versions:",
                self.versions.drop(columns="content_hash").to_string(index=False), "", "standings:"]
        table = self.session.standings.drop(columns=["method"], errors="ignore")
        return "\n".join(head + [table.to_string(index=False)])


def show_session(url: str | os.PathLike | None, session_id: str, version: int | None = None) -> SessionView:
    """The versions of ``session_id`` and version ``version`` (default: the latest) of it; ``str()`` prints both."""
    versions_frame = session_versions(url, session_id)
    session = load_session(url, session_id, version)
    number = int(version) if version is not None else int(versions_frame["version"].max())
    return SessionView(session_id, number, versions_frame, session)
