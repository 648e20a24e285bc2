"""An unfinished table in a machine-written file is scored as its producer publishes it (issue 25).

BBO stops the play record of a table that ran out of time and publishes the board as an average
(``A==``, 50 %); the PBN has a contract, a partial play and no result. The fixture
(tests/data/pbn/bbo-unfinished-table.pbn) is board 7 of the real BBO file, its first ten tables,
with the second table's play cut after five tricks and its Result emptied.
"""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.cli.main import cli
from bridgeproc.model import CheckOptions, Options
from bridgeproc.pipeline.run import build_session
from tests.conftest import REALDATA, ROOT

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

UNFINISHED = ROOT / "tests" / "data" / "pbn" / "bbo-unfinished-table.pbn"
NOTE = ("1 unfinished table(s): the play stops before the last trick and no Result is given (line 47: board 7, "
        "1S by S, 5 of 13 tricks played); each is scored as an average to both sides, as BBO publishes an "
        "unfinished table; a corrections file can assign the result or another score")
#: NS matchpoints and percentages counted by hand: BBO ranks over the nine real results only (top 16,
#: no factoring): 620 beats eight; each 140 beats the three part-scores below it and ties four; each
#: 110 beats the 90 and ties one; the average is 50 % to both sides.
BY_HAND = [("iaraerb - shellk", "620", 16.0, 100.0), ("rajiv - wmatilda", "A/A", 8.0, 50.0),
           ("thearb - Redfox 33", "140", 10.0, 62.5), ("blekse - ashok100", "140", 10.0, 62.5),
           ("anoopkumar - ganeri", "140", 10.0, 62.5), ("kszak46 - cozyhaven", "140", 10.0, 62.5),
           ("duro - wansa", "140", 10.0, 62.5), ("djeast - lasf", "110", 3.0, 18.75),
           ("hb55 - kumarjain", "110", 3.0, 18.75), ("claudia vd - morgan22", "90", 0.0, 0.0)]


def _ranked(session) -> list[tuple]:
    r = session.results
    scored = r["adjusted"].astype("string").fillna(r["score_ns"].astype("string"))
    return list(zip(r["ns"], scored, r["mp_ns"].round(6), r["pct_ns"].round(6)))


def test_the_unfinished_table_is_an_average_with_one_note_and_bbos_conventions():
    session = build_session([UNFINISHED], Options(dd=False))
    assert _ranked(session) == BY_HAND
    assert (session.results["pct_ns"] + session.results["pct_ew"]).tolist() == [100.0] * 10
    assert [m for m in session.notes["message"] if "unfinished" in m] == [NOTE]
    assert session.origin == "Conventions: BBO's (--factoring none); the file publishes no numbers to compare"


def test_check_passes_with_the_note_and_the_play_stopping_early_is_no_problem(runner):
    result = runner.invoke(cli, ["check", str(UNFINISHED)])
    assert result.exit_code == 0, result.output
    assert f"bbo-unfinished-table.pbn:47: {NOTE}" in result.output
    assert "stops after trick 5" not in result.output


def test_a_corrections_file_names_the_pairs_by_their_players_and_assigns_the_result(tmp_path):
    corrections = tmp_path / "corrections.csv"
    corrections.write_text("Board,NS,EW,Field,Value,Reason\n"
                           "7,rajiv - wmatilda,Drummer67 - mallat,contract,1S,finished on paper\n"
                           "7,rajiv - wmatilda,Drummer67 - mallat,declarer,S,finished on paper\n"
                           "7,rajiv - wmatilda,Drummer67 - mallat,result,9,finished on paper\n")
    session = build_session([UNFINISHED], Options(check=CheckOptions(corrections=str(corrections)), dd=False))
    row = session.results[session.results["ns"] == "rajiv - wmatilda"].iloc[0]
    # ten real results now, top 18: the six 140s each beat three and tie five
    assert (row["level"], row["strain"], row["tricks"], row["score_ns"], row["mp_ns"]) == (1, "S", 9, 140, 11.0)
    assert session.results["mp_ns"].max() == 18.0


def test_a_pair_name_matching_no_result_is_a_problem_naming_the_board(tmp_path, runner):
    corrections = tmp_path / "corrections.csv"
    corrections.write_text("Board,NS,EW,Field,Value,Reason\n7,rajiv - nobody,Drummer67 - mallat,result,9,x\n")
    answer = runner.invoke(cli, ["score", str(UNFINISHED), "--corrections", str(corrections), "-o",
                                 str(tmp_path / "x.csv"), "--no-archive", "--no-dd"])
    assert answer.exit_code == 1 and not (tmp_path / "x.csv").exists()
    assert ("corrections.csv:2: board 7 NS rajiv - nobody v EW Drummer67 - mallat: no such result in the inputs; "
            "board 7 has NS iaraerb - shellk v EW speded - luckypc, NS rajiv - wmatilda v EW Drummer67 - mallat"
            ) in answer.output


def test_the_scored_pbn_reads_back_with_the_same_average(tmp_path, runner):
    out = tmp_path / "scored.pbn"
    result = runner.invoke(cli, ["score", str(UNFINISHED), "-o", str(out), "--no-archive", "--no-dd"])
    assert result.exit_code == 0, result.output
    again = build_session([out], Options(dd=False))
    assert _ranked(again) == BY_HAND


def _game(result: str, play: str | None) -> str:
    text = UNFINISHED.read_text(encoding="latin-1")
    head = text[text.index('[Event'):text.index('[Play "W"]')]
    head = head[:head.index('[Declarer')] + '[Declarer "S"]\n[Contract "4S"]\n' + f'[Result "{result}"]\n'
    return head + (f'[Play "W"]\n{play}\n' if play is not None else "")


@pytest.mark.parametrize("result, play, expected", [
    ("", None, "no result for a played contract"),  # no play record: nothing says the table stopped
    ("", "H2 HJ H5 H4\nSK S4 S3 SQ\n*", "no result for a played contract"),  # a claim mark: a result is owed
], ids=["no-play", "claimed"])
def test_a_contract_without_a_result_is_still_refused_unless_the_play_stopped(tmp_path, runner, result, play,
                                                                              expected):
    path = tmp_path / "game.pbn"
    path.write_text(_game(result, play), encoding="latin-1")
    answer = runner.invoke(cli, ["check", str(path)])
    assert answer.exit_code == 1 and expected in answer.output, answer.output


def test_a_typed_traveller_with_a_contract_and_no_result_is_still_refused(tmp_path, runner):
    travellers = tmp_path / "travellers.csv"
    travellers.write_text("Board,NS,EW,Contract,Declarer,Result\n1,1,2,4S,N,=\n1,3,4,3NT,S,\n")
    answer = runner.invoke(cli, ["check", str(travellers)])
    assert answer.exit_code == 1, answer.output
    assert "travellers.csv:3: result: no result for a played contract" in answer.output


def test_the_real_bbo_file_is_known_as_bbo_by_its_deal_ids_and_reproduces_its_pages_by_default():
    session = build_session([REALDATA / "bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn"], Options(dd=False))
    assert session.conventions.factoring == "none"
    assert session.origin == "Conventions: BBO's (--factoring none); the file publishes no numbers to compare"
    assert isinstance(session.results, pd.DataFrame) and len(session.results) == 573
