"""Read-only questions to the archive: which sessions, which versions, a player's history, is it sound."""
from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import func, select, text

from bridgeproc.archive.db import ArchiveError, engine_for, reading
from bridgeproc.archive.players import player_key, split_names
from bridgeproc.archive.store import load_session, prepare, read_frames, resolve_version, session_from
from bridgeproc.archive.tables import FRAME_TABLES, frames, players, sessions, standings, versions
from bridgeproc.model import Session
from bridgeproc.rank.methods import IMP_METHODS
from bridgeproc.schema import HISTORY_COLUMNS


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


def history(url: str | os.PathLike | None, player_or_pair: str, all_versions: bool = False) -> pd.DataFrame:
    """A player's (or a partnership's) results over every archived session, oldest first.

    Parameters
    ----------
    player_or_pair : str
        One player's name (``"Ann Smith"``) or a partnership (``"Ann Smith & Bob Jones"``,
        either order); matched case-insensitively against the standings' names.
    all_versions : bool
        Also rows of superseded versions (default: the latest version of each session); a
        version whose run did not write every output (incomplete) is never shown.

    Returns
    -------
    DataFrame
        ``date, event, session_id, version, method, group, pair, partner`` (the other
        player(s), for a one-player query), ``names, rank`` (text, ``2=``), ``boards``,
        ``pct`` (session percentage, matchpoints), ``imps`` (total IMPs for cross-IMP and
        Butler, else NaN), ``total``.
    """
    wanted = sorted({player_key(p) for p in split_names(player_or_pair)})
    if not wanted:
        return pd.DataFrame({c: pd.Series([], dtype=t) for c, t in HISTORY_COLUMNS.items()})
    engine = engine_for(url, readonly=True)
    matched = (select(players.c.version_id, players.c.pos).where(players.c.player_key.in_(wanted))
               .group_by(players.c.version_id, players.c.pos)
               .having(func.count(func.distinct(players.c.player_key)) == len(wanted)).subquery())
    query = (select(sessions.c.date, sessions.c.event, sessions.c.session_id, versions.c.version, standings.c.method,
                    standings.c.grp, standings.c.pair, standings.c.names, standings.c.rank, standings.c.boards,
                    standings.c.pct, standings.c.total)
             .select_from(matched)
             .join(versions, versions.c.version_id == matched.c.version_id)
             .join(sessions, sessions.c.session_id == versions.c.session_id)
             .join(standings, (standings.c.version_id == matched.c.version_id) & (standings.c.pos == matched.c.pos))
             .order_by(sessions.c.date, sessions.c.event, versions.c.version, standings.c.pos))
    if not all_versions:
        query = query.where(sessions.c.latest_version_id == versions.c.version_id)
    else:
        query = query.where(versions.c.complete.is_(True))
    with reading(engine) as conn:
        rows = conn.execute(query).all()
    frame = pd.DataFrame(rows, columns=["date", "event", "session_id", "version", "method", "group", "pair",
                                        "names", "rank", "boards", "pct", "total"])
    mine = set(wanted)
    frame["partner"] = [" & ".join(p for p in split_names(n or "") if player_key(p) not in mine)
                        for n in frame["names"]]
    is_imps = frame["method"].isin(IMP_METHODS)
    frame["imps"] = frame["total"].where(is_imps)
    frame["pct"] = frame["pct"].where(~is_imps | frame["pct"].notna())
    return frame[list(HISTORY_COLUMNS)].astype(HISTORY_COLUMNS)


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
        session = session_from(row, read_frames(conn, row["version_id"]))
        if prepare(session, row["event"], row["date"], sid).digest != row["content_hash"]:
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
