"""VP scales: the WBF 2013 continuous scale against the reference's official values, its
properties (hypothesis), and custom tables from CSV."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.errors import BridgeprocError, ParseError
from bridgeproc.teams.vp import WBF2013, parse_vp_table, wbf_table
from bridgeproc.teams.vp_scales import vp_scale
from tests.conftest import examples

# Reference section 6.1: winner's VP for N boards at margins 5, 10, 15, 20, 30, 40.
OFFICIAL = {
    8: [12.05, 13.78, 15.23, 16.46, 18.37, 19.74],
    16: [11.48, 12.80, 13.97, 15.00, 16.73, 18.09],
    24: [11.23, 12.33, 13.34, 14.26, 15.83, 17.13],
}
MARGINS = [5, 10, 15, 20, 30, 40]


@pytest.mark.parametrize("boards", sorted(OFFICIAL))
@pytest.mark.parametrize("position", range(len(MARGINS)))
def test_official_values(boards, position):
    margin, expected = MARGINS[position], OFFICIAL[boards][position]
    assert WBF2013.convert(margin, boards)[0] == pytest.approx(expected, abs=1e-9)
    assert WBF2013.convert(-margin, boards)[0] == pytest.approx(round(20 - expected, 2), abs=1e-9)


@pytest.mark.parametrize("boards, first_full", [(8, 43), (16, 60), (24, 74)])
def test_first_margin_with_20_vp(boards, first_full):
    assert WBF2013.convert(first_full, boards)[0] == 20.0
    assert WBF2013.convert(first_full - 1, boards)[0] < 20.0


def test_concavity_pass_changes_the_cells_the_reference_names():
    # Without the pass: 8 boards 40 IMPs is 19.73; 24 boards 5 and 20 IMPs are 11.22 / 14.25.
    assert wbf_table(8, corrected=False)[40] == 1973 and wbf_table(8)[40] == 1974
    assert wbf_table(24, corrected=False)[5] == 1122 and wbf_table(24)[5] == 1123
    assert wbf_table(24, corrected=False)[20] == 1425 and wbf_table(24)[20] == 1426


def test_vectorised_over_margins_and_board_counts():
    margins = np.array([10, -20, 30, np.nan, 0])
    boards = np.array([8, 16, 24, 8, 12])
    out = WBF2013.convert(margins, boards)
    assert out[:3].tolist() == [13.78, 5.00, 15.83]
    assert np.isnan(out[3]) and out[4] == 10.0


def test_fractional_margin_is_interpolated_between_whole_margins():
    low, high = WBF2013.convert([4, 5], 8)
    assert WBF2013.convert(4.5, 8)[0] == pytest.approx(round((low + high) / 2 + 1e-9, 2))


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 64), st.floats(0, 200, allow_nan=False))
def test_sum_is_20_and_symmetric(boards, margin):
    win = WBF2013.convert(margin, boards)[0]
    lose = WBF2013.convert(-margin, boards)[0]
    assert round(win + lose, 2) == 20.0
    assert 10.0 <= win <= 20.0


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(1, 64), st.floats(0, 150, allow_nan=False), st.floats(0, 50, allow_nan=False))
def test_monotone_in_the_margin(boards, margin, extra):
    assert WBF2013.convert(margin + extra, boards)[0] >= WBF2013.convert(margin, boards)[0]


@settings(max_examples=examples(64), deadline=None)
@given(st.integers(1, 64))
def test_concave_after_correction(boards):
    v = wbf_table(boards).astype(int)
    steps = np.diff(v)
    assert (steps[1:] <= steps[:-1]).all()
    assert v[0] == 1000 and v[-1] == 2000
    assert v[int(math.ceil(15 * math.sqrt(boards)))] == 2000


TABLE = """margin,winner,loser
0,10,10
3,11,9
8,12,8
15,14,6
25,17,3
40,20,0
"""


def test_custom_table_bands():
    scale = parse_vp_table(TABLE, "club.csv")
    assert scale.convert([0, 2, 3, 14, 15, 39, 40, 99], 8).tolist() == [10, 10, 11, 12, 14, 17, 20, 20]
    assert scale.convert([-3, -40], 8).tolist() == [9, 0]
    assert scale.describe() == "VP: custom table club.csv"


def test_custom_table_per_board_count_and_implied_loser():
    scale = parse_vp_table("boards;margin;vp\n8;0;15\n8;5;17\n16;0;15\n16;10;17\n", "t.csv")
    assert scale.convert([5, -5], 8).tolist() == [17, 13]
    assert scale.convert([5, 10], 16).tolist() == [15, 17]
    with pytest.raises(BridgeprocError, match="no rows for 12-board matches"):
        scale.convert(5, 12)


@pytest.mark.parametrize("text, message", [
    ("imps,points\n0,10\n", "t.csv:1: missing column winner"),
    ("margin,winner\n1,10\n", "t.csv:2: the VP table must start at margin 0"),
    ("margin,winner\n0,10\n5,x\n", "t.csv:3: bad VP table row"),
    ("margin,winner\n0,12\n5,11\n", "t.csv:3: margins must increase and winner VPs must not go down"),
])
def test_custom_table_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_vp_table(text, "t.csv")
    assert str(info.value).startswith(message)


def test_vp_scale_spec(tmp_path):
    path = tmp_path / "scale.csv"
    path.write_text(TABLE, encoding="utf-8")
    assert vp_scale(None) is WBF2013 and vp_scale("wbf2013") is WBF2013
    assert vp_scale(path).convert(3, 8)[0] == 11
