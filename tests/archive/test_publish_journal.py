"""Outputs published as one set: a run killed at any rename of its outputs (a CSV, a PBN and a results
folder, archived) leaves a journal, and the next command, whatever it is, finishes the renames and the
archive steps before anything else. So every command sees the old set or the new one, never a mix, and
the archive's latest complete version is the one the files show."""
import json
import multiprocessing
import os
import re
import signal
import socket
import sys
import warnings
from pathlib import Path

import pytest

from bridgeproc.archive import check_archive, list_sessions, session_versions
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.cli import cli
from bridgeproc.io import atomic
from bridgeproc.io.atomic import TMP_SUFFIX
from bridgeproc.pipeline import journal
from bridgeproc.pipeline.write import write_outputs
from tests.archive.test_archive_incomplete import _tagged  # the same session, tagged

pytestmark = [pytest.mark.crash, pytest.mark.e2e,
              pytest.mark.skipif(sys.platform == "win32", reason="the writers are forked processes (POSIX)")]
SID = "2026-03-03_tuesday-pairs"
FORK = multiprocessing.get_context("fork")
TAG = re.compile(r"\b(OLD|NEW)-\d\b")
#: The four renames of a three-output run: a.csv, b.pbn, then site/ swapped with the old folder in one step
#: (Linux; elsewhere the old folder is moved aside, then the new one in), the old one then moved aside.
RENAMES = 4


@pytest.fixture(scope="module")
def small():
    return synthetic_session(tables=6, boards=8, seed=3, event="Tuesday pairs", date="2026-03-03")


def _outputs(folder):
    return [folder / "a.csv", folder / "b.pbn", folder / "site"]


def _shown(output):
    """The tag the output shows: a file's, or every page's of the folder that names one (one tag, or a mix)."""
    files = [output] if output.is_file() else sorted(p for p in output.rglob("*.html"))
    tags = {m.group(0) for f in files if f.exists() for m in TAG.finditer(f.read_text(encoding="utf-8"))}
    return tags.pop() if len(tags) == 1 else (None if not tags else "mixed")


def _kill_at(k, outputs):
    """In the child: die (SIGKILL) at the ``k``-th rename of an output, or (``k`` < 0) just before the journal lists its renames."""
    targets = {str(o) for o in outputs}
    seen = [0]
    real_rename, real_replace = os.rename, os.replace

    def hold(real):
        def rename(src, dst):
            output = str(dst) in targets or (str(dst).endswith(TMP_SUFFIX) and "-old-" in str(dst))
            if output:
                if seen[0] == k:
                    os.kill(os.getpid(), signal.SIGKILL)
                seen[0] += 1
            real(src, dst)
        return rename

    os.rename, os.replace = hold(real_rename), hold(real_replace)
    real_exchange = atomic._exchange
    atomic._exchange = lambda one, other: hold(lambda a, b: None)(one, other) or real_exchange(one, other)
    if k < 0:
        journal.commit = lambda *a: os.kill(os.getpid(), signal.SIGKILL)


def _child(url, session, outputs, k):
    dispose_all()
    _kill_at(k, outputs)
    write_outputs(_tagged(session, "NEW-1", url), [*outputs[:2], f"{outputs[2]}/"])
    os._exit(0)


def _run_killed(url, session, outputs, k):
    dispose_all()
    proc = FORK.Process(target=_child, args=(str(url), session, outputs, k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() in a threaded process (3.12+)
        proc.start()
    proc.join(timeout=120)
    assert proc.exitcode == -signal.SIGKILL


def _latest(url):
    return int(list_sessions(url).set_index("session_id").loc[SID, "versions"])


@pytest.mark.parametrize("k", [-1, *range(RENAMES)])
def test_a_kill_at_any_rename_is_finished_by_the_next_command(archive_url, small, tmp_path, runner, k):
    outputs = _outputs(tmp_path / "pub")
    write_outputs(_tagged(small, "OLD-0", archive_url), [*outputs[:2], f"{outputs[2]}/"])
    assert [_shown(o) for o in outputs] == ["OLD-0"] * 3
    _run_killed(archive_url, small, outputs, k)
    left = list(journal.journal_folder().glob("publish-*.json"))
    assert len(left) == 1
    assert _shown(outputs[2]) in ("OLD-0", "NEW-1")  # the folder is swapped whole: never none, never a mix
    if k >= 0:  # the killed run's window: the files may disagree until a command runs
        kept = json.loads(left[0].read_text(encoding="utf-8"))
        assert [Path(m["target"]).name for m in kept["moves"]] == ["a.csv", "b.pbn", "site"]
        assert kept["finish"] == [{"archive": str(archive_url), "complete": [[SID, 2]], "event": None}]
        assert oct(left[0].stat().st_mode & 0o777) == "0o600"  # it may hold an archive URL

    result = runner.invoke(cli, ["archive", "list", "--archive", str(archive_url)])  # any command
    assert result.exit_code == 0, result.output
    expected = "OLD-0" if k < 0 else "NEW-1"
    assert [_shown(o) for o in outputs] == [expected] * 3
    assert _latest(archive_url) == (1 if k < 0 else 2)  # the archive agrees with the files
    assert session_versions(archive_url, SID)["complete"].tolist() == [True, k >= 0]
    assert check_archive(archive_url, deep=True) == []
    if k >= 0:
        assert "finished publishing" in result.output and "was killed while renaming them" in result.output
    else:
        assert "removed what a killed run had begun to write" in result.output
    assert list(journal.journal_folder().glob("publish-*")) == []
    assert sorted(p.name for p in (tmp_path / "pub").iterdir()) == ["a.csv", "b.pbn", "site"]  # nothing aside
    dispose_all()


def test_a_journal_of_a_run_still_going_is_left_alone(tmp_path):
    (tmp_path / "new.csv").write_text("new")
    folder = journal.journal_folder()
    folder.mkdir(parents=True)
    live = folder / f"publish-{os.getppid()}-abc.json"  # the test runner's parent: alive
    live.write_text(json.dumps({"host": "x", "moves": [{"temporary": str(tmp_path / "new.csv"),
                                                        "target": str(tmp_path / "a.csv")}]}))
    assert journal.finish_interrupted() == []
    assert live.exists() and not (tmp_path / "a.csv").exists()


def test_the_journal_names_this_machine_as_the_socket_module_does():
    """A journal written by an earlier release (``socket.gethostname``) is still this machine's."""
    assert journal.host() == socket.gethostname()


def test_a_journal_that_cannot_be_read_is_said_and_kept(tmp_path):
    folder = journal.journal_folder()
    folder.mkdir(parents=True)
    (folder / "publish-999999999-abc.json").write_text("{not json")
    [note] = journal.finish_interrupted()
    assert re.fullmatch(r"an interrupted run's journal .*publish-\d+-abc\.json cannot be read \(.*\); remove it", note)
    assert len(list(folder.glob("publish-*.json"))) == 1


def test_without_a_journal_folder_the_outputs_are_still_written(tmp_path, monkeypatch, small):
    (tmp_path / "state").write_text("a file where the journal folder would be")
    monkeypatch.setenv("BRIDGEPROC_STATE", str(tmp_path / "state"))
    write_outputs(_tagged(small, "NEW-2", tmp_path / "a.sqlite"), [tmp_path / "a.csv"])
    assert _shown(tmp_path / "a.csv") == "NEW-2"
    dispose_all()
