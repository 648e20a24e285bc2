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

Schema 4: ``sessions.kind`` tells a pairs session (``pairs``, every session before) from a teams
one (``teams``). A teams version stores its frames under their own names and tables
(``team_results``, ``team_boards``, ``team_matches``, ``team_standings``, ``team_published``)
and its hand record as a ``boards`` frame (the shape a pairs session's has), so the loss checks
count its deals; its ``players`` rows point at ``team_standings`` rows. ``events`` and
``event_sessions`` record an event (a simultaneous, a congress) as the versions of its sessions.
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
    text,
    true,
)

from bridgeproc.schema import DD_COLUMNS

#: Bumped whenever the tables change; stored in ``archive_info``. An older archive is upgraded
#: when it is opened for writing (:data:`MIGRATIONS`, :data:`NEW_TABLES`); read-only, it is read as it is.
SCHEMA_VERSION = 5

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
    # 'pairs' or 'teams' (schema 4; every session before is a pairs session)
    Column("kind", String(16), nullable=False, server_default=text("'pairs'")),
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
    # schema 5: the masterpoints awarded (rank.masterpoints), NULL where none were (older versions: all)
    Column("masterpoints", Float),
)

names = _frame_table(
    "names",
    Column("section", Text), Column("pair", Text), Column("direction", String(4)), Column("names", Text),
    Column("source", Text), Column("line", Text),
)
#: A standings row finds its names row (and the member ids there) by the names text: without this
#: index SQLite builds a temporary one on every ladder and history query (half a second at 2,000 sessions).
names_by_text = Index("ix_names_names", names.c.version_id, names.c.names)

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

#: A teams session's frames (schema 4): one row per table result, per (match, board), per match,
#: per team, per published match total (Ruter ScoreTables).
team_results = _frame_table(
    "team_results",
    Column("round", Integer), Column("match", Text), Column("home", Text), Column("away", Text), Column("room", Text),
    Column("board", Integer), Column("ns_team", Text), Column("ew_team", Text), Column("level", SmallInteger),
    Column("strain", String(2)), Column("doubled", SmallInteger), Column("declarer", String(1)),
    Column("tricks", SmallInteger), Column("lead", Text), Column("adjusted", Text), Column("score_ns", Integer),
    Column("imp_ns", Float), Column("imp_ew", Float), Column("source", Text), Column("line", BigInteger),
    Column("game", Text),  # the room's PBN game as PBN text (every tag, for the teams PBN export)
)

team_boards = _frame_table(
    "team_boards",
    Column("match", Text), Column("round", Integer), Column("home", Text), Column("away", Text),
    Column("board", Integer), Column("score_open", Integer), Column("score_closed", Integer),
    Column("swing", Integer), Column("imps_home", Float), Column("imps_away", Float), Column("status", Text),
)

team_matches = _frame_table(
    "team_matches",
    Column("match", Text), Column("round", Integer), Column("home", Text), Column("away", Text),
    Column("boards", Integer), Column("played", Integer), Column("imps_home", Float), Column("imps_away", Float),
    Column("vp_home", Float), Column("vp_away", Float), Column("status", Text),
)

team_standings = _frame_table(
    "team_standings",
    Column("rank", String(16)), Column("team", Text), Column("names", Text), Column("matches", Integer),
    Column("boards", Integer), Column("total", Float), Column("vp", Float), Column("imp_difference", Float),
    Column("imp_quotient", Float),
)

team_published = _frame_table(
    "team_published",
    Column("round", Integer), Column("home", Text), Column("away", Text), Column("vp_home", Float),
    Column("vp_away", Float), Column("source", Text), Column("line", BigInteger),
)

#: An event made of sessions (schema 4): a simultaneous, a congress, a league evening.
events = Table(
    "events", metadata,
    Column("event_id", Integer, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False),
    Column("rule", Text),  # how the sessions combine, as the caller names it (e.g. "sum", "average")
    Column("created", String(32), nullable=False),  # UTC ISO timestamp
    UniqueConstraint("name", name="uq_events_name"),
)

#: The sessions of an event, each at the version it was recorded with, in order.
event_sessions = Table(
    "event_sessions", metadata,
    Column("event_id", Integer, ForeignKey("events.event_id"), primary_key=True),
    Column("session_id", String(200), ForeignKey("sessions.session_id"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("session_order", Integer, nullable=False),  # 0, 1, ... as given ("order" is an SQL keyword)
)

#: One row per player named in a standings row (``names`` split at ``&``), for history; in a teams
#: session, one row per player of a team (``pos`` is the ``team_standings`` row).
players = Table(
    "players", metadata,
    Column("version_id", Integer, ForeignKey("versions.version_id"), primary_key=True),
    Column("pos", Integer, primary_key=True, autoincrement=False),  # standings.pos
    Column("seat", SmallInteger, primary_key=True, autoincrement=False),  # 0, 1, ... within the pair
    Column("player_key", Text, nullable=False),  # lower case, single spaces
    Column("player", Text, nullable=False),
    # schema 4: the member number a teams session's room game gives (RealBridge "Ann Smith#23324"), else NULL
    Column("member_id", Text),
    Index("ix_players_key", "player_key", "version_id"),
)

#: Frame name -> table; the frames a version is made of.
FRAME_TABLES: dict[str, Table] = {
    "results": results, "boards": boards, "standings": standings, "names": names, "notes": notes,
    "corrections": corrections, "team_results": team_results, "team_boards": team_boards,
    "team_matches": team_matches, "team_standings": team_standings, "team_published": team_published,
}

#: Frame column -> SQL column where the names differ (SQL keywords).
RENAMED: dict[str, dict[str, str]] = {"standings": {"group": "grp"}, "notes": {"column": "column_name"}}

#: Schema version -> the columns added in it, as ``(table, column)``: what upgrading an archive
#: from the version before adds (``ALTER TABLE ... ADD COLUMN`` with the column's default).
MIGRATIONS: dict[int, list[tuple[Table, Column]]] = {2: [(versions, versions.c.complete)],
                                                      4: [(sessions, sessions.c.kind), (players, players.c.member_id)],
                                                      5: [(standings, standings.c.masterpoints)]}
#: Schema version -> the tables added in it: what upgrading an archive from the version before
#: creates (empty: the versions before had none of their rows). Read-only, an empty view stands in.
NEW_TABLES: dict[int, list[Table]] = {3: [corrections], 4: [team_results, team_boards, team_matches, team_standings,
                                                            team_published, events, event_sessions]}
#: Indexes added after archives existed: created, when missing, whenever an archive is opened for
#: writing (an index changes no row, so no schema bump: older bridgeprocs read the archive as before).
LATER_INDEXES: list[Index] = [names_by_text]
