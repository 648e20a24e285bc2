"""``bridgeproc swiss``: standings and the next round's draw from pair travellers; bad rounds exit 1."""
from __future__ import annotations

import pandas as pd
from click.testing import CliRunner

from bridgeproc.cli import cli

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
