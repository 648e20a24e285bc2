"""Read an archived version back: its ``versions`` row, its frames, and the Session they make.

:func:`resolve_version` finds a session's version (the latest complete one by default, every
refusal saying what to do), :func:`read_frames` reads its frames exactly as archived and
:func:`session_from` rebuilds the Session (:func:`load_session` does all three). Writing versions
is ``archive.store``'s.
"""
from __future__ import annotations

import dataclasses
import json
import os

import pandas as pd
from sqlalchemy import select

from bridgeproc.archive.codec import decode, select_columns
from bridgeproc.archive.db import ArchiveError, engine_for, reading
from bridgeproc.archive.store import last_version_number
from bridgeproc.archive.tables import FRAME_TABLES, frames, sessions, versions
from bridgeproc.model import Options, Session
from bridgeproc.rank import Conventions


def resolve_version(conn, session_id: str, version: int | None = None) -> dict:
    """The ``versions`` row (as a dict) of ``session_id`` version ``version`` (default: the latest)."""
    query = select(versions, sessions.c.event, sessions.c.date, sessions.c.site, sessions.c.kind).join(
        sessions, sessions.c.session_id == versions.c.session_id).where(versions.c.session_id == session_id)
    if version is None:
        query = query.where(versions.c.version_id == sessions.c.latest_version_id)
    else:
        query = query.where(versions.c.version == int(version))
    row = conn.execute(query).mappings().first()
    if row is None:
        known = conn.execute(select(sessions.c.latest_version).where(sessions.c.session_id == session_id)).first()
        if known is None:
            raise ArchiveError(f"no session {session_id!r} in the archive; `bridgeproc archive list` shows them")
        if version is None:
            raise ArchiveError(f"session {session_id!r} has no complete version yet: the run that archived it did "
                               "not write every output; run it again to complete it (or give its --version)")
        last = last_version_number(conn, session_id)
        raise ArchiveError(f"session {session_id!r} has no version {version}; versions are 1 to {last}")
    return dict(row)


def read_frames(conn, version_id: int) -> dict[str, pd.DataFrame]:
    """Every frame stored for ``version_id``, exactly as archived."""
    specs = conn.execute(select(frames.c.frame, frames.c.columns).where(frames.c.version_id == version_id)).all()
    out = {}
    for name, columns in specs:
        spec = json.loads(columns)
        table = FRAME_TABLES[name]
        rows = conn.execute(select(*select_columns(spec, table)).where(table.c.version_id == version_id)
                            .order_by(table.c.pos)).all()
        out[name] = decode(spec, rows)
    return out


def _conventions(text: str):
    values = json.loads(text)
    known = {f.name for f in dataclasses.fields(Conventions)}
    return Conventions(**{k: v for k, v in values.items() if k in known})


def _options(text: str | None):
    try:
        return Options.from_record(json.loads(text or "{}"))
    except (TypeError, ValueError, AttributeError):
        return Options()


def load_session(url: str | os.PathLike | None, session_id: str, version: int | None = None) -> Session:
    """Rebuild the :class:`bridgeproc.session.Session` archived as ``session_id`` (latest version by default).

    The result can be written again by every writer (workbook, PBN, CSV) without
    the original input files.
    """
    engine = engine_for(url, readonly=True)
    with reading(engine) as conn:
        row = resolve_version(conn, session_id, version)
        refuse_teams(row, session_id, "load it with bridgeproc.archive.load_teams (bridgeproc archive show prints it)")
        return session_from(row, read_frames(conn, row["version_id"]))


def refuse_teams(row: dict, session_id: str, what_instead: str) -> None:
    """A pairs question asked of a teams session: refused with what to do instead (no traceback)."""
    if row.get("kind") == "teams":
        raise ArchiveError(f"session {session_id!r} is a teams session, not a pairs one; {what_instead}")


def session_from(row: dict, data: dict[str, pd.DataFrame]) -> Session:
    """A Session from a :func:`resolve_version` row and its :func:`read_frames`."""
    return Session(results=data["results"], boards=data["boards"], standings=data["standings"],
                   names=data["names"], meta=json.loads(row["meta"]), conventions=_conventions(row["conventions"]),
                   numbering=row["numbering"], movement=row["movement"], notes=data.get("notes"),
                   options=_options(row["options"]), corrections=data.get("corrections"))
