"""Rubber bridge score sheets: worked examples, options, sheet problems, writers."""
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError, UsageError, ValidationError
from bridgeproc.model import ScoreSheet
from bridgeproc.pipeline.outputs import output_types
from bridgeproc.pipeline.publish import check_outputs, publish
from bridgeproc.report.scoresheet import sheet_text
from bridgeproc.rubber.deals import honours_of, read_sheet
from bridgeproc.rubber.rubber import made_parts, rubber_sheet, rubber_totals

DATA = Path(__file__).parents[1] / "data" / "rules"
#: North holds A K Q J of hearts, East K Q J T of spades.
HONOURS_DEAL = "N:A2.AKQJ5.432.432 KQJT.T98.AKQ.AKQ 98765.76.JT9.JT9 43.432.8765.8765"


def _sheet(rows, columns=("deal", "declarer", "contract", "tricks")):
    return pd.DataFrame([dict(zip(columns, r)) for r in rows], dtype="string")


def test_simplified_rubber_worked_example():
    sheet = rubber_sheet(DATA / "simplified_rubber.csv", variant="simplified")
    assert list(sheet["ew_points"]) == [450, 150, 0, -200, 2220]
    assert list(sheet["ns_points"]) == [0, 0, 540, 0, 0]
    assert list(sheet["vulnerable"]) == [False, True, False, True, True]  # EW vulnerable after deal 1
    assert list(sheet["games_ns"]) == [0, 0, 1, 1, 1]
    assert list(sheet["games_ew"]) == [1, 1, 1, 1, 2]
    assert sheet["note"].iloc[-1] == "game EW, wins the rubber"
    assert (sheet["ns_total"].iloc[-1], sheet["ew_total"].iloc[-1]) == (540, 2620)


def test_simplified_rubber_starts_a_new_rubber_after_two_games():
    rows = [("1", "N", "3NT", "9"), ("2", "S", "4S", "10"), ("3", "N", "3NT", "9")]
    sheet = rubber_sheet(_sheet(rows), variant="simplified")
    assert list(sheet["rubber"]) == [1, 1, 2]
    assert list(sheet["ns_points"]) == [400, 620, 400]  # vulnerable for deal 2 only


def test_classic_rubber_with_honours_two_to_one_and_unfinished():
    sheet = rubber_sheet(DATA / "rubber_honours.csv")
    assert list(sheet["rubber"]) == [1] * 7 + [2] * 3 + [3] * 3
    assert list(sheet["ns_below"]) == [120, 0, 0, 0, 60, 0, 40, 120, 0, 100, 0, 60, 0]
    assert list(sheet["ns_above"]) == [100, 0, 0, 0, 250, 0, 500, 0, 0, 700, 0, 0, 100]
    assert list(sheet["ew_below"]) == [0, 60, 0, 40, 0, 40, 0, 0, 0, 0, 100, 0, 0]
    assert list(sheet["ew_above"]) == [0, 30, 250, 0, 0, 0, 0, 0, 0, 0, 0, 0, 300]
    assert sheet["note"].iloc[6] == "game NS; rubber NS 500"
    assert sheet["note"].iloc[9] == "game NS; rubber NS 700"
    assert sheet["note"].iloc[-1] == "unfinished rubber: NS part-score 100, EW game 300"
    totals = rubber_totals(sheet)
    assert totals.to_dict("list") == {"rubber": [1, 2, 3], "ns": [1070, 920, 160], "ew": [420, 0, 400],
                                      "winner": ["NS", "NS", "EW"], "margin": [650, 920, 240]}


def test_part_scores_add_up_to_game_and_are_wiped_by_a_game():
    rows = [("1", "N", "2H", "8"), ("2", "E", "2S", "8"), ("3", "S", "2D", "8"), ("4", "W", "1S", "7")]
    sheet = rubber_sheet(_sheet(rows))
    # NS 60 + 40 = 100 makes game on deal 3 and wipes EW's 60; EW's 30 then starts the next game.
    assert list(sheet["games_ns"]) == [0, 0, 1, 1, 1]
    assert sheet["note"].iloc[-1] == "unfinished rubber: NS game 300, EW part-score 100"


def test_unfinished_partscore_option_and_redoubled_insult_option():
    rows = [("1", "N", "1NTXX", "7")]
    default = rubber_sheet(_sheet(rows))
    old = rubber_sheet(_sheet(rows), unfinished_partscore=50, redoubled_insult=50)
    assert default.iloc[0]["ns_below"] == 160  # 40 x 4 is a game
    assert (default.iloc[0]["ns_above"], old.iloc[0]["ns_above"]) == (100, 50)
    rows = [("1", "N", "1NT", "7")]
    assert rubber_sheet(_sheet(rows), unfinished_partscore=50)["ns_above"].iloc[-1] == 50


def test_undertricks_and_slams_above_the_line():
    rows = [("1", "E", "4HX", "7"), ("2", "N", "6S", "12"), ("3", "N", "7NT", "13")]
    sheet = rubber_sheet(_sheet(rows))
    assert list(sheet["ns_above"]) == [500, 500, 1500 + 700]  # EW not vulnerable 3 down doubled; slams; 2-0 rubber
    assert list(sheet["ns_below"]) == [0, 180, 220]


def test_honours_from_the_cards_and_written_honours_for_defenders():
    frame = pd.DataFrame({"contract": ["4H", "2S", "3NT"], "declarer": ["N", "N", "N"], "tricks": ["10", "8", "9"],
                          "honours": ["", "", "EW 150"], "cards": [HONOURS_DEAL] * 3}, dtype="string")
    sheet = read_sheet(frame)
    assert list(zip(sheet["honours_side"], sheet["honours"])) == [("NS", 100), ("EW", 100), ("EW", 150)]
    scored = rubber_sheet(sheet)
    assert list(scored["ew_above"])[:3] == [0, 100, 150]
    assert honours_of(HONOURS_DEAL, "NT") is None


def test_made_parts_split_below_and_above():
    assert made_parts(2, "NT", 1, False, 9) == (140, 150)
    assert made_parts(4, "S", 0, True, 11) == (120, 30)


def test_sheet_header_aliases_and_results_in_the_contract_cell():
    frame = pd.DataFrame({"Board": ["7"], "By": ["EW"], "Contract": ["3NT+1"], "Honors": ["150 EW"]}, dtype="string")
    sheet = read_sheet(frame)
    row = sheet.iloc[0]
    assert (row["deal"], row["side"], row["tricks"], row["honours_side"], row["honours"]) == (7, "EW", 10, "EW", 150)


def test_bad_cells_are_listed_with_file_and_line(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text("deal,declarer,contract,tricks,honours\n1,N,4S,10,\n2,Q,3NT,9,\n3,N,8S,9,\n4,N,2H,15,\n"
                    "5,N,2H,8,NS 120\n6,,2H,8,\n7,N,,9,\n")
    with pytest.raises(ValidationError) as info:
        rubber_sheet(path)
    assert str(info.value).splitlines()[1:] == [
        "sheet.csv:3: declarer: 'Q' is not a seat or side; write N, E, S, W, NS or EW",
        "sheet.csv:4: contract: '8S' is not a contract; write e.g. 4S, 3NTX, 2HXX or PASS",
        "sheet.csv:5: tricks: '15' is not a result; write the tricks taken (0-13) or =, +1, -2",
        "sheet.csv:6: honours: 'NS 120' is not honours; write NS 100, EW 150 (or 100/150 for declarer's side)",
        "sheet.csv:7: declarer: the declarer is blank; write the seat (N, E, S, W) or the side (NS, EW)",
        "sheet.csv:8: contract: the contract is blank; write e.g. 4S, 3NTX or PASS",
    ]


def test_sheet_without_contract_column(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("deal,by,tricks\n1,N,9\n")
    with pytest.raises(BridgeprocError, match=r"x.csv:1: no contract column in the header 'deal,by,tricks'"):
        read_sheet(path)


def test_write_sheet_xlsx_and_csv_read_back(tmp_path):
    sheet = rubber_sheet(DATA / "rubber_honours.csv")
    publish(ScoreSheet(sheet, "Rubber"), [tmp_path / "r.xlsx", tmp_path / "r.csv"])
    ws = openpyxl.load_workbook(tmp_path / "r.xlsx").active
    assert ws["A1"].value == "Rubber"
    assert [c.value for c in ws[3]][:4] == ["Rubber", "Deal", "By", "Contract"]
    assert [c.value for c in ws[4]][:8] == [1, 1, "N", "4H", 10, "=", False, 120]
    back = pd.read_csv(tmp_path / "r.csv")
    assert list(back["ns_total"]) == list(sheet["ns_total"])
    with pytest.raises(UsageError, match=r"r.pdf: unknown output type; use one of .csv, .xlsx"):
        check_outputs([tmp_path / "r.pdf"], output_types(ScoreSheet))
    assert not (tmp_path / "r.pdf").exists()


def test_sheet_text_shows_running_totals():
    text = sheet_text(rubber_sheet(DATA / "simplified_rubber.csv", variant="simplified"))
    lines = text.splitlines()
    assert lines[0].split()[:4] == ["Rubber", "Deal", "By", "Contract"]
    assert "2620" in lines[-3] and "wins the rubber" in lines[-3]
    assert lines[-1] == "Rubber 1: NS 540, EW 2620: EW by 2080"
