"""Problems grouped by cause: a cause with many lines is shown by its first few and a count,
the likely common cause is named once, and every problem is still there for --verbose."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.cli import cli
from bridgeproc.errors import ValidationError, format_problems, summarize_problems
from bridgeproc.schema import problems_frame
from tests.conftest import REALDATA


def frame(rows):
    return problems_frame([dict(zip(("source", "line", "column", "message"), row)) for row in rows])


FEW = [("a.csv", "2", "ns", "'0' is not a pair number"), ("a.csv", "3", "ew", "'x' is not a pair number"),
       ("a.csv", "4", "board", "board 99 is not in the hand record")]


def test_a_few_problems_are_listed_whole_in_input_order():
    problems = frame(FEW)
    assert summarize_problems(problems) == format_problems(problems) == [
        "a.csv:2: ns: '0' is not a pair number", "a.csv:3: ew: 'x' is not a pair number",
        "a.csv:4: board: board 99 is not in the hand record"]


def test_a_cause_with_many_lines_shows_three_and_a_count():
    rows = [("b.csv", str(n), "board", f"pair {n} has a second result on board 1 (first line {n - 1}); remove it")
            for n in range(2, 12)] + FEW[:1]
    out = summarize_problems(frame(rows))
    assert out == [
        "Likely cause: two sessions (or the same results twice) given together: 10 problems are boards and tables "
        "that already have results; score each session on its own, or give its files only",
        "b.csv:2: board: pair 2 has a second result on board 1 (first line 1); remove it",
        "b.csv:3: board: pair 3 has a second result on board 1 (first line 2); remove it",
        "b.csv:4: board: pair 4 has a second result on board 1 (first line 3); remove it",
        "  ... and 7 more like these",
        "a.csv:2: ns: '0' is not a pair number",
        "(grouped by cause: --verbose lists every problem)"]


def test_the_error_text_is_grouped_and_full_text_lists_every_problem():
    rows = [("n.csv", str(n), "ew", f"pair {n} is not in names.csv (ranked without names); add it")
            for n in range(1, 21)]
    error = ValidationError(frame(rows))
    assert str(error).splitlines()[:2] == [
        "20 problem(s) in the input:",
        "Likely cause: the names list lacks 20 pairs of the results: is it the list of this session?"]
    assert len(str(error).splitlines()) == 7
    assert error.full_text().splitlines()[1:] == format_problems(error.problems) and len(error.full_text().splitlines()) == 21


@pytest.mark.slow
def test_two_sessions_given_together_give_a_short_screen_and_everything_with_verbose(runner):
    sessions = [str(REALDATA / f"ffb-dn1-open2-s{n}-2022.pbn") for n in (1, 5)]
    short = runner.invoke(cli, ["check", *sessions])
    full = runner.invoke(cli, ["check", "-v", *sessions])
    assert short.exit_code == full.exit_code == 1
    assert "Likely cause: two sessions" in short.output and "Traceback" not in short.output
    assert len(short.output.splitlines()) < 25
    count = int(full.output.splitlines()[0].split()[1])
    assert count > 600 and len(full.output.splitlines()) == count + 1
    assert pd.Series(full.output.splitlines()[1:]).str.contains("ffb-dn1-open2-s5-2022.pbn:").all()
