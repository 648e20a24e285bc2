"""Print that can be handed out: the workbooks converted to PDF with LibreOffice, page by page, and the
cells a member reads (suit symbols, numbers stored as numbers, titles and conventions in words)."""
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from bridgeproc import process_session
from bridgeproc.model import Options, ReadOptions
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

INPUTS = [SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"]
NAMES = (str(SAMPLE / "club-evening-names.csv"),)
needs_soffice = pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")


def pdf_test(test):
    """A LibreOffice PDF page count: needs soffice, and is slow (a subprocess), so left out of make quick."""
    return pytest.mark.slow(needs_soffice(test))


def pdf_pages(path: Path, sheet: str, tmp_path: Path) -> int:
    """Pages of the PDF LibreOffice prints of ``sheet`` of workbook ``path`` (the other sheets removed)."""
    wb = openpyxl.load_workbook(path)
    for other in wb.sheetnames:
        if other != sheet:
            del wb[other]
    one = tmp_path / f"{sheet.replace(' ', '-')}.xlsx"
    wb.save(one)
    done = subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(one)],
                          capture_output=True, text=True, timeout=180)
    pdf = one.with_suffix(".pdf")
    assert pdf.exists(), done.stderr
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))


@pytest.fixture(scope="module", params=[False, pytest.param(True, marks=pytest.mark.dd)], ids=["no-dd", "dd"])
def workbook(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("print") / "results.xlsx"
    session = process_session(INPUTS, [path], Options(read=ReadOptions(names=NAMES), dd=request.param))
    return session, path


@pdf_test
def test_every_score_card_prints_on_a_page_of_its_own(workbook, tmp_path):
    session, path = workbook
    cards = len(session.standings)
    assert cards == 26
    assert pdf_pages(path, "Score cards", tmp_path) == cards


@pdf_test
def test_hand_records_print_four_to_a_page(workbook, tmp_path):
    session, path = workbook
    assert len(session.boards) == 26
    assert pdf_pages(path, "Hand records", tmp_path) == 7  # 26 boards, 4 a page


def test_each_score_card_starts_a_page(workbook):
    _, path = workbook
    ws = openpyxl.load_workbook(path)["Score cards"]
    labels = [c.row for c in ws["A"] if isinstance(c.value, str) and c.value.startswith("Pair ")]
    assert len(labels) == 26
    # a break after the blank row before each card's title, the first card excepted
    assert [b.id for b in ws.row_breaks.brk] == [row - 2 for row in labels[1:]]
    assert not ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.scale == 100


def test_hand_records_break_after_every_fourth_board(workbook):
    _, path = workbook
    ws = openpyxl.load_workbook(path)["Hand records"]
    assert [b.id for b in ws.row_breaks.brk] == [56, 112, 168, 224, 280, 336]
    titles = [c.row for c in ws["A"] if isinstance(c.value, str) and c.value.startswith("Board ")]
    assert titles[4::4] == [57, 113, 169, 225, 281, 337]


@pytest.mark.parametrize(("score", "contracts", "lines"), [
    (-130, "EW 4C", ["Par EW 130", "EW 4♣"]),
    (620, "NS 4H=, NS 4S=", ["Par NS 620", "NS 4♥=", "NS 4♠="]),
    (500, "EW 5DX-3", ["Par NS 500", "EW 5♦X-3"]),
    (400, "NS 3NT+1", ["Par NS 400", "NS 3NT+1"]),  # NT has no symbol
    (0, "Pass", ["Par 0", "Pass"]),
    (110, "N 1S, N 1H, N 1D, N 1C, S 1S, S 1H", ["Par NS 110", "N 1♠", "N 1♥", "N 1♦", "N 1♣", "S 1♠, S 1♥"]),
    (None, "NS 4S", []),
    (float("nan"), None, []),
])
def test_par_is_written_with_suit_symbols_one_contract_a_line(score, contracts, lines):
    from bridgeproc.report.handrecords import _par_lines

    assert _par_lines({"par_score": score, "par_contracts": contracts}) == lines


@pytest.mark.dd  # solves the sample evening's deals: left out of make quick
def test_hand_record_shows_symbols_and_hcp_apart_from_the_spades(tmp_path):
    path = tmp_path / "results.xlsx"
    session = process_session(INPUTS, [path], Options(read=ReadOptions(names=NAMES), dd=True))
    ws = openpyxl.load_workbook(path)["Hand records"]
    par = [c.value for c in ws["H"] if isinstance(c.value, str)]
    assert par and not any(re.search(r"\d[SHDC]", text) for text in par)
    board = session.boards.set_index("board").loc[1]
    expected_par = f"Par {'NS' if board['par_score'] >= 0 else 'EW'} {abs(int(board['par_score']))}"
    assert ws["H8"].value == expected_par and ws["H8"].font.b
    # the seat and its points in a column of their own, wide enough, the spades in the next
    for seat, label_at, spades_at in (("N", "C2", "D2"), ("W", "A6", "B6"), ("E", "E6", "F6"), ("S", "C10", "D10")):
        label = ws[label_at].value
        assert re.fullmatch(rf"{seat} \d{{1,2}}", label)
        assert ws.column_dimensions[label_at[0]].width >= len(label) + 1
        assert ws[spades_at].value.startswith("♠ ")


def test_score_card_opponents_are_numbers(tmp_path):
    path = tmp_path / "results.xlsx"
    process_session(INPUTS, [path], Options(read=ReadOptions(names=NAMES), dd=False))
    ws = openpyxl.load_workbook(path)["Score cards"]
    opponents = [row[2] for row in ws.iter_rows(min_row=2, values_only=True) if isinstance(row[0], int)]
    assert len(opponents) == 26 * 26 and all(isinstance(o, int) for o in opponents)


@pytest.mark.parametrize(("rows", "width", "landscape", "scale"), [
    (29, 70, False, 100),   # a 26-board score card at full size
    (56, 89, False, 78),    # four hand records: the width decides
    (60, 50, False, 78),    # a long card made smaller to fit its page
    (500, 50, False, 10),   # never below 10 %
    (33, 100, True, 93),    # a cross-table part on A4 turned
])
def test_fixed_scale_fits_the_rows_and_width_of_a_page(rows, width, landscape, scale):
    from openpyxl import Workbook

    from bridgeproc.report.styles import a4, fit_rows

    ws = Workbook(write_only=True).create_sheet("x")
    a4(ws, landscape=landscape)
    fit_rows(ws, rows, width)
    assert ws.page_setup.scale == scale and ws.sheet_properties.pageSetUpPr.fitToPage is False


@pytest.mark.parametrize(("method", "group", "title"), [
    ("mp", "ALL", "Ranking"), ("mp", "NS", "Ranking NS"), ("mp", "A ALL", "Ranking A"),
    ("mp", "A NS", "Ranking A NS"), ("mp", "Tuesday evening section ALL", "Ranking Tuesday evening section"),
])
def test_sheet_titles_in_words(method, group, title):
    from bridgeproc.report.ranking import sheet_title

    assert sheet_title(method, group, several_methods=False) == title


EBL = Path(__file__).parents[1] / "data" / "realdata" / "ebl-2021-online-qual-open-r2-teams.pbn"


@pytest.fixture(scope="module")
def teams_workbook(tmp_path_factory):
    from bridgeproc.pipeline.teams import process_teams

    path = tmp_path_factory.mktemp("teams") / "teams.xlsx"
    session = process_teams([EBL], [path])
    return session, path


def test_teams_names_and_headers_fit_their_columns(teams_workbook):
    session, path = teams_workbook
    wb = openpyxl.load_workbook(path)
    longest = max(len(t) for t in session.standings["team"])
    assert longest == 11  # SWITZERLAND, NETHERLANDS
    for sheet, columns in (("Standings", "B"), ("Matches", "BC"), ("Travellers", "AB"), ("Match cards", "BD")):
        ws = wb[sheet]
        for column in columns:
            assert ws.column_dimensions[column].width >= longest + 1, (sheet, column)
    ws = wb["Matches"]
    header = next(r for r in ws.iter_rows() if r[0].value == "Round")
    for c in header:
        assert ws.column_dimensions[c.column_letter].width >= len(c.value) + 2, c.value


def test_teams_vp_totals_are_stored_rounded(teams_workbook):
    session, path = teams_workbook
    wb = openpyxl.load_workbook(path)
    totals = [r[3] for r in wb["Standings"].iter_rows(values_only=True) if r[0] and str(r[0]).rstrip("=").isdigit()]
    assert len(totals) == 30
    assert totals == [round(float(t), 2) for t in session.standings["total"]]
    assert all(len(repr(t).split(".")[-1]) <= 2 for t in totals)
    vps = [v for r in wb["Matches"].iter_rows(min_row=7, values_only=True) for v in r[10:12] if v is not None]
    played = session.matches[["vp_home", "vp_away"]].notna().sum().sum()
    assert len(vps) == played == 28 and all(v == round(v, 2) for v in vps)


@pytest.mark.parametrize(("value", "fmt", "stored"), [
    (70.92999999999999, "0.00", 70.93), (18.149999999, "0.00", 18.15),
    (12.0, "0.00", 12.0), (3.3333333, "imp", 3.3333333), (float("nan"), "0.00", None), (None, "0.00", None),
])
def test_vp_cells_hold_the_shown_two_decimals(value, fmt, stored):
    from openpyxl import Workbook

    from bridgeproc.report.teams import _num

    ws = Workbook(write_only=True).create_sheet("x")
    assert _num(ws, value, fmt).value == stored


def test_teams_cross_table_in_parts_a_page_each(teams_workbook):
    session, path = teams_workbook
    ws = openpyxl.load_workbook(path)["Cross table"]
    rows = list(ws.iter_rows(values_only=True))
    titles = [i for i, r in enumerate(rows) if isinstance(r[0], str) and r[0].startswith("VPs of the row team")]
    assert [rows[i][0] for i in titles] == [f"VPs of the row team against the column team ({k} of 5)" for k in range(1, 6)]
    teams = session.standings["team"].tolist()
    shown = [t for i in titles for t in rows[i + 1][1:] if t not in (None, "Total")]
    assert shown == teams  # every team a column once, in ranking order
    assert [rows[i + 1][0] for i in titles] == ["Team"] * 5 and rows[titles[-1] + 1][7] == "Total"
    assert [b.id for b in ws.row_breaks.brk] == [33, 66, 99, 132]
    assert ws.page_setup.orientation == "landscape" and ws.column_dimensions["B"].width == 13
    # the Sweden row, against Hungary: the VPs of their match (or blank when they did not meet)
    sweden = rows[titles[0] + 2]
    assert sweden[0] == "SWEDEN" and sweden[1] is None


@pdf_test
@pytest.mark.parametrize(("sheet", "pages"), [("Matches", 1), ("Standings", 1), ("Cross table", 5)])
def test_teams_sheets_print_on_whole_pages(teams_workbook, tmp_path, sheet, pages):
    _, path = teams_workbook
    assert pdf_pages(path, sheet, tmp_path) == pages


def test_lead_column_only_when_results_have_leads(teams_workbook, workbook):
    _, path = teams_workbook
    header = next(openpyxl.load_workbook(path)["Travellers"].iter_rows(values_only=True))
    assert header[:6] == ("NS", "EW", "Contract", "By", "Lead", "Tricks")
    from openpyxl import Workbook

    from bridgeproc.report.travellers import write_travellers

    session, _ = workbook
    for results, expected in ((session.results, "Lead"), (session.results.assign(lead=None), "Tricks"),
                              (session.results.drop(columns="lead"), "Tricks")):
        wb = Workbook(write_only=True)
        write_travellers(wb, results, session.boards)
        saved = Path(str(path) + f".{expected}.xlsx")
        wb.save(saved)
        rows = list(openpyxl.load_workbook(saved)["Travellers"].iter_rows(values_only=True))
        assert rows[0][4] == expected
        first = rows[3]  # the first result of board 1
        assert len([v for v in rows[0] if v]) == (12 if expected == "Lead" else 11) and first[0] is not None


#: The note the EBL file gives: every lead comes from the Play (its Lead tags are empty).
EBL_LEAD_NOTE = {"source": "ebl-2021-online-qual-open-r2-teams.pbn", "line": "63", "column": "", "value": "",
                 "message": "278 result(s): opening lead read from the Play (the first card of trick 1)"}


def test_teams_workbook_has_hand_records_and_checks(teams_workbook):
    session, path = teams_workbook
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Standings", "Matches", "Cross table", "VP scale", "Match cards", "Travellers",
                             "Hand records", "Checks", "Conventions"]
    ws = wb["Hand records"]
    titles = [c for c in ws["A"] if isinstance(c.value, str) and c.value.startswith("Board ")]
    assert [c.value for c in titles] == [f"Board {n}" for n in range(11, 21)]
    assert [c.row for c in titles][4::4] == [57, 113] and [b.id for b in ws.row_breaks.brk] == [56, 112]
    # board 11 (dealer S, nobody vulnerable): the file's double dummy and its OptimumScore NS +90 as the par
    assert ws["D1"].value == "Dealer S · Vul None" and ws["H2"].value == "DD" and ws["H8"].value == "Par NS 90"
    assert [ws.cell(row=3, column=c).value for c in range(8, 14)] == ["N", 7, 7, 6, 6, 7]  # NT ♠ ♥ ♦ ♣
    assert session.notes == (EBL_LEAD_NOTE,)
    rows = list(wb["Checks"].iter_rows(values_only=True))
    assert rows[3] == ("Kind", "File", "Line", "Column", "Value", "Message")
    assert rows[4:] == [("note", EBL_LEAD_NOTE["source"], 63, None, None, EBL_LEAD_NOTE["message"])]
    assert isinstance(rows[4][2], int) and wb["Checks"].page_setup.orientation == "landscape"


@pdf_test
@pytest.mark.parametrize(("sheet", "pages"), [("Hand records", 3), ("Checks", 1), ("Conventions", 1),
                                              ("VP scale", 2)])
def test_teams_new_sheets_print_on_whole_pages(teams_workbook, tmp_path, sheet, pages):
    """Hand records: 10 boards, 4 a page; VP scale: margins 0-48 and the two header rows (repeated)."""
    _, path = teams_workbook
    assert pdf_pages(path, sheet, tmp_path) == pages


@pytest.mark.parametrize(("optimum", "contract", "score", "contracts"), [
    ("NS +90", None, 90, None),
    ("EW 620", "EW 4S", -620, "EW 4S"),
    ("NS 450 EW -450", None, 450, None),
    ("NS 4S; +420", "NS 4S", 420, "NS 4S"),
    ("100", None, None, None),        # no side: not a par
    ("NS 425", None, None, None),     # not a score a board can have
    (None, None, None, None),
])
def test_teams_hand_record_par_is_the_files_optimum_score(optimum, contract, score, contracts):
    import pandas as pd

    from bridgeproc.report.teams import hand_record_boards

    deals = pd.DataFrame({"board": [1], "optimum_score": pd.array([optimum], dtype="string")})
    if contract is not None:
        deals["optimum_contract"] = pd.array([contract], dtype="string")
    shown = hand_record_boards(deals).iloc[0]
    assert (None if pd.isna(shown["par_score"]) else int(shown["par_score"])) == score
    assert (None if pd.isna(shown["par_contracts"]) else shown["par_contracts"]) == contracts
