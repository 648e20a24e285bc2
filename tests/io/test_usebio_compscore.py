"""USEBIO as Compscore3 writes it (tests/data/realdata/README.md, "Compscore3 USEBIO exports"):
the method in an ``EVENT_TYPE`` attribute, the producer in ``PROGRAM_NAME``, Compscore's own
points elements and ``BOARD_AVERAGE``, ``1NS``/``1EW`` pair numbers, artificial ``A6040``,
and a pass-out written with a ``PLAYED_BY`` seat, read as a pass-out with a note."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.io.usebio.reader import parse_usebio, read_usebio, scoring_of
from bridgeproc.rank.conventions import PROFILES, parse_scoring_tag, producer_profile
from bridgeproc.validate.results import validate_results

TWO_WINNER = """<?xml version="1.0"?>
<USEBIO Version="1.2">
<EVENT EVENT_TYPE="BUTLER_PAIRS">
  <EVENT_DESCRIPTION>Two-winner Butler</EVENT_DESCRIPTION>
  <PROGRAM_NAME>Compscore3</PROGRAM_NAME>
  <PROGRAM_VERSION>13-Mar-26 Pianola</PROGRAM_VERSION>
  <WINNER_TYPE>2</WINNER_TYPE>
  <SCORING_METHOD>IMPS</SCORING_METHOD>
  <PARTICIPANTS EVENT_TYPE="BUTLER_PAIRS">
    <PAIR><PAIR_NUMBER>1NS</PAIR_NUMBER><DIRECTION></DIRECTION><TOTAL_SCORE>3.00</TOTAL_SCORE><PLACE>1</PLACE>
      <PLAYER><PLAYER_NAME>ANN</PLAYER_NAME></PLAYER><PLAYER><PLAYER_NAME>BOB</PLAYER_NAME></PLAYER></PAIR>
    <PAIR><PAIR_NUMBER>2NS</PAIR_NUMBER><TOTAL_SCORE>3.00</TOTAL_SCORE><PLACE>1</PLACE></PAIR>
    <PAIR><PAIR_NUMBER>1EW</PAIR_NUMBER><TOTAL_SCORE>-3.00</TOTAL_SCORE><PLACE>1</PLACE></PAIR>
  </PARTICIPANTS>
  <BOARD EVENT_TYPE="BUTLER_PAIRS">
    <BOARD_NUMBER>1</BOARD_NUMBER>
    <BOARD_AVERAGE>-450</BOARD_AVERAGE>
    <TRAVELLER_LINE>
      <NS_PAIR_NUMBER>1</NS_PAIR_NUMBER><EW_PAIR_NUMBER>1</EW_PAIR_NUMBER>
      <CONTRACT>4S</CONTRACT><PLAYED_BY>E</PLAYED_BY><TRICKS>10</TRICKS><SCORE>-420</SCORE>
      <NS_BUTLER_POINTS>1</NS_BUTLER_POINTS><EW_BUTLER_POINTS>-1</EW_BUTLER_POINTS>
    </TRAVELLER_LINE>
    <TRAVELLER_LINE>
      <NS_PAIR_NUMBER>2</NS_PAIR_NUMBER><EW_PAIR_NUMBER>2</EW_PAIR_NUMBER>
      <CONTRACT>PASS</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>0</TRICKS><SCORE>0</SCORE>
      <NS_BUTLER_POINTS>10</NS_BUTLER_POINTS><EW_BUTLER_POINTS>-10</EW_BUTLER_POINTS>
    </TRAVELLER_LINE>
    <TRAVELLER_LINE>
      <NS_PAIR_NUMBER>3</NS_PAIR_NUMBER><EW_PAIR_NUMBER>3</EW_PAIR_NUMBER>
      <CONTRACT>PASS</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS/><SCORE>0</SCORE>
    </TRAVELLER_LINE>
    <TRAVELLER_LINE>
      <NS_PAIR_NUMBER>4</NS_PAIR_NUMBER><EW_PAIR_NUMBER>4</EW_PAIR_NUMBER><SCORE>A6040</SCORE>
    </TRAVELLER_LINE>
  </BOARD>
</EVENT>
</USEBIO>
"""


def _values(frame: pd.DataFrame, column: str) -> list:
    return [None if pd.isna(v) else v for v in frame[column]]


def test_compscore_event_type_attribute_producer_points_and_datum():
    u = parse_usebio(TWO_WINNER, "cs.xml")
    assert u.meta["scoring"] == "IMP;Butler"
    assert (u.meta["program"], u.meta["program_version"]) == ("Compscore3", "13-Mar-26 Pianola")
    assert u.meta["event_type"] == "BUTLER_PAIRS" and u.meta["scoring_method"] == "IMPS"
    assert _values(u.results, "imp_ns") == ["1", "10", None, None]
    assert _values(u.results, "imp_ew") == ["-1", "-10", None, None]
    assert _values(u.results, "butlerdatum") == ["-450"] * 4
    assert _values(u.results, "contract") == ["4S", "PASS", "PASS", "A6040"]


def test_two_winner_pair_numbers_carry_the_direction():
    u = parse_usebio(TWO_WINNER, "cs.xml")
    assert _values(u.totals, "pair") == ["1", "2", "1"]
    assert _values(u.totals, "direction") == ["NS", "NS", "EW"]
    assert _values(u.totals, "place") == ["1", "1", "1"]  # tied places written without "="
    assert _values(u.names, "direction") == ["NS"]


def test_a_pass_out_with_a_seat_is_read_as_passed_out_with_one_note():
    u = parse_usebio(TWO_WINNER, "cs.xml")
    assert _values(u.results, "declarer") == ["E", None, None, None]
    assert _values(u.results, "result") == ["10", None, None, None]
    assert len(u.notes) == 1
    note = u.notes[0]
    assert note["source"] == "cs.xml" and note["column"] == "declarer" and note["value"] == "PASS"
    assert note["line"] == str(u.results["line"].iloc[1])
    assert note["message"].startswith("2 passed-out line(s) carry a PLAYED_BY seat")
    scored = validate_results(u.results).results
    assert _values(scored, "level") == [4, 0, 0, None]
    assert _values(scored, "score_ns") == [-420, 0, 0, None]


def test_a_pass_out_with_tricks_taken_is_left_for_validation_to_report():
    text = TWO_WINNER.replace("<TRICKS>0</TRICKS>", "<TRICKS>7</TRICKS>")
    u = parse_usebio(text, "cs.xml")
    assert _values(u.results, "declarer")[1] == "N" and _values(u.results, "result")[1] == "7"
    assert len(u.notes) == 1 and u.notes[0]["message"].startswith("1 passed-out line(s)")


@pytest.mark.parametrize("board_method, event_type, scoring_method, expected", [
    ("MATCH_POINTS", "CROSS_IMP", "IMPS", "MatchPoints"),  # the board method wins
    (None, "MP_PAIRS", None, "MatchPoints"),
    (None, "BUTLER_PAIRS", "IMPS", "IMP;Butler"),
    (None, "CROSS_IMP", "IMPS", "IMP"),  # cross-IMPs, totals as the producer's conventions say
    (None, None, "IMPS", "IMP"),
    (None, "TEAMS_OF_FOUR", "IMPS", None),
    (None, "SOMETHING_ELSE", None, None),
])
def test_the_method_comes_from_board_method_then_event_type_then_scoring_method(board_method, event_type,
                                                                                scoring_method, expected):
    assert scoring_of(board_method, event_type, scoring_method) == expected


def test_the_producer_picks_its_profile():
    assert producer_profile("Compscore3") == "compscore"
    assert producer_profile("KoPS2www") == "kops"
    assert producer_profile("Magic Contest") is None and producer_profile(None) is None
    compscore = PROFILES["compscore"]
    assert parse_scoring_tag("IMP", compscore).cross_imp == "board-average"
    assert parse_scoring_tag("IMP;Butler", compscore).method == "butler"


@pytest.mark.parametrize("name, scoring", [
    ("aus-sunshine-coast-bc-2026-03-09-butler-howell-compscore3.usebio.xml", "IMP;Butler"),
    ("aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml", "MatchPoints"),
    ("aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml", "IMP"),
])
def test_the_real_compscore_files(realdata, name, scoring):
    u = read_usebio(realdata / name)
    assert u.meta["scoring"] == scoring and u.meta["program"] == "Compscore3"
    assert u.totals["place"].notna().all() and u.totals["total"].notna().all()
    assert len(u.notes) == (1 if "moonee" in name else 0)
