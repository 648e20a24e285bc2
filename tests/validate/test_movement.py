"""The movement check (validate.movement): every kind of fault, each on its result's line, in the
results' order; a result with two faults gives two rows. Messages written out literally."""
from __future__ import annotations

import pandas as pd

from bridgeproc.schema import MOVEMENT_COLUMNS
from bridgeproc.validate.movement import check_movement

MOVEMENT = pd.DataFrame({"section": ["A", "A", "A"], "table": [1, 2, 1], "round": [1, 1, 2], "ns": ["1", "2", "1"],
                         "ew": ["3", "4", "4"], "low_board": [1, 1, 4], "high_board": [3, 3, 6]}).astype(MOVEMENT_COLUMNS)


def _results(rows):
    return pd.DataFrame(rows, columns=["section", "table", "round", "board", "ns", "ew", "line"]).assign(source="s.bws")


def test_a_clean_evening_has_no_problem():
    assert check_movement(_results([["A", 1, 1, 2, "1", "3", "2"], ["A", 1, 2, 5, "1", "4", "3"]]), MOVEMENT).empty


def test_every_fault_on_its_line_in_order():
    found = check_movement(_results([
        ["A", 1, 1, 2, "3", "1", "2"],   # the pairs the wrong way round
        ["A", 9, 1, 2, "1", "3", "3"],   # a table the movement does not have
        ["A", 2, 1, 7, "2", "5", "4"],   # pairs that did not meet, and a board not played there
        ["A", 1, 2, 1, "1", "4", "5"],   # a board of another round
    ]), MOVEMENT)
    assert found[["line", "column", "value"]].values.tolist() == [
        ["2", "ns", "3-1"], ["3", "round", "table 9 round 1"], ["4", "ns", "2-5"], ["4", "board", "7"],
        ["5", "board", "1"]]
    assert found["message"].tolist() == [
        "pairs 3 and 1 sat the wrong way round at table 1, round 1 of section A: the movement has 1 NS and 3 EW; "
        "swap the pair numbers if the result is from NS's side",
        "table 9, round 1 of section A is not in the movement; correct the table or round number",
        "pairs 2 (NS) and 5 (EW) did not meet at table 2, round 1 of section A: the movement has 2 v 4 there; "
        "correct the pair numbers or the table/round",
        "board 7 is not played at table 2, round 1 of section A (boards 1-3); correct the board number or the "
        "table/round",
        "board 1 is not played at table 1, round 2 of section A (boards 4-6); correct the board number or the "
        "table/round"]
    assert set(found["source"]) == {"s.bws"} and found.dtypes.astype(str).eq("string").all()
