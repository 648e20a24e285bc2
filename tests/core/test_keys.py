"""Rows matched by keys (core.keys) against pandas' own merges, which are the oracle: generated key columns
with repeats on both sides, missing values, empty sides; and a table of small cases written out. The codes of
one side against the rows' key tuples compared one by one."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.core.keys import first_match, first_of_each, inner_pairs, key_codes

_TEXT = st.sampled_from(["1", "2", "10", "", "A", "NS", "EW", None])


@st.composite
def _sides(draw):
    width = draw(st.integers(1, 3))
    rows = st.lists(st.tuples(*[_TEXT] * width), max_size=12)
    return width, draw(rows), draw(rows)


def _frame(rows: list[tuple], width: int) -> pd.DataFrame:
    keys = [f"k{i}" for i in range(width)]
    return pd.DataFrame({k: pd.array([r[i] for r in rows], dtype="string") for i, k in enumerate(keys)}
                        | {"at": np.arange(len(rows))})


def _columns(frame: pd.DataFrame, width: int) -> list[pd.Series]:
    return [frame[f"k{i}"] for i in range(width)]


@given(_sides())
def test_inner_pairs_are_an_inner_merges_rows_in_its_order(sides):
    width, left_rows, right_rows = sides
    left, right = _frame(left_rows, width), _frame(right_rows, width)
    merged = left.merge(right, on=[f"k{i}" for i in range(width)], how="inner", suffixes=("_l", "_r"))
    left_at, right_at = inner_pairs(_columns(left, width), _columns(right, width))
    assert left_at.tolist() == merged["at_l"].tolist()
    assert right_at.tolist() == merged["at_r"].tolist()


@given(_sides())
def test_first_match_is_a_left_merge_on_the_first_of_each_key(sides):
    width, left_rows, right_rows = sides
    left, right = _frame(left_rows, width), _frame(right_rows, width)
    keys = [f"k{i}" for i in range(width)]
    merged = left.merge(right.drop_duplicates(subset=keys), on=keys, how="left", suffixes=("_l", "_r"))
    found = first_match(_columns(left, width), _columns(right, width))
    assert len(merged) == len(left)
    assert found.tolist() == merged["at_r"].fillna(-1).astype(int).tolist()


@pytest.mark.parametrize(("left", "right", "pairs", "first"), [
    ([["1", "2", "1"]], [["1", "1", "3"]], ([0, 0, 2, 2], [0, 1, 0, 1]), [0, -1, 0]),
    ([["1", "1"], ["NS", "EW"]], [["1", "1"], ["EW", "NS"]], ([0, 1], [1, 0]), [1, 0]),
    ([[None, "2"]], [["2", None]], ([0, 1], [1, 0]), [1, 0]),  # missing matches missing, as in a merge
    ([["1"]], [[]], ([], []), [-1]),
    ([[]], [["1"]], ([], []), []),
])
def test_small_cases(left, right, pairs, first):
    left_at, right_at = inner_pairs(left, right)
    assert (left_at.tolist(), right_at.tolist()) == pairs
    assert first_match(left, right).tolist() == first


@given(_sides())
def test_codes_are_equal_exactly_where_the_keys_are_and_number_them_in_order(sides):
    width, rows, _ = sides
    code, count = key_codes(*[[r[i] for r in rows] for i in range(width)])
    assert len(code) == len(rows)
    seen: dict[tuple, int] = {}
    for row, c in zip(rows, code):
        assert seen.setdefault(row, len(seen)) == c  # the same tuple the same code, a new one the next
    assert count == len(seen)
    first = first_of_each(code, count)
    assert first.tolist() == [rows.index(row) for row in rows]
