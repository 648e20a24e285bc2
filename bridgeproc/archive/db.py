"""Where the archive lives and how to talk to it: URLs, engines, transactions.

SQLite files are opened in WAL mode with a busy timeout, and every write runs
in one ``BEGIN IMMEDIATE`` transaction, so a killed writer leaves the archive as
it was before or after, and concurrent writers wait for each other instead of
failing. PostgreSQL URLs use psycopg 3 (``postgresql://`` is read as
``postgresql+psycopg://``).
"""
from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError

from bridgeproc.archive.tables import SCHEMA_VERSION, archive_info, metadata
from bridgeproc.core.optional import install_hint
from bridgeproc.errors import BridgeprocError, SetupError

#: Environment variable naming the archive (a URL or an SQLite file path).
ENV_VAR = "BRIDGEPROC_ARCHIVE"

#: Milliseconds an SQLite writer waits for another one before giving up.
BUSY_TIMEOUT_MS = 60_000

#: pg_advisory_xact_lock key held while the tables are created ("bpar" in ASCII).
SCHEMA_LOCK = 0x62706172

_engines: dict[str, Engine] = {}
_lock = threading.Lock()


class ArchiveError(BridgeprocError):
    """The archive cannot be opened or read (wrong URL, newer schema, unknown session)."""


def default_url() -> str:
    """The archive URL to use when none is given.

    ``$BRIDGEPROC_ARCHIVE`` if set, else the SQLite file
    ``$XDG_DATA_HOME/bridgeproc/archive.sqlite`` (``~/.local/share/...`` when
    ``XDG_DATA_HOME`` is unset or empty).
    """
    if os.environ.get(ENV_VAR):
        return normalise_url(os.environ[ENV_VAR])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return normalise_url(os.path.join(base, "bridgeproc", "archive.sqlite"))


def archive_exists(url: str | os.PathLike | None = None) -> bool:
    """False only for an SQLite archive whose file is not there yet (a server is assumed to exist),
    so read-only commands can say so instead of creating an empty archive."""
    parsed = make_url(normalise_url(url) if url is not None else default_url())
    return parsed.get_backend_name() != "sqlite" or bool(parsed.database and Path(parsed.database).exists())


def normalise_url(url: str | os.PathLike) -> str:
    """An SQLAlchemy URL for ``url``: a plain path becomes ``sqlite:///<absolute path>``."""
    text = os.fspath(url)
    if "://" not in text:
        return "sqlite:///" + str(Path(text).expanduser().resolve())
    parsed = make_url(text)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (the sqlite3 module's own
        # transaction handling would start deferred transactions behind our back).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("archive_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def engine_for(url: str | os.PathLike | None = None) -> Engine:
    """A (cached) engine for the archive at ``url`` (default: :func:`default_url`); tables are created."""
    key = normalise_url(url) if url is not None else default_url()
    with _lock:
        engine = _engines.get(key)
        if engine is not None:
            return engine
        try:
            parsed = make_url(key)
        except ArgumentError as error:
            raise ArchiveError(f"{key}: not an archive URL ({error}); give an SQLite file path, "
                               "sqlite:////path/archive.sqlite or postgresql://user@host/db") from None
        if parsed.get_backend_name() == "sqlite":
            if not parsed.database or parsed.database == ":memory:":
                raise ArchiveError("the archive must be a file or a server, not an in-memory SQLite database")
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise ArchiveError(f"cannot create the archive's folder: {error}; give another place with "
                                   f"--archive or {ENV_VAR}") from None
            engine = create_engine(key, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
            _sqlite_setup(engine)
        else:
            try:
                engine = create_engine(key, pool_pre_ping=True)
            except ImportError:  # the driver is an optional dependency
                raise SetupError(f"a PostgreSQL archive needs the package psycopg, which is not installed; "
                                 f"install it with: {install_hint('psycopg', 'postgres')}") from None
            except ArgumentError as error:  # an unknown dialect such as foo://
                raise ArchiveError(f"{key}: not an archive URL ({error}); give an SQLite file path, "
                                   "sqlite:////path/archive.sqlite or postgresql://user@host/db") from None
        try:
            with _database_errors(engine):
                _create_schema(engine)
        except ArchiveError:
            engine.dispose()
            raise
        _engines[key] = engine
        return engine


def _create_schema(engine: Engine) -> None:
    with writing(engine) as conn:
        if conn.dialect.name == "postgresql":  # SQLite's BEGIN IMMEDIATE already serialises this
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        if not inspect(conn).has_table("archive_info"):
            metadata.create_all(conn)
            conn.execute(archive_info.insert(), [{"key": "schema_version", "value": str(SCHEMA_VERSION)}])
        version = conn.execute(select(archive_info.c.value)
                               .where(archive_info.c.key == "schema_version")).scalar_one_or_none()
    if version is not None and int(version) > SCHEMA_VERSION:
        raise ArchiveError(f"{_where(engine)}: archive schema {version} is newer than this "
                           f"bridgeproc understands ({SCHEMA_VERSION}); upgrade bridgeproc")


def _where(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=True)


@contextmanager
def _database_errors(engine: Engine) -> Iterator[None]:
    # The database being unreachable, locked for too long or read-only is a condition
    # of the machine, not a bug: report it as an ArchiveError (exit 1, no traceback).
    try:
        yield
    except DatabaseError as error:  # OperationalError and the rest: unreachable, locked, not a database
        detail = str(error.orig if error.orig is not None else error).strip().splitlines()[0]
        hint = "" if isinstance(error, OperationalError) else "; is it a bridgeproc archive? give another with --archive"
        raise ArchiveError(f"archive {_where(engine)}: {detail}{hint}") from error


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One write transaction (``BEGIN IMMEDIATE`` on SQLite): committed at the end, rolled back on error."""
    with _database_errors(engine), engine.execution_options(archive_write=True).begin() as conn:
        yield conn


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """One read transaction: a consistent snapshot of the archive."""
    with _database_errors(engine), engine.begin() as conn:
        yield conn


def dispose_all() -> None:
    """Close every cached engine (tests; a process that forks)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()
