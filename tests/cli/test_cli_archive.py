"""score archives by default; the archive commands read it back."""
import os
import re

import pytest

from bridgeproc.cli import cli
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

INPUTS = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv"),
          "--names", str(SAMPLE / "club-evening-names.csv"), "--no-dd"]


def test_score_archives_then_a_correction_is_version_2(runner, tmp_path):
    out = str(tmp_path / "r.csv")
    first = runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "first.csv")])
    assert first.exit_code == 0, first.output
    assert "archived as 2026-11-24_tuesday-pairs version 1" in first.output
    corrected = tmp_path / "travellers.csv"
    text = (SAMPLE / "club-evening-travellers.csv").read_text()
    fixed = re.sub(r"^(1,1,1,1,1,2H,W,)\+1,", r"\1=,", text, count=1, flags=re.M)  # whatever the sample's lead
    assert fixed != text
    corrected.write_text(fixed)
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


def test_listings_are_for_a_person_unless_asked_for_csv_or_json(runner, tmp_path):
    import io
    import json

    import pandas as pd
    import pytest

    assert runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv")]).exit_code == 0
    text = runner.invoke(cli, ["archive", "history", "anna strand"])
    assert text.exit_code == 0
    header, row = text.output.splitlines()
    assert header.split() == ["date", "event", "session_id", "version", "method", "group", "pair", "partner",
                              "names", "rank", "boards", "pct", "imps", "total"]
    assert row.split()[-2:] == ["54.65", "341"]  # 341 / (26 x 24) = 54.647..%, rounded; no NaN for imps
    assert "NaN" not in text.output and "<NA>" not in text.output
    as_csv = pd.read_csv(io.StringIO(runner.invoke(cli, ["archive", "history", "Anna Strand", "--csv"]).output))
    assert as_csv.loc[0, "pct"] == pytest.approx(341 / (26 * 24) * 100, rel=1e-14) and pd.isna(as_csv.loc[0, "imps"])
    as_json = json.loads(runner.invoke(cli, ["archive", "history", "Anna Strand", "--json"]).output)
    assert as_json[0]["imps"] is None and as_json[0]["partner"] == "Bjørn Sæther" and as_json[0]["total"] == 341
    listing = json.loads(runner.invoke(cli, ["archive", "list", "--json"]).output)
    assert [s["session_id"] for s in listing] == ["2026-11-24_tuesday-pairs"]
    shown = runner.invoke(cli, ["archive", "show", "2026-11-24_tuesday-pairs"]).output
    assert "<NA>" not in shown and "54.65" in shown


def test_a_search_that_finds_nothing_exits_1(runner, tmp_path):
    assert runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv")]).exit_code == 0
    result = runner.invoke(cli, ["archive", "history", "Nobody Here"])
    assert result.exit_code == 1
    assert "no archived results for 'Nobody Here'" in result.output


def test_archive_export_is_quiet_with_q(runner, tmp_path):
    assert runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv")]).exit_code == 0
    out = tmp_path / "again.csv"
    quiet = runner.invoke(cli, ["archive", "export", "-q", "2026-11-24_tuesday-pairs", "-o", str(out)])
    assert quiet.exit_code == 0 and quiet.output == "" and out.is_file()
    assert runner.invoke(cli, ["archive", "check", "-q"]).exit_code == 0
