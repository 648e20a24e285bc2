"""Cross-row checks: pairs, tables, table/round, written scores (trust), names, hand record."""
from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.names import parse_names_csv
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.schema import PROBLEM_COLUMNS, VUL
from bridgeproc.validate.results import validate_results

ROOT = Path(__file__).parents[2]
H = "Board,NS,EW,Contract,Declarer,Result,Lead\n"


def raw(text, source="t.csv"):
    return parse_travellers_csv(text, source)


def messages(text, **options):
    with pytest.raises(ValidationError) as info:
        validate_results(raw(text), **options)
    return info.value.problems["message"].tolist()


def test_sample_session_is_clean():
    checked = validate_results(read_travellers(ROOT / "sample_data" / "club-evening-travellers.csv"))
    assert len(checked.results) > 100
    assert checked.notes.empty


def test_all_problems_collected_before_failing():
    text = H + "1,1,2,8NT,N,=,S2\n2,1,2,4S,,=,S2\n0,3,4,4S,N,=,S2\n"
    with pytest.raises(ValidationError) as info:
        validate_results(raw(text))
    problems = info.value.problems
    assert list(problems.columns) == list(PROBLEM_COLUMNS)
    assert problems["line"].tolist() == ["2", "3", "4"]
    assert problems["column"].tolist() == ["contract", "declarer", "board"]
    assert problems["value"].tolist() == ["8NT", "", "0"]


def test_one_typo_one_message():
    # A bad contract must not also produce a score or pair problem on the same row.
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4Q,N,10,420\n"
    assert messages(text) == ["'4Q' is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, or an artificial score "
                              "(AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)"]


def test_trust_score_corrects_tricks_with_a_note():
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,-50\n2,3,4,3NT,N,9,-200\n"
    checked = validate_results(raw(text), trust="score")
    assert checked.results["tricks"].tolist() == [9, 7]
    assert checked.results["score_ns"].tolist() == [-50, -200]
    assert checked.notes["line"].tolist() == ["2", "3"]
    assert checked.notes["message"].iat[0] == (
        "written score -50 disagrees with 4S by N (not vulnerable) taking 10 tricks, which scores 420 for NS; "
        "trusted the written score: corrected to 9 tricks")


def test_trust_score_fills_a_missing_result_from_the_score():
    text = "Board,NS,EW,Contract,By,Result,Score\n1,1,2,4S,N,,420\n1,3,4,4S,N,,-100\n"
    checked = validate_results(raw(text), trust="score")
    assert checked.results["tricks"].tolist() == [10, 8]
    assert checked.notes["message"].tolist() == [
        "no result written for 4S by N (not vulnerable); the written score 420 fits 10 tricks only: used that",
        "no result written for 4S by N (not vulnerable); the written score -100 fits 8 tricks only: used that"]
    assert checked.notes["column"].tolist() == ["result", "result"]
    assert messages(text) == ["no result for a played contract; write =, +1, -2 or the tricks taken"] * 2


def test_trust_contract_reports_what_the_score_should_be():
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,-50\n"
    assert messages(text) == [
        "written score -50 disagrees with 4S by N (not vulnerable) taking 10 tricks, which scores 420 for NS; "
        "correct the score or the contract/result (or use --trust score to take the tricks from the score)"]


def test_written_scores_accept_signs_and_separators():
    text = ("Board;NS;EW;Contract;By;Tricks;Score\n1;1;2;4S;N;10;+420\n2;1;2;6NT;S;12;1.440\n"
            "3;1;2;1NT;S;6;\u221250\n")
    assert validate_results(raw(text)).results["score_ns"].tolist() == [420, 1440, -50]


def test_no_score_check_when_disabled():
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,999\n"
    assert validate_results(raw(text), check_scores=False).results["score_ns"].tolist() == [420]


def test_tables_option_overrides_inference():
    text = H + "".join(f"1,{p},{p + 10},3NT,N,=,S2\n" for p in (1, 2, 3))
    assert len(validate_results(raw(text)).results) == 3
    assert messages(text, tables=2) == ["board 1 has 3 results but the session has 2 tables (as given); look for a "
                                        "duplicate result or a wrong board number"]


def test_tables_counted_per_section():
    text = "Section,Table,Board,NS,EW,Contract,By,Result\n" + "".join(
        f"{s},{p},{b},{p},{p + 10},3NT,N,=\n" for s, n in (("A", 3), ("B", 2)) for b in (1, 2, 3) for p in range(1, n + 1))
    assert len(validate_results(raw(text)).results) == 15
    assert messages(text + "B,,1,9,19,3NT,N,=\n") == [
        "board 1 has 3 results but section B has 2 tables (from the Table column); look for a duplicate result or a "
        "wrong board number"]


def test_howell_with_most_boards_played_twice_is_not_fatal():
    """3 tables (6 pairs, shared numbers), boards 1-2 played three times, boards 3-8 twice: a note, no problem."""
    rows = [(1, 1, 2), (1, 3, 4), (1, 5, 6), (2, 1, 2), (2, 3, 4), (2, 5, 6)]
    rows += [(b, p, p + 1) for b in range(3, 9) for p in ((1, 3) if b % 2 else (3, 5))]
    text = H + "".join(f"{b},{ns},{ew},3NT,N,=,S2\n" for b, ns, ew in rows)
    checked = validate_results(raw(text), pair_numbering_option="shared")
    assert len(checked.results) == 18
    assert checked.notes[["line", "column", "message"]].values.tolist() == [
        ["2", "board", "boards 1 and 2 have more results than most boards, which have 2; if the session has 2 "
         "tables, look for a duplicate result or a wrong board number (give --tables to check it)"]]
    assert messages(text, pair_numbering_option="shared", tables=2) == [
        "board 1 has 3 results but the session has 2 tables (as given); look for a duplicate result or a wrong "
        "board number",
        "board 2 has 3 results but the session has 2 tables (as given); look for a duplicate result or a wrong "
        "board number"]


def test_table_column_limit_stays_fatal():
    text = "Table,Board,NS,EW,Contract,Declarer,Result\n1,1,1,2,3NT,N,=\n2,1,3,4,3NT,N,=\n1,1,5,6,3NT,N,=\n"
    assert messages(text, pair_numbering_option="shared") == [
        "board 1 has 3 results but the session has 2 tables (from the Table column); look for a duplicate result or "
        "a wrong board number"]


def test_inferred_tables_limit_from_pairs():
    from bridgeproc.core.problems import Problems
    from bridgeproc.validate.checks import check_tables

    frame = raw(H + "".join(f"1,{p},{p + 1},3NT,N,=,S2\n" for p in (1, 3, 5)))
    results = validate_results(frame, pair_numbering_option="shared").results
    # a row another check already flagged is skipped; here the pair count itself is the limit (4 pairs: 2 tables)
    problems = Problems(frame)
    check_tables(frame, results.assign(ns=["1", "3", "1"], ew=["2", "4", "2"]), None, problems, Problems(frame), "shared")
    assert [r["message"] for r in problems.rows] == [
        "board 1 has 3 results but the session has 2 tables (half the number of pairs); look for a duplicate result "
        "or a wrong board number"]
    problems = Problems(frame)
    check_tables(frame, results.assign(ns=["1", "1", "2"], ew=["1", "2", "1"]), None, problems, None, "per-direction")
    assert [r["message"] for r in problems.rows] == [
        "board 1 has 3 results but the session has 2 tables (one per NS pair); look for a duplicate result or a "
        "wrong board number"]


def test_same_table_round_with_other_pairs():
    text = "Table,Round,Board,NS,EW,Contract,Declarer,Result\n1,1,1,1,2,3NT,N,=\n1,1,2,1,3,3NT,N,=\n2,1,1,5,6,3NT,N,=\n"
    assert messages(text) == ["table 1 round 1 has NS 1 v EW 2 (line 2) but NS 1 v EW 3 here; correct the pair "
                              "numbers or the table/round"]


def test_per_direction_numbering_allows_ns1_v_ew1():
    text = H + "1,1,1,4S,N,=,S2\n1,2,2,4S,N,=,S2\n2,1,2,4S,N,=,S2\n2,2,1,4S,N,=,S2\n"
    assert len(validate_results(raw(text)).results) == 4
    assert "plays against itself" in messages(text, pair_numbering_option="shared")[0]


def warnings_of(text, **options):
    """The notes of a validation that must pass (heuristics and names-list gaps are warnings)."""
    return validate_results(raw(text), **options).notes["message"].tolist()


NOT_LISTED = "is not in names.csv (ranked without names); correct the pair number or add the pair there"


def test_names_per_direction():
    names = parse_names_csv("Pair,Dir,Names\n1,NS,a\n2,NS,b\n1,EW,c\n2,EW,d\n", "names.csv")
    text = H + "1,1,1,4S,N,=,S2\n1,2,2,4S,N,=,S2\n2,1,2,4S,N,=,S2\n2,2,3,4S,N,=,S2\n"
    assert warnings_of(text, names=names, pair_numbering_option="per-direction") == [f"pair 3 {NOT_LISTED}"]


def test_names_with_sections():
    names = parse_names_csv("Pair,Names\nA1,a\nA2,b\nB1,c\nB2,d\n", "names.csv")
    text = H + "1,A1,A2,4S,N,=,S2\n1,B1,B3,4S,N,=,S2\n"
    assert warnings_of(text, names=names) == [f"pair B3 {NOT_LISTED}"]


def test_a_pair_missing_from_the_names_list_is_a_warning_with_its_line():
    names = parse_names_csv("Pair,Names\n1,Ann & Bob\n2,Cy & Di\n3,Ed & Flo\n4,Gus & Hal\n", "names.csv")
    checked = validate_results(raw(H + "1,1,2,4S,N,=,S2\n1,3,9,4S,N,-1,S2\n", "unknown.csv"), names=names)
    assert len(checked.results) == 2
    assert checked.notes[["source", "line", "column", "message"]].values.tolist() == [
        ["unknown.csv", "3", "ew", f"pair 9 {NOT_LISTED}"]]


def test_a_pair_on_one_result_only_is_a_warning_and_is_ranked():
    rows = "".join(f"{b},1,2,3NT,N,=,S2\n{b},3,{9 if b == 5 else 4},3NT,N,=,S2\n" for b in range(1, 6))
    checked = validate_results(raw(H + rows, "typo.csv"))
    assert len(checked.results) == 10
    assert checked.notes[["line", "column", "message"]].values.tolist() == [
        ["11", "ew", "pair 9 appears on this result only, while pairs typically play 5 boards; check the pair number "
                     "(a substitute pair is ranked on its own)"]]


def test_pairs_known_by_player_names_are_compared_without_case():
    rows = "".join(f"{b},Cheryl O - Ann,Bo - Cy,3NT,N,=,S2\n{b},Di - Ed,Fay - Gus,3NT,N,-1,S2\n" for b in range(1, 6))
    rows += "6,cheryl o - ann,Bo - Cy,3NT,N,=,S2\n6,Di - Ed,Fay - Gus,3NT,N,-1,S2\n"
    assert warnings_of(H + rows) == []  # cheryl o - ann on board 6 is the same pair, not a one-board pair


def test_check_boards_results_missing_from_hand_record():
    boards = pd.DataFrame({"board": [1, 2, 3], "deal": ["N:... - - -", "N:... - - -", pd.NA]}).astype(
        {"board": "int64", "deal": "string"})
    found = messages(H + "1,1,2,4S,N,=,S2\n3,1,2,4S,N,=,S2\n4,1,2,4S,N,=,S2\n", boards=boards)
    # board 3 is listed without its cards (a game with no Deal tag: one note at that game): scored without them
    assert found == ["board 4 is not in the hand record; correct the board number or give the hand record that has it"]


def test_hand_record_vulnerability_is_used_for_the_score_check():
    boards = pd.DataFrame({"board": [1], "deal": ["N:... - - -"], "vul": pd.Categorical(["All"], dtype=VUL)})
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,620\n"
    assert validate_results(raw(text), boards=boards).results["score_ns"].tolist() == [620]


def test_validation_keeps_its_notes_as_a_field():
    text = "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,-50\n"
    checked = validate_results(raw(text), trust="score")
    assert len(checked.notes) == 1 and checked.results.attrs == {}


def test_xlsx_problem_positions_are_cells(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Evening"
    for row in (["Board", "NS", "EW", "Contract", "Declarer", "Result"], [1, 1, 2, "4S", "N", "="], [1, 1, 3, "4S", "N", "="]):
        ws.append(row)
    wb.save(tmp_path / "t.xlsx")
    with pytest.raises(ValidationError) as info:
        validate_results(read_travellers(tmp_path / "t.xlsx"), pair_numbering_option="shared")
    assert str(info.value).splitlines()[1] == (
        "t.xlsx!Evening:A3: board: pair 1 has a second result on board 1 (first row 2); remove the duplicate or "
        "correct the pair number")


def test_problems_listed_by_file_in_input_order_then_line():
    first = raw(H + "1,1,2,4S,N,=,S2\n1,3,4,9S,N,=,S2\n", "z.csv")
    second = raw(H + "2,1,2,9S,N,=,S2\n", "a.csv")
    with pytest.raises(ValidationError) as info:
        validate_results(pd.concat([first, second], ignore_index=True))
    assert info.value.problems[["source", "line"]].values.tolist() == [["z.csv", "3"], ["a.csv", "2"]]


def test_hand_record_off_the_board_cycle_is_a_note():
    from bridgeproc.schema import SEAT

    boards = pd.DataFrame({"board": [1, 2, 3], "dealer": ["N", "E", "N"], "vul": ["None", "EW", "EW"],
                           "deal": ["N:... - - -"] * 3, "source": ["deals.pbn"] * 3, "line": [5, 12, 19]}).astype(
        {"board": "int64", "dealer": SEAT, "vul": VUL, "deal": "string", "source": "string", "line": "Int64"})
    checked = validate_results(raw(H + "1,1,2,4S,N,=,S2\n2,1,2,4S,N,=,S2\n3,1,2,4S,N,=,S2\n"), boards=boards)
    assert checked.results["score_ns"].tolist() == [420, 420, 420]  # board 2 as the hand record says: NS not vul
    assert checked.notes[["source", "line", "column", "value", "message"]].values.tolist() == [
        ["deals.pbn", "12", "vul", "EW", "board 2: the hand record says EW vulnerable, the board number says NS "
                                        "vulnerable; scored as the hand record says"],
        ["deals.pbn", "19", "dealer", "N", "board 3: the hand record says dealer N, the board number says dealer S; "
                                           "kept as the hand record says"]]


def test_declarer_on_a_passed_out_bridgemate_row_is_a_note():
    text = H + "1,1,2,PASS,S,,\n1,3,4,AVE+,,+1,\n"
    checked = validate_results(raw(text, source="club.bws!ReceivedData"))
    assert checked.notes[["line", "column", "message"]].values.tolist() == [
        ["2", "declarer", "a passed-out board has no declarer; ignored"],
        ["3", "result", "an artificial score (AVE+) has no result; ignored"]]
    assert messages(text) == ["a passed-out board has no declarer; clear the cell",
                              "an artificial score (AVE+) has no result; clear the cell"]


def test_seat_o_is_east_with_one_note_per_file():
    first = raw(H + "1,1,2,4S,N,=,S2\n1,3,4,4S,O,=,S2\n2,3,4,3NT,O,-1,S2\n", source="a.csv")
    second = raw(H + "3,1,2,4SO=,,,S2\n", source="b.csv")
    checked = validate_results(pd.concat([first, second], ignore_index=True))
    assert checked.results["declarer"].tolist() == ["N", "E", "E", "E"]
    assert checked.results["score_ns"].tolist() == [420, -420, 50, -620]  # board 3: EW vulnerable
    note = "'O' is read as East (German Ost); if this file means West (French Ouest), write W for West"
    assert checked.notes[["source", "line", "column", "message"]].values.tolist() == [
        ["a.csv", "3", "declarer", note], ["b.csv", "2", "contract", note]]


def test_a_board_without_its_deal_is_one_note_at_the_game_not_a_problem_per_result(tmp_path):
    """Board 3's game lost its Deal tag: its 13 results were 13 'not in the hand record' problems."""
    import re

    from bridgeproc.model import Options
    from bridgeproc.pipeline.run import check_report
    from tests.conftest import SAMPLE

    text = (SAMPLE / "club-evening.pbn").read_text(encoding="utf-8")
    head, board3 = text.split('[Board "3"]', 1)
    (tmp_path / "hands.pbn").write_text(head + '[Board "3"]' + re.sub(r'\[Deal "[^"]*"\]\n', "", board3, count=1),
                                        encoding="utf-8")
    report = check_report([tmp_path / "hands.pbn", SAMPLE / "club-evening-travellers.csv"], Options(dd=False))
    assert report.ok and not len(report.errors) and len(report.results) == 338
    said = [n for n in report.warnings.itertuples() if "board 3" in n.message]
    assert [(n.source, n.message) for n in said] == [
        ("hands.pbn", "board 3 has no Deal tag: no hand record for it (its results are scored without the cards)")]
