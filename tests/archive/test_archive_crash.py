"""A writer killed at any moment leaves the archive consistent; concurrent writers do not corrupt it.

Writers are forked processes (no interpreter start-up to wait for), archiving
corrections of a large session in a loop; one result's lead changes each time,
so every call adds a version.
"""
import dataclasses
import multiprocessing
import os
import random
import signal
import sys
import time
import warnings

import pytest
from pandas.testing import assert_frame_equal

from bridgeproc.archive import archive_session, check_archive, load_session, session_versions
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.synthetic import synthetic_session

pytestmark = [pytest.mark.crash, pytest.mark.skipif(sys.platform == "win32", reason="the writers are forked processes (POSIX)")]

KILLS = 5
SID = "2026-05-01_congress-pairs"
FORK = multiprocessing.get_context("fork")


@pytest.fixture(scope="module")
def large():
    return synthetic_session(tables=150, boards=24, seed=11, event="Congress pairs", date="2026-05-01")


def _correction(session, tag):
    results = session.results.copy()
    results.loc[0, "lead"] = tag
    return dataclasses.replace(session, results=results)


def _write(url, session, tag, count, state):
    dispose_all()  # nothing inherited from the parent (it disposed too, before forking)
    k = 0
    while count < 0 or k < count:
        state.value = 1  # inside archive_session
        archive_session(_correction(session, f"{tag}{k}"), url)
        state.value = 2
        k += 1


def _start(url, session, tag, count=-1):
    dispose_all()
    state = FORK.Value("i", 0)
    proc = FORK.Process(target=_write, args=(str(url), session, tag, count, state))
    with warnings.catch_warnings():
        # Python 3.12+ warns about fork() in a threaded process; ours runs no threads of its own.
        warnings.simplefilter("ignore", DeprecationWarning)
        proc.start()
    return proc, state


def _assert_consistent(url, first=None, deep=True):
    assert check_archive(url, deep=deep) == []
    numbers = session_versions(url, SID)["version"].tolist()
    assert numbers == list(range(1, len(numbers) + 1))
    if first is not None:
        back = load_session(url, SID, 1)
        for name in ("results", "boards", "standings", "names"):
            assert_frame_equal(getattr(back, name), getattr(first, name), check_exact=True)
    return numbers


def test_killed_writer_leaves_archive_before_or_after(archive_url, large):
    archive_session(large, archive_url)
    rng = random.Random(7)
    mid_write = 0
    for rep in range(KILLS):
        proc, state = _start(archive_url, large, f"K{rep}-")
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(timeout=30)
        assert proc.exitcode == -signal.SIGKILL
        mid_write += state.value == 1
        _assert_consistent(archive_url, first=large, deep=False)
    # The writer spends nearly all its time inside archive_session: most kills land mid-write.
    assert mid_write >= 1
    numbers = _assert_consistent(archive_url, first=large)
    # And the archive is still writable afterwards (no stale lock).
    assert archive_session(_correction(large, "final"), archive_url).version == numbers[-1] + 1


def test_two_writers_at_once(archive_url, large):
    procs = [_start(archive_url, large, tag, count=3)[0] for tag in ("A", "B")]
    for proc in procs:
        proc.join(timeout=120)
        assert proc.exitcode == 0
    numbers = _assert_consistent(archive_url)
    assert numbers == [1, 2, 3, 4, 5, 6]  # six distinct contents, each a change from the latest
    tags = {load_session(archive_url, SID, n).results.loc[0, "lead"] for n in numbers}
    assert tags == {"A0", "A1", "A2", "B0", "B1", "B2"}
