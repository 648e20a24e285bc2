"""Kill trials for teams (issue 27: teams archives by default, all or nothing): a run killed after the
archive committed and before its outputs are in place leaves the version incomplete and no output; the
director's rerun completes that version and writes every output."""
from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import warnings

import pytest

from bridgeproc.archive import event_sessions, list_sessions
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.query import session_versions
from bridgeproc.pipeline.journal import finish_interrupted
from bridgeproc.pipeline.teams import process_teams
from tests.conftest import REALDATA

pytestmark = [pytest.mark.crash, pytest.mark.skipif(sys.platform == "win32", reason="forked processes (POSIX)")]
FORK = multiprocessing.get_context("fork")
TEAMS = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"


def _die_at_first_rename(outputs):
    """In a forked child: the archive has committed; the first rename of an output kills (SIGKILL)."""
    targets = {str(o) for o in outputs}
    real = os.replace

    def replace(src, dst):
        if str(dst) in targets:
            os.kill(os.getpid(), signal.SIGKILL)
        real(src, dst)
    os.replace = replace


def _write(url, outputs, where):
    """In a forked child: score, archive and write the teams event; die (SIGKILL) at ``where``."""
    dispose_all()
    if where == "rename":
        _die_at_first_rename(outputs)
    if where == "complete":  # every output is in place; marking the version complete kills
        import bridgeproc.archive

        bridgeproc.archive.complete_version = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
    process_teams([TEAMS], outputs, archive=True, archive_url=url)
    os._exit(0)


@pytest.mark.parametrize("where", ["rename", "complete"])
def test_a_teams_run_killed_mid_publish_is_finished_by_the_next_command(tmp_path, where):
    url = str(tmp_path / "archive.sqlite")
    outputs = [tmp_path / "pub" / "teams.csv", tmp_path / "pub" / "teams.xml"]
    dispose_all()
    proc = FORK.Process(target=_write, args=(url, outputs, where))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() in a threaded process (3.12+)
        proc.start()
    proc.join(timeout=120)
    assert proc.exitcode == -signal.SIGKILL
    listed = list_sessions(url)
    sid = str(listed["session_id"].iloc[0])
    assert (listed["kind"].tolist(), session_versions(url, sid)["complete"].tolist()) == (["teams"], [False])
    assert [o.exists() for o in outputs] == ([False, False] if where == "rename" else [True, True])
    assert [note.split(":")[0] for note in finish_interrupted()] == [  # what any command does first
        f"finished publishing {outputs[0]}, {outputs[1]}"]
    assert session_versions(url, sid)["complete"].tolist() == [True]
    assert all(o.exists() for o in outputs)
    again = process_teams([TEAMS], outputs, archive=True, archive_url=url)  # the director runs it again
    assert (again.archived.version, again.archived.created, again.archived.complete) == (1, False, True)
    assert session_versions(url, sid)["complete"].tolist() == [True]
    assert all(o.exists() for o in outputs)
    assert sorted(p.name for p in outputs[0].parent.iterdir()) == ["teams.csv", "teams.xml"]  # no temporary left
    dispose_all()


S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"


def _write_event(url, outputs):
    """In a forked child: the two-session event archived and written; the first output rename kills."""
    from bridgeproc.model import ArchiveOptions, Options
    from bridgeproc.pipeline.event import process_event

    dispose_all()
    _die_at_first_rename(outputs)
    process_event([str(S1), str(S2)], outputs, Options(archive=ArchiveOptions(store=True, url=url), dd=False))
    os._exit(0)


def test_an_event_killed_mid_publish_is_finished_by_the_next_command(tmp_path):
    from bridgeproc.model import ArchiveOptions, Options
    from bridgeproc.pipeline.event import process_event

    url = str(tmp_path / "archive.sqlite")
    outputs = [tmp_path / "event.csv", tmp_path / "event.xlsx"]
    dispose_all()
    proc = FORK.Process(target=_write_event, args=(url, outputs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        proc.start()
    proc.join(timeout=300)
    assert proc.exitcode == -signal.SIGKILL
    listed = list_sessions(url)
    assert len(listed) == 2 and listed["incomplete"].astype(bool).all()  # each session stored, not yet complete
    assert not any(o.exists() for o in outputs)
    [note] = finish_interrupted()  # what any command does first: the renames, the versions, the event
    assert note.startswith(f"finished publishing {outputs[0]}, {outputs[1]}")
    assert all(o.exists() for o in outputs) and not list_sessions(url)["incomplete"].astype(bool).any()
    recorded = event_sessions(url, "SM-parikilpailu")
    assert recorded["session_id"].tolist() == sorted(listed["session_id"]) and (recorded["version"] == 1).all()
    again = process_event([str(S1), str(S2)], outputs, Options(archive=ArchiveOptions(store=True, url=url), dd=False))
    assert [s.created for s in again.archived.sessions] == [False, False]
    assert not list_sessions(url)["incomplete"].astype(bool).any() and all(o.exists() for o in outputs)
    dispose_all()
