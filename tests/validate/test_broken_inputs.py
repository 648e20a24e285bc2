"""A catalogue of broken traveller inputs, each with the exact message the director sees.

Every case must fail with a BridgeprocError (never a traceback), within seconds, and
(for inputs the session can read) without writing any output file. XLSX cases are
built with openpyxl in ``tmp_path``.
"""
from __future__ import annotations

import faulthandler
import time

import openpyxl
import pandas as pd
import pytest

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.names import read_names
from bridgeproc.schema import BOARDS_COLUMNS
from bridgeproc.validate.results import validate_results
from tests.conftest import workbook

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

H = "Board,NS,EW,Contract,Declarer,Result,Lead\n"
ROW = "1,1,2,4S,N,=,S2\n"
XH = ["Board", "NS", "EW", "Contract", "Declarer", "Result", "Lead"]


def boards_frame(numbers):
    frame = pd.DataFrame({"board": numbers, "deal": ["N:AKQJ.T98.765.432 - - -"] * len(numbers)})
    return frame.astype({"board": BOARDS_COLUMNS["board"], "deal": "string"})


# (id, file name, content: str (text), bytes, or dict of sheets / (sheets, merges) for xlsx, options, expected)
CASES = [
    ("empty-file", "empty.csv", "", {},
     "empty.csv:1: the file is empty; expected a header such as Board,NS,EW,Contract,Declarer,Result,Lead and one row per result"),
    ("blank-lines-only", "blank.csv", "\n  \n\n", {},
     "blank.csv:1: the file is empty; expected a header such as Board,NS,EW,Contract,Declarer,Result,Lead and one row per result"),
    ("header-only", "header.csv", H, {},
     "header.csv:1: the file has a header but no results below it"),
    ("truncated-row", "truncated.csv", H + ROW + "2,3,", {},
     "2 problem(s) in the input:\n"
     "truncated.csv:3: ew: no EW pair number; every result needs both pairs\n"
     "truncated.csv:3: contract: no contract; write the contract, PASS for a passed-out board, or an artificial score such as AVE+"),
    ("wrong-encoding", "latin.csv", (H + "1,1,2,4S,N,=,S2\n2,1,2,3NT,S,=,C\u00e9\n").encode("cp1252"), {"encoding": "utf-8"},
     "latin.csv:3: byte 0xe9 is not valid utf-8; re-save the file as utf-8, or leave out --encoding to detect the encoding"),
    ("utf16-without-bom", "utf16.csv", (H + ROW).encode("utf-16-le"), {},
     "utf16.csv: this is a binary file, not text; export it as CSV or PBN"),
    ("8NT", "8nt.csv", H + "1,1,2,8NT,N,=,S2\n", {},
     "1 problem(s) in the input:\n8nt.csv:2: contract: '8NT' is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, "
     "or an artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)"),
    ("14-tricks", "14.csv", H + "1,1,2,4S,N,14,S2\n", {},
     "1 problem(s) in the input:\n14.csv:2: result: 4S with result 14 means 14 tricks, which is impossible (0-13); "
     "correct the contract or the result"),
    ("4S-11", "down11.csv", H + "1,1,2,4S,N,-11,S2\n", {},
     "1 problem(s) in the input:\ndown11.csv:2: result: 4S with result -11 means -1 tricks, which is impossible (0-13); "
     "correct the contract or the result"),
    ("bad-result", "badres.csv", H + "1,1,2,4S,N,++,S2\n", {},
     "1 problem(s) in the input:\nbadres.csv:2: result: '++' is not a result; write =, +1, -2 or the tricks taken (0-13)"),
    ("no-result", "nores.csv", H + "1,1,2,4S,N,,S2\n", {},
     "1 problem(s) in the input:\nnores.csv:2: result: no result for a played contract; write =, +1, -2 or the tricks taken"),
    ("no-declarer", "nodecl.csv", H + "1,1,2,4S,,=,S2\n", {},
     "1 problem(s) in the input:\nnodecl.csv:2: declarer: no declarer for a played contract; write N, E, S or W"),
    ("bad-seat", "seat.csv", H + "1,1,2,4S,Q,=,S2\n", {},
     "1 problem(s) in the input:\nseat.csv:2: declarer: 'Q' is not a seat; write N, E, S or W"),
    ("passed-out-with-declarer", "passdecl.csv", H + "1,1,2,PASS,N,=,\n1,3,4,PASS,-,-,\n", {},
     "2 problem(s) in the input:\npassdecl.csv:2: declarer: a passed-out board has no declarer; clear the cell\n"
     "passdecl.csv:2: result: a passed-out board has no result; clear the cell"),
    ("artificial-with-result", "avedecl.csv", H + "1,1,2,AVE+,,+1,\n1,3,4,A60/40,,,\n", {},
     "1 problem(s) in the input:\navedecl.csv:2: result: an artificial score (AVE+) has no result; clear the cell"),
    ("junk-line", "junk.csv", H + ROW + "Total,,,,,,\n", {},
     "1 problem(s) in the input:\njunk.csv:3: board: 'Total' and nothing else on the line is not a result; delete the "
     "line (or write the result on it)"),
    ("repeated-header", "rehead.csv", H + ROW + H + "2,1,2,3NT,S,=,C2\n", {},
     "1 problem(s) in the input:\nrehead.csv:3: board: a header line repeated inside the data; delete it"),
    ("negative-board", "negboard.csv", H + "-3,1,2,4S,N,=,S2\n", {},
     "1 problem(s) in the input:\nnegboard.csv:2: board: '-3' is not a board number; write a whole number from 1 up"),
    ("pair-zero", "badpair.csv", H + "1,0,2,4S,N,=,S2\n", {},
     "1 problem(s) in the input:\nbadpair.csv:2: ns: '0' is not a pair number; pair numbers are whole numbers from 1 up "
     "(A7 for pair 7 of section A)"),
    # a pair missing from the names list and a pair on one result only are warnings (tests/validate/test_checks.py)
    ("duplicate-result", "dup.csv", H + ROW + ROW, {},
     "1 problem(s) in the input:\ndup.csv:3: board: NS 1 v EW 2 on board 1 is entered twice (also line 2); delete one"),
    ("pair-twice-on-board", "twice.csv", H + ROW + "1,1,3,4S,N,-1,S2\n", {"pair_numbering_option": "shared"},
     "1 problem(s) in the input:\ntwice.csv:3: board: pair 1 has a second result on board 1 (first line 2); "
     "remove the duplicate or correct the pair number"),
    ("pair-both-directions", "bothdir.csv", H + ROW + "1,3,1,4S,N,-1,S2\n", {"pair_numbering_option": "shared"},
     "1 problem(s) in the input:\nbothdir.csv:3: board: pair 1 plays board 1 both as NS (line 2) and as EW here; "
     "correct one of the pair numbers"),
    ("pair-meets-itself", "itself.csv", H + "1,4,4,4S,N,=,S2\n", {"pair_numbering_option": "shared"},
     "1 problem(s) in the input:\nitself.csv:2: ew: pair 4 plays against itself on board 1; correct the NS or EW pair number"),
    ("score-mismatch", "score.csv", "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,450\n", {},
     "1 problem(s) in the input:\nscore.csv:2: score: written score 450 disagrees with 4S by N (not vulnerable) taking "
     "10 tricks, which scores 420 for NS; correct the score or the contract/result (or use --trust score to take "
     "the tricks from the score)"),
    ("score-mismatch-trust-score", "trust.csv", "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,460\n", {"trust": "score"},
     "1 problem(s) in the input:\ntrust.csv:2: score: written score 460 disagrees with 4S by N (not vulnerable) taking "
     "10 tricks, which scores 420 for NS; no single trick count gives the written score, so correct the score or the "
     "contract/result"),
    ("no-result-and-score-fits-nothing", "noresult.csv", "Board,NS,EW,Contract,By,Result,Score\n1,1,2,4S,N,,425\n",
     {"trust": "score"},
     "1 problem(s) in the input:\nnoresult.csv:2: result: no result for a played contract, and no single trick count of "
     "4S by N (not vulnerable) gives the written score 425; write =, +1, -2 or the tricks taken"),
    ("score-passed-out", "pass.csv", "Board,NS,EW,Contract,By,Result,Score\n1,1,2,PASS,,,50\n", {},
     "1 problem(s) in the input:\npass.csv:2: score: written score 50 but the board was passed out: it should be 0; "
     "correct the score or the contract"),
    ("ew-score-mismatch", "ewscore.csv", "Board,NS,EW,Contract,By,Tricks,NS score,EW score\n1,1,2,4S,N,10,,-50\n", {},
     "1 problem(s) in the input:\newscore.csv:2: score: written EW score -50 disagrees with 4S by N (not vulnerable) "
     "taking 10 tricks, which scores -420 for EW; correct the score or the contract/result (or use --trust score to "
     "take the tricks from the score)"),
    ("score-not-a-number", "scoretext.csv", "Board,NS,EW,Contract,By,Tricks,Score\n1,1,2,4S,N,10,four\n", {},
     "1 problem(s) in the input:\nscoretext.csv:2: score: not a score, or NS and EW scores that disagree; write the NS "
     "score as a whole number (or fill only one of the NS/EW score columns)"),
    ("ns-and-ew-scores-disagree", "both.csv", "Board;NS;EW;Contract;By;Tricks;NS score;EW score\n1;1;2;4S;N;10;420;100\n", {},
     "1 problem(s) in the input:\nboth.csv:2: score: not a score, or NS and EW scores that disagree; write the NS "
     "score as a whole number (or fill only one of the NS/EW score columns)"),
    ("unbalanced-quotes", "quotes.csv", H + ROW + '2,1,2,"3NT,S,=,C2\n3,1,2,1C,N,=,H2\n', {},
     "quotes.csv:3: a quoted cell opened on line 3 runs to line 4; check this line for an unbalanced quote (\")"),
    ("stray-delimiter", "stray.csv", H + ROW + "2,1,2,3NT,S,=,C2,,x\n", {},
     "stray.csv:3: 9 cells but the header has 7; check for a stray ',' (or quote a cell that contains one)"),
    ("missing-column", "missing.csv", "Nummer,NS,EW,Contract,Declarer,Result\n" + ROW, {},
     "missing.csv:1: missing column board in header Nummer, NS, EW, Contract, Declarer, Result; not recognised: "
     "'Nummer'; accepted spellings: board: Board, Bd, Brd, Board no, Board number, Bd no, Deal, Deal no, Spiel, Brett, "
     "Brett nr, Donne, Étui, Spel, Spelnummer, Spel nr, Bricka, Giv, Spill, Spil, Сдача, № сдачи, Номер сдачи, Сд"),
    ("no-header", "noheader.csv", "hello world\nthis is not a traveller\n", {},
     "noheader.csv:1: no header row found in the first 10 rows; expected a header such as Board,NS,EW,Contract,Declarer,Result,Lead"),
    ("two-columns-one-meaning", "twocols.csv", "Board,NS,EW,Contract,Declarer,Result,Res\n1,1,2,4S,N,=,=\n", {},
     "twocols.csv:1: two columns mean result ('Result' and 'Res'); delete or rename one"),
    ("section-clash", "section.csv", "Section,Board,NS,EW,Contract,Declarer,Result\nA,1,B1,B2,4S,N,=\n", {},
     "1 problem(s) in the input:\nsection.csv:2: section: section A but pair numbers B1/B2 carry section B; correct one of them"),
    ("pairs-in-two-sections", "twosect.csv", H + "1,A1,B2,4S,N,=,S2\n", {},
     "1 problem(s) in the input:\ntwosect.csv:2: ew: NS pair A1 and EW pair B2 are in different sections; correct the section letter"),
    ("too-many-tables", "tables.csv", H + "".join(f"{b},{p},{p + 10},3NT,N,=,S2\n" for b in (1, 2, 3) for p in (1, 2, 3))
     + "1,4,14,3NT,N,=,S2\n", {"tables": 3},
     "1 problem(s) in the input:\ntables.csv:11: board: board 1 has 4 results but the session has 3 tables (as "
     "given); look for a duplicate result or a wrong board number"),
    ("board-overflow", "bigboard.csv", H + "1e30,1,2,4S,N,=,S2\n99999999999,1,2,4S,N,=,S2\n10000,1,2,4S,N,=,S2\n"
     "12.0,3,4,4S,N,=,S2\n", {},
     "3 problem(s) in the input:\nbigboard.csv:2: board: '1e30' is not a board number; write a whole number from 1 up\n"
     "bigboard.csv:3: board: '99999999999' is too large for a board number; write a whole number from 1 to 9999\n"
     "bigboard.csv:4: board: '10000' is too large for a board number; write a whole number from 1 to 9999"),
    ("same-table-round-twice", "tblrnd.csv", "Table,Round,Board,NS,EW,Contract,Declarer,Result\n1,1,1,1,2,3NT,N,=\n"
     "2,1,1,3,4,3NT,N,=\n1,1,1,5,6,3NT,N,=\n", {},
     "1 problem(s) in the input:\ntblrnd.csv:4: table: table 1 round 1 already has a result on board 1 (line 2); "
     "correct the table, round or board"),
    ("board-not-in-hand-record", "handrec.csv", H + ROW + "29,1,2,3NT,S,=,C2\n", {"boards": [1, 2]},
     "1 problem(s) in the input:\nhandrec.csv:3: board: board 29 is not in the hand record; correct the board number "
     "or give the hand record that has it"),
    ("xlsx-truncated", "truncated.xlsx", "TRUNCATE", {},
     "truncated.xlsx: not a readable .xlsx workbook (not a zip archive); the file may be cut short, damaged or in "
     "another format: open it in Excel or LibreOffice and save it again as .xlsx"),
    ("xlsx-really-csv", "renamed.xlsx", H + ROW, {},
     "renamed.xlsx: not a readable .xlsx workbook (not a zip archive); the file may be cut short, damaged or in "
     "another format: open it in Excel or LibreOffice and save it again as .xlsx"),
    ("xlsx-header-only-sheet", "headeronly.xlsx", {"Results": [XH]}, {},
     "headeronly.xlsx!Results:1: the sheet has a header but no results below it; fill in the results or delete the sheet"),
    ("xlsx-empty-workbook", "emptywb.xlsx", {"Sheet1": []}, {},
     "emptywb.xlsx: no sheet with a traveller header (such as Board, NS, EW, Contract, Declarer, Result, Lead) in its "
     "first rows; the workbook is empty or has only other sheets"),
    ("xlsx-formulas-without-values", "formulas.xlsx", {"Results": [XH, [1, 1, 2, "4S", "N", "=", "S2"],
                                                                  ["=1+1", 1, 2, "3NT", "S", "=2-3", "C2"],
                                                                  [2, 3, 4, "9S", "N", "=", "C2"]]}, {},
     "3 problem(s) in the input:\nformulas.xlsx!Results:A3: board: the formula =1+1 has no saved value; open the "
     "workbook in Excel (or LibreOffice) and save it, or type the value\nformulas.xlsx!Results:F3: result: the formula "
     "=2-3 has no saved value; open the workbook in Excel (or LibreOffice) and save it, or type the value\n"
     "formulas.xlsx!Results:D4: contract: '9S' is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, or an artificial "
     "score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)"),
    ("xlsx-excel-error-value", "errors.xlsx", "EXCEL_ERROR", {},
     "1 problem(s) in the input:\nerrors.xlsx!Results:B2: ns: the cell shows the Excel error #REF!; correct its formula "
     "or type the value"),
    ("xlsx-merged-across-pairs", "merged.xlsx", ({"Results": [XH, [1, 1, 2, "4S", "N", "=", "S2"], [1, 3, None, "4S", "N", -1, "S2"]]},
                                                 {"Results": ["B3:C3"]}), {},
     "1 problem(s) in the input:\nmerged.xlsx!Results:C3: ew: no EW pair number; every result needs both pairs (the cell "
     "is covered by the merged cells B3:C3; unmerge them)"),
    ("xlsx-8NT-and-14-tricks", "bad.xlsx", {"Results": [["Club night"], XH, [1, 1, 2, "8NT", "N", "=", "S2"],
                                                        [1, 3, 4, "4S", "N", 14, "S2"]]}, {},
     "2 problem(s) in the input:\nbad.xlsx!Results:D3: contract: '8NT' is not a contract; write e.g. 4S, 3NTX, 2HXX, "
     "PASS, or an artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)\nbad.xlsx!Results:F4: result: 4S with "
     "result 14 means 14 tricks, which is impossible (0-13); correct the contract or the result"),
    ("xlsx-missing-column", "nocontract.xlsx", {"Results": [["Club night"], [], ["Board", "NS", "EW", "Bid?", "By", "Made"],
                                                            [1, 1, 2, "4S", "N", 4]]}, {},
     "nocontract.xlsx!Results:3: missing column contract in header Board, NS, EW, Bid?, By, Made; not recognised: 'Bid?'; "
     "accepted spellings: contract: Contract, Contr, Con, Kontrakt, Contrat, Bid, Контракт"),
    ("xlsx-board-sheet-without-number", "perboard.xlsx", {"Traveller": [XH[1:], [1, 2, "4S", "N", "="]]}, {},
     "perboard.xlsx!Traveller:1: missing column board in header NS, EW, Contract, Declarer, Result, Lead; accepted "
     "spellings: board: Board, Bd, Brd, Board no, Board number, Bd no, Deal, Deal no, Spiel, Brett, Brett nr, Donne, "
     "Étui, Spel, Spelnummer, Spel nr, Bricka, Giv, Spill, Spil, Сдача, № сдачи, Номер сдачи, Сд"),
    ("xlsx-score-mismatch-per-board", "boards.xlsx", {"Board 3": [["NS", "EW", "Contract", "By", "Tricks", "NS score", "EW score"],
                                                                 [1, 2, "3NT", "S", 9, 400, None],
                                                                 [3, 4, "3NT", "S", 9, None, 600]]}, {},
     "1 problem(s) in the input:\nboards.xlsx!Board 3:G3: score: written EW score 600 disagrees with 3NT by S (not "
     "vulnerable) taking 9 tricks, which scores -400 for EW; correct the score or the contract/result (or use "
     "--trust score to take the tricks from the score)"),
]


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, (dict, tuple)):
        sheets, merges = content if isinstance(content, tuple) else (content, None)
        workbook(path, sheets, merges)
    elif content == "EXCEL_ERROR":
        # openpyxl writes error values as typed strings with data type "e", as Excel saves them.
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "Results"
        ws.append(XH)
        ws.append([1, None, 2, "4S", "N", "=", "S2"])
        ws["B2"].value = "#REF!"
        ws["B2"].data_type = "e"
        wb.save(path)
    elif content == "TRUNCATE":
        workbook(path, {"Results": [XH, [1, 1, 2, "4S", "N", "=", "S2"]]})
        path.write_bytes(path.read_bytes()[:300])
    else:
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def load(path, options, tmp_path):
    options = dict(options)
    encoding = options.pop("encoding", None)
    if "names" in options:
        names_path = tmp_path / "names.csv"
        names_path.write_text(options["names"], encoding="utf-8")
        options["names"] = read_names(names_path)
    if "boards" in options:
        options["boards"] = boards_frame(options["boards"])
    return validate_results(read_travellers(path, encoding), **options)


def test_catalogue_is_big_enough():
    assert len(CASES) >= 25
    assert len({case[0] for case in CASES}) == len(CASES)


@pytest.mark.parametrize(("name", "content", "options", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_input_gives_exact_message(tmp_path, name, content, options, expected):
    path = _write(tmp_path, name, content)
    faulthandler.dump_traceback_later(30, exit=True)  # a hang fails the run instead of blocking it
    started = time.perf_counter()
    try:
        with pytest.raises(BridgeprocError) as info:
            load(path, options, tmp_path)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert str(info.value) == expected
    assert time.perf_counter() - started < 5


@pytest.mark.parametrize(("name", "content", "options"), [c[1:4] for c in CASES if not c[3]],
                         ids=[c[0] for c in CASES if not c[3]])
def test_broken_input_writes_no_output(tmp_path, name, content, options):
    from bridgeproc.pipeline.write import process_session

    path = _write(tmp_path, name, content)
    out = tmp_path / "scored.csv"
    with pytest.raises(BridgeprocError):
        process_session([path], [out])
    assert not out.exists()
