"""``bridgeproc event``: sessions in, the event ranking out; mistakes exit 2, refused data exits 1."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.cli import cli
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

S1, S2 = str(REALDATA / "fin-sm-parikilpailu-2014-s1.pbn"), str(REALDATA / "fin-sm-parikilpailu-2014-s2.pbn")
FFB = str(REALDATA / "ffb-dn1-open2-s1-2022.pbn")  # a board's top is 42, the Finnish 34


def test_the_finnish_championship(runner, tmp_path):
    out = tmp_path / "event.csv"
    result = runner.invoke(cli, ["event", S1, S2, "-o", str(out), "-o", str(tmp_path / "event.pbn"), "--no-dd",
                                 "--mp-decimals", "1"])
    assert result.exit_code == 0, result.output
    assert "36 pairs ranked over 2 sessions (105 boards, rule sum)" in result.output
    table = pd.read_csv(out, dtype={"pair": str})
    assert table.loc[0, ["rank", "pair", "total", "session_total", "session_rank"]].tolist() == [1, "2", 2084.4,
                                                                                                  805.0, "3"]
    assert (tmp_path / "event.pbn").is_file()


def test_sum_of_different_tops_is_refused_with_the_fix(runner, tmp_path):
    result = runner.invoke(cli, ["event", S1, FFB, "-o", str(tmp_path / "e.csv"), "--no-dd"])
    assert result.exit_code == 1
    assert "top is 42 here but 34" in result.output and "--rule scaled" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "e.csv").exists()


def test_scaled_combines_them(runner, tmp_path):
    result = runner.invoke(cli, ["event", S1, FFB, "-o", str(tmp_path / "e.csv"), "--no-dd", "--rule", "scaled",
                                 "--missing", "zero"])
    assert result.exit_code == 0, result.output


def test_command_line_mistakes_exit_2(runner, tmp_path):
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.docx")]).exit_code == 2
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.csv"), "--rule", "best"]).exit_code == 2
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.csv"), "--carry-over", "2"]).exit_code == 2
    same = runner.invoke(cli, ["event", S1, S1, "-o", str(tmp_path / "e.csv"), "--no-dd"])
    assert same.exit_code == 2 and "given twice" in same.output
    reads = runner.invoke(cli, ["event", S1, S2, "-o", S1, "--no-dd"])
    assert reads.exit_code == 2


SAMPLE = REALDATA.parent.parent.parent / "sample_data"


def test_a_pair_missing_a_session_without_names_is_a_note_not_a_crash(runner, tmp_path):
    sheet = pd.read_csv(SAMPLE / "club-evening-travellers.csv", dtype=str, keep_default_na=False)
    second = tmp_path / "s2_missing.csv"
    sheet[sheet["NS"] != "5"].to_csv(second, index=False)
    result = runner.invoke(cli, ["event", str(SAMPLE / "club-evening-travellers.csv"), str(second), "-o",
                                 str(tmp_path / "e.csv"), "--rule", "percent-average", "--no-dd", "--no-archive"])
    assert result.exit_code == 0, result.output
    assert "pair 5 (no names) missed session(s) 2" in result.output
    assert "25 pairs ranked over 2 sessions" in result.output and "Traceback" not in result.output


def test_the_event_is_archived_unless_told_not_to(runner, tmp_path):
    from bridgeproc.archive.events import event_sessions

    hands2 = tmp_path / "hands2.pbn"
    hands2.write_bytes((SAMPLE / "club-evening.pbn").read_bytes())
    travellers2 = tmp_path / "travellers2.csv"
    travellers2.write_bytes((SAMPLE / "club-evening-travellers.csv").read_bytes())
    archive = tmp_path / "club.sqlite"
    sessions = [f"{SAMPLE / 'club-evening.pbn'},{SAMPLE / 'club-evening-travellers.csv'}", f"{hands2},{travellers2}"]
    skipped = runner.invoke(cli, ["event", *sessions, "-o", str(tmp_path / "n.csv"), "--no-dd", "--no-archive",
                                  "--archive", str(archive)])
    assert skipped.exit_code == 0, skipped.output
    assert not archive.exists()
    result = runner.invoke(cli, ["event", *sessions, "-o", str(tmp_path / "e.csv"), "--no-dd", "--archive",
                                 str(archive), "--event", "Autumn pairs"])
    assert result.exit_code == 0, result.output
    assert "event 'Autumn pairs' archived with its 2 sessions" in result.output
    assert event_sessions(archive, "Autumn pairs")["session_id"].tolist() == ["2026-11-24_autumn-pairs-s1",
                                                                              "2026-11-24_autumn-pairs-s2"]
