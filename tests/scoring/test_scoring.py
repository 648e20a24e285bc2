"""Law 77 scores: exhaustive comparison with a scalar oracle, and the reference sample table."""
import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.scoring.law77 import declarer_score_codes, score

STRAINS = ["C", "D", "H", "S", "NT"]


def law77(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """Declarer's score, written straight from the Law 77 tables, one case at a time."""
    needed = level + 6
    if tricks >= needed:
        if strain in ("C", "D"):
            per_trick = 20
        else:
            per_trick = 30
        trick_points = level * per_trick + (10 if strain == "NT" else 0)
        if doubled == 1:
            trick_points *= 2
        elif doubled == 2:
            trick_points *= 4
        total = trick_points
        if trick_points >= 100:
            total += 500 if vul else 300
        else:
            total += 50
        if level == 6:
            total += 750 if vul else 500
        if level == 7:
            total += 1500 if vul else 1000
        if doubled == 1:
            total += 50
        if doubled == 2:
            total += 100
        overtricks = tricks - needed
        for _ in range(overtricks):
            if doubled == 0:
                total += per_trick
            elif doubled == 1:
                total += 200 if vul else 100
            else:
                total += 400 if vul else 200
        return total
    penalty = 0
    for undertrick in range(1, needed - tricks + 1):
        if doubled == 0:
            penalty += 100 if vul else 50
        else:
            if vul:
                step = 200 if undertrick == 1 else 300
            else:
                step = 100 if undertrick == 1 else (200 if undertrick <= 3 else 300)
            penalty += step * (2 if doubled == 2 else 1)
    return -penalty


CASES = list(itertools.product(range(1, 8), range(5), range(3), (False, True), range(14)))


def test_all_2940_combinations_match_the_law77_oracle():
    assert len(CASES) == 2940
    level, strain, doubled, vul, tricks = (np.array(col) for col in zip(*CASES))
    got = declarer_score_codes(level, strain, doubled, vul.astype(np.int8), tricks)
    expected = np.array([law77(lv, STRAINS[s], d, v, t) for lv, s, d, v, t in CASES])
    mismatches = [(CASES[i], got[i], expected[i]) for i in np.flatnonzero(got != expected)]
    assert mismatches == []


# Reference section 1.4: contract, vulnerable, tricks, declarer's score.
SAMPLES = [
    ("1NT", False, 7, 90), ("1NT", True, 7, 90), ("2C", False, 8, 90), ("2H", True, 8, 110),
    ("3NT", False, 9, 400), ("3NT", True, 9, 600), ("3NT", True, 10, 630), ("3NT", False, 11, 460),
    ("4S", False, 10, 420), ("4S", True, 10, 620), ("4H", False, 11, 450), ("5C", False, 11, 400),
    ("5D", True, 11, 600), ("6S", False, 12, 980), ("6NT", True, 12, 1440), ("7NT", False, 13, 1520),
    ("7NT", True, 13, 2220), ("7S", True, 13, 2210), ("1CX", False, 7, 140), ("2CX", False, 8, 180),
    ("2CX", True, 8, 180), ("1NTX", False, 7, 180), ("1NTXX", False, 7, 560), ("1NTX", True, 8, 380),
    ("2HX", False, 8, 470), ("2SX", True, 9, 870), ("3NTX", False, 9, 550), ("4HX", True, 11, 990),
    ("5DXX", False, 12, 1000), ("5DXX", True, 12, 1400), ("6NTX", False, 12, 1230), ("6NTX", False, 11, -100),
    ("6NTX", True, 11, -200), ("7NTXX", False, 13, 2280), ("7NTXX", True, 13, 2980), ("3NT", False, 8, -50),
    ("3NT", True, 6, -300), ("4SX", False, 9, -100), ("4SX", False, 7, -500), ("4SX", False, 6, -800),
    ("4SX", False, 5, -1100), ("4SX", True, 7, -800), ("4SX", True, 6, -1100), ("4SXX", False, 7, -1000),
    ("4SXX", True, 7, -1600), ("4SXX", False, 6, -1600), ("7SX", False, 0, -3500), ("7SX", True, 0, -3800),
    ("7SXX", False, 0, -7000), ("7SXX", True, 0, -7600), ("7NT", True, 0, -1300),
]


def _split(contract: str) -> tuple[int, int, int]:
    doubled = contract.count("X")
    body = contract.rstrip("X")
    return int(body[0]), STRAINS.index(body[1:]), doubled


@pytest.mark.parametrize(("contract", "vul", "tricks", "expected"), SAMPLES)
def test_reference_sample_scores(contract, vul, tricks, expected):
    level, strain, doubled = _split(contract)
    got = declarer_score_codes(np.array([level]), np.array([strain]), np.array([doubled]), np.array([int(vul)]), np.array([tricks]))
    assert got[0] == expected


def _frame(rows):
    board, level, strain, doubled, declarer, tricks = zip(*rows)
    return pd.DataFrame({
        "board": np.array(board, dtype=np.int64),
        "level": pd.array(level, dtype="Int8"),
        "strain": pd.Categorical(strain, categories=STRAINS, ordered=True),
        "doubled": pd.array(doubled, dtype="Int8"),
        "declarer": pd.Categorical(declarer, categories=list("NESW")),
        "tricks": pd.array(tricks, dtype="Int8"),
        "adjusted": pd.array([None] * len(rows), dtype="string"),
    })


@pytest.mark.parametrize(("board", "declarer", "contract", "tricks", "score_ns"), [
    (1, "N", "4S", 10, 420),     # board 1: nobody vulnerable
    (1, "E", "4S", 10, -420),
    (2, "S", "4S", 10, 620),     # board 2: NS vulnerable
    (2, "W", "4S", 10, -420),
    (3, "E", "3NT", 8, 100),     # board 3: EW vulnerable, one down
    (3, "N", "3NT", 8, -50),
    (4, "W", "6NTX", 11, 200),   # board 4: all vulnerable
    (20, "N", "2SX", 9, 870),    # board 20 behaves like board 4
    (17, "N", "2SX", 9, 570),    # board 17 like board 1: 120 + 300 + 50 + 100
])
def test_score_from_ns_side_and_board_vulnerability(board, declarer, contract, tricks, score_ns):
    level, strain, doubled = _split(contract)
    frame = _frame([(board, level, STRAINS[strain], doubled, declarer, tricks)])
    assert score(frame)["score_ns"].tolist() == [score_ns]


def test_passed_out_scores_zero_and_adjusted_rows_get_no_score():
    frame = _frame([(1, 0, None, 0, None, None), (1, 4, "S", 0, "N", 10)])
    frame["adjusted"] = pd.array([None, "A+/A-"], dtype="string")
    scored = score(frame)
    assert scored["score_ns"].iloc[0] == 0
    assert scored["score_ns"].isna().tolist() == [False, True]


def test_score_does_not_mutate_its_input():
    frame = _frame([(1, 4, "S", 0, "N", 10)])
    before = frame.copy()
    score(frame)
    pd.testing.assert_frame_equal(frame, before)


def test_hand_record_vulnerability_overrides_the_board_cycle():
    frame = _frame([(1, 4, "S", 0, "N", 10)])
    boards = pd.DataFrame({"board": [1], "vul": pd.Categorical(["All"], categories=["None", "NS", "EW", "All"])})
    assert score(frame, boards)["score_ns"].tolist() == [620]


VUL_BY_PHASE = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"]


@given(level=st.integers(1, 7), strain=st.integers(0, 4), doubled=st.integers(0, 2),
       declarer=st.integers(0, 3), board=st.integers(1, 200), tricks=st.integers(0, 13))
def test_ns_table_agrees_with_the_oracle_from_ns_side(level, strain, doubled, declarer, board, tricks):
    from bridgeproc.scoring.law77 import board_phase, score_ns_codes

    vul = VUL_BY_PHASE[(board - 1) % 16]
    side_vul = vul == "All" or vul == ("NS" if declarer % 2 == 0 else "EW")
    expected = law77(level, STRAINS[strain], doubled, side_vul, tricks) * (1 if declarer % 2 == 0 else -1)
    code = np.array([level * 15 + strain * 3 + doubled], dtype=np.int32)
    got = score_ns_codes(code, np.array([declarer], dtype=np.int32), board_phase(np.array([board])), np.array([tricks], dtype=np.int32))
    assert got[0] == expected


def test_score_text_fast_path_and_its_refusal():
    from bridgeproc.scoring.law77 import score_text

    got = score_text(np.array([1, 2, 3, 4]), ["4S", "3NTX", "PASS", "6NTXX"], ["N", "e", "", "W"], ["=", "-2", "", "12"])
    assert got.tolist() == [420, 300, 0, -2110]  # 6NTXX by W, all vul: 760 + 500 + 750 + 100
    with pytest.raises(ValueError, match="1 row"):
        score_text(np.array([1]), ["4S"], [""], ["="])
