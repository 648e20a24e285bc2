"""Many writers at once (a simultaneous: every club's machine archiving into one database).

Ten writer processes (multiprocessing; nothing shared but the database) wait at a barrier,
then each archives its own session into a fresh archive (the tables are created by whoever comes
first), then each archives its own correction of one shared session at once. Every version must
be kept, numbered 2..11 without a gap or a duplicate, and ``check_archive(deep=True)`` be clean.

On PostgreSQL the writers are spawned (ten fresh interpreters: the test is marked postgres and
slow). The SQLite variant runs in every test run, so its writers are forked from a forkserver
that imported this module once (no parent state either, and no ten interpreter start-ups).
"""
import dataclasses
import multiprocessing

import pytest

from bridgeproc.archive import archive_session, check_archive, list_sessions, load_session, session_versions
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.synthetic import synthetic_session
from tests.conftest_pg import fresh_database

WRITERS = 10
SPAWN = multiprocessing.get_context("spawn")
FORKSERVER = multiprocessing.get_context("forkserver")
SHARED = "2026-12-01_simultaneous-pairs"
WAIT = 180  # seconds a barrier waits: spawned interpreters import pandas and SQLAlchemy first


def _shared():
    return synthetic_session(tables=5, boards=6, seed=21, event="Simultaneous pairs", date="2026-12-01")


def _own(k: int):
    return synthetic_session(tables=3, boards=4, seed=100 + k, event=f"Club {k} heat", date="2026-12-01")


def _correction(session, k: int):
    """Writer ``k``'s correction: the lead of result ``k`` (a different result for each writer)."""
    results = session.results.copy()
    results.loc[k, "lead"] = f"S{k}"
    return dataclasses.replace(session, results=results)


def _writer(url: str, k: int, barrier, out) -> None:
    """One club's machine: its own session, then (after the parent's version 1) its correction."""
    try:
        shared = _shared()
        barrier.wait(WAIT)
        own = archive_session(_own(k), url)
        barrier.wait(WAIT)  # every own session is in
        barrier.wait(WAIT)  # the parent has archived version 1 of the shared session
        corrected = archive_session(_correction(shared, k), url)
        out.put((k, own.session_id, own.version, corrected.version, corrected.created, ""))
    except Exception as error:  # reported to the test, which fails with it
        out.put((k, "", 0, 0, False, f"{type(error).__name__}: {error}"))
        barrier.abort()


def _run_writers(url: str, context) -> list[tuple]:
    dispose_all()
    barrier = context.Barrier(WRITERS + 1)
    out = context.Queue()
    procs = [context.Process(target=_writer, args=(url, k, barrier, out)) for k in range(WRITERS)]
    for proc in procs:
        proc.start()
    try:
        barrier.wait(WAIT)  # all imported: go
        barrier.wait(WAIT)  # all own sessions written
        first = archive_session(_shared(), url)
        assert (first.version, first.created) == (1, True)
        barrier.wait(WAIT)  # go: ten corrections at once
        reports = [out.get(timeout=WAIT) for _ in procs]
    finally:
        for proc in procs:
            proc.join(timeout=WAIT)
        dispose_all()
    assert [r[5] for r in reports if r[5]] == []
    assert [proc.exitcode for proc in procs] == [0] * WRITERS
    return sorted(reports)


def _assert_every_version_kept(url: str, reports: list[tuple]) -> None:
    # the ten own sessions: each version 1 of its own id
    assert [(r[1], r[2]) for r in reports] == [(f"2026-12-01_club-{k}-heat", 1) for k in range(WRITERS)]
    assert sorted(list_sessions(url)["session_id"]) == sorted([SHARED] + [r[1] for r in reports])
    # the ten corrections: distinct consecutive numbers 2..11, each a new version
    assert sorted(r[3] for r in reports) == list(range(2, WRITERS + 2))
    assert all(r[4] for r in reports)
    assert session_versions(url, SHARED)["version"].tolist() == list(range(1, WRITERS + 2))
    # and each version holds the correction of the writer that got its number
    for k, _, _, number, _, _ in reports:
        leads = load_session(url, SHARED, number).results["lead"]
        assert leads.iloc[k] == f"S{k}"
        assert (leads.drop(index=k) == _shared().results["lead"].drop(index=k)).all()
    assert check_archive(url, deep=True) == []


@pytest.mark.postgres
@pytest.mark.slow
def test_ten_writers_on_postgresql(postgres_server):
    url = fresh_database(postgres_server)  # no tables yet: ten processes create them at once
    _assert_every_version_kept(url, _run_writers(url, SPAWN))


@pytest.mark.slow  # ten processes writing at once: left out of make quick
def test_ten_writers_on_sqlite(tmp_path):
    url = str(tmp_path / "simultaneous.sqlite")  # no file yet: the writers' file locks and busy timeout queue them
    FORKSERVER.set_forkserver_preload([__name__])
    _assert_every_version_kept(url, _run_writers(url, FORKSERVER))
