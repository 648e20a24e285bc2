"""The entry workbook (issue 30): made from the movement, filled in as a director would (only Contract,
Declarer, Result and Lead typed), then scored with no options: the matchpoints agree with a slow count,
rows left empty are boards not played, and a result typed at the wrong table is refused with its cell."""
from __future__ import annotations

import csv
from fractions import Fraction

import openpyxl
import pytest

from bridgeproc.cli import cli

pytestmark = pytest.mark.e2e  # runs whole commands: left out of make quick

CONTRACTS = ["3NT", "4S", "2H", "3C", "1NT", "4H", "5D", "2S"]
RESULTS = ["=", "+1", "-1", "=", "-2", "+2", "=", "-1"]


def _entry(runner, tmp_path, kind, tables, boards):
    path = tmp_path / "entry.xlsx"
    result = runner.invoke(cli, ["movement", kind, "--tables", str(tables), "--boards", str(boards), "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _fill(path, skip=(), change=None, sections=False):
    """Type a result on every row but those in ``skip`` (row numbers): only the four typed columns."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Travellers"]
    head = [c.value for c in ws[1]]
    assert head == ["Section"] * sections + ["Board", "Round", "Table", "NS", "EW", "Contract", "Declarer", "Result",
                                             "Lead"]
    at = {name: head.index(name) + 1 for name in head}
    first_locked, first_typed = ws.cell(2, 1), ws.cell(2, at["Contract"])
    assert ws.protection.sheet and first_locked.protection.locked and not first_typed.protection.locked
    for r in range(2, ws.max_row + 1):
        if r in skip:
            continue
        board, ns = ws.cell(r, at["Board"]).value, ws.cell(r, at["NS"]).value
        pick = (board * 5 + ns * 3) % 8
        for column, value in zip(("Contract", "Declarer", "Result", "Lead"),
                                 [CONTRACTS[pick], "NESW"[(board + ns) % 4], RESULTS[pick], "SA"]):
            ws.cell(r, at[column]).value = value
    if change is not None:
        change(ws)
    wb.save(path)
    return path


def _slow_matchpoints(rows):
    """Two matchpoints for each result beaten on the board, one for each tie, within each section; a board
    played fewer times than the most played one of its section factored up by Neuberg's formula,
    (MP + 1) x E / N - 1."""
    by_board: dict[tuple, list] = {}
    for row in rows:
        by_board.setdefault((row.get("section", ""), row["board"]), []).append(row)
    expected = {}
    for (section, _), played in by_board.items():
        expected[section] = max(expected.get(section, 0), len(played))
    out = {}
    for (section, board), played in by_board.items():
        for row in played:
            mine = int(row["score_ns"])
            points = sum(Fraction(2) if mine > int(o["score_ns"]) else Fraction(1) if mine == int(o["score_ns"])
                         else Fraction(0) for o in played if o is not row)
            factored = (points + 1) * Fraction(expected[section], len(played)) - 1
            out[(section, board, row["ns"], row["ew"])] = float(factored)
    return out


@pytest.mark.parametrize(("kind", "tables", "boards"), [("mitchell", 7, 28), ("howell", 5, 27)])
def test_the_filled_entry_workbook_scores_with_no_options(runner, tmp_path, kind, tables, boards):
    path = _fill(_entry(runner, tmp_path, kind, tables, boards))
    out = tmp_path / "scored.csv"
    result = runner.invoke(cli, ["score", str(path), "--no-dd", "--no-archive", "-o", str(out)])
    assert result.exit_code == 0, result.output
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == tables * boards
    slow = _slow_matchpoints(rows)
    for row in rows:
        assert float(row["mp_ns"]) == pytest.approx(slow[("", row["board"], row["ns"], row["ew"])]), row


@pytest.mark.parametrize(("kind", "given", "results", "sections"), [
    ("mitchell", ["--tables", "6", "--boards", "24", "--relay"], 6 * 24, False),  # every board 6 times
    ("mitchell", ["--tables", "7", "--boards", "28", "--sitout", "7NS"], 6 * 28, False),  # a half table
    ("mitchell", ["--tables", "8", "--boards", "16", "--sitout", "3EW"], 7 * 7 * 2, False),  # skip and a half table
    ("howell", ["--tables", "4", "--boards", "21", "--sitout", "8"], 3 * 21, False),
    ("howell", ["--tables", "6", "--rounds", "8", "--boards-per-round", "2"], 6 * 8 * 2, False),  # short: factored
    ("mitchell", ["--tables", "5", "--boards", "20", "--sections", "2", "--sitout", "B5EW"], 5 * 20 + 4 * 20, True),
    # the switched rounds need no Switched column typed: the workbook's movement says which they are
    ("mitchell", ["--tables", "7", "--boards", "14", "--arrow-switch", "6-7"], 7 * 14, False),
])
def test_every_kind_of_movement_is_typed_in_and_scored_with_no_options(runner, tmp_path, kind, given, results, sections):
    path = tmp_path / "entry.xlsx"
    made = runner.invoke(cli, ["movement", kind, *given, "-o", str(path)])
    assert made.exit_code == 0, made.output
    out = tmp_path / "scored.csv"
    result = runner.invoke(cli, ["score", str(_fill(path, sections=sections)), "--no-dd", "--no-archive", "-o", str(out)])
    assert result.exit_code == 0, result.output
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == results
    slow = _slow_matchpoints(rows)
    for row in rows:
        key = (row.get("section", ""), row["board"], row["ns"], row["ew"])
        assert float(row["mp_ns"]) == pytest.approx(slow[key], abs=0.005), row  # the CSV shows two decimals


def test_rows_left_empty_are_boards_not_played(runner, tmp_path):
    path = _fill(_entry(runner, tmp_path, "mitchell", 7, 28), skip={5, 9})
    result = runner.invoke(cli, ["score", str(path), "--no-dd", "--no-archive", "-o", str(tmp_path / "s.csv")])
    assert result.exit_code == 0, result.output
    assert "2 row(s) of the entry workbook left empty (rows 5, 9): those boards were not played" in result.output
    assert "194 results" in result.output


def test_a_result_typed_at_the_wrong_table_is_refused_with_its_cell(runner, tmp_path):
    def wrong_table(ws):
        ws["C5"].value = ws["C5"].value % 7 + 1  # a director who unprotected the sheet and mistyped the table

    path = _fill(_entry(runner, tmp_path, "mitchell", 7, 28), change=wrong_table)
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    # one problem, at the cell that is wrong, saying what the movement has (the rows the typing error now
    # clashes with at table 6 are right, and are not blamed)
    assert result.output == ("Error: 1 problem(s) in the input:\nentry.xlsx!Travellers:C5: table: NS 5 v EW 2 played "
                             "round 4 at table 5, not 6, in the movement; correct the table number\n")


def test_results_typed_with_the_wrong_pairs_or_board_are_refused_at_those_cells(runner, tmp_path):
    def wrong_cells(ws):
        ws["D5"].value = 7  # NS 7 did not play this round against EW 2
        ws["A9"].value = 9  # board 9 is not played at that table in that round

    path = _fill(_entry(runner, tmp_path, "mitchell", 7, 28), change=wrong_cells)
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == "Error: 2 problem(s) in the input:", result.output
    assert lines[1].startswith("entry.xlsx!Travellers:D5: ns: pairs 7 (NS) and 2 (EW) did not meet at table 5, round 4: "
                                "the movement has 5 v 2 there")
    assert lines[2].startswith("entry.xlsx!Travellers:A9: board: board 9 is not played at table")


def test_each_traveller_prints_on_its_own_page(runner, tmp_path):
    ws = openpyxl.load_workbook(_entry(runner, tmp_path, "mitchell", 7, 28))["Travellers"]
    assert [b.id for b in ws.row_breaks.brk] == [1 + 7 * n for n in range(1, 28)]  # after each board's 7 rows
    assert ws.print_title_rows == "$1:$1" and ws.freeze_panes == "A2"


def test_the_typed_cells_offer_lists_that_accept_every_spelling_score_reads(runner, tmp_path):
    wb = openpyxl.load_workbook(_entry(runner, tmp_path, "mitchell", 7, 28))
    ws = wb["Travellers"]
    found = {str(v.sqref).split(":")[0][0]: (v.formula1, v.errorStyle) for v in ws.data_validations.dataValidation}
    assert found == {"F": ("Lists!$A$1:$A$106", "warning"), "G": ('"N,E,S,W"', None), "H": ("Lists!$B$1:$B$20", "warning")}
    lists = wb["Lists"]
    contracts = [c.value for c in lists["A"]]
    assert lists.sheet_state == "hidden" and contracts[:4] == ["PASS", "1C", "1CX", "1CXX"] and contracts[-1] == "7NTXX"
    assert [c.value for c in lists["B"]][:3] == ["=", "+1", "+2"] and lists["B20"].value == "-13"
    # a spelling off the list (a warning in Excel, kept) is read by score as it always is
    def off_the_list(sheet):
        sheet["F2"].value, sheet["H2"].value = "4S+1", None  # the result in the contract cell

    filled = _fill(tmp_path / "entry.xlsx", change=off_the_list)
    result = runner.invoke(cli, ["score", str(filled), "--no-dd", "--no-archive", "-o", str(tmp_path / "s.csv")])
    assert result.exit_code == 0, result.output


@pytest.mark.slow
@pytest.mark.skipif(__import__("shutil").which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_prints_one_traveller_a_page(runner, tmp_path):
    from tests.report.test_print import pdf_pages

    path = _entry(runner, tmp_path, "mitchell", 7, 28)
    assert pdf_pages(path, "Travellers", tmp_path) == 28
