"""Chicago duplicate: four deals with Chicago's rotation, each scored on its own like a duplicate board."""
import pandas as pd
import pytest
from click.testing import CliRunner

from bridgeproc.cli.main import cli
from bridgeproc.report.scoresheet import sheet_text
from bridgeproc.rubber.chicago import chicago_sheet, chicago_totals

COLUMNS = ("deal", "declarer", "contract", "tricks")


def _sheet(rows):
    return pd.DataFrame([dict(zip(COLUMNS, r)) for r in rows], dtype="string")


def _one_deal(position: int, declarer: str, contract: str, tricks: str, premium: int = 50) -> pd.Series:
    """Score ``contract`` as deal ``position`` (1-4) of a chicago, after 1NT-1 by the other side
    on the deals before it (so nothing it could carry, had it carried)."""
    filler = [(str(k), "E" if declarer in "NS" else "N", "1NT", "6") for k in range(1, position)]
    sheet = chicago_sheet(_sheet([*filler, (str(position), declarer, contract, tricks)]), variant="duplicate",
                          partscore_premium=premium)
    return sheet.iloc[position - 1]


# position in the chicago (N deals first; ACBL cycle: 1 None, 2 EW, 3 NS, 4 All), declarer, contract,
# tricks, premium -> vul, NS points, EW points (Law 77, worked by hand)
CASES = [
    ("2S= non-vul", 1, "N", "2S", "8", 50, "None", 110, 0),  # 60 + 50 part-score; not carried toward game
    ("2S= non-vul, premium 100", 1, "N", "2S", "8", 100, "None", 160, 0),  # 60 + 100
    ("4H= vul", 4, "S", "4H", "10", 50, "All", 620, 0),  # 120 + 500 game
    ("4H= vul, premium 100 is for part-scores only", 4, "S", "4H", "10", 100, "All", 620, 0),
    ("3NT-1 vul", 3, "N", "3NT", "8", 50, "NS", 0, 100),  # 100 to the defenders
    ("3NT-1 vul, premium 100", 3, "N", "3NT", "8", 100, "NS", 0, 100),
    ("1NTx= non-vul", 1, "W", "1NTX", "7", 50, "None", 0, 180),  # 80 + 50 part-score + 50 insult
    ("1NTx= non-vul, premium 100", 1, "W", "1NTX", "7", 100, "None", 0, 230),
    ("2Sx= is a game: 120 + 300 + 50", 1, "N", "2SX", "8", 100, "None", 470, 0),
    ("1NTxx= is a game: 160 + 500 + 100", 2, "E", "1NTXX", "7", 100, "EW", 0, 760),
    ("3NT= on deal 2 NS not vul (EW vul)", 2, "N", "3NT", "9", 50, "EW", 400, 0),
    ("1C+1 deal 3 EW not vul", 3, "E", "1C", "8", 100, "NS", 0, 140),  # 20 + 20 overtrick + 100
    ("6S= vul: small slam", 4, "W", "6S", "12", 50, "All", 0, 1430),
    ("7NTx-3 vul", 4, "N", "7NTX", "10", 50, "All", 0, 800),  # 200 + 300 + 300
]


@pytest.mark.parametrize("position, declarer, contract, tricks, premium, vul, ns, ew",
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_deal_is_a_duplicate_board(position, declarer, contract, tricks, premium, vul, ns, ew):
    row = _one_deal(position, declarer, contract, tricks, premium)
    assert (row["round_deal"], row["vul"], row["ns_points"], row["ew_points"]) == (position, vul, ns, ew)


def test_passed_out_scores_zero_and_is_one_of_the_four():
    rows = [("1", "N", "2S", "8"), ("2", "", "PASS", ""), ("3", "S", "2H", "8"), ("4", "N", "3NT", "9"),
            ("5", "N", "2S", "8")]
    sheet = chicago_sheet(_sheet(rows), variant="duplicate")
    assert list(sheet["chicago"]) == [1, 1, 1, 1, 2]
    assert list(sheet["round_deal"]) == [1, 2, 3, 4, 1]
    assert list(sheet["dealer"]) == ["N", "E", "S", "W", "N"]
    assert list(sheet["vul"]) == ["None", "EW", "NS", "All", "None"]
    # 2S= 110; passed out 0; 2H= 110 (no carry: 60 + 60 would have been game in standard Chicago); 3NT= vul 600
    assert list(sheet["ns_points"]) == [110, 0, 110, 600, 110]
    assert list(sheet["ew_points"]) == [0, 0, 0, 0, 0]
    assert list(sheet["note"].fillna("")) == ["", "passed out: 0", "", "", ""]
    assert chicago_totals(sheet).to_dict("list") == {
        "chicago": [1, 2], "ns": [820, 110], "ew": [0, 0], "winner": ["NS", "NS"], "margin": [820, 110]}
    assert "Chicago 1" in sheet_text(sheet)


def test_passed_out_redealt_when_asked():
    rows = [("1", "", "PASS", ""), ("2", "N", "2S", "8")]
    sheet = chicago_sheet(_sheet(rows), variant="duplicate", passed_out="redeal")
    assert list(sheet["round_deal"].astype(object).fillna(0)) == [0, 1]
    assert list(sheet["dealer"]) == ["N", "N"]
    assert list(sheet["ns_points"]) == [0, 110]
    assert sheet["note"].iloc[0] == "passed out: redealt by N"


def test_standard_chicago_still_carries_the_part_score():
    rows = [("1", "N", "2S", "8"), ("2", "S", "2H", "8")]
    assert list(chicago_sheet(_sheet(rows))["ns_points"]) == [60, 60 + 300]  # 120 below: game, NS not vul on deal 2
    assert list(chicago_sheet(_sheet(rows), variant="duplicate")["ns_points"]) == [110, 110]


def test_non_dealer_cycle():
    rows = [("1", "N", "1C", "6")] * 2 + [("3", "N", "3NT", "9")]
    sheet = chicago_sheet(_sheet(rows), variant="duplicate", cycle="non-dealer")
    assert list(sheet["vul"]) == ["None", "NS", "EW"]
    assert list(sheet["ew_points"]) == [50, 100, 0] and sheet["ns_points"].iloc[2] == 400


@pytest.mark.parametrize("kwargs, message", [
    ({"partscore_premium": 75}, "part-score premium 75: use 50 or 100"),
    ({"variant": "rubber"}, "unknown Chicago variant 'rubber'"),
    ({"passed_out": "score"}, "standard Chicago redeals a passed-out deal"),
])
def test_refused_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        chicago_sheet(_sheet([("1", "N", "2S", "8")]), **kwargs)


@pytest.fixture
def sheet_file(tmp_path):
    path = tmp_path / "evening.csv"
    path.write_text("deal,declarer,contract,tricks\n1,N,2S,8\n2,E,1NTX,7\n3,,PASS,\n4,S,4H,10\n")
    return path


@pytest.mark.parametrize("args, ns, ew", [
    (["--variant", "duplicate"], [110, 0, 0, 620], [0, 180, 0, 0]),
    (["--variant", "duplicate", "--partscore-premium", "100"], [160, 0, 0, 620], [0, 230, 0, 0]),
])
def test_command_line(sheet_file, tmp_path, args, ns, ew):
    out = tmp_path / "scored.csv"
    result = CliRunner().invoke(cli, ["chicago", str(sheet_file), *args, "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = pd.read_csv(out)
    assert list(written["ns_points"]) == ns and list(written["ew_points"]) == ew
    assert list(written["round_deal"]) == [1, 2, 3, 4]
    assert f"Chicago 1: NS {sum(ns)}, EW {sum(ew)}: NS by {sum(ns) - sum(ew)}" in result.output


@pytest.mark.parametrize("args, message", [
    (["--variant", "duplicate", "--partscore-bonus", "50"],
     "--partscore-bonus is for --variant standard, not duplicate; Chicago duplicate's premium is "
     "--partscore-premium"),
    (["--partscore-premium", "100"], "--partscore-premium is for --variant duplicate, not standard"),
    (["--passed-out", "score"], "--passed-out is for --variant duplicate or hcp, not standard"),
    (["--variant", "duplicate", "--partscore-premium", "75"], "'75' is not one of '50', '100'"),
])
def test_command_line_refuses_an_option_the_variant_does_not_use(sheet_file, args, message):
    result = CliRunner().invoke(cli, ["chicago", str(sheet_file), *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
