"""Hostile and broken XLSX workbooks: bounded work, a ParseError naming the file and the fix (never a
traceback), and nothing left out silently (io.sheets.xlsx), through the entry points the pipeline calls."""
import zipfile

import openpyxl
import pytest
from openpyxl.styles import Font

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets import xlsx
from bridgeproc.io.sheets.xlsx import load_workbooks, read_travellers_xlsx
from bridgeproc.pipeline.inputs import read_inputs
from tests.conftest import workbook

HEADER = ["Board", "NS", "EW", "Contract", "Declarer", "Result"]
RESULTS = [HEADER, [1, 1, 2, "4S", "N", "="], [1, 3, 4, "3NT", "S", "+1"]]


def _good(path, sheets=None):
    return workbook(path, sheets or {"Results": RESULTS})


def _patched(path, member, change):
    """Re-zip ``path`` with ``member`` replaced by ``change(bytes)`` (valid zip, CRC and all)."""
    with zipfile.ZipFile(path) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    parts[member] = change(parts[member])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    return path


def _every_entry(path, loading=True):
    """The ParseError of each way the pipeline reaches the reader (loading alone only for a file that
    cannot be loaded)."""
    for read in (load_workbooks,) * loading + (read_travellers_xlsx, lambda p: read_inputs([p])):
        with pytest.raises(ParseError) as caught:
            read(path)
        yield caught.value


# --- 2. work bounded by the cells that exist -----------------------------------------------------

def _far_cell(path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    for row in [["Board", "NS", "EW", "Contract"], [1, 1, 2, "4SN="], [1, 3, 4, "3NTS+1"]]:
        ws.append(row)
    ws["XFD1048576"].value = ""
    ws["XFD1048576"].font = Font(bold=True)
    wb.save(path)
    return path


def test_one_empty_cell_at_xfd1048576_is_not_a_grid(tmp_path, monkeypatch):
    path = _far_cell(tmp_path / "far.xlsx")
    assert path.stat().st_size < 6000
    workbooks = load_workbooks(path)
    ws = workbooks[0]["Results"]
    assert (ws.max_row, ws.max_column) == (1048576, 16384)  # the extent openpyxl reports
    made = []
    original = type(ws)._get_cell
    monkeypatch.setattr(type(ws), "_get_cell", lambda self, row, column: made.append((row, column))
                        or original(self, row, column))
    raw = read_travellers_xlsx(path, workbooks)
    assert made == []  # not one cell made: only the cells the file holds were visited
    assert raw[["board", "ns", "ew", "contract", "line"]].astype(str).values.tolist() == [
        ["1", "1", "2", "4SN=", "2"], ["1", "3", "4", "3NTS+1", "3"]]
    assert workbooks[1] is None  # no formula in the file: loaded once
    rows, numbers, _ = xlsx.sheet_grid(ws, None)
    assert numbers == [1, 2, 3] and [len(r) for r in rows] == [4, 4, 4]


def test_far_cell_through_the_pipeline(tmp_path):
    inputs = read_inputs([_far_cell(tmp_path / "far.xlsx")])
    assert len(inputs.raws) == 1 and len(inputs.raws[0]) == 2


def test_rows_are_as_long_as_their_cells(tmp_path):
    """A value far right in one row does not widen every other row."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in RESULTS:
        ws.append(row)
    ws["XFD10"] = "far"
    wb.save(tmp_path / "w.xlsx")
    workbooks = load_workbooks(tmp_path / "w.xlsx")
    rows, numbers, _ = xlsx.sheet_grid(workbooks[0].active, None if workbooks[1] is None else workbooks[1].active)
    assert numbers == [1, 2, 3, 10] and [len(r) for r in rows] == [6, 6, 6, 16384]


# --- 3. a broken file is a ParseError naming the file and the fix --------------------------------

LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
          + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                     for i in range(1, 10))
          + b']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
          b'<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>')


def _entity_in_sheet(data):
    return data.replace(b"<worksheet", b'<!DOCTYPE w [<!ENTITY board "Board">]><worksheet', 1).replace(
        b"<v>", b"<v>&board;", 1)


def _external_entity(data):
    return data.replace(b"<worksheet", b'<!DOCTYPE w [<!ENTITY x SYSTEM "file:///etc/passwd">]><worksheet', 1)


def _utf16_laughs(data):
    return LAUGHS.replace(b'<?xml version="1.0"?>', b"").decode().encode("utf-16")


def _flip_deflate(path):
    """Corrupt the compressed bytes of sheet1.xml inside a zip whose directory is intact."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as package:
        info = package.getinfo("xl/worksheets/sheet1.xml")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start + 5, start + info.compress_size - 2, 7):
        data[offset] ^= 0x5A
    path.write_bytes(bytes(data))
    return path


def _encrypted_flag(path):
    data = bytearray(path.read_bytes())
    central = data.find(b"PK\x01\x02")
    data[central + 8] |= 0x1
    path.write_bytes(bytes(data))
    return path


def _written(path, data):
    path.write_bytes(data)
    return path


def _as_picture(path):
    """The results sheet moved to ``xl/media/image1.png`` (its relationship and content type following),
    with a merge over the whole sheet: a guard that skipped pictures by name let it through."""
    with zipfile.ZipFile(path) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    sheet = parts.pop("xl/worksheets/sheet1.xml").replace(
        b"</worksheet>", b'<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells></worksheet>')
    parts["xl/media/image1.png"] = sheet
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(
        b"worksheets/sheet1.xml", b"media/image1.png")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"/xl/worksheets/sheet1.xml",
                                                                        b"/xl/media/image1.png")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    return path


def _zip_of(parts):
    def make(path):
        with zipfile.ZipFile(path, "w") as package:
            for name, data in parts.items():
                package.writestr(name, data)
        return path
    return make


BROKEN = {
    # case: (make the file from a good one, words the message holds)
    "not a zip": (lambda p: _written(p, b"Board,NS,EW\n1,1,2\n"), "not a zip archive"),
    "empty file": (lambda p: _written(p, b""), "not a zip archive"),
    "cut in half": (lambda p: _written(p, _good(p).read_bytes()[:2000]), "not a readable .xlsx"),
    "zip without workbook.xml": (_zip_of({"hello.txt": b"hi"}), "not a readable .xlsx"),
    "zip of a names csv": (_zip_of({"[Content_Types].xml": b"<Types/>"}), "not a readable .xlsx"),
    "cut sheet XML": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d[: len(d) // 2]),
                      "not a readable .xlsx"),
    "garbage sheet XML": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: b"\x00\xff" * 50),
                          "not a readable .xlsx"),
    "billion laughs in sheet1.xml": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: LAUGHS),
                                     "declares a DOCTYPE or XML entities"),
    "billion laughs in UTF-16": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", _utf16_laughs),
                                 "declares a DOCTYPE or XML entities"),
    "entity inside sheet1.xml": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", _entity_in_sheet),
                                 "part xl/worksheets/sheet1.xml of the workbook declares a DOCTYPE"),
    "external entity": (lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", _external_entity),
                        "declares a DOCTYPE or XML entities"),
    "entity in workbook.xml": (lambda p: _patched(_good(p), "xl/workbook.xml", lambda d: LAUGHS), "xl/workbook.xml"),
    "entity in [Content_Types].xml": (lambda p: _patched(_good(p), "[Content_Types].xml", lambda d: LAUGHS),
                                "[Content_Types].xml"),
    "corrupt deflate stream": (lambda p: _flip_deflate(_good(p)), "not a readable .xlsx"),
    "unknown workbook attributes": (
        lambda p: _patched(_good(p), "xl/workbook.xml",
                           lambda d: d.replace(b"<workbookPr", b'<workbookPr bogus="1" codeName="x" '
                                               b'dateCompatibility="maybe"', 1)), "not a readable .xlsx"),
    "unknown sheet state": (lambda p: _patched(_good(p), "xl/workbook.xml",
                                               lambda d: d.replace(b'<sheet ', b'<sheet state="gone" ', 1)),
                            "not a readable .xlsx"),
    "encrypted workbook (OLE)": (lambda p: _written(p, b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600),
                                 "encrypted (password-protected) workbook or an old .xls"),
    "encrypted zip parts": (lambda p: _encrypted_flag(_good(p)), "parts are encrypted"),
    "merge over the whole sheet": (
        lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d.replace(
            b"</worksheet>", b'<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells></worksheet>')),
        "the merged ranges of part xl/worksheets/sheet1.xml cover more than 1,000,000 cells"),
    "hyperlink over the whole sheet": (
        lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d.replace(
            b"</worksheet>", b'<hyperlinks><hyperlink ref="A1:XFD1048576" location="A1"/></hyperlinks></worksheet>')),
        "the hyperlink ranges"),
    # issue 29: the guard reads the part as the parser does, so these no longer walk around it
    "merge written ref = \"...\"": (
        lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d.replace(
            b"</worksheet>", b'<mergeCells count="1"><mergeCell ref = "A1:XFD1048576"/></mergeCells></worksheet>')),
        "the merged ranges of part xl/worksheets/sheet1.xml cover more than 1,000,000 cells"),
    "merge written with a character reference": (
        lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d.replace(
            b"</worksheet>", b'<mergeCells count="1"><mergeCell ref="&#65;1:XFD1048576"/></mergeCells></worksheet>')),
        "the merged ranges of part xl/worksheets/sheet1.xml cover more than 1,000,000 cells"),
    "hyperlink with a prefix and single quotes": (
        lambda p: _patched(_good(p), "xl/worksheets/sheet1.xml", lambda d: d.replace(
            b"</worksheet>", b"<x:hyperlinks xmlns:x='urn:x'><x:hyperlink ref='A1:XFD1048576'/></x:hyperlinks>"
                             b"</worksheet>")), "the hyperlink ranges"),
    "a sheet stored as a picture": (lambda p: _as_picture(_good(p)),
                                    "the merged ranges of part xl/media/image1.png cover more than 1,000,000 cells"),
    "a folder": (lambda p: p.mkdir() or p, "cannot read file"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_workbook_is_a_parse_error_naming_the_file(tmp_path, case):
    make, words = BROKEN[case]
    path = make(tmp_path / "broken.xlsx")
    for error in _every_entry(path):
        assert error.source == "broken.xlsx"
        assert words in error.message
        if case != "a folder":
            assert "save it" in error.message


def test_too_much_unpacked_is_refused_before_loading(tmp_path, monkeypatch):
    monkeypatch.setattr(xlsx, "MAX_UNPACKED", 1000)
    for error in _every_entry(_good(tmp_path / "big.xlsx")):
        assert "unpacks to" in error.message and "more than a traveller workbook ever holds (1,000)" in error.message


@pytest.mark.parametrize("raised", [MemoryError, KeyboardInterrupt])
def test_memory_error_and_interrupt_are_not_swallowed(tmp_path, monkeypatch, raised):
    def load(*args, **kwargs):
        raise raised()
    monkeypatch.setattr(openpyxl, "load_workbook", load)
    with pytest.raises(raised):
        load_workbooks(_good(tmp_path / "w.xlsx"))


def test_a_good_workbook_still_reads(tmp_path):
    raw = read_travellers_xlsx(_good(tmp_path / "w.xlsx"))
    assert raw["contract"].tolist() == ["4S", "3NT"] and raw["source"].tolist() == ["w.xlsx!Results"] * 2


# --- 4. nothing left out silently ----------------------------------------------------------------

BOARD_SHEET = [["NS", "EW", "Contract", "By", "Result"], [1, 2, "4S", "N", "="], [3, 4, "3NT", "S", "-1"]]
ITALIAN = [["Coppia NS", "Coppia EO", "Contratto", "Dichiarante", "Risultato"], [1, 2, "4S", "N", "="]]


@pytest.mark.parametrize("sheet, rows, line, words", [
    ("Board 2", ITALIAN, "1", "no header row found in the first 10 rows"),
    ("2", ITALIAN, "1", "no header row found in the first 10 rows"),
    ("Board 2", [["Coppia NS", "Coppia EO", "Contract", "By", "Result"], [1, 2, "4S", "N", "="]], "1",
     "missing column ns, ew in header Coppia NS, Coppia EO, Contract, By, Result; not recognised: 'Coppia NS'"),
    ("Board 2", [[f"note {i}"] for i in range(11)] + BOARD_SHEET, "1", "no header row found in the first 10 rows"),
])
def test_a_board_sheet_without_a_known_header_is_an_error(tmp_path, sheet, rows, line, words):
    path = workbook(tmp_path / "t.xlsx", {"Board 1": BOARD_SHEET, sheet: rows, "Board 3": BOARD_SHEET})
    for error in _every_entry(path, loading=False):
        assert (error.source, str(error.line)) == (f"t.xlsx!{sheet}", line)
        assert words in error.message


def test_a_sheet_that_is_not_read_is_a_note(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Board 1": BOARD_SHEET, "Remarks": [["TD ruling on board 1"], ["ok"]]})
    notes: list[dict] = []
    raw = read_travellers_xlsx(path, notes=notes)
    assert len(raw) == 2
    assert [(n["source"], n["line"]) for n in notes] == [("t.xlsx!Remarks", "1")]
    assert notes[0]["message"].startswith("sheet not read: no traveller header in its first 10 rows (2 rows with text)")
    inputs = read_inputs([path])
    assert "sheet not read" in " ".join(n["message"] for n in inputs.notes)


@pytest.mark.parametrize("where, value, cell", [("G3", "oops", "G3"), ("H2", 7, "H2"), ("Z3", "x", "Z3")])
def test_a_value_right_of_the_header_is_refused_with_its_cell(tmp_path, where, value, cell):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    for row in RESULTS:
        ws.append(row)
    ws[where] = value
    wb.save(tmp_path / "t.xlsx")
    for error in _every_entry(tmp_path / "t.xlsx", loading=False):
        assert (error.source, error.line) == ("t.xlsx!Results", cell)
        assert f"{str(value)!r} is right of the last header column (F)" in error.message


def test_values_right_of_the_header_are_all_listed(tmp_path):
    rows = [HEADER] + [[1, n, n + 10, "4S", "N", "=", None, f"x{n}"] for n in range(1, 9)]
    error = next(_every_entry(workbook(tmp_path / "t.xlsx", {"Results": rows}), loading=False))
    assert error.line == "H2" and "(cells H2, H3, H4, H5, H6 and 3 more)" in error.message


@pytest.mark.parametrize("state", ["hidden", "veryHidden"])
def test_a_hidden_results_sheet_is_a_note(tmp_path, state):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Board 1"
    for row in BOARD_SHEET:
        ws.append(row)
    hidden = wb.create_sheet("Board 2")
    for row in BOARD_SHEET:
        hidden.append(row)
    hidden.sheet_state = state
    wb.save(tmp_path / "t.xlsx")
    notes: list[dict] = []
    raw = read_travellers_xlsx(tmp_path / "t.xlsx", notes=notes)
    assert raw["board"].tolist() == ["1", "1", "2", "2"]  # read, and said
    assert [(n["source"], n["value"]) for n in notes] == [("t.xlsx!Board 2", state)]
    assert "hidden in the workbook; its results are read" in notes[0]["message"]


def test_hidden_rows_of_results_are_a_note(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    for row in RESULTS + [[2, 1, 2, "2H", "E", "-1"]]:
        ws.append(row)
    ws.row_dimensions[3].hidden = True
    ws.row_dimensions[4].hidden = True
    wb.save(tmp_path / "t.xlsx")
    notes: list[dict] = []
    assert len(read_travellers_xlsx(tmp_path / "t.xlsx", notes=notes)) == 3
    assert [(n["line"], n["message"]) for n in notes] == [
        ("3", "2 row(s) of results are hidden in the workbook (3, 4); they are read: unhide them to check them, "
              "or delete them if they should not count")]


def _long_cell(path, column, length):
    """A workbook whose cell ``column``2 holds ``length`` characters (openpyxl itself would cut it at 32,767)."""
    rows = [HEADER + ["Remark"], [1, 1, 2, "4S", "N", "=", "short"], [1, 3, 4, "3NT", "S", "+1", "ok"]]
    workbook(path, {"Results": rows})
    marker = {"D": b"4S", "G": b"short"}[column]
    return _patched(path, "xl/worksheets/sheet1.xml",
                    lambda d: d.replace(b"<t>" + marker + b"</t>", b"<t>" + b"x" * length + b"</t>"))


def test_a_read_cell_longer_than_a_cell_holds_is_refused(tmp_path):
    for error in _every_entry(_long_cell(tmp_path / "t.xlsx", "D", 40_000), loading=False):
        assert (error.source, error.line) == ("t.xlsx!Results", "D2")
        assert "the cell holds 40,000 characters, more than a spreadsheet cell can (32,767)" in error.message


def test_an_unread_cell_longer_than_a_cell_holds_is_a_note(tmp_path):
    notes: list[dict] = []
    raw = read_travellers_xlsx(_long_cell(tmp_path / "t.xlsx", "G", 40_000), notes=notes)
    assert len(raw) == 2
    long = [n for n in notes if "characters" in n["message"]]
    assert [(n["line"], n["message"]) for n in long] == [
        ("G2", "1 cell(s) hold more than 32,767 characters, more than a spreadsheet cell can (first: G2, 40,000); "
               "they are not read")]



# --- bounds of what openpyxl would allocate, and of the text read (issue 29, class 13) -----------

def _fonts(count):
    fonts = b"".join(b'<font><sz val="11"/><name val="F%d"/></font>' % i for i in range(count))
    return lambda d: d.replace(d[d.index(b"<fonts"):d.index(b"</fonts>") + 8],
                               b'<fonts count="%d">' % count + fonts + b"</fonts>")


@pytest.mark.slow
def test_a_styles_part_of_200000_fonts_is_refused_before_loading(tmp_path):
    """It took openpyxl 20 s and printed its warning to the director."""
    path = _patched(_good(tmp_path / "t.xlsx"), "xl/styles.xml", _fonts(200_000))
    assert path.stat().st_size < 2_000_000
    for error in _every_entry(path):
        assert type(error).__name__ == "TooLargeError"
        assert error.message.startswith("the workbook holds more than 100,000 fonts (part xl/styles.xml; a workbook "
                                        "holds a few dozen; Excel allows 64,000 cell formats)")


def test_a_thousand_fonts_are_read(tmp_path):
    path = _patched(_good(tmp_path / "t.xlsx"), "xl/styles.xml", _fonts(1_000))
    assert read_travellers_xlsx(path)["contract"].tolist() == ["4S", "3NT"]


@pytest.mark.parametrize("kind, what", [("c", "cells"), ("si", "shared strings"), ("xf", "cell formats")])
def test_every_bound_counts_the_whole_package(tmp_path, monkeypatch, kind, what):
    """The good workbook holds 18 cells, 12 shared strings and 1 cell format: a bound under that refuses it."""
    monkeypatch.setitem(xlsx.BOUNDS, kind, (0, what, "none"))
    with pytest.raises(ParseError, match=rf"^t\.xlsx: the workbook holds more than 0 {what} \(part xl/"):
        load_workbooks(_shared(_good(tmp_path / "t.xlsx")))


def _shared(path):
    """The workbook at ``path`` with its text cells in a shared-strings part, each distinct text once, as
    Excel writes them (openpyxl writes them inline)."""
    import re

    with zipfile.ZipFile(path) as package:
        parts = {info.filename: package.read(info) for info in package.infolist()}
    texts: dict[bytes, int] = {}

    def shared(m):
        return b'<c r="%s" t="s"><v>%d</v></c>' % (m.group(1), texts.setdefault(m.group(2), len(texts)))

    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = re.sub(rb'<c r="([A-Z]+\d+)" t="inlineStr"><is><t>([^<]*)</t></is></c>', shared, parts[sheet])
    parts["xl/sharedStrings.xml"] = (b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                     + b"".join(b"<si><t>%s</t></si>" % t for t in texts) + b"</sst>")
    parts["xl/_rels/workbook.xml.rels"] = parts["xl/_rels/workbook.xml.rels"].replace(b"</Relationships>", (
        b'<Relationship Id="rIdS" Target="sharedStrings.xml" Type="http://schemas.openxmlformats.org/'
        b'officeDocument/2006/relationships/sharedStrings"/></Relationships>'))
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>", (
        b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        b'spreadsheetml.sharedStrings+xml"/></Types>'))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in parts.items():
            package.writestr(name, data)
    return path


def test_shared_strings_are_read_as_excel_writes_them(tmp_path):
    path = _shared(_good(tmp_path / "t.xlsx"))
    assert b"<si>" in zipfile.ZipFile(path).read("xl/sharedStrings.xml")
    assert read_travellers_xlsx(path)[["contract", "declarer", "result"]].values.tolist() == [
        ["4S", "N", "="], ["3NT", "S", "+1"]]


def _shared_lead(path, rows, length):
    """``rows`` results whose leads all share one ``length``-character string (written once, as Excel does)."""
    big = "S" + "A" * (length - 1)
    lines = [[*HEADER, "Lead"]] + [[1 + i // 2, 1 + 2 * (i % 2), 2 + 2 * (i % 2), "4S", "N", "=", big]
                                   for i in range(rows)]
    return _shared(workbook(path, {"Results": lines}))


@pytest.mark.slow
def test_leads_sharing_one_long_string_are_refused_with_their_cells(tmp_path):
    """A 75 KB workbook whose 3,000 leads share one 32,000-character string took 661 MB: refused as read."""
    path = _shared_lead(tmp_path / "t.xlsx", 3_000, 32_000)
    assert path.stat().st_size < 150_000
    for error in _every_entry(path, loading=False):
        assert (type(error).__name__, error.source, error.line) == ("TooLargeError", "t.xlsx!Results", 2)
        assert error.message == (
            "the lead cell holds 32,000 characters; no traveller cell (a board, pair, contract, result, lead, score "
            "or section) holds more than 1,000; also lines 3, 4, 5, 6, 7 and 2,994 more: correct the cells, or "
            "export the travellers again")


def test_a_csv_lead_too_long_is_refused_the_same_way(tmp_path):
    from bridgeproc.io.sheets.travellers import parse_travellers_csv

    text = "Board,NS,EW,Contract,By,Result,Lead\n1,1,2,4S,N,=,SK\n1,3,4,4S,N,=," + "S" * 1_001 + "\n"
    with pytest.raises(ParseError) as caught:
        parse_travellers_csv(text, "t.csv")
    assert str(caught.value).startswith("t.csv:3: the lead cell holds 1,001 characters; no traveller cell")
    assert "; also line" not in str(caught.value)
    assert parse_travellers_csv(text.replace("S" * 1_001, "S" * 1_000), "t.csv")["lead"].str.len().tolist() == [2, 1_000]


def test_the_text_of_all_cells_is_bounded_too(tmp_path, monkeypatch):
    from bridgeproc.io.sheets import travellers

    monkeypatch.setattr(travellers, "MAX_TEXT", 100)
    with pytest.raises(ParseError, match=r"^t\.xlsx!Results: the travellers hold 1\d\d characters of text, more "
                                         r"than any session's \(100; 1,000 tables hold under 1,000,000\)"):
        read_travellers_xlsx(_shared_lead(tmp_path / "t.xlsx", 20, 2))


def test_a_too_large_traveller_csv_is_not_read_again_as_a_names_list(tmp_path, monkeypatch):
    from bridgeproc.pipeline import read

    path = tmp_path / "t.csv"
    path.write_text("Board,NS,EW,Contract,By,Result,Lead\n1,1,2,4S,N,=," + "S" * 2_000 + "\n", encoding="utf-8")
    monkeypatch.setattr(read, "read_names", lambda *a, **k: pytest.fail("read again as a names list"))
    with pytest.raises(ParseError, match="the lead cell holds 2,000 characters"):
        read_inputs([path])
