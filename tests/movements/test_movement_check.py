"""``score --movement movement.csv`` (issue 30): every result checked against the movement bridgeproc wrote,
with a table and round as a Bridgemate file's are, without them by whether the pairs meet on that board."""
from __future__ import annotations

import pytest

from bridgeproc.cli import cli
from bridgeproc.io.sheets.movement import read_movement
from bridgeproc.movements import howell, mitchell
from bridgeproc.report.movement import write_movement_csv

pytestmark = pytest.mark.e2e  # runs whole commands: left out of make quick

CONTRACTS = ["3NT", "4S", "2H", "3C", "1NT", "4H", "5D"]


def _travellers(movement, path, placed=True, change=None):
    """Travellers of ``movement`` with generated results; ``change(row_number, cells)`` edits one."""
    sections = bool(movement.travellers()["section"].ne("").any())
    header = "Board,Round,Table,NS,EW,Contract,Declarer,Result,Lead" if placed else "Board,NS,EW,Contract,Declarer,Result,Lead"
    lines = [("Section," if sections else "") + header]
    for i, row in enumerate(movement.travellers().itertuples()):
        cells = {"section": row.section, "board": row.board, "round": row.round, "table": row.table, "ns": row.ns, "ew": row.ew,
                 "contract": CONTRACTS[(row.board + row.table) % 7], "declarer": "NESW"[row.round % 4],
                 "result": ["=", "+1", "-1", "-2", "=", "+2", "="][(row.board * 3 + int(str(row.ns).split("+")[0])) % 7],
                 "lead": "SA"}
        if change is not None:
            change(i, cells)
        keys = ["board", "round", "table"] if placed else ["board"]
        keys = ["section", *keys] if sections else keys
        lines.append(",".join(str(cells[k]) for k in [*keys, "ns", "ew", "contract", "declarer", "result", "lead"]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("movement", [mitchell(7, 4), mitchell(8, 2), howell(5, 3), howell(4, 2)],
                         ids=lambda m: m.name)
@pytest.mark.parametrize("placed", [True, False], ids=["with table and round", "board and pairs only"])
def test_results_that_follow_the_movement_are_scored(runner, tmp_path, movement, placed):
    write_movement_csv(movement, tmp_path / "movement.csv")
    assert len(read_movement(tmp_path / "movement.csv")) == movement.tables * movement.rounds
    travellers = _travellers(movement, tmp_path / "t.csv", placed)
    result = runner.invoke(cli, ["score", str(travellers), "--movement", str(tmp_path / "movement.csv"),
                                 "--no-dd", "--no-archive", "-o", str(tmp_path / "out.csv")])
    assert result.exit_code == 0, result.output
    assert f"{movement.tables * movement.rounds * movement.boards_per_round} results" in result.output


def test_a_result_at_the_wrong_table_is_refused_with_its_line(runner, tmp_path):
    movement = mitchell(7, 4)
    write_movement_csv(movement, tmp_path / "movement.csv")

    def wrong(i, cells):
        if i == 3:  # board 1 in round 4 is at table 5 (NS 5 v EW 2): typed as table 6
            cells["table"] = 6

    travellers = _travellers(movement, tmp_path / "t.csv", True, wrong)
    result = runner.invoke(cli, ["check", str(travellers), "--movement", str(tmp_path / "movement.csv")])
    assert result.exit_code == 1
    assert result.output == ("Error: 1 problem(s) in the input:\nt.csv:5: table: NS 5 v EW 2 played round 4 at "
                             "table 5, not 6, in the movement; correct the table number\n")


def test_pairs_that_do_not_meet_on_a_board_are_refused_with_their_line(runner, tmp_path):
    movement = howell(4, 2)
    write_movement_csv(movement, tmp_path / "movement.csv")

    def wrong(i, cells):
        if i == 0:
            cells["ew"] = cells["ns"] % 8 + 1 if cells["ns"] % 8 + 1 != cells["ew"] else cells["ns"] % 8 + 2

    travellers = _travellers(movement, tmp_path / "t.csv", False, wrong)
    result = runner.invoke(cli, ["check", str(travellers), "--movement", str(tmp_path / "movement.csv")])
    assert result.exit_code == 1
    assert "t.csv:2: ns:" in result.output and "do not meet on board 1 in the movement" in result.output


@pytest.mark.parametrize(("text", "words"), [
    ("round,table,ns,ew\n1,1,1,1\n", "the header must begin section, round, table, ns, ew, boards"),
    ("section,round,table,ns,ew,boards\n,1,1,1,1,1-4\n,x,1,2,2,5-8\n", "movement.csv:3: a row of the movement"),
    ("section,round,table,ns,ew,boards\n", "a header but no rows"),
    ("section,round,table,ns,ew,boards,switched\n,1,1,1,1,1-4,Y\n,2,1,1,2,5-8,maybe\n",
     "movement.csv:3: a row of the movement is not round, table, NS and EW pairs and boards as first-last, switched Y"),
])
def test_a_movement_file_that_is_not_one_is_refused(runner, tmp_path, text, words):
    (tmp_path / "movement.csv").write_text(text, encoding="utf-8")
    (tmp_path / "t.csv").write_text("Board,NS,EW,Contract,Declarer,Result\n1,1,1,3NT,N,=\n", encoding="utf-8")
    result = runner.invoke(cli, ["check", str(tmp_path / "t.csv"), "--movement", str(tmp_path / "movement.csv")])
    assert result.exit_code == 1 and words in result.output and "Traceback" not in result.output, result.output


def _every_size():
    from bridgeproc.movements import in_sections, individual, with_sitout
    from bridgeproc.movements.howell import MAX_TABLES as HOWELL_MAX
    from bridgeproc.movements.howell import MIN_TABLES as HOWELL_MIN
    from bridgeproc.movements.mitchell import MAX_TABLES as MITCHELL_MAX
    from bridgeproc.movements.mitchell import MIN_TABLES as MITCHELL_MIN

    sizes = {f"mitchell-{t}": mitchell(t, 2) for t in range(MITCHELL_MIN, MITCHELL_MAX + 1)}
    sizes |= {f"relay-mitchell-{t}": mitchell(t, 2, even="relay") for t in range(MITCHELL_MIN + 1, MITCHELL_MAX, 2)}
    sizes |= {f"howell-{t}": howell(t, 2) for t in range(HOWELL_MIN, HOWELL_MAX + 1)}
    sizes |= {f"short-howell-{t}": howell(t, 2, t) for t in range(max(HOWELL_MIN, 3), HOWELL_MAX + 1)}
    sizes |= {"mitchell-7-switched": mitchell(7, 2, arrow_switch=(6, 7)),
              "mitchell-7-sitout": with_sitout(mitchell(7, 2), 7, "ew"),
              "howell-5-sitout": with_sitout(howell(5, 2), 10),
              "mitchell-5-two-sections": in_sections(mitchell(5, 2), 2)}
    sizes |= {f"individual-{t}": individual(t, 2) for t in (2, 3, 4)} | {"short-individual-3": individual(3, 2, 6)}
    return sizes


@pytest.mark.parametrize("movement", list(_every_size().values()), ids=list(_every_size()))
def test_the_movement_csv_of_every_size_reads_back_with_no_problem(tmp_path, movement):
    """What the issue asks of every supported size: movement.csv read back by score --movement, the results
    that follow it checked with no problem (through the library: the command is tested above)."""
    from bridgeproc.model import CheckOptions, Options
    from bridgeproc.pipeline.run import check_report

    write_movement_csv(movement, tmp_path / "movement.csv")
    travellers = _travellers(movement, tmp_path / "t.csv")
    report = check_report([travellers], Options(check=CheckOptions(movement=str(tmp_path / "movement.csv")), dd=False))
    assert report.ok and not len(report.errors), report.errors
    assert len(report.results) == len(movement.travellers())
