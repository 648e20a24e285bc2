"""One shape for every run (issue 27): every kind of result published through the one output table, all
or nothing, and teams archived by default inside that write, as ``score`` archives a session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from bridgeproc.archive import list_sessions
from bridgeproc.cli import cli
from bridgeproc.errors import BridgeprocError
from bridgeproc.model import ScoreSheet, TeamsSession
from bridgeproc.pipeline.outputs import OUTPUTS, output_types
from bridgeproc.pipeline.publish import publish
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.report import teams_files
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TEAMS = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"


def test_the_output_table_names_each_kind_of_run():
    assert output_types(TeamsSession) == (".xlsx", ".csv", ".pbn", ".xml", ".html", "/")
    assert output_types(ScoreSheet) == (".csv", ".xlsx")
    assert OUTPUTS["TeamsSession"][".csv"] == "bridgeproc.report.teams_files:write_csv"


def test_teams_archives_by_default_as_score_does(runner, tmp_path):
    out = tmp_path / "teams.csv"
    result = runner.invoke(cli, ["teams", str(TEAMS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "archived as" in result.output and out.is_file()
    listed = list_sessions(os.environ["BRIDGEPROC_ARCHIVE"])
    assert listed["kind"].tolist() == ["teams"] and listed["versions"].tolist() == [1]
    again = runner.invoke(cli, ["teams", str(TEAMS), "-o", str(out)])
    assert "unchanged since" in again.output


def test_no_archive_leaves_the_archive_alone(runner, tmp_path):
    result = runner.invoke(cli, ["teams", str(TEAMS), "-o", str(tmp_path / "teams.csv"), "--no-archive"])
    assert result.exit_code == 0, result.output
    assert "archived" not in result.output and not os.path.exists(os.environ["BRIDGEPROC_ARCHIVE"])


def test_a_teams_writer_that_fails_leaves_no_output_and_nothing_archived(tmp_path, monkeypatch):
    kept = tmp_path / "teams.xlsx"
    kept.write_bytes(b"last week's workbook")

    def broken(session, path):
        Path(path).write_text("half a file", encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(teams_files, "write_csv", broken)
    with pytest.raises(BridgeprocError, match=r"cannot write .*teams.csv: No space left on device; nothing was written"):
        process_teams([TEAMS], [kept, tmp_path / "teams.csv"], archive=True)
    assert kept.read_bytes() == b"last week's workbook" and sorted(os.listdir(tmp_path)) == ["teams.xlsx"]
    assert not os.path.exists(os.environ["BRIDGEPROC_ARCHIVE"])


def test_a_score_sheet_is_published_like_any_result(tmp_path):
    import pandas as pd

    sheet = ScoreSheet(pd.DataFrame({"deal": [1, 2], "ns_total": [120, 0.1 + 0.2]}), "Rubber: test")
    publish(sheet, [tmp_path / "r.csv", tmp_path / "r.xlsx"])
    assert (tmp_path / "r.csv").read_text(encoding="utf-8") == "deal,ns_total\n1,120.0\n2,0.3\n"


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_an_output_that_is_a_symlink_is_written_where_it_points(runner, tmp_path):
    """Issue 29: a results folder linked into the web server's root and a CSV linked to the published one
    stay links, and what they point to holds the new results (before, each link was replaced by a real
    folder or file and the published copy kept the old results)."""
    from tests.conftest import SAMPLE

    served = tmp_path / "www" / "results"
    served.mkdir(parents=True)
    (served / ".bridgeproc-results").write_text("Written by bridgeproc\n", encoding="utf-8")
    (served / "logo.png").write_bytes(b"\x89PNG")
    published = tmp_path / "www" / "results.csv"
    published.write_text("old\n", encoding="utf-8")
    (tmp_path / "site").symlink_to(served, target_is_directory=True)
    (tmp_path / "r.csv").symlink_to(published)
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), "--no-dd", "--no-archive",
                                 "-o", f"{tmp_path / 'site'}/", "-o", str(tmp_path / "r.csv")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "site").is_symlink() and (tmp_path / "r.csv").is_symlink()
    assert (served / "index.html").is_file() and (served / "logo.png").read_bytes() == b"\x89PNG"
    assert published.read_text(encoding="utf-8").startswith("section,board")
