"""Every input is read with bounds (issue 29): a device, a named pipe or a folder given as a file is
refused at once (``/dev/zero`` was read until memory ran out, a pipe blocked for ever), and so is a file
far larger than any results file."""
from __future__ import annotations

import os
import sys

import pytest

from bridgeproc.cli import cli
from bridgeproc.errors import ParseError
from bridgeproc.io.text import file_bytes
from tests.conftest import SAMPLE

TRAVELLERS = SAMPLE / "club-evening-travellers.csv"
posix = pytest.mark.skipif(sys.platform == "win32" or not os.path.exists("/dev/zero"), reason="POSIX devices")


@posix
@pytest.mark.parametrize("args", [["--names", "/dev/zero"], ["--corrections", "/dev/zero"]])
def test_a_device_as_a_side_file_is_refused(runner, tmp_path, args):
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--no-archive", *args,
                                 "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 1, result.output
    assert "/dev/zero is a device, not a file; give the file itself" in result.output
    assert not (tmp_path / "x.csv").exists()


@posix
def test_a_device_as_the_configuration_file_is_refused(runner, monkeypatch):
    monkeypatch.setenv("BRIDGEPROC_CONFIG", "/dev/zero")
    result = runner.invoke(cli, ["config"])
    assert result.exit_code == 2, result.output
    assert "/dev/zero: cannot read the configuration file: /dev/zero is a device, not a file" in result.output


@posix
def test_a_named_pipe_as_an_input_is_refused_not_waited_on(runner, tmp_path):
    pipe = tmp_path / "travellers.csv"
    os.mkfifo(pipe)
    result = runner.invoke(cli, ["score", str(pipe), "--no-dd", "--no-archive", "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 1, result.output
    assert "is a named pipe, not a file" in result.output


def test_a_file_over_the_bound_is_refused_and_one_within_is_read(tmp_path):
    path = tmp_path / "big.csv"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(ParseError, match="larger than 1,000 bytes"):
        file_bytes(path, limit=1000)
    assert file_bytes(path, limit=1001) == b"x" * 1001
    with pytest.raises(ParseError, match="is a folder, not a file"):
        file_bytes(tmp_path)


@pytest.mark.slow
def test_a_megabyte_header_line_is_answered_in_a_few_hundred_characters(runner, tmp_path):
    """The first catalogue: a 2.4 MB header line was answered with a 2.8-million-character message; each
    quoted cell is cut with its length, and no file problem's message passes errors.MAX_MESSAGE."""
    from bridgeproc.errors import MAX_MESSAGE, bounded

    path = tmp_path / "travellers.csv"
    path.write_text("Board," + "X" * 2_400_000 + "\n1,2\n", encoding="utf-8")
    result = runner.invoke(cli, ["score", str(path), "--no-dd", "--no-archive", "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 1, result.output
    assert len(result.output) < 1_500 and "(2,400,000 characters)" in result.output
    assert bounded("x" * 10) == "x" * 10
    long = "x" * (MAX_MESSAGE + 5)
    assert bounded(f"short\n{long}") == f"short\n{'x' * MAX_MESSAGE}... [{MAX_MESSAGE + 5:,} characters; the rest left out]"
    many = "\n".join(["a problem, one line"] * 500)  # many problems, one per line: kept whole
    assert bounded(many) == many
