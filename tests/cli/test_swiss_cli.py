"""``bridgeproc swiss``: standings and the next round's draw from pair travellers and (``--teams``) from
the real Salo and EBL team files; bad rounds exit 1."""
from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from bridgeproc.cli import cli

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TRAVELLERS = """Round,Board,NS,EW,Contract,By,Tricks
1,1,1,2,4S,N,10
1,1,3,4,4S,N,9
1,1,5,6,3S,N,10
1,2,1,2,3NT,E,9
1,2,3,4,2H,W,9
1,2,5,6,3NT,E,8
2,3,4,5,1NT,S,7
2,3,1,3,1NT,S,8
2,3,2,6,3NT,N,9
2,4,4,5,4H,N,10
2,4,1,3,4H,N,9
2,4,2,6,4H,N,10
"""


def _run(tmp_path, *args, text=TRAVELLERS):
    path = tmp_path / "event.csv"
    path.write_text(text)
    return CliRunner().invoke(cli, ["swiss", str(path), *args])


def test_standings_csv(tmp_path):
    result = _run(tmp_path, "--datum-drop", "0", "-o", str(tmp_path / "standings.csv"))
    assert result.exit_code == 0, result.output
    table = pd.read_csv(tmp_path / "standings.csv", dtype={"pair": str})
    assert list(table["pair"]) == ["2", "4", "3", "5", "1", "6"]
    assert table["total"].round(2).tolist() == [26.90, 26.20, 23.53, 21.36, 12.69, 9.32]


def test_next_round_draw(tmp_path):
    result = _run(tmp_path, "--datum-drop", "0", "--next-round", "-o", str(tmp_path / "draw.csv"))
    assert result.exit_code == 0, result.output
    drawn = pd.read_csv(tmp_path / "draw.csv", dtype={"ns": str, "ew": str})
    assert list(zip(drawn["round"], drawn["table"], drawn["ns"], drawn["ew"])) == [
        (3, 1, "2", "4"), (3, 2, "3", "5"), (3, 3, "1", "6")]
    assert (drawn["rematch"] == 0).all()


def test_help_states_the_draw_rules():
    result = CliRunner().invoke(cli, ["swiss", "--help"])
    assert result.exit_code == 0
    assert "without a rematch" in result.output and "lowest-placed entry without one" in result.output


def test_a_bad_round_cell_exits_1_with_the_line(tmp_path):
    result = _run(tmp_path, text=TRAVELLERS.replace("2,4,2,6", "x,4,2,6"))
    assert result.exit_code == 1
    assert "event.csv:13" in result.output and "not a round number" in result.output
    assert "Traceback" not in result.output


def test_no_round_column_needs_boards_per_round(tmp_path):
    text = "\n".join(line.split(",", 1)[1] for line in TRAVELLERS.strip().splitlines()) + "\n"
    result = _run(tmp_path, text=text)
    assert result.exit_code == 1 and "--boards-per-round" in result.output
    result = _run(tmp_path, "--boards-per-round", "2", "--datum-drop", "0", "-o", str(tmp_path / "s.csv"), text=text)
    assert result.exit_code == 0, result.output
    assert pd.read_csv(tmp_path / "s.csv")["total"].round(2).tolist()[0] == 26.90


# ----------------------------------------------------------------------------- Swiss teams on real files

SALO = "fin-salo-joukkue-2013-09-15-teams-vp.pbn"
EBL = "ebl-2021-online-qual-open-r2-teams.pbn"


def _teams(realdata, tmp_path, name, *args, output="out.csv"):
    result = CliRunner().invoke(cli, ["swiss", "--teams", str(realdata / name), *args, "-o", str(tmp_path / output)])
    assert result.exit_code == 0, result.output
    return result, pd.read_csv(tmp_path / output, dtype={"team": str, "home": str, "away": str},
                               keep_default_na=False, na_values=[""])


def test_teams_standings_salo_are_the_published_totals(realdata, tmp_path):
    # the file's TotalScoreTable: URI (5) 75.23, KARHUKOPLA (4) 70.93, T-SALO (3) 67.72, EESO (2) 62.96 ...
    result, table = _teams(realdata, tmp_path, SALO, "--boards-per-match", "8")
    assert list(table["team"]) == ["5", "4", "3", "2", "8", "1", "6", "9", "7", "10"]
    assert table["total"].round(2).tolist()[:5] == [75.23, 70.93, 67.72, 62.96, 61.48]
    assert table["matches"].tolist() == [6] * 10 and (table["byes"] == 0).all()
    assert "standings after round 6" in result.output


def test_teams_next_round_salo_backtracks_past_a_dead_end(realdata, tmp_path):
    # From the printed order 5 4 3 2 8 1 6 9 7 10 and the file's six rounds:
    # 5 has met 4, 3, 2, 8 -> 5-1; 4 has met 3 -> 4-2; 3's first fresh opponent is 8, but then
    # 6 could take only 10 and leave 9-7, who have met: so 3-6, 8-9, 7-10 (none met before).
    # Every total is its own score group (continuous VPs): no float is noted.
    result, drawn = _teams(realdata, tmp_path, SALO, "--boards-per-match", "8", "--next-round", output="draw.csv")
    assert list(zip(drawn["round"], drawn["table"], drawn["home"], drawn["away"])) == [
        (7, 1, "5", "1"), (7, 2, "4", "2"), (7, 3, "3", "6"), (7, 4, "8", "9"), (7, 5, "7", "10")]
    assert list(zip(drawn["home_total"].round(2), drawn["away_total"].round(2)))[:3] == [
        (75.23, 59.45), (70.93, 62.96), (67.72, 53.9)]
    assert (drawn["rematch"] == 0).all() and drawn["note"].isna().all()
    assert "round 7 drawn" in result.output


def test_teams_ebl_standings_and_draw(realdata, tmp_path):
    # Round 1 paired each top team with a bottom one (SWEDEN-CROATIA, HUNGARY-ICELAND, ...), so
    # round 2 is 1-2, 3-4, ... down the printed order; WALES-ITALY was not played, so they have
    # not met. POLAND and SWITZERLAND share 14.28 VP: PORTUGAL (alone on 14.8) takes POLAND and
    # SWITZERLAND floats down to FRANCE, who shares 13.72 with BULGARIA.
    result, table = _teams(realdata, tmp_path, EBL)
    assert list(table["team"])[:6] == ["SWEDEN", "HUNGARY", "PORTUGAL", "POLAND", "SWITZERLAND", "FRANCE"]
    assert table["total"].round(2).tolist()[:6] == [18.15, 17.84, 14.8, 14.28, 14.28, 13.72]
    assert list(table["team"])[-2:] == ["WALES", "ITALY"] and table["matches"].tolist()[-2:] == [0, 0]
    assert "R1 WALES v ITALY: not played; not counted" in result.output
    result, drawn = _teams(realdata, tmp_path, EBL, "--next-round", output="draw.csv")
    assert len(drawn) == 15 and set(drawn["round"]) == {2} and (drawn["rematch"] == 0).all()
    assert list(zip(drawn["home"], drawn["away"], drawn["note"].fillna("")))[:5] == [
        ("SWEDEN", "HUNGARY", ""),
        ("PORTUGAL", "POLAND", "float: 14.8 VP meets 14.28 VP"),
        ("SWITZERLAND", "FRANCE", "float: 14.28 VP meets 13.72 VP"),
        ("BULGARIA", "ENGLAND", "float: 13.72 VP meets 13.14 VP"),
        ("SLOVENIA", "GERMANY", "")]
    assert list(zip(drawn["home"], drawn["away"]))[-2:] == [("ICELAND", "CROATIA"), ("WALES", "ITALY")]
