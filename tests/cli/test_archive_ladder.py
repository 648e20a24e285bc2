"""``bridgeproc archive ladder`` and ``archive history`` with player identity, on the command line."""
import io
import os

import openpyxl
import pandas as pd
import pytest

from bridgeproc.archive import archive_session
from bridgeproc.cli.main import cli
from tests.archive.test_ladder import SEASON


@pytest.fixture
def season():
    for session in SEASON:
        archive_session(session, os.environ["BRIDGEPROC_ARCHIVE"])


def test_ladder_prints_the_table_and_writes_csv_and_xlsx(runner, season, tmp_path):
    csv, xlsx = tmp_path / "ladder.csv", tmp_path / "ladder.xlsx"
    result = runner.invoke(cli, ["archive", "ladder", "--from", "2026-09-01", "--to", "2026-09-30", "--event",
                                 "Autumn ladder", "--best", "3", "--min-sessions", "3", "-o", str(csv), "-o", str(xlsx)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["rank", "names", "ids", "sessions", "counted", "pct", "best"]
    assert lines[1].split() == ["1", "Anna", "Strand", "&", "Bjørn", "Sæther", "4", "3", "61.67", "70"]
    assert "ladder: 2026-09-01 to 2026-09-30, events holding 'Autumn ladder'; best 3 of 5 sessions, by pair, " \
           "at least 3 sessions to be ranked" in result.stderr
    assert "'Sæther, Bjørn', 'bjørn sæther' and 'Bjørn Sæther' taken as one player (the same name)" in result.stderr
    written = pd.read_csv(csv, keep_default_na=False)
    assert written["names"].tolist()[:2] == ["Anna Strand & Bjørn Sæther", "Cy Young & Di Lane"]
    assert written["rank"].astype(str).tolist() == ["1", "2", "", "", ""]
    assert written["pct"].iloc[0] == 61.67  # 185 / 3 as every output shows it
    sheet = list(openpyxl.load_workbook(xlsx).active.iter_rows(values_only=True))
    header = sheet.index(("Rank", "Names", "Member ids", "Sessions", "Counted", "Average %", "Best %"))
    assert sheet[0][0] == "Ladder: 2026-09-01 to 2026-09-30, events holding 'Autumn ladder'"
    assert sheet[header + 1][:5] == ("1", "Anna Strand & Bjørn Sæther", None, 4, 3)


def test_ladder_by_player_as_csv(runner, season):
    result = runner.invoke(cli, ["archive", "ladder", "--event", "autumn ladder", "--to", "2026-09-30", "--best", "3",
                                 "--by", "player", "--csv", "-q"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    table = pd.read_csv(io.StringIO(result.stdout), dtype={"rank": str})
    assert table["names"].tolist()[:3] == ["Anna Strand", "Bjørn Sæther", "Gus Hart"]  # August counts: 99 %


@pytest.mark.parametrize(("arguments", "code", "message"), [
    (["--from", "2026-13-01"], 2, "'2026-13-01' does not match the format '%Y-%m-%d'"),
    (["--from", "2026-10-01", "--to", "2026-09-01"], 2, "--from 2026-10-01 is after --to 2026-09-01"),
    (["--best", "0"], 2, "0 is not in the range x>=1"),
    (["--by", "team"], 2, "'team' is not one of 'pair', 'player'"),
    (["-o", "ladder.pdf"], 2, "ladder.pdf: unknown output type; use one of .csv, .xlsx"),
    (["--from", "2027-01-01"], 1, "no archived session with percentages for 2027-01-01"),
])
def test_ladder_refuses_what_is_certainly_wrong(runner, season, arguments, code, message):
    result = runner.invoke(cli, ["archive", "ladder", *arguments])
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


def test_ladder_without_an_archive(runner):
    result = runner.invoke(cli, ["archive", "ladder"])
    assert result.exit_code == 1 and "no archive at" in result.output


def test_history_finds_a_name_written_another_way(runner, season):
    result = runner.invoke(cli, ["archive", "history", "Strand, Anna", "--csv"])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(io.StringIO(result.stdout))
    assert len(table) == 8 and table["partner"].iloc[-1] == "Gus Hart"
    assert "'Strand, Anna', 'anna strand', 'Anna  Strand' and 'Anna Strand' taken as one player" in result.stderr
    nothing = runner.invoke(cli, ["archive", "history", "Ase Strand"])
    assert nothing.exit_code == 1 and "accents count unless --fold-accents" in nothing.output
