"""Write a session as a new version (one transaction); reading a version back is ``archive.load``'s.

A session is identified by its event and date (or an explicit ``session_id``).
Archiving a session whose content equals its latest version adds nothing;
anything else becomes version n + 1, unless it has fewer results, deals, double-dummy tables or names
than version n (see :mod:`.losses`). Rows are only ever inserted, and a version's ``complete``
flag set once: a run that writes outputs archives its version incomplete (``complete=False``),
renames its outputs into place, then calls :func:`complete_version`; only then is it the latest.
"""
from __future__ import annotations

import dataclasses
import json
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date as _date
from datetime import datetime, timezone

import pandas as pd
from sqlalchemy import func, insert, select, update

from bridgeproc._version import __version__
from bridgeproc.archive import losses
from bridgeproc.archive.codec import Encoded, content_hash, encode
from bridgeproc.archive.db import ArchiveError, engine_for, writing
from bridgeproc.archive.players import player_key, split_names
from bridgeproc.archive.tables import FRAME_TABLES, frames, sessions, versions
from bridgeproc.archive.tables import players as players_table
from bridgeproc.model import ArchiveResult, Session
from bridgeproc.rank.conventions import DECLARED, Conventions
from bridgeproc.schema import RESULTS_COLUMNS, check

#: Frames of a Session stored per version, in order (``corrections`` only when the run had some).
FRAMES = ("results", "boards", "standings", "names", "notes", "corrections")

#: Rows per INSERT executemany batch (bounded memory for the driver).
CHUNK = 5_000


def _shown(url: str) -> str:
    """The archive as a director would recognise it: the file of an SQLite URL, else the URL
    without its password."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        return str(parsed.database)
    return parsed.render_as_string(hide_password=True)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def normalise_date(text: object) -> str:
    """ISO ``yyyy-mm-dd`` from ``2014.10.05`` (PBN), ``2014-10-05`` or ``2014/10/5``; '' when unknown.

    PBN writes unknown parts as ``??`` (``2014.10.??``); those stay as given. Other
    text is kept as it is.
    """
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return ""
    if isinstance(text, (_date, datetime)):
        return text.strftime("%Y-%m-%d")
    value = str(text).strip()
    m = re.fullmatch(r"(\d{4})[.\-/](\d{1,2}|\?\?)[.\-/](\d{1,2}|\?\?)", value)
    if m:
        y, mo, d = m.groups()
        return f"{y}-{mo.zfill(2)}-{d.zfill(2)}"
    return value


def slug(text: str) -> str:
    """Lower-case ASCII words joined by ``-`` (an id that survives shells and URLs)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9?]+", "-", ascii_text.lower()).strip("-") or "session"


def session_identity(session: Session, event: str | None = None, date: str | None = None,
                     session_id: str | None = None) -> tuple[str, str, str]:
    """(session_id, event, date) of ``session``.

    ``event``: the argument, else PBN ``Event``, else the first input file's name
    without extension. ``date``: the argument, else PBN ``Date`` (or ``EventDate``),
    else today's date (so that next week's file of the same name is not taken as a
    correction of this week's). ``session_id``: the argument, else
    ``<date>_<slug of event>``.
    """
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    if not event:
        event = str(meta.get("event") or "").strip()
    if not event and "source" in session.results and session.results["source"].notna().any():
        first = str(session.results["source"].dropna().iloc[0])
        event = re.sub(r"\.[A-Za-z0-9]+$", "", first.replace("\\", "/").rsplit("/", 1)[-1])
    event = event or "session"
    day = normalise_date(date) or _input_date(session) or _date.today().isoformat()
    return session_id or f"{day}_{slug(event)}", event, day


def _input_date(session: Session) -> str:
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    day = normalise_date(meta.get("date") or meta.get("eventdate"))
    return "" if day.startswith("?") else day


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True, default=str)


def _options_json(session: Session) -> str:
    try:
        return _json(session.options.record())
    except TypeError:
        return "{}"


PLAYER_COLUMNS = ["version_id", "pos", "seat", "player_key", "player"]


def _player_rows(standings: pd.DataFrame, version_id: int) -> list[tuple]:
    if "names" not in standings or not len(standings):
        return []
    rows = []
    for pos, text in enumerate(standings["names"].tolist()):
        if text is None or (not isinstance(text, str)):
            continue
        for seat, player in enumerate(split_names(text)):
            rows.append((version_id, pos, seat, player_key(player), player))
    return rows


def _frames_of(session: Session) -> dict[str, pd.DataFrame]:
    out = {name: getattr(session, name) for name in FRAMES}
    return {name: frame for name, frame in out.items() if frame is not None}


@dataclass
class Prepared:
    """A session encoded for storage, with its identity and content hash."""

    session_id: str
    event: str
    date: str
    header: dict
    frames: dict[str, pd.DataFrame]
    encoded: list[Encoded]
    digest: str


#: Conventions added after archives existed: hashed only when not at their default, so an
#: unchanged session archived by an older bridgeproc is still recognised as unchanged.
_LATER_CONVENTIONS = {f.name: f.default for f in dataclasses.fields(Conventions) if DECLARED[f.name].later}


def prepare(session: Session, event: str | None = None, date: str | None = None,
            session_id: str | None = None) -> Prepared:
    """Encode ``session`` and compute its content hash (what :func:`archive_session` compares)."""
    check(session.results, RESULTS_COLUMNS)
    sid, event_name, day = session_identity(session, event, date, session_id)
    frames_in = _frames_of(session)
    encoded = [encode(name, frame, FRAME_TABLES[name]) for name, frame in frames_in.items()]
    conventions = {k: v for k, v in session.conventions.describe().items() if _LATER_CONVENTIONS.get(k, object()) != v}
    header = {"session_id": sid, "event": event_name, "date": day, "conventions": conventions,
              "meta": {str(k): v for k, v in (session.meta or {}).items()},
              "numbering": session.numbering, "movement": session.movement}
    return Prepared(sid, event_name, day, header, frames_in, encoded, content_hash(encoded, header))


def archive_session(session: Session, url: str | os.PathLike | None = None, *, event: str | None = None,
                    date: str | None = None, session_id: str | None = None,
                    comment: str | None = None, replace: bool = False, complete: bool = True) -> ArchiveResult:
    """Store ``session`` in the archive at ``url`` (default :func:`default_url`) as a new version.

    Parameters
    ----------
    session : bridgeproc.session.Session
        What :func:`bridgeproc.process_session` returned (frames are not modified).
    url : str or path, optional
        SQLAlchemy URL (``sqlite:///...``, ``postgresql://user@host/db``) or an SQLite file path.
    event, date, session_id : str, optional
        Override the identity (see :func:`session_identity`).
    comment : str, optional
        Stored with the version (e.g. "board 14 corrected").
    replace : bool
        Store the version even when it has fewer results, boards with a deal or pairs
        with names than the latest version (``--replace``); the losses are in the result.
    complete : bool
        False: store the version incomplete (not the latest) until :func:`complete_version`,
        for a caller that writes files and must not archive a version whose files never came
        to be. A version an earlier call left incomplete with this very content is taken up
        again (``resumed``) instead of storing another.

    Returns
    -------
    ArchiveResult
        ``created`` is False when the content equals the latest version (nothing added).

    Raises
    ------
    ArchiveLossError
        The new version would lose results, deals or names and ``replace`` is False;
        nothing is written, the message names the option that restores each loss.
    """
    prepared = prepare(session, event, date, session_id)
    conventions = prepared.header["conventions"]
    columns = {"method": conventions.get("method"), "conventions": _json(conventions), "numbering": session.numbering,
               "movement": session.movement, "options": _options_json(session)}
    standings = prepared.frames.get("standings")
    return store_version(prepared, url, kind="pairs", columns=columns,
                         players=lambda version_id: _player_rows(standings, version_id) if standings is not None else [],
                         dated=bool(session_id or date or _input_date(session)), comment=comment, replace=replace,
                         complete=complete)


def store_version(prepared: Prepared, url: str | os.PathLike | None, *, kind: str, columns: dict,
                  players: Callable[[int], list[tuple]], player_columns: list[str] = PLAYER_COLUMNS,
                  dated: bool = True, comment: str | None = None, replace: bool = False,
                  complete: bool = True) -> ArchiveResult:
    """Store ``prepared`` as the next version of its session (of ``kind``: ``pairs`` or ``teams``).

    ``columns``: the ``versions`` values of this kind (method, conventions, ...); ``players``: the
    ``players`` rows (of ``player_columns``) of the new version_id. One write transaction. Concurrent writers of one
    session are queued by a row lock: :func:`_current` selects the session's row ``FOR UPDATE``
    (PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` locks the whole file), so the version number is
    read from committed versions only after the writer before has committed, and the unique
    (session_id, version) constraint backs it up. Serializable isolation would make the
    second writer fail and redo the whole (large) insert instead of waiting for it.
    """
    engine = engine_for(url)
    sid, encoded, digest, frames_in = prepared.session_id, prepared.encoded, prepared.digest, prepared.frames
    meta = prepared.header["meta"]
    now = _now()
    shown = engine.url.render_as_string()
    with writing(engine) as conn:
        current = _current(conn, sid)
        if current is None:
            _insert_session(conn, sid, prepared.event, prepared.date, meta.get("site") or meta.get("Site"), now, kind)
            current = _current(conn, sid)
        assert current is not None  # inserted above, or by a concurrent writer that we waited for
        latest, latest_id, latest_hash, stored_kind = current
        if stored_kind != kind:
            raise ArchiveError(f"{sid} is a {stored_kind} session in the archive {_shown(shown)}; a {kind} session "
                               "cannot be a version of it: give another --event or --date")
        if latest_hash == digest:
            return ArchiveResult(sid, int(latest), False, shown, dated, where=_shown(shown))
        lost = losses.check(conn, sid, int(latest), latest_id, frames_in, replace) if latest_id is not None else ()
        pending = _pending(conn, sid, latest, digest)
        if pending is not None:  # an interrupted run of this very content: take its version up again
            number, version_id = pending
            if complete:
                _mark_complete(conn, sid, number, version_id, latest, now)
            return ArchiveResult(sid, number, True, shown, dated, lost, complete, True, where=_shown(shown))
        number = last_version_number(conn, sid) + 1
        inserted = conn.execute(insert(versions).values(
            session_id=sid, version=number, created_at=now, content_hash=digest, meta=_json(meta), comment=comment,
            bridgeproc_version=__version__, complete=complete, **columns)).inserted_primary_key
        assert inserted is not None
        version_id = inserted[0]
        _insert_frames(conn, encoded, version_id)
        insert_tuples(conn, players_table, player_columns, players(version_id))
        if complete:
            _mark_complete(conn, sid, number, version_id, latest, now)
    return ArchiveResult(sid, number, True, shown, dated, lost, complete, where=_shown(shown))


def complete_version(url: str | os.PathLike | None, result: ArchiveResult) -> ArchiveResult:
    """Mark the version ``result`` names complete, once every output of its run is in place;
    it becomes the session's latest (unless a later version was completed meanwhile)."""
    if result.complete:
        return result
    engine = engine_for(url)
    with writing(engine) as conn:
        current = _current(conn, result.session_id)
        version_id = conn.execute(select(versions.c.version_id).where(
            versions.c.session_id == result.session_id, versions.c.version == result.version)).scalar()
        if current is None or version_id is None:
            raise ArchiveError(f"no version {result.version} of {result.session_id!r} in the archive to complete")
        _mark_complete(conn, result.session_id, result.version, version_id, current[0], _now())
    return dataclasses.replace(result, complete=True)


def _mark_complete(conn, sid: str, number: int, version_id: int, latest: int | None, now: str) -> None:
    """Set version ``number`` complete and make it the latest, unless a later one already is."""
    conn.execute(update(versions).where(versions.c.version_id == version_id).values(complete=True))
    if latest is None or number > latest:
        conn.execute(update(sessions).where(sessions.c.session_id == sid).values(
            latest_version=number, latest_version_id=version_id, updated_at=now))


def _pending(conn, sid: str, latest: int | None, digest: str) -> tuple[int, int] | None:
    """(version, version_id) of the newest incomplete version after ``latest`` holding ``digest``."""
    return conn.execute(select(versions.c.version, versions.c.version_id).where(
        versions.c.session_id == sid, versions.c.version > (latest or 0), versions.c.content_hash == digest,
        versions.c.complete.is_(False)).order_by(versions.c.version.desc()).limit(1)).first()


def last_version_number(conn, sid: str) -> int:
    """The highest version number of ``sid``, complete or not (0 for none)."""
    return conn.execute(select(func.max(versions.c.version)).where(versions.c.session_id == sid)).scalar() or 0


def _current(conn, sid: str):
    """(latest version, its version_id, its content hash, kind) of ``sid``, locking its sessions row; None if new.

    Two statements, not a join: on PostgreSQL a second writer waiting for the row
    lock must read the versions row the first one committed (READ COMMITTED takes a
    new snapshot per statement).
    """
    row = conn.execute(select(sessions.c.latest_version, sessions.c.latest_version_id, sessions.c.kind)
                       .where(sessions.c.session_id == sid).with_for_update()).first()
    if row is None:
        return None
    digest = conn.execute(select(versions.c.content_hash).where(versions.c.version_id == row[1])).scalar()
    return row[0], row[1], digest, row[2]


def _insert_session(conn, sid: str, event: str, day: str, site, now: str, kind: str = "pairs") -> None:
    values = {"session_id": sid, "event": event, "date": day, "site": site, "created_at": now, "updated_at": now,
              "kind": kind}
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        conn.execute(pg_insert(sessions).values(**values).on_conflict_do_nothing())
    else:  # SQLite holds the write lock since BEGIN IMMEDIATE: nobody else can insert it
        conn.execute(insert(sessions).values(**values))


def insert_tuples(conn, table, columns: list[str], rows: list[tuple]) -> None:
    """``INSERT INTO table (columns) VALUES (...)`` executemany'd in chunks of plain tuples (COPY on psycopg).

    Goes to the driver directly, inside the same transaction: SQLAlchemy's per-row
    parameter processing would cost more than the database's own work on a
    24,000-result session.
    """
    if not rows:
        return
    quote = conn.dialect.identifier_preparer.quote
    if conn.dialect.name == "postgresql" and conn.dialect.driver == "psycopg":
        # COPY is PostgreSQL's bulk path: several times faster than executemany.
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {quote(table.name)} ({', '.join(quote(c) for c in columns)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = (f"INSERT INTO {quote(table.name)} ({', '.join(quote(c) for c in columns)}) "
           f"VALUES ({', '.join([mark] * len(columns))})")
    for start in range(0, len(rows), CHUNK):
        conn.exec_driver_sql(sql, rows[start:start + CHUNK])


def _insert_frames(conn, encoded: list[Encoded], version_id: int) -> None:
    conn.execute(insert(frames), [{"version_id": version_id, "frame": e.frame, "n_rows": e.n_rows,
                                   "columns": json.dumps(e.spec)} for e in encoded])
    for item in encoded:
        insert_tuples(conn, FRAME_TABLES[item.frame], item.sql_columns(), item.rows(version_id))
