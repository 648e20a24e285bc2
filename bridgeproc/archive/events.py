"""Events in the archive: an event (a simultaneous, a congress, a league evening) recorded as the
versions of its sessions, so that its combined result can be rebuilt from exactly what was ranked.

``events`` holds one row per event name (its ``rule``: how the sessions combine, as the caller
names it); ``event_sessions`` the sessions in order, each at the version that was its latest when
the event was recorded. Recording an event again under its name replaces its list of sessions
(the sessions' own versions are never touched).
"""
from __future__ import annotations

import os
from datetime import datetime, timezone

import pandas as pd
from sqlalchemy import delete, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert

from bridgeproc.archive.db import ArchiveError, engine_for, reading, writing
from bridgeproc.archive.tables import event_sessions as event_sessions_table
from bridgeproc.archive.tables import events, sessions


def archive_event(url: str | os.PathLike | None, name: str, session_ids: list[str], rule: str | None = None) -> int:
    """Record the event ``name`` as ``session_ids`` (in that order) at their latest versions; its event_id.

    Raises
    ------
    ArchiveError
        No name or no sessions, a session given twice, or sessions that are not in the archive
        or have no complete version (every such one is named).
    """
    name = (name or "").strip()
    if not name:
        raise ArchiveError("an event needs a name")
    if not session_ids:
        raise ArchiveError(f"event {name!r}: no sessions given")
    twice = sorted({sid for sid in session_ids if session_ids.count(sid) > 1})
    if twice:
        raise ArchiveError(f"event {name!r}: session {', '.join(twice)} given more than once; give each once")
    engine = engine_for(url)
    now = datetime.now(timezone.utc).isoformat(timespec="seconds")
    with writing(engine) as conn:
        latest = dict(conn.execute(select(sessions.c.session_id, sessions.c.latest_version)
                                   .where(sessions.c.session_id.in_(session_ids))).all())
        unknown = [sid for sid in session_ids if sid not in latest]
        unfinished = [sid for sid in session_ids if sid in latest and not latest[sid]]
        problems = ([f"no session {sid!r} in the archive" for sid in unknown]
                    + [f"session {sid!r} has no complete version yet (run it again to complete it)" for sid in unfinished])
        if problems:
            raise ArchiveError(f"event {name!r}: " + "; ".join(problems) + "; `bridgeproc archive list` shows the sessions")
        new = {"name": name, "rule": rule, "created": now}
        if conn.execute(select(events.c.event_id).where(events.c.name == name)).first() is None:
            if conn.dialect.name == "postgresql":  # two clubs recording one new event at once: one row, then its lock
                conn.execute(pg_insert(events).values(**new).on_conflict_do_nothing(index_elements=[events.c.name]))
            else:  # SQLite: BEGIN IMMEDIATE holds the file's write lock
                conn.execute(insert(events).values(**new))
        event_id = conn.execute(select(events.c.event_id).where(events.c.name == name).with_for_update()).scalar_one()
        conn.execute(update(events).where(events.c.event_id == event_id).values(rule=rule))
        conn.execute(delete(event_sessions_table).where(event_sessions_table.c.event_id == event_id))
        conn.execute(insert(event_sessions_table), [
            {"event_id": event_id, "session_id": sid, "version": int(latest[sid]), "session_order": order}
            for order, sid in enumerate(session_ids)])
    return int(event_id)


def event_sessions(url: str | os.PathLike | None, name: str) -> pd.DataFrame:
    """The sessions of the event ``name`` in order: ``session_id, version`` (as recorded), ``event, date,
    kind`` (of the session), ``rule`` (of the event).

    Raises
    ------
    ArchiveError
        No event of that name (the known names are listed).
    """
    engine = engine_for(url, readonly=True)
    query = (select(event_sessions_table.c.session_id, event_sessions_table.c.version, sessions.c.event,
                    sessions.c.date, sessions.c.kind, events.c.rule)
             .join(events, events.c.event_id == event_sessions_table.c.event_id)
             .join(sessions, sessions.c.session_id == event_sessions_table.c.session_id)
             .where(events.c.name == name).order_by(event_sessions_table.c.session_order))
    with reading(engine) as conn:
        rows = conn.execute(query).all()
        if not rows:
            known = conn.execute(select(events.c.name).order_by(events.c.name)).scalars().all()
    if not rows:
        listed = ", ".join(repr(k) for k in known) if known else "none yet"
        raise ArchiveError(f"no event {name!r} in the archive; the events are: {listed}")
    frame = pd.DataFrame(rows, columns=["session_id", "version", "event", "date", "kind", "rule"])
    return frame.astype({"session_id": "string", "version": "int64", "event": "string", "date": "string",
                         "kind": "string", "rule": "string"})
