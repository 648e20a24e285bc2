"""Bridgemate .bws files: the real sample database, hand-built tables, the movement check, broken files.

The sample's values asserted below were cross-checked once with Debian's mdbtools
(``mdb-export bridgemate-sample.bws ReceivedData``: all 63 rows agree on every column
read); the tests themselves only need access-parser, and also compare the reader with
a direct access-parser read of the table.

About the sample (realdata/README.md: "a format sample from an open-source scorer's
templates, not a published event"): its ``RoundData`` is a 5-table, 9-round movement of
pairs 301-309 (999 the missing pair) and does not describe the 900s pairs of its
``ReceivedData`` at all, and ``ReceivedData`` itself has two pairings at some table and
round (table 1 round 1: 902-905 on boards 7-9, 901-906 on boards 13-15; table 2 round 5
has boards 13-15 twice, by 904-907 and by 903-902: both kept, see io.bws). So the
movement check reports every result, and validate's table/round check reports 17 rows;
without the table and round columns the 63 results validate and score cleanly.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.errors import ParseError, SetupError, ValidationError
from bridgeproc.io.bws import parse_bws_tables, read_bws
from bridgeproc.model import Options
from bridgeproc.pipeline import write as session_module
from bridgeproc.rank import rank_results, standings
from bridgeproc.validate.movement import check_movement
from bridgeproc.validate.results import validate_results
from tests.conftest import REALDATA

SAMPLE = REALDATA / "bridgemate-sample.bws"


def _values(frame: pd.DataFrame, column: str) -> list:
    return [None if pd.isna(v) else v for v in frame[column]]


def _row(frame: pd.DataFrame, row_id: int) -> dict:
    found = frame[frame["line"] == row_id]
    assert len(found) == 1
    return {k: (None if pd.isna(v) else v) for k, v in found.iloc[0].items()}


# --------------------------------------------------------------------------- the real sample


def test_sample_all_63_results_with_seats_contracts_results_leads_and_pairs():
    bws = read_bws(SAMPLE)
    r = bws.results
    assert len(r) == 63 and bws.dropped.empty
    assert list(r["line"]) == list(range(991, 1054))
    assert set(r["section"]) == {"A"} and set(r["source"]) == {"bridgemate-sample.bws!ReceivedData"}
    expected = {  # ID: table, round, board, NS, EW, seat, contract, result, lead (mdb-export agrees)
        991: ("3", "5", "1", "906", "905", "N", "4 D", "-4", "SQ"),
        1003: ("4", "1", "5", "907", "906", "E", "6 D x", "=", "S2"),
        1011: ("2", "4", "7", "904", "906", "W", "1 H", "=", None),
        1014: ("3", "4", "8", "906", "904", "N", "4 D xx", "=", "S2"),
        1018: ("2", "3", "10", "903", "906", "W", "3 NT", "+1", "S10"),
        1036: ("1", "3", "16", "902", "907", "N", "1 NT", "-2", "HA"),
        1047: ("2", "4", "21", "903", "901", "S", "5 S x", "-2", "H10"),
        1053: ("3", "2", "20", "906", "902", "W", "4 S", "=", "D2"),
    }
    columns = ["table", "round", "board", "ns", "ew", "declarer", "contract", "result", "lead"]
    for row_id, values in expected.items():
        row = _row(r, row_id)
        assert tuple(row[c] for c in columns) == values, row_id


def test_sample_agrees_with_a_direct_access_parser_read():
    import access_parser

    table = access_parser.AccessParser(str(SAMPLE)).parse_table("ReceivedData")
    r = read_bws(SAMPLE).results
    pairs = {"id": "ID", "table": "Table", "round": "Round", "board": "Board", "ns": "PairNS", "ew": "PairEW",
             "declarer": "NS/EW", "contract": "Contract", "result": "Result"}
    for ours, theirs in pairs.items():
        assert _values(r, ours) == [str(v) for v in table[theirs]], ours
    assert [v or None for v in table["LeadCard"]] == _values(r, "lead")


def test_sample_validates_and_scores_without_the_template_table_numbers():
    bws = read_bws(SAMPLE)
    with pytest.raises(ValidationError) as info:
        validate_results(bws.results)
    problems = info.value.problems
    assert len(problems) == 17
    assert problems["column"].value_counts().to_dict() == {"ns": 14, "table": 3}
    assert "table 2 round 5 already has a result on board 13 (row 1027)" in str(info.value)
    assert str(info.value).splitlines()[1] == (
        "bridgemate-sample.bws!ReceivedData:1028: ns: table 1 round 1 has NS 902 v EW 905 (row 1009) but NS 901 "
        "v EW 906 here; correct the pair numbers or the table/round")
    checked = validate_results(bws.results.drop(columns=["table", "round"]))
    assert checked.notes.empty
    scored = checked.results
    assert len(scored) == 63
    by_line = scored.set_index("line")
    # Law 77 by hand (vulnerability from the board number)
    assert by_line.loc[991, "score_ns"] == -200      # 4D by N, 6 tricks, board 1 love all: 4 x 50
    assert by_line.loc[1003, "score_ns"] == -1090    # 6Dx by E made, board 5 NS vul (EW not): 240 + 300 + 500 + 50
    assert by_line.loc[1014, "score_ns"] == 720      # 4Dxx by N made, board 8 love all: 320 + 300 + 100
    assert (by_line.loc[1014, "doubled"], by_line.loc[1014, "tricks"]) == (2, 10)
    assert by_line.loc[1036, "score_ns"] == -100     # 1NT by N two down, board 16 EW vul (NS not): 2 x 50
    assert by_line.loc[1047, "score_ns"] == -500     # 5Sx by S two down, board 21 NS vul: 200 + 300
    table = standings(rank_results(scored))
    assert list(table["group"].unique()) == ["ALL"] and len(table) == 7
    assert table.iloc[0][["rank", "pair", "total"]].tolist() == ["1", "907", 41.0]


def test_sample_movement_does_not_describe_its_results():
    bws = read_bws(SAMPLE)
    m = bws.movement
    assert len(m) == 45 and sorted(m["table"].unique()) == [1, 2, 3, 4, 5] and m["round"].max() == 9
    assert m.iloc[0].tolist() == ["A", 1, 1, "999", "301", 1, 3]
    problems = check_movement(bws.results, bws.movement)
    pairs = problems[problems["column"] == "ns"]
    assert len(pairs) == 63  # not one result's pairs met where RoundData says
    first = problems.iloc[0]
    assert (first["source"], first["line"]) == ("bridgemate-sample.bws!ReceivedData", "991")
    assert first["message"] == ("pairs 906 (NS) and 905 (EW) did not meet at table 3, round 5 of section A: the "
                                "movement has 304 v 309 there; correct the pair numbers or the table/round")
    assert problems.iloc[1]["message"] == ("board 1 is not played at table 3, round 5 of section A (boards 19-21); "
                                           "correct the board number or the table/round")


def test_sample_meta_names_and_hand_record():
    bws = read_bws(SAMPLE)
    assert bws.meta == {"event": "Bridge game", "date": "2023.02.12"}
    assert bws.names.empty  # PlayerNumbers has seats but no numbers or names
    assert bws.boards.empty  # HandRecord is empty


# --------------------------------------------------------------------------- hand-built tables

def _received(rows: list[tuple]) -> dict:
    names = ["ID", "Section", "Table", "Round", "Board", "PairNS", "PairEW", "NS/EW", "Contract", "Result",
             "LeadCard", "Remarks", "DateLog", "TimeLog", "Erased"]
    return {name: [row[i] for row in rows] for i, name in enumerate(names)}


ROUNDS = {"Section": [1, 1, 1, 1], "Table": [1, 2, 1, 2], "Round": [1, 1, 2, 2], "NSPair": [1, 2, 1, 2],
          "EWPair": [1, 2, 2, 1], "LowBoard": [1, 3, 3, 1], "HighBoard": [2, 4, 4, 2]}


def _tables(rows: list[tuple], **more) -> dict:
    return {"ReceivedData": _received(rows), "RoundData": ROUNDS,
            "Section": {"ID": [1], "Letter": ["B "]}, **more}


def test_erased_rows_ignored_and_the_latest_correction_wins():
    rows = [
        (1, 1, 1, 1, 1, 1, 1, "N", "4 S", "=", "HA", "", "2024-05-01 00:00:00", "1899-12-30 19:40:00", False),
        # corrected at 19:55 (a lower ID, entered later: the time decides)
        (0, 1, 1, 1, 1, 1, 1, "N", "4 S", "+1", "HA", "", "2024-05-01 00:00:00", "1899-12-30 19:55:00", False),
        (3, 1, 1, 1, 2, 1, 1, "E", "3 NT x", "-2", "S10", "", None, None, False),
        (4, 1, 1, 1, 2, 1, 1, "E", "3 NT x", "-1", "S10", "", None, None, False),  # no times: the higher ID wins
        (5, 1, 2, 1, 3, 2, 2, "S", "PASS", "", "", "", None, None, False),
        (6, 1, 2, 1, 4, 2, 2, "W", "2 H", "-1", "D2", "", None, None, True),  # erased
        (7, 1, 2, 1, 4, 2, 2, "", "", "", "", "Not played", None, None, False),
    ]
    bws = parse_bws_tables(_tables(rows), "club.bws")
    r = bws.results
    assert _values(r, "line") == [0, 4, 5, 7]
    assert _values(r, "result") == ["+1", "-1", None, None]
    assert _values(r, "contract") == ["4 S", "3 NT x", "PASS", "Not played"]
    assert set(r["section"]) == {"B"}
    assert sorted(_values(bws.dropped, "line")) == [1, 3, 6]
    assert set(bws.dropped["reason"]) == {"erased", "replaced by a later result of the same pairs, table, round and board"}
    scored = validate_results(r).results
    assert _values(scored, "score_ns") == [450, 100, 0, None]  # 3NTx one down, EW not vulnerable
    assert _values(scored, "adjusted") == [None, None, None, "NP"]
    assert check_movement(r, bws.movement).empty


def test_rows_of_other_pairs_at_the_same_table_round_and_board_are_kept():
    rows = [(1, 1, 1, 1, 1, 1, 1, "N", "4 S", "=", "", "", None, None, False),
            (2, 1, 1, 1, 1, 2, 2, "N", "4 S", "-1", "", "", None, None, False)]
    bws = parse_bws_tables(_tables(rows), "club.bws")
    assert _values(bws.results, "ns") == ["1", "2"]
    problems = check_movement(bws.results, bws.movement)
    assert problems["message"].tolist() == [
        "pairs 2 (NS) and 2 (EW) did not meet at table 1, round 1 of section B: the movement has 1 v 1 there; "
        "correct the pair numbers or the table/round"]
    assert problems["line"].tolist() == ["2"]


def test_movement_check_reports_swapped_pairs_unknown_rounds_and_wrong_boards():
    rows = [(1, 1, 1, 2, 3, 2, 1, "N", "4 S", "=", "", "", None, None, False),   # 2-1 where the movement has 1-2
            (2, 1, 3, 1, 1, 3, 3, "N", "4 S", "=", "", "", None, None, False),   # there is no table 3
            (3, 1, 2, 2, 3, 2, 1, "N", "4 S", "=", "", "", None, None, False)]   # boards 1-2 there, not 3
    bws = parse_bws_tables(_tables(rows), "club.bws")
    messages = check_movement(bws.results, bws.movement)["message"].tolist()
    assert messages == [
        "pairs 2 and 1 sat the wrong way round at table 1, round 2 of section B: the movement has 1 NS and 2 EW; "
        "swap the pair numbers if the result is from NS's side",
        "table 3, round 1 of section B is not in the movement; correct the table or round number",
        "board 3 is not played at table 2, round 2 of section B (boards 1-2); correct the board number or the "
        "table/round",
    ]


def test_names_from_player_numbers_and_hand_record_deals():
    rows = [(1, 1, 1, 1, 1, 1, 1, "N", "4 S", "=", "", "", None, None, False)]
    # North of table 1 was re-entered later (Anne, not Ann); table 2 North is player 77 in PlayerNames
    players = {"Section": [1] * 9, "Table": [1, 1, 1, 1, 2, 2, 2, 2, 1], "Direction": list("NESW") * 2 + ["N"],
               "Number": ["", "", "", "", "77", "", "", "", ""],
               "Name": ["Ann", "Eve", "Sam", "Will", "", "Fay", "Bob", "", "Anne"],
               "Round": [0] * 9, "TimeLog": ["1899-12-30 19:00:00"] * 8 + ["1899-12-30 19:05:00"]}
    hands = {"Section": [1], "Board": [1],
             "NorthSpades": ["AKQJ"], "NorthHearts": ["1098"], "NorthDiamonds": ["765"], "NorthClubs": ["432"],
             "EastSpades": ["T98"], "EastHearts": ["AKQJ"], "EastDiamonds": ["432"], "EastClubs": ["765"],
             "SouthSpades": ["765"], "SouthHearts": ["432"], "SouthDiamonds": ["AKQJ"], "SouthClubs": ["T98"],
             "WestSpades": ["432"], "WestHearts": ["765"], "WestDiamonds": ["T98"], "WestClubs": ["AKQJ"]}
    session = {"Name": ["Tuesday pairs"], "Date": ["2024-05-07 00:00:00"]}
    bws = parse_bws_tables(_tables(rows, PlayerNumbers=players, PlayerNames={"ID": [1], "strID": ["77"], "Name": ["Nina"]},
                                   HandRecord=hands, Session=session), "club.bws")
    names = bws.names
    assert names[["pair", "direction", "names"]].values.tolist() == [
        ["1", "NS", "Anne & Sam"], ["1", "EW", "Eve & Will"], ["2", "NS", "Nina & Bob"], ["2", "EW", "Fay"]]
    assert bws.boards["deal"].tolist() == ["N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.432.AKQJ.T98 432.765.T98.AKQJ"]
    assert bws.meta == {"event": "Tuesday pairs", "date": "2024.05.07"}
    checked = validate_results(bws.results, boards=bws.boards, names=names)
    assert checked.results["score_ns"].tolist() == [420]


def test_empty_tables_as_access_parser_gives_them():
    empty = {"ID": "", "Name": "", "strID": ""}
    rows = [(1, 1, 1, 1, 1, 1, 1, "N", "4 S", "=", "", "", None, None, False)]
    bws = parse_bws_tables(_tables(rows, PlayerNames=empty, HandRecord={"Section": "", "Board": ""}), "club.bws")
    assert bws.boards.empty and bws.names.empty and len(bws.results) == 1


# --------------------------------------------------------------------------- broken files


def _patched_without_received_data(tmp_path: Path) -> Path:
    data = bytearray(SAMPLE.read_bytes())
    name = "ReceivedData".encode("utf-16-le")
    # the catalog (MSysObjects) row of the table: the name followed by the next field, not "ReceivedDataGrouped"
    at = data.find(name + b"\x80")
    assert at > 0
    data[at:at + len(name)] = "ReceivedDatX".encode("utf-16-le")
    path = tmp_path / "renamed.bws"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("make, expected", [
    (lambda tmp: tmp / "empty.bws", "empty.bws: the file is empty; copy the .bws file again from the scoring computer"),
    (lambda tmp: tmp / "text.bws", "text.bws:offset 4: not a Microsoft Access database (it starts with b'Board,NS,EW"),
    (lambda tmp: tmp / "cut.bws", "cut.bws:offset 100000: the database ends after 100000 bytes, not on a 4096-byte "
                                  "page boundary: the file is cut short; copy it again after closing Bridgemate"),
    (lambda tmp: tmp / "head.bws", "head.bws:offset 20: the database ends after 20 bytes, not on a 4096-byte page "
                                   "boundary: the file is cut short"),
    (lambda tmp: tmp / "page.bws", "page.bws:offset 4096: the database ends after 4096 bytes, too short for the "
                                   "table catalog: the file is cut short"),
    (lambda tmp: tmp / "pages.bws", "pages.bws:ReceivedData: the database is damaged (AttributeError reading "
                                    "ReceivedData); copy the .bws file again, or open and compact it in Access"),
    (lambda tmp: tmp / "catalog.bws", "catalog.bws:catalog: the database is damaged (KeyError reading catalog)"),
    (_patched_without_received_data, "renamed.bws:ReceivedData: the database has no ReceivedData table (tables: "
                                     "BiddingData, Clients, HandEvaluation, HandRecord"),
])
def test_broken_files_give_parse_errors_with_position_and_fix(tmp_path, make, expected):
    data = SAMPLE.read_bytes()
    (tmp_path / "empty.bws").write_bytes(b"")
    (tmp_path / "text.bws").write_bytes(b"Board,NS,EW,Contract\n1,1,2,4S\n")
    (tmp_path / "cut.bws").write_bytes(data[:100000])
    (tmp_path / "head.bws").write_bytes(data[:20])
    (tmp_path / "page.bws").write_bytes(data[:4096])
    (tmp_path / "pages.bws").write_bytes(data[:40 * 4096])
    (tmp_path / "catalog.bws").write_bytes(data[:3 * 4096])
    with pytest.raises(ParseError) as info:
        read_bws(make(tmp_path))
    assert str(info.value).startswith(expected)


def test_every_page_truncation_is_a_parse_error_or_a_result(tmp_path):
    data = SAMPLE.read_bytes()
    for pages in range(1, len(data) // 4096, 7):
        path = tmp_path / f"cut{pages}.bws"
        path.write_bytes(data[:pages * 4096])
        try:
            read_bws(path)
        except ParseError as exc:
            assert str(exc).startswith(f"cut{pages}.bws")


def test_without_access_parser_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "access_parser", None)  # import fails as if not installed
    with pytest.raises(SetupError) as info:
        read_bws(SAMPLE)
    assert str(info.value) == ("the package access-parser, needed for reading Bridgemate .bws files, is not "
                               "installed; install it with: pip install access-parser")
    assert not isinstance(info.value, ParseError)


def test_missing_received_data_in_tables():
    with pytest.raises(ParseError, match=r"^x.bws:ReceivedData: the database has no ReceivedData table \(tables: "
                                         r"RoundData\)"):
        parse_bws_tables({"RoundData": ROUNDS}, "x.bws")


# --------------------------------------------------------------------------- wiring


def test_process_session_lists_the_movement_problems_with_the_others():
    with pytest.raises(ValidationError) as info:
        session_module.process_session([SAMPLE], options=Options(dd=False))
    # 63 pairs + 57 boards not where the movement puts them; validation's table/round clashes between two
    # rows are not listed beside them (the movement names the wrong row; the clashes blamed right ones too)
    assert len(info.value.problems) == 120
    assert not info.value.problems["message"].str.contains(" here; correct the pair numbers").any()
    assert "bridgemate-sample.bws!ReceivedData:991: ns: pairs 906 (NS) and 905 (EW) did not meet" in str(info.value)
