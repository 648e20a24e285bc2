"""Validation in two halves with scoring between (issue 27): the cells typed and checked with nothing scored
and nothing raised, then the checks that need the scores, which raise every problem of both halves at once."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.scoring.results import score_results
from bridgeproc.validate.results import check_scored, type_results, validate_results

TEXT = ("Board,NS,EW,Contract,Declarer,Result,Score\n"
        "1,1,2,4S,N,=,420\n"      # right
        "1,3,4,4S,N,=,450\n"      # the written score disagrees with 4S= (420)
        "2,1,2,4Q,N,=,420\n")     # a contract no one can read


def test_the_first_half_types_the_cells_scores_nothing_and_raises_nothing():
    typed = type_results(parse_travellers_csv(TEXT, "t.csv"))
    assert "score_ns" not in typed.results
    assert typed.results["tricks"].tolist() == [10, 10, pd.NA]
    assert [p["column"] for p in typed.problems.rows] == ["contract"]  # the score is not checked yet


def test_the_second_half_raises_every_problem_of_both_halves_at_once():
    typed = type_results(parse_travellers_csv(TEXT, "t.csv"))
    scored = score_results(typed.results, typed.boards)
    assert scored["score_ns"].tolist()[:2] == [420, 420]
    with pytest.raises(ValidationError) as info:
        check_scored(typed, scored)
    problems = info.value.problems
    assert problems[["line", "column"]].astype(str).values.tolist() == [["3", "score"], ["4", "contract"]]  # by line
    assert problems["message"].iloc[0].startswith("written score 450 disagrees with 4S by N (not vulnerable) taking "
                                                  "10 tricks, which scores 420")


def test_trusting_the_written_score_corrects_the_tricks_in_the_second_half():
    text = "Board,NS,EW,Contract,Declarer,Result,Score\n1,1,2,4S,N,=,450\n"
    typed = type_results(parse_travellers_csv(text, "t.csv"), trust="score")
    checked = check_scored(typed, score_results(typed.results, typed.boards))
    assert (checked.results["tricks"].iloc[0], checked.results["score_ns"].iloc[0]) == (11, 450)
    assert checked.results.equals(validate_results(parse_travellers_csv(text, "t.csv"), trust="score").results)
