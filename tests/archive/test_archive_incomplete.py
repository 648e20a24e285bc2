"""Outputs and archive together or not at all: a version is incomplete until every output of its
run is in place, is never the latest before, and the next run completes or replaces it. Kill
trials kill a writer between the archive's commit and the renames, and at random."""
import dataclasses
import multiprocessing
import os
import random
import re
import signal
import sqlite3
import sys
import time
import warnings

import pytest

from bridgeproc.archive import (
    ArchiveError,
    archive_session,
    check_archive,
    complete_version,
    engine_for,
    history,
    list_sessions,
    load_session,
    session_versions,
)
from bridgeproc.archive.db import dispose_all, reading, writing
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.tables import SCHEMA_VERSION, archive_info, versions
from bridgeproc.model import ArchiveOptions, Options
from bridgeproc.pipeline.write import write_outputs

SID = "2026-03-03_tuesday-pairs"
FORK = multiprocessing.get_context("fork")
posix = pytest.mark.skipif(sys.platform == "win32", reason="the writers are forked processes (POSIX)")


@pytest.fixture(scope="module")
def small():
    return synthetic_session(tables=6, boards=8, seed=3, event="Tuesday pairs", date="2026-03-03")


def _tagged(session, tag, url):
    results = session.results.copy()
    results.loc[0, "lead"] = tag
    return dataclasses.replace(session, results=results, options=Options(archive=ArchiveOptions(store=True, url=str(url))))


def _listed(url):
    row = list_sessions(url).set_index("session_id").loc[SID]
    return int(row["versions"]), row["incomplete"]


def test_an_incomplete_version_is_never_the_latest_until_completed(archive_url, small):
    first = archive_session(small, archive_url, complete=False)
    assert (first.version, first.created, first.complete) == (1, True, False)
    assert str(first).endswith("(incomplete until every output is written)")
    assert _listed(archive_url) == (0, "1")
    assert session_versions(archive_url, SID)["complete"].tolist() == [False]
    with pytest.raises(ArchiveError, match="has no complete version yet: the run that archived it did not write"):
        load_session(archive_url, SID)
    assert len(load_session(archive_url, SID, 1).results) == len(small.results)  # asked for by number: there
    assert check_archive(archive_url, deep=True) == []
    done = complete_version(archive_url, first)
    assert (done.version, done.complete) == (1, True)
    assert _listed(archive_url) == (1, "")
    assert check_archive(archive_url, deep=True) == []


def test_a_rerun_completes_the_same_data_and_replaces_other_data(archive_url, small):
    player = small.standings["names"].iloc[0].split(" & ")[0]
    archive_session(small, archive_url)  # version 1, complete
    changed = _tagged(small, "HA", archive_url)
    left = archive_session(changed, archive_url, complete=False)
    again = archive_session(changed, archive_url, complete=False)  # killed, run again: the same version
    assert (left.version, again.version, again.resumed) == (2, 2, True)
    assert _listed(archive_url) == (1, "2")
    assert set(history(archive_url, player, all_versions=True).table["version"]) == {1}  # never published: not history
    completed = archive_session(changed, archive_url)  # the library's one-step call completes it too
    assert (completed.version, completed.resumed, completed.complete) == (2, True, True)
    assert "(completing the version an interrupted run left incomplete)" in str(completed)
    assert _listed(archive_url) == (2, "")
    other = _tagged(small, "SK", archive_url)
    archive_session(other, archive_url, complete=False)  # version 3 left incomplete ...
    replaced = archive_session(_tagged(small, "DQ", archive_url), archive_url)  # ... other data replaces it
    assert (replaced.version, replaced.resumed) == (4, False)
    assert _listed(archive_url) == (4, "3")
    assert session_versions(archive_url, SID)["complete"].tolist() == [True, True, False, True]
    assert load_session(archive_url, SID).results.loc[0, "lead"] == "DQ"
    assert set(history(archive_url, player, all_versions=True).table["version"]) == {1, 2, 4}
    assert check_archive(archive_url, deep=True) == []


def test_an_older_archive_is_upgraded_when_written_and_read_as_it_is(tmp_path, small):
    path = tmp_path / "old.sqlite"
    archive_session(small, path)
    dispose_all()
    with sqlite3.connect(path) as conn:  # as bridgeproc wrote schema 1
        conn.execute("ALTER TABLE versions DROP COLUMN complete")
        conn.execute("UPDATE archive_info SET value = '1' WHERE key = 'schema_version'")
    conn.close()
    before = path.read_bytes()
    assert _listed(path) == (1, "")  # read-only: the missing column's default stands in
    assert session_versions(path, SID)["complete"].tolist() == [True]
    assert check_archive(path, deep=True) == []
    dispose_all()
    assert path.read_bytes() == before  # reading never upgrades
    assert archive_session(_tagged(small, "HA", path), path).version == 2
    with reading(engine_for(path)) as conn:
        assert conn.execute(archive_info.select()).all() == [("schema_version", str(SCHEMA_VERSION))]
    assert session_versions(path, SID)["complete"].tolist() == [True, True]
    dispose_all()


def test_the_read_only_engine_never_writes(tmp_path, small):
    """Root ignores file modes, so the read-only open itself is what is tested here: every write
    through it fails, and the questions are answered."""
    path = tmp_path / "a.sqlite"
    archive_session(small, path)
    dispose_all()
    engine = engine_for(path, readonly=True)
    assert engine is not engine_for(path)
    with reading(engine) as conn:
        assert conn.execute(versions.select()).first() is not None
    with pytest.raises(ArchiveError, match="readonly database"):
        with reading(engine) as conn:
            conn.execute(versions.update().values(comment="changed"))
    with pytest.raises(ArchiveError, match="cannot write the archive .*readonly database.*--no-archive"):
        with writing(engine) as conn:
            conn.execute(versions.update().values(comment="changed"))
    assert session_versions(path, SID)["comment"].isna().all()
    dispose_all()


# --------------------------------------------------------------------------- kill trials


def _write(url, session, tag, outputs, where, count=1):
    """In a forked child: write ``outputs`` and archive; ``where``: die there (SIGKILL)."""
    dispose_all()
    targets = {str(o) for o in outputs}
    if where == "rename":  # the archive has committed; the first output rename kills
        real = os.replace

        def replace(src, dst):
            if str(dst) in targets:
                os.kill(os.getpid(), signal.SIGKILL)
            real(src, dst)
        os.replace = replace
    if where == "complete":  # every output is in place; marking the version complete kills
        import bridgeproc.archive

        bridgeproc.archive.complete_version = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
    k = 0
    while count < 0 or k < count:
        write_outputs(_tagged(session, f"{tag}{k}", url), list(outputs))
        k += 1
    os._exit(0)


def _run(url, session, tag, outputs, where, count=1):
    dispose_all()
    proc = FORK.Process(target=_write, args=(str(url), session, tag, outputs, where, count))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() in a threaded process (3.12+)
        proc.start()
    return proc


def _tag_in(path):
    return re.search(r"\b[A-Z]+\d+-\d+\b", path.read_text()).group(0) if path.exists() else None


@posix
@pytest.mark.crash
@pytest.mark.parametrize("where", ["rename", "complete"])
def test_killed_between_commit_and_outputs_leaves_an_incomplete_version_the_rerun_finishes_first(
        archive_url, small, tmp_path, where):
    """The rerun finishes the killed run's journal before anything (its renames, then the version marked
    complete), so it finds its own data already archived: unchanged, nothing to resume."""
    outputs = [tmp_path / "pub" / "a.csv", tmp_path / "pub" / "b.csv"]
    proc = _run(archive_url, small, "K1-", outputs, where)
    proc.join(timeout=60)
    assert proc.exitcode == -signal.SIGKILL
    assert session_versions(archive_url, SID)["complete"].tolist() == [False]
    assert _listed(archive_url) == (0, "1")
    assert check_archive(archive_url, deep=True) == []
    if where == "rename":
        assert [o.exists() for o in outputs] == [False, False]
    else:
        assert [_tag_in(o) for o in outputs] == ["K1-0", "K1-0"]
    session = write_outputs(_tagged(small, "K1-0", archive_url), outputs)  # the director runs it again
    assert (session.archived.version, session.archived.created, session.archived.complete) == (1, False, True)
    assert _listed(archive_url) == (1, "")
    assert [_tag_in(o) for o in outputs] == ["K1-0", "K1-0"]
    assert sorted(p.name for p in outputs[0].parent.iterdir()) == ["a.csv", "b.csv"]  # no temporary left


@posix
@pytest.mark.crash
def test_random_kills_never_leave_a_complete_version_without_its_outputs(archive_url, small, tmp_path):
    outputs = [tmp_path / "a.csv", tmp_path / "b.csv"]
    rng = random.Random(15)
    for trial in range(6):
        proc = _run(archive_url, small, f"R{trial}-", outputs, None, count=-1)
        time.sleep(rng.uniform(0.2, 1.5))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(timeout=60)
        assert check_archive(archive_url) == []
        if not session_versions_or_none(archive_url):
            continue
        table = session_versions(archive_url, SID)
        latest, _ = _listed(archive_url)
        tags = {int(n): load_session(archive_url, SID, int(n)).results.loc[0, "lead"] for n in table["version"]}
        newer_incomplete = {tags[n] for n, done in zip(table["version"], table["complete"]) if not done and n > latest}
        for output in outputs:  # what is published is the latest complete version, or one still completing
            assert _tag_in(output) in ({tags[latest]} if latest else set()) | newer_incomplete | {None}
        if latest:  # and the latest complete version's files were all written
            assert all(o.exists() for o in outputs)
    dispose_all()


def session_versions_or_none(url):
    try:
        return len(session_versions(url, SID))
    except ArchiveError:
        return 0
