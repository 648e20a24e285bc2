"""bridgeproc.cli.program: the program ends its process at once, with the command's exit code, its
output whole, and what the process registered for its end (the archive's engines) done first."""
from __future__ import annotations

import atexit
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bridgeproc.cli import program

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bridgeproc", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.e2e
@pytest.mark.parametrize(("args", "status", "said"), [
    (["--version"], 0, "bridgeproc, version"),
    (["check", "no-such-file.pbn"], 2, "does not exist"),
    (["check", str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "with-problems" / "club-evening-travellers.csv")],
     1, "problem"),
])
def test_the_exit_code_is_the_commands(args, status, said):
    done = _run(*args)
    assert done.returncode == status
    assert said in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.e2e
def test_a_long_output_arrives_whole_through_a_pipe():
    """``score --help`` is flushed before the process ends: the whole screen, to its last line."""
    done = _run("score", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: bridgeproc score") and len(done.stdout) > 5000
    assert done.stdout.rstrip().splitlines()[-1].split() == ["-h,", "--help", "Show", "this", "message", "and", "exit."]


@pytest.mark.e2e
def test_an_archived_run_leaves_the_archive_closed(tmp_path):
    """The engines are closed at the end (atexit), so SQLite folds its write-ahead log into the file:
    nothing but the archive and the workbook is left beside it, and the session reads back."""
    archive = tmp_path / "club.sqlite"
    done = _run("score", str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv"),
                "-o", str(tmp_path / "results.xlsx"), "--archive", str(archive), "--session-id", "tuesday", "-q")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["club.sqlite", "results.xlsx"]
    listed = _run("archive", "list", "--archive", str(archive))
    assert listed.returncode == 0 and "tuesday" in listed.stdout


def test_end_runs_the_exit_functions_then_ends_with_the_status(monkeypatch, capsys):
    ended: list[int] = []
    calls: list[str] = []
    monkeypatch.setattr(program.os, "_exit", ended.append)
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: calls.append("atexit"))
    for code, status in ((None, 0), (0, 0), (2, 2), ("no archive here", 1)):
        program.end(code)
        assert ended.pop() == status
        assert calls.pop() == "atexit"
    assert capsys.readouterr().err == "no archive here\n"


def test_end_waits_for_a_running_thread_the_ordinary_way(monkeypatch):
    monkeypatch.setattr(program.os, "_exit", lambda status: pytest.fail("ended at once with a thread running"))
    release = threading.Event()
    worker = threading.Thread(target=release.wait)
    worker.start()
    try:
        with pytest.raises(SystemExit) as done:
            program.end(3)
        assert done.value.code == 3
    finally:
        release.set()
        worker.join()
