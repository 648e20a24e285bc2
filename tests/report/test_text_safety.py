"""Text from files is written as text in every workbook: no formula, no IllegalCharacterError, valid
sheet titles, and every change made to fit a workbook listed on it (report.styles)."""
import csv
import dataclasses
import re
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from bridgeproc.model import ArchiveOptions, Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from bridgeproc.report.scoresheet import write_xlsx
from bridgeproc.report.styles import BOLD, MAX_CELL_TEXT, add_row, cell, changed_text, new_sheet, new_workbook
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

LONG_SECTION = "Section forty characters long, for tests"
SECTIONS = ["A/B", "*?", LONG_SECTION]
#: Names as typed in the names list (NS pairs 1..6 of every section), and how the workbook shows them.
HOSTILE = ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", "+1", "@SUM(A1)", "Anna\x07Berg", "-2 & #N/A"]
SHOWN = {name: name.replace("\x07", "\ufffd") for name in HOSTILE}
EVENT = "=1+1 Pairs"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The sample club evening played in three sections with hostile names and event, written as a workbook."""
    folder = tmp_path_factory.mktemp("hostile")
    with open(SAMPLE / "club-evening-travellers.csv", newline="", encoding="utf-8") as f:
        travellers = list(csv.reader(f))
    with open(folder / "travellers.csv", "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["Section", *travellers[0]])
        out.writerows([section, *row] for section in SECTIONS for row in travellers[1:])
    with open(SAMPLE / "club-evening-names.csv", newline="", encoding="utf-8") as f:
        names = list(csv.reader(f))
    with open(folder / "names.csv", "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["Section", *names[0]])
        out.writerows([section, *row[:2], HOSTILE[i] if i < len(HOSTILE) else row[2]]
                      for section in SECTIONS for i, row in enumerate(names[1:]))
    pbn = (SAMPLE / "club-evening.pbn").read_text(encoding="utf-8")
    (folder / "event.pbn").write_text(pbn.replace('[Event "Tuesday Pairs"]', f'[Event "{EVENT}"]'), encoding="utf-8")
    session = build_session([folder / "event.pbn", folder / "travellers.csv"],
                            Options(read=ReadOptions(names=(str(folder / "names.csv"),)), archive=ArchiveOptions(store=False), dd=False))
    # the names list reads a control character as a space (with a note): put one back, as an archived
    # session or another reader could hand it to the writer
    typed, read = "Anna\x07Berg", "Anna Berg"
    session = dataclasses.replace(session, names=session.names.replace({"names": {read: typed}}),
                                  standings=session.standings.replace({"names": {read: typed}}))
    assert (session.standings["names"] == typed).sum() == len(SECTIONS)
    path = folder / "results.xlsx"
    write_outputs(session, [path])
    return session, openpyxl.load_workbook(path)


def _text_cells(wb):
    return [(ws.title, c) for ws in wb.worksheets for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


def test_sheet_titles_are_valid_unique_and_short(hostile):
    _, wb = hostile
    assert wb.sheetnames == ["Ranking -- NS", "Ranking -- EW", "Ranking A-B NS", "Ranking A-B EW",
                             "Ranking SECTION FORTY CHARAC NS", "Ranking SECTION FORTY CHARAC EW",
                             "Travellers", "Score cards", "Hand records", "Checks", "Conventions"]


def test_no_cell_is_a_formula_or_an_error(hostile):
    _, wb = hostile
    cells = [(title, c) for title, c in _text_cells(wb)]
    assert cells and {c.data_type for _, c in cells} == {"s"}
    formulas = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row if c.data_type in ("f", "e")]
    assert formulas == []


@pytest.mark.parametrize("section", SECTIONS)
def test_names_show_as_typed_on_every_ranking(hostile, section):
    session, wb = hostile
    title = {"A/B": "Ranking A-B NS", "*?": "Ranking -- NS", LONG_SECTION: "Ranking SECTION FORTY CHARAC NS"}[section]
    ws = wb[title]
    assert ws["A1"].value == f"{EVENT} — Matchpoints, {section.upper()} NS" and ws["A1"].data_type == "s"
    shown = {row[1].value: row[2] for row in ws.iter_rows() if isinstance(row[1].value, int)}  # pair numbers
    for pair, name in zip(range(1, 7), HOSTILE):
        assert (shown[pair].value, shown[pair].data_type) == (SHOWN[name], "s")


def test_score_cards_and_travellers_hold_the_text_too(hostile):
    _, wb = hostile
    labels = [c.value for c in wb["Score cards"]["A"] if isinstance(c.value, str) and c.value.startswith("Section")]
    assert "Section A/B · Pair 1 (NS)  =HYPERLINK(\"http://x\",\"y\")" in labels
    assert "Section *? · Pair 2 (NS)  =cmd|' /C calc'!A0" in labels
    assert f"Section {LONG_SECTION.upper()} · Pair 5 (NS)  Anna\ufffdBerg" in labels
    titles = [c.value for c in wb["Travellers"]["A"] if isinstance(c.value, str) and c.value.startswith("Section")]
    assert f"Section {LONG_SECTION.upper()} · Board 1 · Dealer N · Vul None · top 24" in titles


def test_every_change_is_listed_on_the_conventions_sheet(hostile):
    _, wb = hostile
    rows = [c.value for c in wb["Conventions"]["A"]]
    changes = rows[rows.index("Text changed to fit the workbook") + 1:]
    assert "sheet 'Ranking A/B NS' is named 'Ranking A-B NS': a sheet title has at most 31 characters, none of " \
           "\\ / * ? : [ ], and differs from every other" in changes
    assert any(c.startswith(f"sheet 'Ranking {LONG_SECTION.upper()} EW' is named 'Ranking SECTION FORTY CHARAC EW'")
               for c in changes)
    assert ("Ranking -- NS, Ranking A-B NS, Ranking SECTION FORTY CHARAC NS: 1 control character(s) in "
            "'Anna\\x07Berg' shown as \ufffd: a worksheet cannot hold them; correct the input file") in changes
    assert len(changes) == 8


def _write(tmp_path, rows):
    wb = openpyxl.Workbook(write_only=True)
    ws = new_sheet(wb, "S")
    for row in rows(ws):
        add_row(ws, row)
    changes = changed_text(wb)
    wb.save(tmp_path / "s.xlsx")
    return openpyxl.load_workbook(tmp_path / "s.xlsx")["S"], changes


@pytest.mark.parametrize("typed", ["=1+1", "=", "+1", "-1", "@A1", "#N/A", "#REF!", "=cmd|' /C calc'!A0", " =x", "'=x"])
def test_formula_looking_text_is_text(tmp_path, typed):
    from bridgeproc.report.styles import BOLD

    ws, changes = _write(tmp_path, lambda ws: [[typed, cell(ws, typed), cell(ws, typed, font=BOLD)]])
    assert [(c.value, c.data_type) for c in ws[1]] == [(typed, "s")] * 3
    assert changes == []


def test_numbers_stay_numbers(tmp_path):
    ws, _ = _write(tmp_path, lambda ws: [[1, 2.5, None, cell(ws, 3, fmt="int"), True]])
    assert [(c.value, c.data_type) for c in ws[1]][:2] == [(1, "n"), (2.5, "n")]
    assert ws["D1"].value == 3 and ws["E1"].value is True


@pytest.mark.parametrize("typed, shown", [
    ("a\x00b", "a\ufffdb"), ("\x07", "\ufffd"), ("a\x1fb\x0bc", "a\ufffdb\ufffdc"), ("tab\tand\nline", "tab\tand\nline"),
])
def test_control_characters_are_replaced_visibly(tmp_path, typed, shown):
    ws, changes = _write(tmp_path, lambda ws: [[typed]])
    assert ws["A1"].value == shown
    assert len(changes) == (typed != shown)


def test_text_over_a_cell_is_cut_with_a_mark(tmp_path):
    typed = "x" * 40_000
    ws, changes = _write(tmp_path, lambda ws: [[typed, "=" + typed]])
    assert len(ws["A1"].value) == MAX_CELL_TEXT
    assert ws["A1"].value.endswith(" [... cut: 40,000 characters, a cell holds 32,767]")
    assert ws["B1"].data_type == "s" and ws["B1"].value.startswith("=xxx")
    assert changes == ["S: text of 40,000 characters starting 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
                       "cut to 32,767, the most a cell holds",
                       "S: text of 40,001 characters starting '=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' "
                       "cut to 32,767, the most a cell holds"]


@pytest.mark.parametrize("titles, made", [
    (["A/B", "*?", "x:y", "[1]", "a\\c"], ["A-B", "--", "x-y", "-1-", "a-c"]),
    (["Ranking", "ranking", "RANKING"], ["Ranking", "ranking (2)", "RANKING (3)"]),
    (["x" * 40, "x" * 35], ["x" * 31, "x" * 27 + " (2)"]),
    (["'quoted'", "History", "", "a\x07b"], ["quoted", "History (2)", "Sheet", "a-b"]),
])
def test_sheet_titles(titles, made, recwarn):
    wb = openpyxl.Workbook(write_only=True)
    assert [new_sheet(wb, t).title for t in titles] == made
    assert wb.sheetnames == made and len(recwarn) == 0
    assert len(changed_text(wb)) == sum(t != m for t, m in zip(titles, made))


def test_score_sheet_notes_are_text(tmp_path):
    frame = pd.DataFrame({"deal": [1, 2], "note": ["=SUM(A1)", "bell\x07"]})
    write_xlsx(frame, tmp_path / "s.xlsx", title="@club")
    ws = openpyxl.load_workbook(tmp_path / "s.xlsx")["Score sheet"]
    assert (ws["A1"].value, ws["A1"].data_type) == ("@club", "s")
    assert [(c.value, c.data_type) for c in ws["B"][3:5]] == [("=SUM(A1)", "s"), ("bell\ufffd", "s")]
    assert ws["A7"].value == "Text changed to fit the workbook"


def test_every_writer_appends_through_add_row():
    """A raw ``ws.append`` or ``wb.create_sheet`` in a writer would skip the text safety."""
    report = Path(__file__).parents[2] / "bridgeproc" / "report"
    offenders = [f"{path.name}:{number}" for path in sorted(report.glob("*.py")) if path.name not in ("styles.py", "rows.py")
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if re.search(r"\bws\.append\(|\.create_sheet\(", line)]
    assert offenders == []


@pytest.mark.parametrize("maker", ["openpyxl", "bridgeproc"])
@pytest.mark.parametrize("typed, shown, said", [
    ("An\ufffena", "An\ufffdna", "1 character(s) XML cannot hold in 'An\\ufffena'"),  # U+FFFE is valid UTF-8
    ("\uffff", "\ufffd", "1 character(s) XML cannot hold in '\\uffff'"),
    ("a\ud800b", "a\ufffdb", "1 character(s) XML cannot hold in 'a\\ud800b'"),
    ("\x07x\uffff", "\ufffdx\ufffd", "2 character(s) XML cannot hold in '\\x07x\\uffff'"),
])
def test_characters_xml_cannot_hold_are_replaced_visibly(tmp_path, maker, typed, shown, said):
    """Not only control characters: U+FFFE and U+FFFF (which a UTF-8 file may hold) and lone surrogates
    would make lxml refuse the sheet; they are shown as U+FFFD and said, in either kind of workbook."""
    wb = openpyxl.Workbook(write_only=True) if maker == "openpyxl" else new_workbook()
    ws = new_sheet(wb, "S")
    add_row(ws, [typed, cell(ws, typed, font=BOLD)])
    changes = changed_text(wb)
    wb.save(tmp_path / "s.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "s.xlsx")["S"]
    assert [sheet["A1"].value, sheet["B1"].value] == [shown, shown]
    assert changes == [f"S: {said} shown as \ufffd: a worksheet cannot hold them; correct the input file"]
