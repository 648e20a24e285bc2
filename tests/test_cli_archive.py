"""score archives by default; the archive commands read it back."""
import os

from bridgeproc.cli import cli

from .conftest import SAMPLE

INPUTS = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv"),
          "--names", str(SAMPLE / "club-evening-names.csv"), "--no-dd"]


def test_score_archives_then_a_correction_is_version_2(runner, tmp_path):
    out = str(tmp_path / "r.csv")
    first = runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "first.csv")])
    assert first.exit_code == 0, first.output
    assert "archived as 2026-11-24_tuesday-pairs version 1" in first.output
    corrected = tmp_path / "travellers.csv"
    text = (SAMPLE / "club-evening-travellers.csv").read_text()
    corrected.write_text(text.replace("1,1,1,1,1,2H,W,+1,SA", "1,1,1,1,1,2H,W,=,SA"))
    args = [a if a != str(SAMPLE / "club-evening-travellers.csv") else str(corrected) for a in INPUTS]
    second = runner.invoke(cli, ["score", *args, "-o", out, "--comment", "board 1 corrected"])
    assert "archived as 2026-11-24_tuesday-pairs version 2" in second.output
    listing = runner.invoke(cli, ["archive", "list"])
    assert listing.exit_code == 0 and "2026-11-24_tuesday-pairs" in listing.output
    changes = runner.invoke(cli, ["archive", "diff", "2026-11-24_tuesday-pairs"])
    assert changes.output.splitlines()[0] == "board 1 corrected: EW pairs 1 and 3 swap places (were 3 and 4)"
    again = tmp_path / "v1.csv"
    assert runner.invoke(cli, ["archive", "export", "2026-11-24_tuesday-pairs", "--version", "1", "-o", str(again)]).exit_code == 0
    assert again.read_text() == (tmp_path / "first.csv").read_text()  # version 1 as first written
    history = runner.invoke(cli, ["archive", "history", "Anna Strand"])
    assert "Bjørn Sæther" in history.output
    assert runner.invoke(cli, ["archive", "check", "--deep"]).output.strip() == "archive OK"


def test_no_archive_leaves_no_archive(runner, tmp_path):
    result = runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv"), "--no-archive"])
    assert result.exit_code == 0
    assert "archived" not in result.output
    assert not os.path.exists(os.environ["BRIDGEPROC_ARCHIVE"])


def test_unknown_session_is_bad_input(runner):
    result = runner.invoke(cli, ["archive", "show", "no-such-session"])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_reading_commands_do_not_create_an_archive(runner):
    for command in (["archive", "list"], ["archive", "history", "Anna Strand"]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 1 and "no archive at" in result.output
    assert not os.path.exists(os.environ["BRIDGEPROC_ARCHIVE"])
