"""``bridgeproc movement``: the movement computed and written as movement.csv (issue 30), one library call,
refusals as command-line mistakes (exit 2)."""
from __future__ import annotations

import csv

import pytest

from bridgeproc.cli import cli

pytestmark = pytest.mark.e2e  # runs whole commands: left out of make quick


def _rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_a_7_table_mitchell_over_28_boards(runner, tmp_path):
    out = tmp_path / "movement.csv"
    result = runner.invoke(cli, ["movement", "mitchell", "--tables", "7", "--boards", "28", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Mitchell, 7 tables, 7 rounds of 4 boards: 28 boards; wrote" in result.output
    rows = _rows(out)
    assert rows[:4] == [["section", "round", "table", "ns", "ew", "boards"],
                        ["", "1", "1", "1", "1", "1-4"], ["", "1", "2", "2", "2", "5-8"], ["", "1", "3", "3", "3", "9-12"]]
    assert rows[-1] == ["", "7", "7", "7", "1", "21-24"]  # EW 1 has moved up to table 7, boards 1-4 down to 2
    assert len(rows) == 1 + 7 * 7


def test_a_5_table_howell_over_27_boards(runner, tmp_path):
    out = tmp_path / "movement.csv"
    result = runner.invoke(cli, ["movement", "howell", "--tables", "5", "--boards", "27", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = _rows(out)
    # one set of boards, each table its own; the sets move down one table, 16-27 wait on the relay stands
    assert rows[1:6] == [["", "1", "1", "2", "4", "1-3"], ["", "1", "2", "7", "8", "4-6"],
                         ["", "1", "3", "10", "1", "7-9"], ["", "1", "4", "3", "6", "10-12"],
                         ["", "1", "5", "5", "9", "13-15"]]
    assert rows[6:11] == [["", "2", "1", "3", "5", "4-6"], ["", "2", "2", "8", "9", "7-9"],
                          ["", "2", "3", "10", "2", "10-12"], ["", "2", "4", "4", "7", "13-15"],
                          ["", "2", "5", "6", "1", "16-18"]]
    assert len(rows) == 1 + 9 * 5


def test_an_arrow_switch_is_a_column(runner, tmp_path):
    out = tmp_path / "movement.csv"
    result = runner.invoke(cli, ["movement", "mitchell", "--tables", "8", "--arrow-switch", "6-7", "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = _rows(out)
    assert rows[0][-1] == "switched" and {r[-1] for r in rows[1:] if r[1] in ("6", "7")} == {"Y"}
    assert {r[-1] for r in rows[1:] if r[1] not in ("6", "7")} == {""}


@pytest.mark.parametrize(("args", "words"), [
    (["mitchell", "--tables", "7", "--boards", "27"], "27 boards do not divide into the 7 board sets"),
    (["mitchell", "--tables", "7", "--boards", "28", "--boards-per-round", "4"], "--boards or --boards-per-round"),
    (["mitchell", "--tables", "2"], "give 3 to 15 tables"),
    (["howell", "--tables", "9"], "give 2 to 8 tables"),
    (["howell", "--tables", "4", "--arrow-switch", "3"], "--arrow-switch and --relay are for a Mitchell"),
    (["howell", "--tables", "4", "--relay"], "--arrow-switch and --relay are for a Mitchell"),
    (["howell", "--tables", "4", "--rounds", "8"], "plays 1 to 7 rounds, not 8"),
    (["mitchell", "--tables", "7", "--sitout", "9NS"], "there is no pair 9 NS"),
    (["mitchell", "--tables", "7", "--sections", "27"], "27 is not in the range 1<=x<=26"),
    (["mitchell", "--tables", "7", "--arrow-switch", "six"], "give rounds such as 6-7"),
    (["mitchell", "--tables", "7", "-o", "cards.pdf"], "unknown output type"),
])
def test_a_movement_that_cannot_be_is_a_usage_error(runner, tmp_path, args, words):
    result = runner.invoke(cli, ["movement", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output


def test_every_output_at_once_and_the_cards_as_a_folder(runner, tmp_path):
    outs = [tmp_path / "entry.xlsx", tmp_path / "cards.html", tmp_path / "movement.csv", f"{tmp_path / 'cards'}/"]
    result = runner.invoke(cli, ["movement", "howell", "--tables", "4", "-o", *[str(o) for o in outs][:1],
                                 *sum((["-o", str(o)] for o in outs[1:]), [])])
    assert result.exit_code == 0, result.output
    pages = sorted(p.name for p in (tmp_path / "cards").iterdir())
    assert pages == [".bridgeproc-results", "index.html", *sorted(f"pair-{n}.html" for n in range(1, 9)),
                     *(f"table-{n}.html" for n in range(1, 5))]
    assert (tmp_path / "cards" / "table-2.html").read_text(encoding="utf-8").count('<section class="card"') == 1
    index = (tmp_path / "cards" / "index.html").read_text(encoding="utf-8")
    assert index == (tmp_path / "cards.html").read_text(encoding="utf-8") and index.count('<section class="card"') == 12
    again = runner.invoke(cli, ["movement", "howell", "--tables", "2", "-o", f"{tmp_path / 'cards'}/"])
    assert again.exit_code == 0, again.output  # a rerun replaces the folder it wrote: no page of 4 tables left
    assert not (tmp_path / "cards" / "table-4.html").exists() and (tmp_path / "cards" / "pair-4.html").exists()
