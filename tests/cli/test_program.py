"""bridgeproc.cli.program: the program ends its process at once, with the command's exit code, its
output whole, and what the process registered for its end (the archive's engines) done first."""
from __future__ import annotations

import atexit
import os
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
def test_what_is_still_buffered_arrives_through_a_pipe():
    """Text written but not flushed (stdout to a pipe is block-buffered) is flushed before the process
    ends: 100,000 characters and a last line without a newline, in a process without PYTHONUNBUFFERED."""
    code = ("import sys\nfrom bridgeproc.cli import program\n"
            "sys.stdout.write('x' * 100_000 + '\\nlast')\nsys.stderr.write('said')\nprogram.end(3)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 3
    assert done.stdout == "x" * 100_000 + "\nlast" and done.stderr == "said"


@pytest.mark.e2e
@pytest.mark.parametrize("closed", [">&-", "2>&-"])
def test_a_stream_closed_from_the_start_is_no_error(closed):
    """Started with stdout or stderr closed (Python gives None for it), the command still ends with its code."""
    done = subprocess.run(["sh", "-c", f'"{sys.executable}" -m bridgeproc --version {closed}'], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0
    assert "Traceback" not in done.stderr


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
