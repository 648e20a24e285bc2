"""A reader who cannot write the archive's folder is not shown an old state (issue 29): when the latest
sessions are still in the -wal file and the -shm file is gone, SQLite can only open the archive ignoring
the -wal (immutable); bridgeproc says so and what to do instead of listing what is out of date."""
from __future__ import annotations

import shutil
import sqlite3

import pytest

from bridgeproc.archive import archive_session, db
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.cli import cli

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick


def _wal_archive(tmp_path):
    """An archive whose last session is in its -wal file (a writer still has it open), copied with the
    -wal and without the -shm, as a reader's copy of a live archive would be."""
    live = tmp_path / "live" / "archive.sqlite"
    live.parent.mkdir()
    archive_session(synthetic_session(4, 8, seed=1, event="Night 1"), live)
    keep = sqlite3.connect(live)  # holds the WAL open: no checkpoint on close
    keep.execute("PRAGMA wal_autocheckpoint = 0")
    archive_session(synthetic_session(4, 8, seed=2, event="Night 2", date="2026-01-08"), live)
    copy = tmp_path / "reader" / "archive.sqlite"
    copy.parent.mkdir()
    shutil.copy(live, copy)
    shutil.copy(f"{live}-wal", f"{copy}-wal")
    keep.close()
    db.dispose_all()
    return copy


def test_an_unapplied_wal_a_reader_cannot_read_is_said_not_hidden(runner, tmp_path, monkeypatch):
    copy = _wal_archive(tmp_path)
    assert (tmp_path / "reader" / "archive.sqlite-wal").stat().st_size > 0
    real = sqlite3.connect

    class NoShm:
        """What a user who cannot write the folder gets from mode=ro: the file opens, the first read fails."""

        def execute(self, *args):
            raise sqlite3.OperationalError("unable to open database file")

        def close(self):
            pass

    def no_shm(database, *args, **kwargs):
        if kwargs.get("uri") and "immutable" not in str(database):
            return NoShm()
        return real(database, *args, **kwargs)

    monkeypatch.setattr(db.sqlite3, "connect", no_shm)
    result = runner.invoke(cli, ["archive", "list", "--archive", str(copy)])
    assert result.exit_code == 1, result.output
    assert "its latest changes are still in archive.sqlite-wal" in result.output and "out of date" in result.output
    assert "Traceback" not in result.output


def test_a_reader_who_can_open_the_wal_sees_every_session(runner, tmp_path):
    copy = _wal_archive(tmp_path)
    result = runner.invoke(cli, ["archive", "list", "--archive", str(copy)])
    assert result.exit_code == 0, result.output
    assert "Night 1" in result.output and "Night 2" in result.output
