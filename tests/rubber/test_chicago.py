"""Chicago and HCP-target Chicago score sheets: worked examples, cycles, targets."""
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.report.scoresheet import sheet_text
from bridgeproc.rubber.chicago import (
    CHICAGO_TARGETS,
    chicago_sheet,
    chicago_totals,
    chicago_vulnerability,
    load_targets,
)

DATA = Path(__file__).parents[1] / "data" / "rules"
DEAL = "N:A2.AKQJ5.432.432 KQJT.T98.AKQ.AKQ 98765.76.JT9.JT9 43.432.8765.8765"  # NS 14 + 2 = 16 HCP


def _sheet(rows, columns=("deal", "declarer", "contract", "tricks", "hcp")):
    return pd.DataFrame([dict(zip(columns, r)) for r in rows], dtype="string")


@pytest.mark.parametrize("cycle, expected", [
    ("dealer", ["None", "EW", "NS", "All"]),
    ("non-dealer", ["None", "NS", "EW", "All"]),
])
def test_vulnerability_cycle_with_north_dealing_first(cycle, expected):
    assert [chicago_vulnerability(k, "NESW"[k - 1], cycle) for k in range(1, 5)] == expected


def test_chicago_worked_example_with_passed_out_deal():
    sheet = chicago_sheet(DATA / "chicago.csv")
    assert list(sheet["chicago"]) == [1] * 5 + [2] * 4
    assert list(sheet["round_deal"].astype(object).fillna(0)) == [1, 0, 2, 3, 4, 1, 2, 3, 4]
    assert list(sheet["dealer"]) == ["N", "E", "E", "S", "W", "N", "E", "S", "W"]  # the same dealer redeals
    assert list(sheet["vul"]) == ["None", "EW", "EW", "NS", "All", "None", "EW", "NS", "All"]
    assert list(sheet["ns_points"]) == [90, 0, 0, 0, 170, 60, 0, 560, 0]
    assert list(sheet["ew_points"]) == [0, 0, 600, 500, 0, 0, 20, 0, 140]
    assert list(sheet["note"].fillna("")) == [
        "", "passed out: redealt by E", "game EW 500", "", "part-score on deal 4: 100",
        "", "", "game NS 500", "part-score on deal 4: 100"]
    assert chicago_totals(sheet).to_dict("list") == {
        "chicago": [1, 2], "ns": [260, 620], "ew": [1100, 160], "winner": ["EW", "NS"], "margin": [840, 460]}


def test_switched_cycle_changes_deal_2_and_3():
    sheet = chicago_sheet(DATA / "chicago.csv", cycle="non-dealer")
    assert list(sheet["vul"])[:5] == ["None", "NS", "NS", "EW", "All"]
    assert sheet["ew_points"].iloc[2] == 400  # EW 3NT not vulnerable now
    assert sheet["ew_points"].iloc[3] == 300  # NS 4SX two down not vulnerable


def test_part_score_completing_game_on_deal_4_gets_the_game_premium_only():
    rows = [("1", "N", "2S", "8"), ("2", "E", "1C", "7"), ("3", "S", "1D", "7"), ("4", "N", "2C", "8")]
    sheet = chicago_sheet(_sheet(rows, columns=("deal", "declarer", "contract", "tricks")))
    assert list(sheet["ns_points"]) == [60, 0, 20, 540]  # 60 + 20 + 40 = 120 below: game vulnerable 500


def test_partscore_bonus_option_and_first_dealer():
    rows = [("1", "N", "1NT", "7")] * 4
    sheet = chicago_sheet(_sheet(rows, columns=("deal", "declarer", "contract", "tricks")), partscore_bonus=50,
                          first_dealer="W")
    assert list(sheet["dealer"]) == ["W", "N", "E", "S"]
    assert list(sheet["vul"]) == ["None", "NS", "EW", "All"]
    assert list(sheet["ns_points"]) == [40, 40, 340, 90]  # third 40 makes 120: game, NV (EW vulnerable); deal 4 +50


def test_hcp_target_worked_example():
    sheet = chicago_sheet(DATA / "chicago_hcp.csv", variant="hcp", targets=DATA / "chicago_targets.csv")
    assert list(sheet["hcp_ns"]) == [25, 14, 20, 15, 12]
    assert list(sheet["target_side"].fillna("")) == ["NS", "EW", "NS", "", "EW"]
    assert list(sheet["target"].astype(object).fillna(-1)) == [300, 520, 0, -1, 630]
    assert list(sheet["score_ns"].astype(object).fillna(-1)) == [400, 100, -100, -1, -650]
    assert list(sheet["imps_ns"]) == [3, 12, -3, 0, -1]
    assert list(sheet["ns_total"]) == [3, 15, 12, 12, 11]
    assert sheet["note"].iloc[3] == "passed out: redealt by W"
    assert sheet_text(sheet).splitlines()[-1] == "Chicago 1: NS +11 IMPs, EW -11 IMPs"


def test_hcp_target_scoring_passed_out_deals():
    sheet = chicago_sheet(DATA / "chicago_hcp.csv", variant="hcp", passed_out="score")
    row = sheet.iloc[3]
    assert (row["target_side"], row["target"], row["imps_ns"]) == ("EW", 440, 10)  # EW 25 HCP vulnerable: 0 - 440
    assert list(sheet["chicago"]) == [1, 1, 1, 1, 2]


def test_club_target_table_replaces_the_default(tmp_path):
    table = CHICAGO_TARGETS.copy()
    table.loc[25, "nv"] = 400
    path = tmp_path / "club.csv"
    table.reset_index().to_csv(path, index=False)
    sheet = chicago_sheet(DATA / "chicago_hcp.csv", variant="hcp", targets=path)
    assert (sheet["target"].iloc[0], sheet["imps_ns"].iloc[0]) == (400, 0)


def test_bad_target_table(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("hcp,nv,vul\n20,0,0\n20,10,10\n41,5,5\nx,1,1\n")
    with pytest.raises(ValidationError) as info:
        load_targets(path)
    assert str(info.value).splitlines()[1:] == [
        "t.csv:3: hcp: HCP 20 is repeated",
        "t.csv:4: hcp: HCP 41 is outside 20-40",
        "t.csv:5: hcp: each row needs whole numbers: hcp (20-40), nv and vul targets",
    ]
    path.write_text("hcp,nv,vul\n" + "".join(f"{h},0,0\n" for h in range(20, 40)))
    with pytest.raises(ValidationError, match="t.csv: hcp: no target for HCP 40; give one row per HCP 20-40"):
        load_targets(path)


def test_hcp_variant_needs_points(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("deal,declarer,contract,tricks,hcp\n1,N,3NT,9,NS 25\n2,E,2S,8,\n")
    with pytest.raises(ValidationError, match=r"c.csv:3: hcp: HCP-target Chicago needs the high-card points"):
        chicago_sheet(path, variant="hcp")


def test_hcp_from_the_cards():
    frame = pd.DataFrame({"contract": ["4S"], "declarer": ["E"], "tricks": ["10"], "cards": [DEAL]}, dtype="string")
    sheet = chicago_sheet(frame, variant="hcp")
    row = sheet.iloc[0]
    assert (row["hcp_ns"], row["target_side"], row["target"], row["score_ns"], row["imps_ns"]) == (
        16, "EW", 200, -420, -6)  # EW 24 HCP not vulnerable: 420 - 200 = 220 -> 6 IMPs


def test_hcp_sheet_to_xlsx(tmp_path):
    import openpyxl

    from bridgeproc.model import ScoreSheet
    from bridgeproc.report.scoresheet import write_sheet_xlsx

    sheet = chicago_sheet(DATA / "chicago_hcp.csv", variant="hcp")
    write_sheet_xlsx(ScoreSheet(sheet, "Chicago"), tmp_path / "c.xlsx")
    ws = openpyxl.load_workbook(tmp_path / "c.xlsx").active
    header = [c.value for c in ws[3]]
    assert header[:3] == ["Chicago", "Deal", "No"] and "IMPs NS" in header
    assert [c.value for c in ws[7]][header.index("Note")] == "passed out: redealt by W"
    assert [c.value for c in ws[8]][header.index("NS total")] == 11
