"""Where the archive lives and how to talk to it: URLs, engines, transactions.

SQLite files are opened in WAL mode with a busy timeout, and every write runs
in one ``BEGIN IMMEDIATE`` transaction, so a killed writer leaves the archive as
it was before or after, and concurrent writers wait for each other instead of
failing. PostgreSQL URLs use psycopg 3 (``postgresql://`` is read as
``postgresql+psycopg://``).

The read-only questions (list, show, export, history, diff, check) open an SQLite archive
read-only (``mode=ro``, or ``immutable=1`` when its folder cannot be written either), so they
work on a file or folder the user may only read, and never change the archive.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import random
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, inspect, select, text
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, OperationalError
from sqlalchemy.schema import CreateColumn

from bridgeproc.archive.tables import LATER_INDEXES, MIGRATIONS, NEW_TABLES, SCHEMA_VERSION, archive_info, metadata
from bridgeproc.core.optional import install_hint
from bridgeproc.errors import BridgeprocError, SetupError

#: Environment variable naming the archive (a URL or an SQLite file path).
ENV_VAR = "BRIDGEPROC_ARCHIVE"

#: Milliseconds an SQLite writer waits for another one before giving up.
BUSY_TIMEOUT_MS = 60_000

#: pg_advisory_xact_lock key held while the tables are created ("bpar" in ASCII).
SCHEMA_LOCK = 0x62706172

_engines: dict[tuple[str, bool], Engine] = {}
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


def _wal(cursor: sqlite3.Cursor) -> None:
    """Put the archive in WAL mode. SQLite does not wait on a lock for this pragma (its busy timeout does
    not apply), so two processes making a new archive at once got "database is locked": it is tried again,
    a few milliseconds apart, for as long as the busy timeout."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.2)


def _sqlite_setup(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection, _record) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (the sqlite3 module's own
        # transaction handling would start deferred transactions behind our back).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _wal(cursor)
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get("archive_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def engine_for(url: str | os.PathLike | None = None, readonly: bool = False) -> Engine:
    """A (cached) engine for the archive at ``url`` (default: :func:`default_url`); tables are
    created, and an older schema upgraded. ``readonly``: for questions only; an SQLite archive is
    opened read-only and never changed (see :func:`_readonly_sqlite`)."""
    key = normalise_url(url) if url is not None else default_url()
    with _lock:
        return _engine(key, readonly)


def _engine(key: str, readonly: bool) -> Engine:
    try:
        parsed = make_url(key)
    except ArgumentError as error:
        raise ArchiveError(f"{key}: not an archive URL ({error}); give an SQLite file path, "
                           "sqlite:////path/archive.sqlite or postgresql://user@host/db") from None
    readonly = readonly and parsed.get_backend_name() == "sqlite"  # a server keeps its own permissions
    engine = _engines.get((key, readonly))
    if engine is not None:
        return engine
    if readonly:
        engine = _readonly_sqlite(key)
        if engine is None:  # no archive in the file yet: the writable engine creates it
            return _engine(key, False)
    elif parsed.get_backend_name() == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise ArchiveError("the archive must be a file or a server, not an in-memory SQLite database")
        try:
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ArchiveError(f"cannot create the archive's folder: {error}; give another place with "
                               f"--archive or {ENV_VAR}") from None
        _refuse_foreign(parsed.database)
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
    if not readonly:
        try:
            with _database_errors(engine, write=True):
                _create_schema(engine)
        except ArchiveError:
            engine.dispose()
            raise
    _engines[(key, readonly)] = engine
    return engine


def _foreign(where: str, tables: list[str]) -> ArchiveError:
    shown = ", ".join(tables[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
    return ArchiveError(f"{where}: not a bridgeproc archive, it holds another program's tables ({shown}); "
                        "give a new file (or an empty database) for the archive")


def _refuse_foreign(path: str) -> None:
    """Refuse an SQLite file that holds tables and no archive (another program's database), looked at
    read-only before bridgeproc opens it: nothing of it changes, not even its journal mode. A file that
    is not SQLite at all is left for the engine to refuse."""
    if not Path(path).is_file() or Path(path).stat().st_size == 0:
        return
    try:
        with contextlib.closing(sqlite3.connect(_sqlite_uri(path, "mode=ro"), uri=True)) as conn:
            tables = sorted(row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                            if not row[0].startswith("sqlite_"))
    except sqlite3.DatabaseError:
        return
    if tables and "archive_info" not in tables:
        raise _foreign(path, tables)


def _unapplied_wal(path: str) -> bool:
    """True when the archive's ``-wal`` file holds changes (an immutable reader would not see them)."""
    wal = Path(f"{path}-wal")
    return wal.is_file() and wal.stat().st_size > 0


def _sqlite_uri(path: str, mode: str) -> str:
    return f"file:{urllib.parse.quote(path)}?{mode}"


def _readonly_sqlite(key: str) -> Engine | None:
    """An engine that opens the SQLite archive ``key`` read-only, or None when there is no
    archive there yet (no file, or no ``archive_info`` table).

    ``mode=ro`` reads a file the user cannot write; a WAL archive in a folder the user cannot
    write either cannot get its ``-shm`` file, so it is opened ``immutable=1`` (nobody can be
    writing it there). An archive of an older schema is read as it is: the columns added since
    are given their default by a temporary view (``complete``: true).
    """
    path = str(make_url(key).database)
    if not Path(path).is_file():
        return None
    mode: list[str] = []  # the mode that worked, found on the first connection
    views: list[str] = []  # temporary views standing in for tables of an older schema

    def connect() -> sqlite3.Connection:
        last: sqlite3.Error | None = None
        for option in mode or ["mode=ro", "mode=ro&immutable=1"]:
            if "immutable" in option and _unapplied_wal(path):
                raise ArchiveError(f"{path}: its latest changes are still in {Path(path).name}-wal, which cannot "
                                   "be read from here (the folder cannot be written and its -shm file is gone): "
                                   "what this lists would be out of date; run any bridgeproc command on the "
                                   "archive once as a user who can write its folder, or copy the archive and its "
                                   "-wal file to a folder you can write") from last
            conn = sqlite3.connect(_sqlite_uri(path, option), uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                   check_same_thread=False)
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.Error as error:
                conn.close()
                last = error
                continue
            mode[:] = [option]
            conn.isolation_level = None  # BEGIN is issued by the "begin" event, as for the writable engine
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            for view in views:
                conn.execute(view)
            return conn
        assert last is not None
        raise last

    engine = create_engine(key, creator=connect)

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN")

    try:
        with _database_errors(engine), engine.connect() as conn:
            if not inspect(conn).has_table("archive_info"):
                engine.dispose()
                return None
            version = _schema_version(conn)
            tables = set(inspect(conn).get_table_names())
            have = {table.name: {c["name"] for c in inspect(conn).get_columns(table.name)}
                    for columns in MIGRATIONS.values() for table, _ in columns if table.name in tables}
    except ArchiveError:
        engine.dispose()
        raise
    _refuse_newer(engine, version)
    if version is not None and version < SCHEMA_VERSION:
        added: dict[str, list] = {}  # table -> its columns added since (a view gives their default)
        for number, columns in MIGRATIONS.items():
            for table, column in columns:
                if number > version and column.name not in have.get(table.name, {column.name}):
                    added.setdefault(table.name, []).append(column)
        for name, new_columns in added.items():
            defaults = ", ".join(f"{_literal(column)} AS {column.name}" for column in new_columns)
            views.append(f"CREATE TEMP VIEW {name} AS SELECT *, {defaults} FROM main.{name}")
        for number, new in NEW_TABLES.items():  # tables added since: an empty view stands in
            views += [_empty_view(table) for table in new if number > version and table.name not in tables]
        engine.dispose()  # connections made before the views were known
    return engine


def _empty_view(table) -> str:
    """``CREATE TEMP VIEW`` of ``table``'s columns with no rows (a table an older schema lacks)."""
    columns = ", ".join(f"NULL AS {column.name}" for column in table.columns)
    return f"CREATE TEMP VIEW {table.name} AS SELECT {columns} WHERE 0"


def _literal(column) -> str:
    """The SQL text of ``column``'s server default (a migration's value for the rows before it), else NULL."""
    if column.server_default is None:
        return "NULL"
    return str(column.server_default.arg.compile(dialect=sqlite_dialect()))


def _schema_version(conn: Connection) -> int | None:
    value = conn.execute(select(archive_info.c.value).where(archive_info.c.key == "schema_version")).scalar_one_or_none()
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        where = conn.engine.url.database or conn.engine.url.render_as_string(hide_password=True)
        raise ArchiveError(f"{where}: its schema_version {str(value)[:40]!r} is not a number: a damaged archive "
                           "or not bridgeproc's; restore it from a copy, or give another archive") from None


def _refuse_newer(engine: Engine, version: int | None) -> None:
    if version is not None and version > SCHEMA_VERSION:
        engine.dispose()
        raise ArchiveError(f"{_where(engine)}: archive schema {version} is newer than this "
                           f"bridgeproc understands ({SCHEMA_VERSION}); upgrade bridgeproc")


def _create_schema(engine: Engine) -> None:
    """Create the tables of an empty archive, or upgrade an older schema (:data:`MIGRATIONS`),
    in one write transaction (serialised against another process doing the same)."""
    with writing(engine) as conn:
        if conn.dialect.name == "postgresql":  # SQLite's BEGIN IMMEDIATE already serialises this
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        if not inspect(conn).has_table("archive_info"):
            others = sorted(t for t in inspect(conn).get_table_names() if not t.startswith("sqlite_"))
            if others:  # another program's database (a server's): bridgeproc adds nothing to it
                raise _foreign(_where(engine), others)
            metadata.create_all(conn)
            conn.execute(archive_info.insert(), [{"key": "schema_version", "value": str(SCHEMA_VERSION)}])
        version = _schema_version(conn)
        if version is not None and version < SCHEMA_VERSION:
            _migrate(conn, version)
            version = SCHEMA_VERSION
        if version is not None and version <= SCHEMA_VERSION:
            _add_indexes(conn)
    _refuse_newer(engine, version)


def _add_indexes(conn: Connection) -> None:
    """Create each of :data:`LATER_INDEXES` the archive lacks (an archive written before it existed)."""
    have: dict[str, set[str]] = {}
    for index in LATER_INDEXES:
        table = index.table
        assert table is not None
        if table.name not in have:
            have[table.name] = {str(i["name"]) for i in inspect(conn).get_indexes(table.name)}
        if index.name not in have[table.name]:
            index.create(conn)


def _migrate(conn: Connection, version: int) -> None:
    """Upgrade an archive of schema ``version`` to :data:`SCHEMA_VERSION` (tables and columns only added)."""
    quote = conn.dialect.identifier_preparer.quote
    for number in sorted(n for n in NEW_TABLES if n > version):
        for table in NEW_TABLES[number]:
            table.create(conn, checkfirst=True)
    for number in sorted(n for n in MIGRATIONS if n > version):
        for table, column in MIGRATIONS[number]:
            have = {c["name"] for c in inspect(conn).get_columns(table.name)}
            if column.name not in have:
                ddl = CreateColumn(column).compile(dialect=conn.dialect)
                conn.exec_driver_sql(f"ALTER TABLE {quote(table.name)} ADD COLUMN {ddl}")
    conn.execute(archive_info.update().where(archive_info.c.key == "schema_version")
                 .values(value=str(SCHEMA_VERSION)))


def _where(engine: Engine) -> str:
    """The archive as a director knows it: an SQLite file's path, else the URL without its password."""
    if engine.url.get_backend_name() == "sqlite" and engine.url.database:
        return engine.url.database
    return engine.url.render_as_string(hide_password=True)


#: What SQLite and PostgreSQL say when the archive cannot be written (lower case).
_CANNOT_WRITE = ("readonly database", "read-only", "unable to open database file", "permission denied")


@contextmanager
def _database_errors(engine: Engine, write: bool = False) -> Iterator[None]:
    # The database being unreachable, locked for too long or read-only is a condition
    # of the machine, not a bug: report it as an ArchiveError (exit 1, no traceback).
    try:
        yield
    except DatabaseError as error:  # OperationalError and the rest: unreachable, locked, not a database
        detail = str(error.orig if error.orig is not None else error).strip().splitlines()[0]
        if write and any(words in detail.lower() for words in _CANNOT_WRITE):
            raise ArchiveError(f"cannot write the archive {_where(engine)}: {detail} (the file or its folder "
                               "cannot be written); nothing was archived: give --no-archive to write the outputs "
                               "only, or --archive with an archive you can write") from error
        hint = "" if isinstance(error, OperationalError) else "; is it a bridgeproc archive? give another with --archive"
        raise ArchiveError(f"archive {_where(engine)}: {detail}{hint}") from error


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One write transaction (``BEGIN IMMEDIATE`` on SQLite): committed at the end, rolled back on error."""
    with _database_errors(engine, write=True), engine.execution_options(archive_write=True).begin() as conn:
        yield conn


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """One read transaction: a consistent snapshot of the archive for every query in it. On PostgreSQL
    that takes REPEATABLE READ (its default, READ COMMITTED, lets each query see what other writers
    committed since the last one: a ladder or a rescore of several queries could mix two states); an
    SQLite read transaction is one snapshot already."""
    snapshot = engine.execution_options(isolation_level="REPEATABLE READ") \
        if engine.dialect.name == "postgresql" else engine
    with _database_errors(engine), snapshot.begin() as conn:
        yield conn


def dispose_all() -> None:
    """Close every cached engine (tests; a process that forks; the process's end)."""
    with _lock:
        for engine in _engines.values():
            engine.dispose()
        _engines.clear()


# Once a process: at its end every engine is closed, so SQLite folds its write-ahead log into the file
# (bridgeproc.cli.program ends the process at once after the atexit work).
atexit.register(dispose_all)
