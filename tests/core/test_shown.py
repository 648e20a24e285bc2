"""Numbers as every output shows them (core/shown.py, issue 26: one number, one text)."""
from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.core.shown import column_decimals, kind_of, rounded, shown_frame, shown_sides, texts
from tests.conftest import examples


@pytest.mark.parametrize("values, kind, decimals, text", [
    ([13, 8, 0], "mp", 0, ["13", "8", "0"]),
    ([13.5, 8.25, 0], "mp", 2, ["13.50", "8.25", "0.00"]),
    ([162.6, 132.09, 126], "imp", 2, ["162.60", "132.09", "126.00"]),  # the page that mixed 162.6 / 132.09 / 126
    ([42.0, 39.9, 2.1], "mp", 1, ["42.0", "39.9", "2.1"]),
    ([0.19999999999999996, 44.050000000000004], "vp", 2, ["0.20", "44.05"]),  # no float noise
    ([-0.001, np.nan], "imp", 0, ["0", ""]),  # no -0, blank for nothing
    ([99.8947, 0.1053], "pct", 2, ["99.89", "0.11"]),
], ids=["whole", "factored", "imps-mixed", "one-decimal", "noise", "minus-zero", "pct"])
def test_a_column_shows_the_fewest_decimals_all_its_values_need(values, kind, decimals, text):
    assert column_decimals(values, kind) == decimals
    assert texts(values, kind) == text


@pytest.mark.parametrize("column, kind", [("mp_ns", "mp"), ("pct_ew", "pct"), ("session_pct", "pct"),
                                          ("vp_total", "vp"), ("ximp_ns", "imp"), ("total", "imp"),
                                          ("mp_factor", "factor")])
def test_the_kind_of_a_column_is_read_from_its_name(column, kind):
    assert kind_of(column) == kind


def _slow_half_even(value: float, places: int) -> float:
    """An independent rounding: the decimal value of the float, half to even."""
    return float(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=20))
def test_rounding_is_within_half_a_unit_of_the_last_decimal(values):
    shown = rounded(values, "mp")
    assert np.all(np.abs(shown - np.asarray(values)) <= 0.005 + 1e-6)
    # np.round scales by 100 first: it may differ from exact decimal rounding only at a near-tie
    slow = np.array([_slow_half_even(v, 2) for v in values])
    assert np.all((shown == slow) | (np.abs(np.abs(np.asarray(values) * 100 % 1) - 0.5) < 1e-6))


@settings(max_examples=examples(300), deadline=None)
@given(top=st.sampled_from([2.0, 12.0, 16.0, 24.0, 42.0, 100.0]), data=st.data())
def test_ns_and_ew_still_add_up_to_the_top_after_rounding(top, data):
    ns = np.array(data.draw(st.lists(st.floats(min_value=0, max_value=top, allow_nan=False), min_size=1,
                                     max_size=30)))
    ew = top - ns
    shown_ns, shown_ew = shown_sides(ns, ew, top)
    assert np.allclose(shown_ns + shown_ew, top, rtol=0, atol=1e-9)
    assert np.all(np.abs(shown_ew - ew) <= 0.01 + 1e-9) and np.all(np.abs(shown_ns - ns) <= 0.005 + 1e-9)


def test_sides_that_do_not_share_the_top_are_each_rounded():
    # an artificial split score (A+/A+: 60 % each) does not add up to the top: both rounded as they are
    ns, ew = shown_sides([7.2, 1.0 / 3], [7.2, 12 - 1.0 / 3], 12.0)
    assert ns.tolist() == [7.2, 0.33] and ew.tolist() == [7.2, 11.67]


def test_a_frame_is_rounded_by_column_kind_and_keeps_its_other_columns():
    frame = pd.DataFrame({"board": [1, 1], "mp_ns": [41.952381, 0.047619], "mp_ew": [0.047619, 41.952381],
                          "top": [42.0, 42.0], "pct_ns": [99.886621, 0.113379], "pct_ew": [0.113379, 99.886621],
                          "names": ["A", "B"]})
    shown = shown_frame(frame)
    assert shown["mp_ns"].tolist() == [41.95, 0.05] and shown["mp_ew"].tolist() == [0.05, 41.95]
    assert shown["pct_ns"].tolist() == [99.89, 0.11] and shown["pct_ew"].tolist() == [0.11, 99.89]
    assert shown["names"].tolist() == ["A", "B"] and frame["mp_ns"].iloc[0] == 41.952381  # not mutated


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**15, 10**15)),
                max_size=8), st.sampled_from(["Float64", "float64", "Int64", "int64"]), st.sampled_from(["mp", "pct", "factor"]))
def test_a_numeric_column_rounds_as_its_values_one_by_one(values, dtype, kind):
    """A numeric column goes the short way (to floats at once); the values given as a list of objects go
    through pd.to_numeric: the two agree, NaN for a missing value."""
    if dtype in ("int64", "Int64"):
        values = [None if not isinstance(v, int) and dtype == "Int64" else v for v in values]
        values = [v for v in values if isinstance(v, int) or (v is None and dtype == "Int64")]
    elif dtype == "float64":
        values = [np.nan if v is None else v for v in values]
    column = pd.Series(values, dtype=dtype)
    expected = rounded([None if pd.isna(v) else v for v in column.tolist()], kind)
    np.testing.assert_array_equal(rounded(column, kind), expected)
    np.testing.assert_array_equal(rounded(column.to_numpy(dtype=float, na_value=np.nan), kind), expected)
