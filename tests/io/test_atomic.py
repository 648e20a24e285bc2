"""Output files: written all or nothing, with the mode the user expects, no temporary left behind."""
import os
import stat
import subprocess
import sys

import pytest

from bridgeproc.io.atomic import TMP_SUFFIX, atomic_path, output_mode, remove_stale, user_umask

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


@pytest.fixture
def umask():
    """Run a test under a given umask, restoring the process's own afterwards."""
    saved = os.umask(0o022)
    os.umask(saved)
    yield lambda mask: os.umask(mask)
    os.umask(saved)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o077, 0o600)])
def test_new_file_gets_the_umask_mode(tmp_path, umask, mask, expected):
    umask(mask)
    assert user_umask() == mask
    target = tmp_path / "results.csv"
    with atomic_path(target) as tmp:
        tmp.write_text("x")
    assert mode(target) == expected
    assert oct(output_mode(tmp_path / "other.csv")) == oct(expected)


def test_overwriting_keeps_the_replaced_files_mode(tmp_path, umask):
    umask(0o022)
    target = tmp_path / "results.csv"
    target.write_text("old")
    os.chmod(target, 0o644)
    with atomic_path(target) as tmp:
        tmp.write_text("new")
    assert mode(target) == 0o644 and target.read_text() == "new"
    os.chmod(target, 0o640)
    with atomic_path(target) as tmp:
        tmp.write_text("newer")
    assert mode(target) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "results.csv"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("writer failed")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_temporaries_of_a_killed_run_are_removed_by_the_next(tmp_path):
    target = tmp_path / "results.xlsx"
    stale = tmp_path / f".results.xlsx.{_dead_pid()}-abc123{TMP_SUFFIX}"
    running = tmp_path / f".results.xlsx.{os.getppid()}-def456{TMP_SUFFIX}"  # a process that is alive
    other = tmp_path / f".other.xlsx.{_dead_pid()}-abc{TMP_SUFFIX}"  # another output's: not ours to judge now
    for path in (stale, running, other):
        path.write_text("half-written")
    with atomic_path(target) as tmp:
        tmp.write_text("done")
    assert not stale.exists() and running.exists() and other.exists()
    assert remove_stale(tmp_path / "other.xlsx") == [other]


def test_stale_temporaries_are_found_for_names_with_glob_characters(tmp_path):
    target = tmp_path / "res [a].csv"
    stale = tmp_path / f".res [a].csv.{_dead_pid()}-x{TMP_SUFFIX}"
    stale.write_text("half")
    assert remove_stale(target) == [stale]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_a_folder_is_swapped_with_the_one_it_replaces_in_one_step(tmp_path):
    from bridgeproc.io.atomic import _exchange

    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "index.html").write_text("new")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("old")
    assert _exchange(str(tmp_path / "new"), str(tmp_path / "site"))  # ext4, tmpfs, btrfs, xfs all can
    assert [(tmp_path / n / "index.html").read_text() for n in ("new", "site")] == ["old", "new"]
    with pytest.raises(OSError, match="No such file"):
        _exchange(str(tmp_path / "missing"), str(tmp_path / "site"))
