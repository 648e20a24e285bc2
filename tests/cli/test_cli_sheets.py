"""The rubber, chicago and check commands through the command line."""
import openpyxl
import pytest

from bridgeproc.cli import cli
from tests.conftest import REALDATA, ROOT

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

RULES = ROOT / "tests" / "data" / "rules"


def test_rubber_prints_and_writes_the_simplified_example(runner, tmp_path):
    sheet = tmp_path / "rubber.csv"
    sheet.write_text("deal,declarer,contract,tricks\n1,EW,4S,11\n2,EW,2C,11\n3,NS,2NTX,9\n4,EW,6SX,11\n5,EW,7NT,13\n")
    out = tmp_path / "rubber.xlsx"
    result = runner.invoke(cli, ["rubber", str(sheet), "--variant", "simplified", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Rubber 1: NS 540, EW 2620: EW by 2080" in result.output
    rows = list(openpyxl.load_workbook(out).active.iter_rows(values_only=True))
    assert any(450 in r for r in rows) and any(2220 in r for r in rows)


def test_rubber_rejects_an_unknown_output_type(runner, tmp_path):
    sheet = tmp_path / "rubber.csv"
    sheet.write_text("deal,declarer,contract,tricks\n1,EW,4S,11\n")
    assert runner.invoke(cli, ["rubber", str(sheet), "-o", str(tmp_path / "x.pdf")]).exit_code == 2


def test_chicago_runs_on_the_sample_sheet(runner, tmp_path):
    out = tmp_path / "chicago.csv"
    result = runner.invoke(cli, ["chicago", str(RULES / "chicago.csv"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith(out.read_text().splitlines()[0])
    assert len(out.read_text().splitlines()) > 2


def test_check_reports_an_auction_that_contradicts_the_contract(runner):
    result = runner.invoke(cli, ["check", str(REALDATA / "ffb-dn1-open2-s5-2022.pbn")])
    assert result.exit_code == 1
    assert "ffb-dn1-open2-s5-2022.pbn:61: Contract: the auction ends in 5SX by North but the Contract tag is '4SX'" in result.output


def test_check_passes_the_teams_file_with_auctions_and_play(runner):
    result = runner.invoke(cli, ["check", str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn")])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK: 299 results on 10 boards")


def test_teams_command_scores_the_ebl_round(runner, tmp_path):
    out = tmp_path / "teams.csv"
    result = runner.invoke(cli, ["teams", str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "R1 WALES v ITALY: not played; not counted" in result.output
    assert "15 matches, 30 teams" in result.output
    assert out.exists()


def test_teams_match_totals_file_scores_with_the_length_its_vps_fix(runner, tmp_path):
    result = runner.invoke(cli, ["teams", str(REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn"), "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 0, result.output
    assert ("Conventions: Ruter's (WBF 2013 continuous 20-VP scale; 8-board matches, found from the file's VPs; ties "
            "broken), reproducing VPs 60/60, totals 10/10, places 10/10") in result.output


def test_conventions_on_a_teams_file_speaks_teams_options(runner):
    result = runner.invoke(cli, ["conventions", str(REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Reproduced: VPs 60/60, totals 10/10, places 10/10",
        "  with: no options (what teams does on this file: Ruter's conventions, the same as --boards-per-match 8)",
        "  VP scales tried: wbf2013 VPs 60/60, ebu20 (no table for these match lengths)"]
    result = runner.invoke(cli, ["conventions", str(REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Reproduced: board IMPs 120/120, VPs 80/80, totals 10/10, places 10/10, cross-IMPs 480/480, pair IMPs 19/19",
        "  with: no options (what teams does on this file: TeamsScorer's conventions, the same as --vp-scale ebu20 "
        "--tie-breaks none)",
        "  VP scales tried: wbf2013 VPs 8/80, ebu20 VPs 80/80"]


@pytest.mark.parametrize("name,what", [
    ("eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml", "USEBIO EVENT_TYPE TEAMS, 40 matches"),
    ("ebl-2021-online-qual-open-r2-teams.pbn",
     "299 room results of 30 teams, each game naming its HomeTeam and VisitTeam"),
    ("fin-salo-joukkue-2013-09-15-teams-vp.pbn", "30 match totals (MatchDetails) and no boards"),
])
def test_score_refuses_a_teams_file_with_the_command_to_use(runner, tmp_path, name, what):
    out = tmp_path / "x.csv"
    result = runner.invoke(cli, ["score", str(REALDATA / name), "-o", str(out), "--no-archive"])
    assert result.exit_code == 1
    assert result.output == (f"Error: {name}: a teams event ({what}); score it with `bridgeproc teams {name} "
                             "-o results.xlsx`\n")
    assert not out.exists()


def test_one_flag_for_the_average_plus_imps_of_pairs_and_teams(tmp_path):
    """Issue 27: one concept, one flag: ``--imp-ave-plus`` as for pairs (``--ave-plus-imps`` still works)."""
    from click.testing import CliRunner

    from bridgeproc.cli import cli

    source = str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn")
    for flag in ("--imp-ave-plus", "--ave-plus-imps"):
        result = CliRunner().invoke(cli, ["teams", source, "-o", str(tmp_path / "t.csv"), flag, "2", "--no-archive"])
        assert result.exit_code == 0, result.output
    assert "--imp-ave-plus" in CliRunner().invoke(cli, ["teams", "--help"]).output
