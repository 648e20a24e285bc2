"""report.rows.RowSheet writes the sheet XML openpyxl's own write-only sheet writes, byte for byte.

The oracle is openpyxl itself: the same rows appended to a stock write-only workbook and to a
RowWorkbook give the same ``xl/worksheets/sheet1.xml`` (and the same styles), for generated rows of
text, numbers, booleans, blanks and styled cells, and for rows RowSheet hands back to openpyxl.
"""
from __future__ import annotations

import datetime
import zipfile
import zlib
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import ERROR_CODES

from bridgeproc.report import rows as row_module
from bridgeproc.report.rows import RowSheet, RowWorkbook
from bridgeproc.report.styles import BOLD, CENTER, HEADER, HEADER_FILL, cell, new_sheet, new_workbook

#: Text openpyxl writes as text (no formula, no error code, no control character).
TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12).filter(
    lambda t: not t.startswith("=") and t not in ERROR_CODES)
PLAIN = st.one_of(st.none(), TEXT, st.integers(-10**12, 10**12), st.booleans(),
                  st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["", " a", "b ", "  ", "a\r\nb", "\rc", "\td\n", "<&>\"'", "]]>"]))
#: Styled cells: (value, style number) made with report.styles.cell in the sheet at hand.
STYLES = [dict(font=BOLD), dict(fmt="pct"), dict(font=HEADER, fill=HEADER_FILL, align=CENTER), dict(fmt="mp")]
STYLED = st.tuples(st.one_of(st.none(), TEXT, st.integers(-999, 999), st.floats(-1e6, 1e6)),
                   st.integers(0, len(STYLES) - 1))
ROWS = st.lists(st.lists(st.one_of(PLAIN, STYLED), max_size=9), max_size=12)


def _sheet_xml(workbook, rows, path: Path, heights: dict[int, float] | None = None) -> tuple[bytes, bytes]:
    ws = workbook.create_sheet("S")
    for number, height in (heights or {}).items():
        ws.row_dimensions[number].height = height
    for row in rows:
        ws.append([cell(ws, v[0], **STYLES[v[1]]) if isinstance(v, tuple) else v for v in row])
    workbook.save(path)
    with zipfile.ZipFile(path) as book:
        return book.read("xl/worksheets/sheet1.xml"), book.read("xl/styles.xml")


def _both(rows, tmp: Path, heights=None):
    stock = openpyxl.Workbook(write_only=True)
    ours = RowWorkbook()
    return (_sheet_xml(stock, rows, tmp / "stock.xlsx", heights),
            _sheet_xml(ours, rows, tmp / "ours.xlsx", heights))


@settings(max_examples=150, deadline=None)
@given(ROWS)
def test_the_sheet_is_openpyxls_byte_for_byte(tmp_path_factory, rows):
    stock, ours = _both(rows, tmp_path_factory.mktemp("rows"))
    assert ours == stock


def test_a_literal_row_and_its_xml(tmp_path):
    rows = [["Pair", 12, 2.5, None, True, "", " spaced "], [], [("Rank", 2), (55.123, 1), (None, 0)]]
    (stock_sheet, stock_styles), (sheet, styles) = _both(rows, tmp_path, heights={2: 30.0})
    assert sheet == stock_sheet and styles == stock_styles
    data = sheet[sheet.index(b"<sheetData>"):sheet.index(b"</sheetData>") + 12].decode()
    assert data == (
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Pair</t></is></c><c r="B1" t="n"><v>12</v></c>'
        '<c r="C1" t="n"><v>2.5</v></c><c r="E1" t="b"><v>1</v></c><c r="F1" t="inlineStr"></c>'
        '<c r="G1" t="inlineStr"><is><t xml:space="preserve"> spaced </t></is></c></row>'
        '<row r="2" ht="30" customHeight="1"></row>'
        '<row r="3"><c r="A3" s="1" t="inlineStr"><is><t>Rank</t></is></c><c r="B3" s="2" t="n"><v>55.123</v></c>'
        '<c r="C3" s="3" t="n"></c></row></sheetData>')


def test_a_row_it_does_not_write_is_written_by_openpyxl(tmp_path):
    """A date (or any other value RowSheet leaves alone) sends its row to openpyxl's own writer."""
    rows = [["before", 1], [datetime.date(2026, 12, 7), "date"], ["after", 2.5]]
    (stock, _), (ours, _) = _both(rows, tmp_path)
    assert ours == stock and b'<c r="A2" s="1" t="n"><v>46363</v></c>' in ours  # a date style openpyxl adds
    assert openpyxl.load_workbook(tmp_path / "ours.xlsx")["S"]["A2"].value == datetime.datetime(2026, 12, 7)


def test_text_that_looks_like_a_formula_stays_text(tmp_path):
    """openpyxl would make ``=1+1`` a formula: a RowSheet writes every string as text."""
    wb = RowWorkbook()
    ws = wb.create_sheet("S")
    assert isinstance(ws, RowSheet)
    ws.append(["=1+1", "#N/A"])
    wb.save(tmp_path / "t.xlsx")
    sheet = openpyxl.load_workbook(tmp_path / "t.xlsx")["S"]
    assert [(c.value, c.data_type) for c in sheet[1]] == [("=1+1", "s"), ("#N/A", "s")]


def test_rows_written_in_batches_keep_their_order(tmp_path):
    """Rows are parsed a batch at a time: more rows than a batch, with a row openpyxl writes between two
    batches' rows and empty cells and rows at a batch's edge, give openpyxl's sheet."""
    rows: list[list] = [[f"r{n}", n, ("", 0), None, n / 3] for n in range(1, 451)]
    rows[199], rows[200], rows[260] = [], [("", 1)], ["before", datetime.date(2026, 12, 7), "after"]
    (stock, stock_styles), (ours, styles) = _both(rows, tmp_path)
    assert ours == stock and styles == stock_styles
    assert b'<row r="200"></row><row r="201"><c r="A201" s="2" t="inlineStr"></c></row>' in ours
    assert b'<c r="A450" t="inlineStr"><is><t>r450</t></is></c><c r="B450" t="n"><v>450</v></c>' in ours


def test_a_character_xml_cannot_hold_is_refused_not_written(tmp_path):
    """styles.cell replaces such characters before a row comes here; given one anyway, the sheet refuses it
    as lxml does rather than write a file no reader takes."""
    for text in ("a\x07", "b\ufffe", "c\ud800"):
        ws = RowWorkbook().create_sheet("S")
        with pytest.raises(ValueError, match="XML compatible"):
            ws.append([text])


def test_a_styled_value_beside_a_date_is_written_by_openpyxl_with_its_style(tmp_path):
    """A row openpyxl writes (a date in it) may hold styled values too: they become the cells they stand for."""
    rows = [[("Board", 0), datetime.date(2026, 12, 7), ("=1+1", 2), (3.25, 1), ("", 3)]]
    (stock, stock_styles), (ours, styles) = _both(rows, tmp_path)
    assert ours == stock and styles == stock_styles
    assert openpyxl.load_workbook(tmp_path / "ours.xlsx")["S"]["C1"].value == "=1+1"


def test_another_openpyxl_release_gets_openpyxls_own_sheets(monkeypatch, tmp_path):
    """RowSheet takes part in openpyxl's private write-only code, checked for the releases it names: under
    another one (or without lxml) the workbook's sheets are openpyxl's own, and every writer still works."""
    assert row_module.row_sheets("3.1.5", True) and not row_module.row_sheets("3.2.0", True) and not row_module.row_sheets("3.1.5", False)
    monkeypatch.setattr(row_module, "row_sheets", lambda: False)
    wb = new_workbook()
    ws = new_sheet(wb, "S")
    assert not isinstance(ws, RowSheet)
    ws.append([cell(ws, "Pair", font=BOLD), 1, cell(ws, 2.5, fmt="pct")])
    wb.save(tmp_path / "t.xlsx")
    assert [c.value for c in openpyxl.load_workbook(tmp_path / "t.xlsx")["S"][1]] == ["Pair", 1, 2.5]


def test_the_parts_are_deflated_at_zlibs_fastest_level_and_read_back(tmp_path):
    """Every part of the workbook is deflated at level 1 (its compressed size is level 1's, not the default's),
    and openpyxl reads the cells back."""
    wb = new_workbook()
    ws = new_sheet(wb, "S")
    for number in range(300):
        ws.append([cell(ws, f"Pair {number}", font=BOLD), number, number / 4])
    wb.save(tmp_path / "t.xlsx")
    with zipfile.ZipFile(tmp_path / "t.xlsx") as archive:
        for member in archive.infolist():
            data = archive.read(member)
            fastest = zlib.compressobj(1, zlib.DEFLATED, -15)
            assert member.compress_type == zipfile.ZIP_DEFLATED, member.filename
            assert member.compress_size == len(fastest.compress(data) + fastest.flush()), member.filename
    sheet = openpyxl.load_workbook(tmp_path / "t.xlsx")["S"]
    assert [c.value for c in sheet[300]] == ["Pair 299", 299, 299 / 4]
