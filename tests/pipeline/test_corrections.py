"""A director's corrections file on top of files they cannot edit: read (CSV, TOML), applied to the
raw results before the checks, noted, shown in the workbook and kept in the archive with the reason."""
from __future__ import annotations

import sqlite3

import openpyxl
import pandas as pd
import pytest

from bridgeproc.archive import archive_session, diff, load_session
from bridgeproc.archive.db import dispose_all
from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.corrections import parse_corrections_csv, parse_corrections_toml, read_corrections
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.model import CheckOptions, Options
from bridgeproc.pipeline.run import build_session, load_results
from bridgeproc.report.workbook import write_workbook
from bridgeproc.schema import CORRECTIONS_COLUMNS, check
from bridgeproc.validate.corrections import apply_corrections

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

#: Board 1 none vulnerable, board 2 NS vulnerable; every written score agrees with its result.
TRAVELLERS = """Board,NS,EW,Contract,Declarer,Result,Lead,Score
1,1,2,4S,N,=,HA,420
1,3,4,4S,N,-1,HK,-50
2,1,4,3NT,S,+1,SQ,630
2,3,2,3NT,S,=,D5,600
"""
HEADER = "Board,NS,EW,Field,Value,Reason\n"


def _raw(text: str = TRAVELLERS) -> pd.DataFrame:
    return parse_travellers_csv(text, "travellers.csv")


def _apply(rows: str, raw: pd.DataFrame | None = None):
    return apply_corrections(_raw() if raw is None else raw, parse_corrections_csv(HEADER + rows, "fix.csv"))


def _problems(rows: str, raw: pd.DataFrame | None = None) -> list[tuple[str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        _apply(rows, raw)
    return list(caught.value.problems[["line", "column", "message"]].itertuples(index=False, name=None))


# --------------------------------------------------------------------------- each field


@pytest.mark.parametrize(("row", "column", "was", "now", "cells"), [
    ("1,3,4,contract,4SX,doubled in the auction", "contract", "4S", "4SX", {"contract": "4SX"}),
    ("1,3,4,declarer,S,South played it", "declarer", "N", "S", {"declarer": "S"}),
    ("1,3,4,result,-2,two down", "result", "-1", "-2", {"result": "-2"}),
    ("1,3,4,result,,cleared", "result", "-1", "", {"result": ""}),
    ("1,3,4,lead,hq,the lead was the queen", "lead", "HK", "hq", {"lead": "hq", "score": "-50"}),
    ("1,3,4,score,-100,score typed wrong", "score", "-50", "-100", {"score": "-100"}),
    ("1,3,4,ns,5,pair 5 sat NS", "ns", "3", "5", {"ns": "5", "score": "-50"}),
    ("1,03,A4,ew,6,pair 6 sat EW", "ew", "A4", "6", {"ew": "6"}),
])
def test_each_field_is_corrected_in_its_cell_and_noted(row, column, was, now, cells):
    raw = _raw() if column != "ew" else _raw(TRAVELLERS.replace("1,3,4,4S", "1,3,A4,4S"))
    corrected, applied, notes = _apply(row + "\n", raw)
    check(applied, CORRECTIONS_COLUMNS)
    assert applied[["board", "field", "was", "now", "source", "line", "result_source", "result_line"]].values.tolist() \
        == [[1, column, was, now, "fix.csv", 2, "travellers.csv", 3]]
    for name, value in cells.items():
        assert (corrected.at[1, name] if not pd.isna(corrected.at[1, name]) else "") == value
    others = corrected.drop(index=1).reset_index(drop=True)
    assert others.equals(raw.drop(index=1).reset_index(drop=True).astype(others.dtypes.to_dict()))
    assert len(notes) == 1 and notes[0]["source"] == "travellers.csv" and notes[0]["line"] == "3"
    assert f"'{was}' corrected to '{now}' (fix.csv:2: " in notes[0]["message"]


def test_a_result_correction_sets_the_written_score_aside_and_says_so():
    corrected, _, notes = _apply("1,3,4,result,-2,two down\n")
    assert pd.isna(corrected.at[1, "score"])
    assert notes[0]["message"] == ("board 1 NS 3 v EW 4: result '-1' corrected to '-2' (fix.csv:2: two down); its "
                                   "written score -50 is set aside (it was written for the uncorrected result)")


def test_a_score_corrected_with_the_result_is_kept_and_checked(tmp_path):
    travellers, fix = tmp_path / "t.csv", tmp_path / "fix.csv"
    travellers.write_text(TRAVELLERS, encoding="utf-8")
    fix.write_text(HEADER + "1,3,4,result,-2,two down\n1,3,4,score,-90,typed\n", encoding="utf-8")
    with pytest.raises(ValidationError) as caught:  # -90 is not 4S-2: checked like a typed score
        load_results([travellers], Options(check=CheckOptions(corrections=str(fix))))
    [message] = caught.value.problems["message"].tolist()
    assert "-90" in message and message.endswith("(this result is corrected on fix.csv:2, 3)")
    fix.write_text(HEADER + "1,3,4,result,-2,two down\n1,3,4,score,-100,typed\n", encoding="utf-8")
    results = load_results([travellers], Options(check=CheckOptions(corrections=str(fix))))
    assert results.loc[1, ["tricks", "score_ns"]].tolist() == [8, -100]


def test_a_result_replaces_every_result_column_of_the_file():
    raw = _raw("Board,NS,EW,Contract,Declarer,Tricks,Score,EW score\n1,1,2,4S,N,10,420,\n1,3,4,4S,N,9,,50\n")
    corrected, applied, _ = _apply("1,3,4,result,8,two down\n1,1,2,score,450,an overtrick\n", raw)
    assert corrected[["result", "tricks", "score", "score_ew"]].astype(object).where(corrected.notna(), None) \
        .values.tolist() == [[None, "10", "450", None], ["8", None, None, None]]
    assert applied[["field", "was"]].values.tolist() == [["result", "9"], ["score", "420"]]


def test_corrected_results_are_scored_in_the_pipeline(tmp_path):
    travellers, fix = tmp_path / "t.csv", tmp_path / "fix.toml"
    travellers.write_text(TRAVELLERS, encoding="utf-8")
    fix.write_text('[[correction]]\nboard = 2\nns = 3\new = 2\nfield = "contract"\nvalue = "4NT"\n'
                   'reason = "4NT, not 3NT"\n\n[[correction]]\nboard = 2\nns = 3\new = 2\nfield = "result"\n'
                   'value = "-1"\nreason = "one down"\n', encoding="utf-8")
    results = load_results([travellers], Options(check=CheckOptions(corrections=str(fix))))
    assert results.loc[3, ["level", "strain", "tricks", "score_ns"]].tolist() == [4, "NT", 9, -100]


# --------------------------------------------------------------------------- refused, every problem at once


@pytest.mark.parametrize(("rows", "expected"), [
    ("1,4,3,result,=,typo\n", [("2", "", "board 1 NS 4 v EW 3: no such result; board 1 has NS 3 v EW 4: write the "
                                "pairs the other way round")]),
    ("1,1,4,result,=,typo\n", [("2", "", "board 1 NS 1 v EW 4: no such result in the inputs; board 1 has NS 1 v "
                                "EW 2, NS 3 v EW 4; write the pairs as the inputs have them")]),
    ("9,1,2,result,=,typo\n", [("2", "", "board 9 NS 1 v EW 2: board 9 has no results in the inputs")]),
    ("x,1,2,result,=,typo\n", [("2", "board", "'x' is not a board number; write a whole number from 1 up")]),
    (",1,2,result,=,typo\n", [("2", "board", "no board number; write the board of the result to correct")]),
    ("1,,2,result,=,typo\n", [("2", "ns", "no NS pair; write the NS pair of the result to correct, as the inputs "
                               "have it")]),
    ("1,1,2.5,result,=,typo\n", [("2", "ew", "'2.5' is not a pair number; write it as the inputs have it")]),
    ("1,1,2,tricks,10,typo\n", [("2", "field", "tricks: not a field a correction changes; write one of contract, "
                                 "declarer, result, lead, score, ns, ew")]),
    ("1,1,2,,=,typo\n", [("2", "field", "no field; write the field to correct: one of contract, declarer, result, "
                           "lead, score, ns, ew")]),
    ("1,1,2,result,=,\n", [("2", "reason", "no reason; say why the result is corrected (it is kept with the result "
                            "in the archive)")]),
    ("1,1,2,contract,8S,typo\n", [("2", "value", "'8S' is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, or an "
                                   "artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)")]),
    ("1,1,2,contract,,typo\n", [("2", "value", "no value for contract; write the corrected contract")]),
    ("1,1,2,declarer,X,typo\n", [("2", "value", "'X' is not a seat; write N, E, S or W")]),
    ("1,1,2,result,+x,typo\n", [("2", "value", "'+x' is not a result; write =, +1, -2 or the tricks taken (0-13)")]),
    ("1,1,2,score,4.5,typo\n", [("2", "value", "'4.5' is not a score; write the NS score as a whole number, e.g. "
                                 "-100 or 420")]),
    ("1,1,2,ns,P,typo\n", [("2", "value", "'P' is not a pair number; write a whole number from 1 up (A7 for pair 7 "
                            "of section A)")]),
    ("1,1,2,lead,SA,led, then corrected\n", [("2", "", "7 cells but the header has 6; quote a cell that holds a ',' "
                                              "(a reason with a comma: \"late, then corrected\")")]),
    ("1,1,2,result,=,typo\n1,01,2,Result,+1,again\n", [("3", "field", "result of this result is corrected on line 2 "
                                                        "too; keep one correction per field")]),
    # every problem of the file at once, in line order
    ("1,4,3,lead,SA,x\n1,1,2,result,=,\n", [
        ("2", "", "board 1 NS 4 v EW 3: no such result; board 1 has NS 3 v EW 4: write the pairs the other way round"),
        ("3", "reason", "no reason; say why the result is corrected (it is kept with the result in the archive)")]),
])
def test_bad_corrections_are_refused_with_their_line_and_the_fix(rows, expected):
    assert _problems(rows) == expected


def test_a_correction_naming_a_result_in_two_sections_needs_the_section():
    raw = _raw("Section,Board,NS,EW,Contract,Declarer,Result\nA,1,1,2,4S,N,=\nB,1,1,2,4S,N,-1\n")
    assert _problems("1,1,2,result,-2,x\n", raw) == [("2", "", "board 1 NS 1 v EW 2 names 2 results (travellers.csv "
                                                      "line 2; travellers.csv line 3); give its Section")]
    corrections = parse_corrections_csv("Section,Board,NS,EW,Field,Value,Reason\nb,1,1,2,result,-2,x\n", "fix.csv")
    corrected, applied, notes = apply_corrections(raw, corrections)
    assert corrected["result"].tolist() == ["=", "-2"]
    assert notes[0]["message"].startswith("section B board 1 NS 1 v EW 2: result '-1' corrected to '-2'")
    # a section letter on the pair numbers names the section too
    assert apply_corrections(raw, parse_corrections_csv(HEADER + "1,A1,A2,result,+1,x\n", "f"))[0][
        "result"].tolist() == ["+1", "-1"]


def test_a_result_written_in_the_contract_cell_is_corrected_through_the_contract():
    raw = _raw("Board,NS,EW,Contract\n1,1,2,4SN=\n")
    assert _problems("1,1,2,result,-1,x\n", raw) == [("2", "field", "board 1 NS 1 v EW 2: its contract cell '4SN=' "
                                                      "carries the result; correct the field contract instead (e.g. "
                                                      "4SN-1)")]
    assert _apply("1,1,2,contract,4SN-1,x\n", raw)[0]["contract"].tolist() == ["4SN-1"]


# --------------------------------------------------------------------------- the file


def test_csv_and_toml_read_alike(tmp_path):
    csv_path, toml_path = tmp_path / "fix.csv", tmp_path / "fix.toml"
    csv_path.write_text("# Wednesday\n\nBd;N-S;E-W;Field;Value;Reason\n3;2;5;result;-1;\"late; then wrong\"\n",
                        encoding="utf-8")
    toml_path.write_text('# Wednesday\n[[correction]]\nboard = 3\nns = 2\new = "5"\nfield = "result"\n'
                         'value = "-1"\nreason = "late; then wrong"\n', encoding="utf-8")
    from_csv, from_toml = read_corrections(csv_path), read_corrections(toml_path)
    columns = ["section", "board", "ns", "ew", "field", "value", "reason", "line"]
    assert from_csv[columns].astype(object).where(from_csv[columns].notna(), None).values.tolist() == \
        [[None, "3", "2", "5", "result", "-1", "late; then wrong", 4]]
    assert from_toml[columns].astype(object).where(from_toml[columns].notna(), None).values.tolist() == \
        [[None, "3", "2", "5", "result", "-1", "late; then wrong", 2]]


@pytest.mark.parametrize(("text", "message"), [
    ("", "fix.csv:1: the corrections file is empty; write the header Board,NS,EW,Field,Value,Reason and one row per "
         "correction"),
    ("Board,NS,EW,Value,Reason\n1,1,2,=,x\n", "fix.csv:1: missing column field in the header Board, NS, EW, Value, "
     "Reason; the first line of a corrections file is the header Board,NS,EW,Field,Value,Reason (Section optional)"),
    ("Board,NS,EW,Field,Value,Why,Reason\n", "fix.csv:1: two columns mean reason ('Why' and 'Reason'); delete or "
     "rename one"),
    ("Board,NS,EW,Field,Value,Reason\n1,1,2,lead,SA,\"open\n", "fix.csv:2: a quoted cell opened on line 2 runs to "
     "the end of the file; check this line for an unbalanced quote (\")"),
    ("Board,NS,EW,Field,Value,Reason\n1,1,2,lead,SA,\"open\n1,1,2,lead,SA,x\n", "fix.csv:2: a quoted cell opened on "
     "line 2 runs to line 3; check this line for an unbalanced quote (\")"),
])
def test_a_malformed_csv_file_is_a_parse_error(text, message):
    with pytest.raises(ParseError) as caught:
        parse_corrections_csv(text, "fix.csv")
    assert str(caught.value) == message


def test_an_unknown_csv_column_is_noted_and_a_header_alone_is_no_correction():
    notes: list[dict] = []
    frame = parse_corrections_csv("Board,NS,EW,Table,Field,Value,Reason\n", "fix.csv", notes)
    assert len(frame) == 0 and [n["message"] for n in notes] == [
        "column(s) 'Table' are not read; a corrections file has the columns Board,NS,EW,Field,Value,Reason and Section"]
    raw, applied, notes = apply_corrections(_raw(), frame, source="fix.csv")
    assert len(applied) == 0 and raw.equals(_raw())
    assert [n["message"] for n in notes] == ["the corrections file holds no corrections"]


@pytest.mark.parametrize(("text", "message"), [
    ("[[correction]\nboard = 1", "fix.toml: not TOML: "),
    ("board = 1\n", "fix.toml: 'board': not a corrections table; write each correction as a [[correction]] table "
                    "(board, ns, ew, field, value, reason)"),
    ("[correction]\nboard = 1\n", "fix.toml: 'correction' must be [[correction]] tables, one per correction"),
    ("# nothing yet\n", "fix.toml: the corrections file holds no [[correction]] table; write one per correction"),
])
def test_a_malformed_toml_file_is_a_parse_error(text, message):
    with pytest.raises(ParseError) as caught:
        parse_corrections_toml(text, "fix.toml")
    assert str(caught.value).startswith(message)


def test_toml_rows_with_unknown_keys_or_values_are_listed_with_their_lines():
    text = ('[[correction]]\nboard = 1\nns = 1\new = 2\nfield = "lead"\nvalue = "SA"\nreason = "x"\ntabel = 4\n\n'
            '[[correction]]\nboard = 1\nns = 3\new = 4\nfield = "lead"\nvalue = true\nreason = "y"\n')
    with pytest.raises(ValidationError) as caught:
        apply_corrections(_raw(), parse_corrections_toml(text, "fix.toml"))
    assert caught.value.problems[["source", "line", "message"]].values.tolist() == [
        ["fix.toml", "1", "'tabel' is not a key of a correction; use section, board, ns, ew, field, value, reason"],
        ["fix.toml", "10", "value: True is not text or a number; write it in quotes"]]


# --------------------------------------------------------------------------- a USEBIO export, end to end

LINDFIELD = "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
#: Board 1 of the Lindfield export, by hand: NS scores (NS 3 v EW 11 was 5C W = -400, corrected to one
#: down +50) and each side's matchpoints on a top of 10 (2 per score beaten, 1 per tie).
BOARD_1 = {  # ns, ew: (score before, score after)
    ("3", "11"): (-400, 50), ("5", "2"): (-100, -100), ("6", "10"): (-50, -50), ("8", "4"): (-100, -100),
    ("9", "7"): (-100, -100), ("12", "1"): (-100, -100),
}


def _mps(scores: list[int]) -> list[float]:
    return [2.0 * sum(s > t for t in scores) + sum(s == t for t in scores) - 1 for s in scores]


def _hand_board_1() -> dict[str, float]:
    """Each pair's matchpoint change on board 1, computed by hand from the scores above."""
    pairs = list(BOARD_1)
    before, after = _mps([b for b, _ in BOARD_1.values()]), _mps([a for _, a in BOARD_1.values()])
    change: dict[str, float] = {}
    for (ns, ew), b, a in zip(pairs, before, after):
        change[ns] = a - b
        change[ew] = (10 - a) - (10 - b)
    return change


def test_a_corrected_usebio_export_moves_the_standings_as_by_hand(realdata, tmp_path):
    assert _hand_board_1() == {"3": 10, "11": -10, "5": -2, "2": 2, "6": -2, "10": 2, "8": -2, "4": 2, "9": -2,
                               "7": 2, "12": -2, "1": 2}
    fix = tmp_path / "corrections.csv"
    fix.write_text(HEADER + "1,3,11,result,-1,the Bridgemate entry was wrong\n", encoding="utf-8")
    export = realdata / LINDFIELD
    plain = build_session([export], Options(dd=False))
    corrected = build_session([export], Options(check=CheckOptions(corrections=str(fix)), dd=False))
    changed = corrected.results.compare(plain.results)
    board_1 = corrected.results["board"] == 1
    assert set(changed.index) <= set(corrected.results.index[board_1])  # only board 1 moved
    row = corrected.results[board_1 & (corrected.results["ns"] == "3")].iloc[0]
    assert (row["level"], row["strain"], row["declarer"], row["tricks"], row["score_ns"]) == (5, "C", "W", 10, 50)
    # totals: board 1's change, scaled as Compscore does for a pair that sat out (sitout=most: x 27 / boards)
    before = plain.standings.set_index("pair")
    after = corrected.standings.set_index("pair")
    for pair, change in _hand_board_1().items():
        expected = before.at[pair, "total"] + change * 27 / before.at[pair, "boards"]
        assert after.at[pair, "total"] == pytest.approx(expected, abs=1e-9), pair
    assert after.sort_values("total", ascending=False).index[:5].tolist() == ["7", "6", "2", "4", "3"]
    assert before.sort_values("total", ascending=False).index[:5].tolist() == ["6", "7", "2", "4", "5"]
    messages = corrected.notes["message"].tolist()
    assert ("board 1 NS 3 v EW 11: result '11' corrected to '-1' (corrections.csv:2: the Bridgemate entry was wrong); "
            "its written score -400 is set aside (it was written for the uncorrected result)") in messages
    assert not any("published" in m for m in messages)  # the export's own numbers are the uncorrected ones
    assert any(m.startswith("numbers the inputs publish") for m in messages)

    # the archive: a new version with the reason, and the diff names the result and the reason
    url = tmp_path / "archive.sqlite"
    archive_session(plain, url)
    stored = archive_session(corrected, url)
    assert stored.version == 2
    change = diff(url, stored.session_id)
    assert change.headline.startswith("board 1 corrected (the Bridgemate entry was wrong): ")
    assert change.results[["board", "ns", "ew", "change", "before", "after"]].values.tolist() == [
        [1, "3", "11", "corrected", "5C W = -400", "5C W -1 +50"]]
    assert change.summary[1] == ("board 1, NS 3 v EW 11: corrected (5C W = -400 -> 5C W -1 +50): result '11' -> '-1': "
                                 "the Bridgemate entry was wrong (corrections.csv:2)")
    loaded = load_session(url, stored.session_id)
    assert loaded.corrections.equals(corrected.corrections)
    assert load_session(url, stored.session_id, 1).corrections is None
    assert archive_session(corrected, url).created is False  # the same corrections again: unchanged
    dispose_all()

    # the workbook: a Corrections sheet, read back
    book = tmp_path / "results.xlsx"
    write_workbook(corrected, book)
    sheet = openpyxl.load_workbook(book)["Corrections"]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    assert rows[3] == ["Board", "NS", "EW", "Field", "Was", "Now", "Reason", "Correction", "Result read from"]
    assert rows[4] == [1, "3", "11", "result", "11", "-1", "the Bridgemate entry was wrong", "corrections.csv:2",
                       f"{LINDFIELD}:261"]
    write_workbook(plain, book)
    assert "Corrections" not in openpyxl.load_workbook(book).sheetnames


def test_a_withdrawn_correction_is_named_in_the_diff(realdata, tmp_path):
    fix = tmp_path / "corrections.csv"
    fix.write_text(HEADER + "1,3,11,result,-1,the Bridgemate entry was wrong\n", encoding="utf-8")
    export = realdata / LINDFIELD
    url = tmp_path / "archive.sqlite"
    archive_session(build_session([export], Options(check=CheckOptions(corrections=str(fix)), dd=False)), url)
    stored = archive_session(build_session([export], Options(dd=False)), url)
    change = diff(url, stored.session_id)
    assert change.headline.startswith("board 1 corrected (correction withdrawn): ")
    assert change.results["reason"].tolist() == ["correction of result to '-1' withdrawn (it was: the Bridgemate "
                                                 "entry was wrong)"]
    dispose_all()


def test_the_command_line_takes_corrections_for_score_and_check(realdata, tmp_path, runner):
    from bridgeproc.cli import cli

    fix = tmp_path / "corrections.csv"
    fix.write_text(HEADER + "1,3,11,result,-1,the Bridgemate entry was wrong\n", encoding="utf-8")
    export = str(realdata / LINDFIELD)
    url = str(tmp_path / "archive.sqlite")
    first = runner.invoke(cli, ["score", export, "-o", str(tmp_path / "a.csv"), "--no-dd", "--archive", url])
    assert first.exit_code == 0, first.output
    second = runner.invoke(cli, ["score", export, "-o", str(tmp_path / "b.csv"), "--no-dd", "--archive", url,
                                 "--corrections", str(fix)])
    assert second.exit_code == 0, second.output
    assert "result '11' corrected to '-1' (corrections.csv:2: the Bridgemate entry was wrong)" in second.output
    shown = runner.invoke(cli, ["archive", "diff", "--archive", url, "2022-07-27_el-wed-10-00am-open-27-jul-22"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith("board 1 corrected (the Bridgemate entry was wrong): ")
    assert "result '11' -> '-1': the Bridgemate entry was wrong (corrections.csv:2)" in shown.output
    checked = runner.invoke(cli, ["check", export, "--corrections", str(fix)])
    assert checked.exit_code == 0 and "result '11' corrected to '-1'" in checked.output
    fix.write_text(HEADER + "1,11,3,result,-1,x\n", encoding="utf-8")
    refused = runner.invoke(cli, ["check", export, "--corrections", str(fix)])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    assert ("corrections.csv:2: board 1 NS 11 v EW 3: no such result; board 1 has NS 3 v EW 11: write the pairs the "
            "other way round") in refused.output
    dispose_all()


# --------------------------------------------------------------------------- the archive's schema


def test_an_archive_without_the_corrections_table_reads_and_upgrades(tmp_path, realdata):
    from bridgeproc.archive import check_archive, session_versions
    from bridgeproc.archive.tables import SCHEMA_VERSION

    path = tmp_path / "old.sqlite"
    plain = build_session([realdata / LINDFIELD], Options(dd=False))
    stored = archive_session(plain, path)
    dispose_all()
    with sqlite3.connect(path) as conn:  # as bridgeproc wrote schema 2
        conn.execute("DROP TABLE corrections")
        conn.execute("UPDATE archive_info SET value = '2' WHERE key = 'schema_version'")
    conn.close()
    before = path.read_bytes()
    assert load_session(path, stored.session_id).corrections is None  # read-only: an empty view stands in
    assert check_archive(path) == []
    dispose_all()
    assert path.read_bytes() == before
    fix = tmp_path / "fix.csv"
    fix.write_text(HEADER + "1,3,11,lead,HA,the lead was the ace\n", encoding="utf-8")
    corrected = build_session([realdata / LINDFIELD], Options(check=CheckOptions(corrections=str(fix)), dd=False))
    assert archive_session(corrected, path).version == 2  # writing upgrades: the table is created
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM archive_info WHERE key = 'schema_version'").fetchone() == \
            (str(SCHEMA_VERSION),)  # upgraded to the current schema (3 brought the corrections table)
        assert conn.execute("SELECT board, ns, ew, field, was, now, reason FROM corrections").fetchall() == [
            (1, "3", "11", "lead", "2H", "HA", "the lead was the ace")]
    conn.close()
    assert session_versions(path, stored.session_id)["version"].tolist() == [1, 2]
    assert check_archive(path, deep=True) == []
    dispose_all()


def test_the_corrections_sheet_writes_a_reason_as_text(tmp_path):
    """A reason that looks like a formula, or holds a control character, is text on the sheet."""
    travellers, fix = tmp_path / "t.csv", tmp_path / "fix.csv"
    travellers.write_text(TRAVELLERS, encoding="utf-8")
    fix.write_text(HEADER + '1,3,4,lead,HQ,"=HYPERLINK(""http://x"")"\n1,1,2,lead,HK,"bell\x07"\n', encoding="utf-8")
    session = build_session([travellers], Options(check=CheckOptions(corrections=str(fix)), dd=False))
    book = tmp_path / "r.xlsx"
    write_workbook(session, book)
    wb = openpyxl.load_workbook(book)
    reasons = [(c.value, c.data_type) for c in wb["Corrections"]["G"][4:]]
    assert reasons == [('=HYPERLINK("http://x")', "s"), ("bell\ufffd", "s")]
    conventions = [row[0] for row in wb["Conventions"].iter_rows(values_only=True) if row[0]]
    assert any(str(line).startswith("Corrections: 1 control character(s)") for line in conventions)
