"""Reading traveller sheets: CSV dialects, header spellings, XLSX layouts, names lists."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.names import parse_names_csv, read_names, workbook_names
from bridgeproc.io.sheets.travellers import canonical_header, parse_travellers_csv
from bridgeproc.validate.results import validate_results
from tests.conftest import workbook

DATA = Path(__file__).parents[1] / "data" / "travellers"
H = "Board,NS,EW,Contract,Declarer,Result,Lead\n"


def scores(raw, **options):
    return validate_results(raw, **options).results["score_ns"].tolist()


@pytest.mark.parametrize(("header", "column"), [
    ("Bd", "board"), ("Board no", "board"), ("board_no.", "board"), ("NS pair", "ns"), ("PairNS", "ns"),
    ("N-S", "ns"), ("E/W", "ew"), ("By", "declarer"), ("Decl", "declarer"), ("Tricks", "tricks"),
    ("Made", "made"), ("Score", "score"), ("NS score", "score"), ("EW score", "score_ew"), ("NS-", "score_ew"),
    ("NS+", "score"), ("Lead", "lead"), ("Section", "section"), ("MP NS", "mp_ns"), ("Remarks", None), ("%", None),
])
def test_header_spellings(header, column):
    assert canonical_header(header) == column


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_delimiters(delimiter):
    text = (H + "1,1,2,4S,N,=,S2\n1,3,4,4S,N,-1,S2\n").replace(",", delimiter)
    raw = parse_travellers_csv(text, "t.csv")
    assert raw["line"].tolist() == [2, 3]
    assert scores(raw) == [420, -50]


def test_title_lines_above_header_are_skipped():
    raw = parse_travellers_csv("Club night, 12 May\n\n" + H + "1,1,2,4S,N,=,S2\n", "t.csv")
    assert raw["line"].tolist() == [4]


def test_paper_traveller_semicolon_cp1252_decimal_comma_ns_ew_scores():
    raw = read_travellers(DATA / "paper_traveller.csv")
    results = validate_results(raw).results
    assert results["score_ns"].tolist() == [420, -50, 400, -470, 630, 0]
    assert results["line"].tolist() == [4, 5, 6, 7, 8, 9]


def test_made_and_down_columns():
    text = "Board,NS,EW,Contract,By,Made,Down\n1,1,2,4S,N,5,\n1,3,4,4S,N,,2\n1,5,6,4S,N,-,1\n"
    assert scores(parse_travellers_csv(text, "t.csv")) == [450, -100, -50]


def test_result_columns_must_agree():
    text = "Board,NS,EW,Contract,By,Result,Tricks\n1,1,2,4S,N,=,11\n"
    with pytest.raises(ValueError, match="the result columns disagree"):
        validate_results(parse_travellers_csv(text, "t.csv"))


def test_result_written_with_contract():
    assert scores(parse_travellers_csv("Board,NS,EW,Contract\n1,1,2,4SN=\n1,3,4,3NTS-1\n", "t.csv")) == [420, -50]


def test_sections_from_letter_prefix_and_column_agree():
    prefixed = validate_results(read_travellers(DATA / "mitchell_sections.csv")).results
    assert prefixed["section"].tolist() == ["A"] * 4 + ["B"] * 4
    assert prefixed["ns"].tolist()[:2] == ["1", "3"]
    column = parse_travellers_csv("Section,Board,NS,EW,Contract,By,Result\nA,1,1,2,4S,N,=\na,1,A3,4,4S,N,=\n", "t.csv")
    results = validate_results(column).results
    assert results["section"].tolist() == ["A", "A"]
    assert results["ns"].tolist() == ["1", "3"]


def test_encoding_option_is_used(tmp_path):
    path = tmp_path / "t.csv"
    path.write_bytes((H + "1,1,2,4S,N,=,S\u00e9\n").encode("utf-16"))
    assert read_travellers(path)["lead"].tolist() == ["S\u00e9"]
    path.write_bytes((H + "1,1,2,4S,N,=,S\u00e9\n").encode("cp1252"))
    assert read_travellers(path, encoding="cp1252")["lead"].tolist() == ["S\u00e9"]


def test_xlsx_single_sheet_positions(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Results": [["Club night"], [], ["Bd", "NS pair", "EW pair", "Contract", "By", "Tricks"],
                                                      [1, 1, 2, "4S", "N", 10], [1, 3, 4, "4S", "N", 9.0]]})
    raw = read_travellers(path)
    assert raw["source"].unique().tolist() == ["t.xlsx!Results"]
    assert raw["line"].tolist() == [4, 5]
    assert raw["cell_contract"].tolist() == ["D", "D"]
    assert raw["tricks"].tolist() == ["10", "9"]
    assert scores(raw) == [420, -50]


def test_xlsx_one_sheet_per_board_with_names_sheet(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {
        "Board 1": [["NS", "EW", "Contract", "By", "Result"], [1, 2, "4S", "N", "="], [3, 4, "4S", "N", "-1"]],
        "2": [["Traveller for board 2"], ["NS", "EW", "Contract", "By", "Result"], [1, 2, "3NT", "S", "="]],
        "Names": [["Pair", "Player 1", "Player 2"], [1, "Ann", "Bob"], [2, "Cy", "Di"], [3, "Ed", "Flo"], [4, "Gus", "Hal"]],
    })
    raw = read_travellers(path)
    assert raw["board"].tolist() == ["1", "1", "2"]
    assert raw["source"].tolist() == ["t.xlsx!Board 1"] * 2 + ["t.xlsx!2"]
    names = read_names(path)
    assert names["names"].tolist() == ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal"]
    assert workbook_names(path)["pair"].tolist() == ["1", "2", "3", "4"]
    checked = validate_results(raw, names=names)
    assert checked.results["score_ns"].tolist() == [420, -50, 600]


def test_xlsx_board_merged_down_fills_every_row(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Results": [
        ["Board", "NS", "EW", "Contract", "Declarer", "Result"],
        [7, 1, 2, "4S", "N", "="], [None, 3, 4, "4S", "N", "-1"], [None, 5, 6, "3NT", "S", "="]]},
        {"Results": ["A2:A4"]})
    assert read_travellers(path)["board"].tolist() == ["7", "7", "7"]


def test_xlsx_cached_formula_values_are_read(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Results": [["Board", "NS", "EW", "Contract", "Declarer", "Result"],
                                                      ["=1", 1, 2, "4S", "N", "="]]})
    # openpyxl writes no cached values; put one in as Excel would, by editing the sheet XML.
    import zipfile
    with zipfile.ZipFile(path) as z:
        parts = {name: z.read(name) for name in z.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    parts[sheet] = parts[sheet].replace(b"<f>1</f><v></v>", b"<f>1</f><v>5</v>").replace(b"<f>1</f><v />", b"<f>1</f><v>5</v>")
    if b"<v>5</v>" not in parts[sheet]:
        parts[sheet] = parts[sheet].replace(b"<f>1</f>", b"<f>1</f><v>5</v>")
    with zipfile.ZipFile(path, "w") as z:
        for name, data in parts.items():
            z.writestr(name, data)
    assert read_travellers(path)["board"].tolist() == ["5"]


def test_xlsx_formulas_in_unread_columns_do_not_matter(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Results": [["Board", "NS", "EW", "Contract", "By", "Result", "MP NS"],
                                                      [1, 1, 2, "4S", "N", "=", "=RANK(1,1)"]]})
    raw = read_travellers(path)
    assert not any(c.startswith("formula_") for c in raw.columns)
    assert scores(raw) == [420]


def test_names_csv_with_sections_and_directions():
    names = parse_names_csv("Pair,Direction,Names\nA1,NS,Ann & Bob\nA1,EW,Cy & Di\n", "n.csv")
    assert names[["section", "pair", "direction", "names"]].values.tolist() == [
        ["A", "1", "NS", "Ann & Bob"], ["A", "1", "EW", "Cy & Di"]]
    flat = read_names(DATA / "names.csv")
    assert list(flat.columns) == ["section", "pair", "names", "source", "line"]
    assert flat.iloc[4].tolist() == ["B", "1", "Ian Ray & Jo Ko", "names.csv", "6"]


def test_names_without_pair_column():
    with pytest.raises(ParseError, match="no header with a Pair column"):
        parse_names_csv("Who,What\nAnn,Bob\n", "n.csv")


def test_raw_frame_is_text():
    raw = parse_travellers_csv(H + "1,1,2,4S,N,=,S2\n", "t.csv")
    assert all(raw[c].dtype == pd.StringDtype() for c in ("board", "ns", "ew", "contract"))
    assert raw["line"].dtype == "Int64"


def test_workbook_without_names_sheet(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Board 1": [["NS", "EW", "Contract", "By", "Result"], [1, 2, "4S", "N", "="]]})
    assert workbook_names(path) is None


def test_two_row_header_csv():
    text = ("Board,Pair no,,Contract,By,Tricks,Score,,MPs,\n,NS,EW,,,,NS,EW,NS,EW\n"
            "3,1,2,4S,N,10,420,,4,0\n3,3,4,4S,N,9,,50,0,4\n")
    raw = parse_travellers_csv(text, "t.csv")
    assert raw["line"].tolist() == [3, 4]
    assert scores(raw) == [420, -50]


def test_two_row_header_xlsx_with_merged_cells(tmp_path):
    path = workbook(tmp_path / "t.xlsx", {"Board 3": [
        ["Traveller"], ["Pair no", None, "Contract", "By", "Tricks", "Score", None],
        ["NS", "EW", None, None, None, "NS", "EW"], [1, 2, "4S", "N", 10, 420, None], [3, 4, "4S", "N", 9, None, 50]]},
        {"Board 3": ["A2:B2", "F2:G2"]})
    raw = read_travellers(path)
    assert raw["line"].tolist() == [4, 5]
    assert raw["cell_score_ew"].tolist() == ["G", "G"]
    assert scores(raw) == [420, -50]
