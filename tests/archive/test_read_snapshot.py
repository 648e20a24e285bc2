"""A read transaction of the archive (archive.db.reading) is one snapshot: a session archived by another
writer while a multi-query reader (ladder, rescore, history) is between two queries is not seen by the
second query, on SQLite and on PostgreSQL (where the default READ COMMITTED would show it)."""
from __future__ import annotations

from sqlalchemy import func, select

from bridgeproc.archive import archive_session
from bridgeproc.archive.db import engine_for, reading
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.tables import sessions


def count(conn) -> int:
    return conn.execute(select(func.count()).select_from(sessions)).scalar_one()


def test_a_session_archived_during_a_read_is_not_seen_until_the_next_read(archive_url):
    archive_session(synthetic_session(4, 4, seed=1, event="Monday"), archive_url)
    engine = engine_for(archive_url, readonly=True)
    with reading(engine) as conn:
        assert count(conn) == 1
        archive_session(synthetic_session(4, 4, seed=2, event="Tuesday"), archive_url)  # another writer
        assert count(conn) == 1  # the same snapshot
    with reading(engine) as conn:
        assert count(conn) == 2
