"""``bridgeproc check -o report.xlsx|.csv|.html`` (report/checks.py, pipeline.run.check_report) and
the results workbook's Checks sheet: every error, warning and note with its position, text as text."""
from __future__ import annotations

import csv
import os
from html.parser import HTMLParser
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from bridgeproc.cli.main import CHECK_REPORTS, cli
from bridgeproc.model import CheckReport, Options
from bridgeproc.pipeline.outputs import OUTPUTS
from bridgeproc.pipeline.publish import publish
from bridgeproc.pipeline.run import check_inputs, check_report
from bridgeproc.report import checks
from bridgeproc.report.checks import in_terminal_order
from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

# Board 1, dealer N, none vul. Double dummy East takes 5 tricks in notrumps (7NT= is 8 more than
# double dummy: "goes down 8"), North 8; South holds SK and S3.
DEAL = "N:.KQ93.AK863.Q873 AQJ62.T72.Q.AK94 KT843.AJ6.754.J2 975.854.JT92.T65"
HEAD = "Board,NS,EW,Contract,Declarer,Result,Lead\n"
#: 7NT= by East with South's S3 led (a right lead); 3NT= by North with SK "led by East", who lacks it.
TRAVELLER = HEAD + "1,1,2,7NT,E,=,S3\n1,3,4,3NT,N,=,SK\n"
LEAD = ("warning", "travellers.csv", 3, "lead", "SK",
        "board 1, NS 3 v EW 4: the lead SK is not in East's hand (declarer North's left); South holds it: "
        "check the lead and the declarer", None, 1, 3, 4)
DOUBLE_DUMMY = ("warning", "travellers.csv", 2, "result", "13",
                "board 1, NS 1 v EW 2: 7NT by East took 13 tricks, 8 more than double dummy (5); "
                "check the result, declarer and board", None, 1, 1, 2)
HEADINGS = ("Kind", "File", "Line", "Column", "Value", "Message", "Section", "Board", "NS", "EW")


def _inputs(tmp_path: Path, traveller: str = TRAVELLER) -> list[str]:
    hands = tmp_path / "hands.pbn"
    hands.write_text(f'[Event "Second pair of eyes"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                     f'[Deal "{DEAL}"]\n', encoding="utf-8")
    travellers = tmp_path / "travellers.csv"
    travellers.write_text(traveller, encoding="utf-8")
    return [str(hands), str(travellers)]


class _Table(HTMLParser):
    """The page's table rows (cell texts, unescaped) and the class of each row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.classes: list[str | None] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
            self.classes.append(dict(attrs).get("class"))
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def _typed(values: list[str]) -> tuple:
    """A CSV or HTML row as the workbook holds it: line, board and pairs whole numbers as numbers,
    empty as None."""
    return tuple(None if v == "" else int(v) if i in (2, 7, 8, 9) and v.isdigit() else v for i, v in enumerate(values))


def _sheet_rows(ws) -> list[tuple]:
    rows = [tuple(r) for r in ws.iter_rows(values_only=True)]
    start = rows.index(HEADINGS)
    return rows[start + 1:]


def read_report(path: Path) -> list[tuple]:
    """The rows under the header of a check report of any type, as the workbook holds them."""
    if path.suffix == ".xlsx":
        rows = _sheet_rows(openpyxl.load_workbook(path)["Checks"])
        return [r for r in rows if r[0] in ("error", "warning", "note")]
    if path.suffix == ".csv":
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
        assert rows[0] == ["kind", "file", "line", "column", "value", "message", "section", "board", "ns", "ew"]
        return [_typed(r) for r in rows[1:]]
    table = _Table()
    table.feed(path.read_text(encoding="utf-8"))
    assert tuple(table.rows[0]) == HEADINGS
    assert table.classes[1:] == [r[0] for r in table.rows[1:]]  # each row's class is its kind
    return [_typed(r) for r in table.rows[1:]]


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".html"])
def test_a_lead_not_in_the_leaders_hand_and_7nt_made_against_double_dummy_are_both_in_the_report(
        runner, tmp_path, suffix):
    """The issue's case: scored (exit 0), both warnings in the report with board, pairs and position."""
    report = tmp_path / f"report{suffix}"
    result = runner.invoke(cli, ["check", *_inputs(tmp_path), "-o", str(report)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "OK: 2 results on 1 boards, 4 pair numbers"
    assert f"wrote {report}" in result.stderr
    assert read_report(report) == [LEAD, DOUBLE_DUMMY]  # the terminal's order: leads first


def test_the_report_heads_its_rows_with_the_files_the_summary_and_the_counts(runner, tmp_path):
    report = tmp_path / "report.xlsx"
    assert runner.invoke(cli, ["check", *_inputs(tmp_path), "-o", str(report)]).exit_code == 0
    rows = [tuple(r) for r in openpyxl.load_workbook(report)["Checks"].iter_rows(values_only=True)]
    assert [r[0] for r in rows[:4]] == ["Check of hands.pbn, travellers.csv",
                                        "OK: 2 results on 1 boards, 4 pair numbers",
                                        "0 errors, 2 warnings, 0 notes", rows[3][0]]
    assert rows[3][0].startswith("bridgeproc ")
    assert rows[5] == HEADINGS


def test_the_same_inputs_are_scored_and_the_workbook_has_a_checks_sheet(runner, tmp_path):
    out = tmp_path / "results.xlsx"
    result = runner.invoke(cli, ["score", *_inputs(tmp_path), "-o", str(out), "--no-archive"])
    assert result.exit_code == 0, result.output
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames[-2:] == ["Checks", "Conventions"]
    assert _sheet_rows(wb["Checks"]) == [LEAD, DOUBLE_DUMMY]


def test_a_workbook_without_notes_has_no_checks_sheet(runner, tmp_path):
    clean = HEAD + "1,1,2,3NT,N,-1,HT\n"  # East's HT led against North: right, and 8 tricks as double dummy says
    out = tmp_path / "results.xlsx"
    assert runner.invoke(cli, ["score", *_inputs(tmp_path, clean), "-o", str(out), "--no-archive"]).exit_code == 0
    assert "Checks" not in openpyxl.load_workbook(out).sheetnames


@pytest.mark.parametrize("args, expected", [
    (["-o", "REPORT"], [LEAD, DOUBLE_DUMMY]),  # a report: double dummy solved
    (["-o", "REPORT", "--no-dd"], [LEAD]),  # ... unless asked not to
    (["--dd"], [LEAD, DOUBLE_DUMMY]),  # the terminal alone: solved when asked
    ([], [LEAD]),  # ... else only tables the files give are used (none here)
])
def test_double_dummy_is_solved_for_a_report_or_when_asked(runner, tmp_path, args, expected):
    report = tmp_path / "report.csv"
    result = runner.invoke(cli, ["check", *_inputs(tmp_path), *[str(report) if a == "REPORT" else a for a in args]])
    assert result.exit_code == 0, result.output
    shown = [line for line in result.stdout.splitlines() if line.startswith("Note: ")]
    assert shown == [f"Note: travellers.csv:{row[2]}: {row[3]}: {row[5]}" for row in expected]
    if report.exists():
        assert read_report(report) == expected


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".html"])
def test_a_file_with_errors_writes_the_report_and_exits_1(runner, tmp_path, suffix):
    """Errors first, in the terminal's order, then what was read with a note; exit 1 all the same."""
    traveller = HEAD.replace("Lead", "Lead,Remarks") + "1,1,2,8NT,N,=,HT,\n1,3,4,3NT,,=,HT,\n"
    report = tmp_path / f"report{suffix}"
    result = runner.invoke(cli, ["check", *_inputs(tmp_path, traveller), "-o", str(report)])
    assert result.exit_code == 1
    assert "Error: 2 problem(s) in the input:" in result.output and f"wrote {report}" in result.stderr
    assert read_report(report) == [
        ("error", "travellers.csv", 2, "contract", "8NT", "'8NT' is not a contract; write e.g. 4S, 3NTX, 2HXX, "
         "PASS, or an artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)", None, None, None, None),
        ("error", "travellers.csv", 3, "declarer", None, "no declarer for a played contract; write N, E, S or W",
         None, None, None, None),
        ("note", "travellers.csv", 1, None, "Remarks", "column 'Remarks' not read: not a header bridgeproc knows "
         "(it reads Section, Table, Round, Board, NS, EW, Contract, Declarer, Result, Tricks, Made, Down, Lead, "
         "Fouled, Switched, Score, EW score); rename a column that should be read", None, None, None, None),
    ]


def test_a_file_that_cannot_be_read_writes_the_report_and_exits_1(runner, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("Board,NS,EW,Contract,Contract,Declarer,Result\n1,1,2,3NT,4S,N,=\n", encoding="utf-8")
    report = tmp_path / "report.csv"
    result = runner.invoke(cli, ["check", str(bad), "-o", str(report)])
    assert result.exit_code == 1
    message = "two columns mean contract ('Contract' and 'Contract'); delete or rename one"
    assert result.output.endswith(f"Error: bad.csv:1: {message}\n")
    assert read_report(report) == [("error", "bad.csv", 1, None, None, message, None, None, None, None)]


FORMULAS = ["=cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "=HYPERLINK(\"http://x.example\";\"y\")"]


def _formula_traveller() -> str:
    rows = "".join(f'1,{2 * i + 1},{2 * i + 2},3NT,N,-1,"{lead.replace(chr(34), 2 * chr(34))}"\n'
                   for i, lead in enumerate(FORMULAS))
    return HEAD + rows


def _not_a_card(lead: str, i: int) -> str:
    return (f"board 1, NS {2 * i + 1} v EW {2 * i + 2}: the lead {lead} is not a card; write the suit and rank "
            "(SA, ♥10, DT)")


@pytest.mark.parametrize("suffix", [".xlsx", ".csv", ".html"])
def test_formula_looking_text_stays_text(runner, tmp_path, suffix):
    report = tmp_path / f"report{suffix}"
    result = runner.invoke(cli, ["check", *_inputs(tmp_path, _formula_traveller()), "-o", str(report), "--no-dd"])
    assert result.exit_code == 0, result.output
    rows = read_report(report)
    # the CSV marks a cell a spreadsheet would run as a formula with ' (as a spreadsheet marks text)
    shown = [("'" + lead if suffix == ".csv" else lead) for lead in FORMULAS]
    assert [(r[0], r[2], r[4], r[5]) for r in rows] == [
        ("warning", i + 2, shown[i], _not_a_card(lead, i)) for i, lead in enumerate(FORMULAS)]
    if suffix == ".xlsx":
        ws = openpyxl.load_workbook(report)["Checks"]
        values = [c for row in ws.iter_rows() for c in row if c.value in FORMULAS]
        assert len(values) == len(FORMULAS) and {c.data_type for c in values} == {"s"}
    if suffix == ".html":
        page = report.read_text(encoding="utf-8")
        assert "=cmd|&#x27; /C calc&#x27;!A0" in page and '"http' not in page and "<script" not in page


def test_formula_looking_text_stays_text_on_the_checks_sheet(runner, tmp_path):
    out = tmp_path / "results.xlsx"
    result = runner.invoke(cli, ["score", *_inputs(tmp_path, _formula_traveller()), "-o", str(out), "--no-archive"])
    assert result.exit_code == 0, result.output
    ws = openpyxl.load_workbook(out)["Checks"]
    values = [c for row in ws.iter_rows() for c in row if c.value in FORMULAS]
    assert [c.value for c in values] == FORMULAS and {c.data_type for c in values} == {"s"}


def test_the_page_stands_alone(runner, tmp_path):
    report = tmp_path / "report.html"
    assert runner.invoke(cli, ["check", *_inputs(tmp_path), "-o", str(report)]).exit_code == 0
    page = report.read_text(encoding="utf-8")
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n')
    assert "default-src 'none'" in page  # its security policy: nothing is fetched
    assert not any(word in page for word in ("<script", "<link", "<img", "src=", "href=", "url("))


def _report(**frames) -> CheckReport:
    warnings = frames.get("warnings", problems_frame([]))
    kinds = pd.array(frames.get("kinds", ["note"] * len(warnings)), dtype="string")
    return CheckReport("OK: 1 results on 1 boards, 2 pair numbers", frames.get("errors", problems_frame([])),
                       warnings.assign(kind=kinds)[["kind", *PROBLEM_COLUMNS]], inputs=("t.csv",))


def test_a_control_character_is_shown_and_said(tmp_path):
    """A worksheet and a page cannot hold a control character: shown as U+FFFD, and the workbook says so."""
    report = _report(warnings=problems_frame([{"source": "t.csv", "line": "2", "value": "Anna\x07Berg",
                                               "message": "pair 1 Anna\x07Berg is seen on one board only"}]))
    publish(report, [tmp_path / "r.xlsx", tmp_path / "r.html"])
    rows = [tuple(r) for r in openpyxl.load_workbook(tmp_path / "r.xlsx")["Checks"].iter_rows(values_only=True)]
    assert ("note", "t.csv", 2, None, "Anna\ufffdBerg", "pair 1 Anna\ufffdBerg is seen on one board only",
            None, None, None, None) in rows
    assert any(r[0] and "control character(s)" in r[0] for r in rows)
    assert read_report(tmp_path / "r.html")[0][4] == "Anna\ufffdBerg"


def test_a_report_is_written_all_or_nothing(tmp_path, monkeypatch):
    target = tmp_path / "report.csv"
    target.write_text("the last report\n", encoding="utf-8")

    def broken(report, path):
        Path(path).write_text("half a rep", encoding="utf-8")
        raise RuntimeError("disk gone")

    monkeypatch.setattr(checks, "write_check_csv", broken)
    with pytest.raises(RuntimeError):
        publish(_report(), [target])
    assert target.read_text(encoding="utf-8") == "the last report\n" and os.listdir(tmp_path) == ["report.csv"]


@pytest.mark.parametrize("args, message", [
    (["-o", "IN/travellers.csv"], "this run reads that file; write the output to another file"),
    (["-o", "report.txt"], "report.txt: unknown output type; use one of .xlsx, .csv, .html"),
    (["-o", "r.csv", "-o", "r.csv"], "the same output file is given twice"),
])
def test_a_report_that_cannot_be_right_is_a_command_line_mistake(runner, tmp_path, monkeypatch, args, message):
    inputs = _inputs(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["check", *inputs, *[a.replace("IN/", f"{tmp_path}/") for a in args]])
    assert result.exit_code == 2 and message in result.output
    assert set(os.listdir(tmp_path)) <= {"hands.pbn", "travellers.csv", "no-user-config"}  # nothing written
    assert (tmp_path / "travellers.csv").read_text(encoding="utf-8") == TRAVELLER


def test_the_command_line_offers_every_report_type():
    assert CHECK_REPORTS == tuple(OUTPUTS["CheckReport"]) == (".xlsx", ".csv", ".html")


def test_check_report_is_the_library_call_behind_check(tmp_path):
    inputs = _inputs(tmp_path)
    report = check_report(inputs, Options(dd=True))
    assert report.ok and not len(report.errors) and report.summary == "OK: 2 results on 1 boards, 4 pair numbers"
    assert report.warnings["kind"].tolist() == ["warning", "warning"]
    assert report.warnings["line"].tolist() == ["3", "2"] and report.inputs == tuple(inputs)
    assert report.text() == check_inputs(inputs, Options(dd=True))
    refused = check_report(_inputs(tmp_path, HEAD + "1,1,2,8NT,N,=,HT\n"), Options(dd=False))
    assert not refused.ok and refused.results is None and refused.errors["line"].tolist() == ["2"]
    assert refused.summary == "1 problem(s) in the input"


def _problems(messages: list[str]) -> pd.DataFrame:
    return problems_frame([{"source": "t.csv", "line": str(i + 2), "column": "lead", "message": m}
                           for i, m in enumerate(messages)])


@pytest.mark.parametrize("messages, order", [
    # no cause with more rows than the terminal shows of it: as found
    (["lead 1 is odd", "board 9 is odd", "lead 2 is odd"], [0, 1, 2]),
    # a cause of six rows: its rows together, causes in order of first appearance
    (["lead 1 is odd", "board 9 is odd", *[f"lead {n} is odd" for n in range(2, 7)], "board 8 is odd"],
     [0, 2, 3, 4, 5, 6, 1, 7]),
])
def test_rows_come_in_the_terminals_order(messages, order):
    frame = _problems(messages)
    assert in_terminal_order(frame)["message"].tolist() == [messages[i] for i in order]


def test_a_result_read_twice_at_one_position_names_no_board():
    """Board and pairs come from the one result read at a problem's position; two there: neither."""
    results = pd.DataFrame({"source": ["t.csv", "t.csv", "t.csv"], "line": pd.array([2, 3, 3], dtype="Int64"),
                            "section": ["", "", ""], "board": [4, 5, 6], "ns": ["1", "3", "5"],
                            "ew": ["2", "4", "6"]})
    got = checks.located(_problems(["a", "b"]), results)
    assert got[["board", "ns", "ew"]].astype("object").where(got[["board", "ns", "ew"]].notna(), None) \
        .values.tolist() == [[4, "1", "2"], [None, None, None]]
