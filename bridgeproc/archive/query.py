"""Read-only questions to the archive: which sessions, which versions, one session shown, is it sound.

A player's history over the sessions (and its row loaders) is ``archive.history``'s.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import func, select, text

from bridgeproc.archive.db import ArchiveError, engine_for, reading
from bridgeproc.archive.load import load_session, resolve_version
from bridgeproc.archive.tables import FRAME_TABLES, frames, sessions, versions
from bridgeproc.archive.teams import content_digest, load_teams
from bridgeproc.model import Session, TeamsSession


def list_sessions(url: str | os.PathLike | None = None) -> pd.DataFrame:
    """Every archived session, newest date first.

    Returns
    -------
    DataFrame
        ``session_id, event, date, site, kind`` (``pairs`` or ``teams``), ``versions`` (latest
        version number: the latest complete one, 0 when none is), ``method`` (of the latest
        version: ``mp``, ``butler`` ..., ``teams-vp``, ``teams-imps``, ``teams-bam``), ``updated_at``
        (UTC, when it was archived), ``incomplete`` (the versions whose run did not write
        every output, e.g. ``"3"``; empty when none).
    """
    engine = engine_for(url, readonly=True)
    query = (select(sessions.c.session_id, sessions.c.event, sessions.c.date, sessions.c.site, sessions.c.kind,
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
    frame = pd.DataFrame(rows, columns=["session_id", "event", "date", "site", "kind", "versions", "method",
                                        "updated_at"])
    frame["incomplete"] = [", ".join(incomplete.get(sid, [])) for sid in frame["session_id"]]
    return frame.astype({"session_id": "string", "event": "string", "date": "string", "site": "string",
                         "kind": "string", "versions": "int64", "method": "string", "updated_at": "string", "incomplete": "string"})


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
    """One archived session for ``bridgeproc archive show``: its versions and one version's data
    (a pairs :class:`Session` or a :class:`TeamsSession`)."""

    session_id: str
    version: int
    versions: pd.DataFrame
    session: Session | TeamsSession

    @property
    def kind(self) -> str:
        """``pairs`` or ``teams``."""
        return "teams" if isinstance(self.session, TeamsSession) else "pairs"

    @property
    def heading(self) -> list[str]:
        """The session and version in words: event and date, then the movement (pairs) or the
        scoring and matches (teams)."""
        meta = self.session.meta or {}
        first = f"session {self.session_id}: {meta.get('event', '')} {meta.get('date', '')}".rstrip()
        if isinstance(self.session, TeamsSession):
            options = self.session.options
            scoring = {"vp": "VP", "imps": "IMP", "bam": "board-a-match"}.get(options.scoring, options.scoring)
            how = (f"teams, {scoring} scoring, {len(self.session.matches)} matches, "
                   f"{len(self.session.standings)} teams")
        else:
            how = str(self.session.movement)
        return [first, f"version {self.version} of {len(self.versions)}; {how}"]

    @property
    def standings(self) -> pd.DataFrame:
        """The standings as shown (a pairs session's without its method column)."""
        return self.session.standings.drop(columns=["method"], errors="ignore")

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """What ``show`` prints after the versions, by heading: the standings, and a teams session's matches."""
        out = {"standings": self.standings}
        if isinstance(self.session, TeamsSession):
            out["matches"] = self.session.matches[[c for c in MATCH_SHOWN if c in self.session.matches]]
        return out

    def __str__(self) -> str:
        lines = [*self.heading, "", "versions:", self.versions.drop(columns="content_hash").to_string(index=False)]
        for title, table in self.tables.items():
            lines += ["", f"{title}:", table.to_string(index=False)]
        return "\n".join(lines)


#: The columns of a teams session's matches ``show`` prints.
MATCH_SHOWN = ("round", "home", "away", "boards", "played", "imps_home", "imps_away", "vp_home", "vp_away", "status")


def session_kind(conn, session_id: str) -> tuple[str, int | None]:
    """(``pairs`` or ``teams``, the latest complete version) of session ``session_id`` (ArchiveError when unknown)."""
    row = conn.execute(select(sessions.c.kind, sessions.c.latest_version)
                       .where(sessions.c.session_id == session_id)).first()
    if row is None:
        raise ArchiveError(f"no session {session_id!r} in the archive; `bridgeproc archive list` shows them")
    return str(row[0]), row[1]


def show_session(url: str | os.PathLike | None, session_id: str, version: int | None = None) -> SessionView:
    """The versions of ``session_id`` and version ``version`` (default: the latest) of it, a pairs
    or a teams session; ``str()`` prints both."""
    versions_frame = session_versions(url, session_id)
    with reading(engine_for(url, readonly=True)) as conn:
        kind, latest = session_kind(conn, session_id)
    session: Session | TeamsSession = (load_teams(url, session_id, version) if kind == "teams"
                                       else load_session(url, session_id, version))
    number = int(version) if version is not None else int(latest or 0)  # the latest complete one was loaded
    return SessionView(session_id, number, versions_frame, session)
