"""Processes that make a new archive at the same moment all succeed: SQLite does not wait on a lock for
``PRAGMA journal_mode = WAL``, so one of them got "database is locked" (about one run in three with eight
processes); the pragma is now tried again for as long as the busy timeout."""
import multiprocessing
import sqlite3
import sys
import warnings

import pytest

from bridgeproc.archive import list_sessions
from bridgeproc.archive.db import _wal, dispose_all

FORK = multiprocessing.get_context("fork")


class _Cursor:
    def __init__(self, failures):
        self.failures, self.calls = list(failures), 0

    def execute(self, sql):
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)


def test_a_locked_journal_mode_switch_is_tried_again():
    cursor = _Cursor([sqlite3.OperationalError("database is locked")] * 3)
    _wal(cursor)
    assert cursor.calls == 4


def test_any_other_failure_of_the_switch_is_raised_at_once():
    cursor = _Cursor([sqlite3.OperationalError("disk I/O error")])
    with pytest.raises(sqlite3.OperationalError, match="disk I/O error"):
        _wal(cursor)
    assert cursor.calls == 1


def _archive(url, seed, barrier, outcome):
    from bridgeproc.archive import archive_session
    from bridgeproc.archive.synthetic import synthetic_session

    dispose_all()
    session = synthetic_session(tables=3, boards=4, seed=seed, event=f"Pairs {seed}", date="2026-03-03")
    barrier.wait()
    try:
        archive_session(session, url)
        outcome.put((seed, "ok"))
    except Exception as exc:  # noqa: BLE001 - reported to the parent, which fails the test with it
        outcome.put((seed, f"{type(exc).__name__}: {exc}"))


@pytest.mark.crash
@pytest.mark.skipif(sys.platform == "win32", reason="the writers are forked processes (POSIX)")
@pytest.mark.parametrize("trial", range(4))
def test_eight_processes_making_one_new_archive_at_once_all_succeed(tmp_path, trial):
    url = str(tmp_path / "new.sqlite")
    barrier, outcome = FORK.Barrier(8), FORK.Queue()
    dispose_all()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() in a threaded process (3.12+)
        procs = [FORK.Process(target=_archive, args=(url, seed, barrier, outcome)) for seed in range(8)]
        for proc in procs:
            proc.start()
    results = sorted(outcome.get(timeout=120) for _ in procs)
    for proc in procs:
        proc.join(timeout=60)
    assert results == [(seed, "ok") for seed in range(8)]
    assert len(list_sessions(url)) == 8
    dispose_all()
