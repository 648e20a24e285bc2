"""The archive's schema as SQLAlchemy Core tables (documented for SQL users in docs/archive.md).

One row of ``sessions`` per session (event + date, or an explicit id); one row of
``versions`` per archived state of it. Every frame table (``results``, ``boards``,
``standings``, ``names``, ``notes``) holds rows keyed by ``(version_id, pos)``:
rows are never updated or deleted, a correction adds a new ``version_id``.

Well-known frame columns have a typed SQL column of their own so that they can be
queried directly; any other column of a frame goes into the row's ``extra`` JSON
text. ``frames.columns`` records each frame's column order and exact pandas dtypes,
so that a version reads back as the very frames that went in.

A version is stored ``complete = false`` while the outputs of its run are being renamed into
place, and marked complete after (``bridgeproc score`` writes files and the archive together or
not at all); only a complete version becomes the session's ``latest_version``. A version left
incomplete by a run that was killed stays so (``archive list`` shows it), unless the next run
of the same data completes it.

Some frame columns are renamed in SQL because their frame names are SQL keywords:
``standings.group`` is ``grp``, ``notes.column`` is ``column_name``.

``corrections`` (schema 3) holds the director's corrections file as applied to a version, with
each reason: a version scored without one has no ``corrections`` frame (its content hash is as
before), and ``diff`` names the reasons of the results it finds corrected.
"""
from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    true,
)

from bridgeproc.schema import DD_COLUMNS

#: Bumped whenever the tables change; stored in ``archive_info``. An older archive is upgraded
#: when it is opened for writing (:data:`MIGRATIONS`, :data:`NEW_TABLES`); read-only, it is read as it is.
SCHEMA_VERSION = 3

metadata = MetaData()

archive_info = Table(
    "archive_info", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

sessions = Table(
    "sessions", metadata,
    Column("session_id", String(200), primary_key=True),
    Column("event", Text, nullable=False),
    Column("date", String(32), nullable=False),  # ISO yyyy-mm-dd when known, '' when not
    Column("site", Text),
    Column("latest_version", Integer),
    Column("latest_version_id", Integer),  # versions.version_id of the latest version
    Column("created_at", String(32), nullable=False),  # UTC ISO timestamps
    Column("updated_at", String(32), nullable=False),
    Index("ix_sessions_latest", "latest_version_id"),
    Index("ix_sessions_date", "date", "event"),
)

versions = Table(
    "versions", metadata,
    Column("version_id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", String(200), ForeignKey("sessions.session_id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("content_hash", String(64), nullable=False),
    Column("method", String(32)),
    Column("conventions", Text, nullable=False),  # JSON: Conventions.describe()
    Column("meta", Text, nullable=False),  # JSON: Session.meta (PBN header tags)
    Column("numbering", String(32)),
    Column("movement", Text),
    Column("options", Text),  # JSON: the run's Options (not part of the content hash)
    Column("comment", Text),
    Column("bridgeproc_version", String(32)),
    # False while the run's outputs are renamed into place (schema 2; earlier versions are complete)
    Column("complete", Boolean, nullable=False, server_default=true()),
    UniqueConstraint("session_id", "version", name="uq_versions_session_version"),
)

frames = Table(
    "frames", metadata,
    Column("version_id", Integer, ForeignKey("versions.version_id"), primary_key=True),
    Column("frame", String(32), primary_key=True),
    Column("n_rows", Integer, nullable=False),
    Column("columns", Text, nullable=False),  # JSON: [[name, dtype, sql column or null], ...], index
)


def _frame_table(name: str, *columns: Column) -> Table:
    return Table(
        name, metadata,
        Column("version_id", Integer, ForeignKey("versions.version_id"), primary_key=True),
        Column("pos", Integer, primary_key=True, autoincrement=False),
        *columns,
        Column("extra", Text),  # JSON object of the frame's other columns, NULL when none
    )


results = _frame_table(
    "results",
    Column("section", Text), Column("board", Integer), Column("ns", Text), Column("ew", Text),
    Column("level", SmallInteger), Column("strain", String(2)), Column("doubled", SmallInteger),
    Column("declarer", String(1)), Column("tricks", SmallInteger), Column("lead", Text),
    Column("adjusted", Text), Column("score_ns", Integer), Column("source", Text), Column("line", BigInteger),
    Column("mp_ns", Float), Column("mp_ew", Float), Column("pct_ns", Float), Column("pct_ew", Float),
    Column("top", Float), Column("mp_factor", Float),
    Column("ximp_ns", Float), Column("ximp_ew", Float), Column("ximp_comparisons", Integer),
    Column("butler_ns", Float), Column("butler_ew", Float), Column("datum", Integer),
)


boards = _frame_table(
    "boards",
    Column("board", Integer), Column("dealer", String(1)), Column("vul", String(4)), Column("deal", Text),
    Column("source", Text), Column("line", BigInteger),
    *[Column(name, SmallInteger) for name in DD_COLUMNS],
    Column("par_score", Integer), Column("par_contracts", Text), Column("par_optimum_score", Text),
    Column("double_dummy_tricks", Text), Column("optimum_score", Text), Column("optimum_contract", Text),
)

standings = _frame_table(
    "standings",
    Column("method", String(32)), Column("grp", String(16)), Column("rank", String(16)), Column("pair", Text),
    Column("names", Text), Column("boards", Integer), Column("total", Float), Column("pct", Float),
)

names = _frame_table(
    "names",
    Column("section", Text), Column("pair", Text), Column("direction", String(4)), Column("names", Text),
    Column("source", Text), Column("line", Text),
)

notes = _frame_table(
    "notes",
    Column("source", Text), Column("line", Text), Column("column_name", Text), Column("value", Text),
    Column("message", Text),
)

#: The director's corrections of a version (schema 3): one row per corrected cell, with its reason.
corrections = _frame_table(
    "corrections",
    Column("section", Text), Column("board", Integer), Column("ns", Text), Column("ew", Text),
    Column("field", String(16)), Column("was", Text), Column("now", Text), Column("reason", Text),
    Column("source", Text), Column("line", BigInteger), Column("result_source", Text),
    Column("result_line", BigInteger),
)

#: One row per player named in a standings row (``names`` split at ``&``), for history.
players = Table(
    "players", metadata,
    Column("version_id", Integer, ForeignKey("versions.version_id"), primary_key=True),
    Column("pos", Integer, primary_key=True, autoincrement=False),  # standings.pos
    Column("seat", SmallInteger, primary_key=True, autoincrement=False),  # 0, 1, ... within the pair
    Column("player_key", Text, nullable=False),  # lower case, single spaces
    Column("player", Text, nullable=False),
    Index("ix_players_key", "player_key", "version_id"),
)

#: Frame name -> table; the frames a version is made of.
FRAME_TABLES: dict[str, Table] = {
    "results": results, "boards": boards, "standings": standings, "names": names, "notes": notes,
    "corrections": corrections,
}

#: Frame column -> SQL column where the names differ (SQL keywords).
RENAMED: dict[str, dict[str, str]] = {"standings": {"group": "grp"}, "notes": {"column": "column_name"}}

#: Schema version -> the columns added in it, as ``(table, column)``: what upgrading an archive
#: from the version before adds (``ALTER TABLE ... ADD COLUMN`` with the column's default).
MIGRATIONS: dict[int, list[tuple[Table, Column]]] = {2: [(versions, versions.c.complete)]}
#: Schema version -> the tables added in it: what upgrading an archive from the version before
#: creates (empty: the versions before had none of their rows). Read-only, an empty view stands in.
NEW_TABLES: dict[int, list[Table]] = {3: [corrections]}
