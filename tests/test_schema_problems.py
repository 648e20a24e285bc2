"""schema.typed casts only the columns of another dtype. schema.problems_frame: each value its own text, a
missing or NA one empty, the declared string dtypes;
checked against the plain way, row by row (a frame of one record cast to the declared dtypes: in one
row no column's values can make another's text, as ``[0.0, 0]`` cast together would give ``0.0`` twice)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc import schema
from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame

VALUES = st.one_of(st.none(), st.text(max_size=8), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                   st.booleans(), st.just(pd.NA), st.just(np.nan), st.integers(0, 99).map(np.int64))
ROWS = st.lists(st.dictionaries(st.sampled_from([*PROBLEM_COLUMNS, "other"]), VALUES, max_size=6), max_size=6)


def _plain(rows: list[dict]) -> pd.DataFrame:
    def text(value):
        return "" if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else value

    def one(row: dict) -> pd.DataFrame:
        filled = [{name: text(row.get(name)) for name in PROBLEM_COLUMNS}]
        return pd.DataFrame(filled, columns=list(PROBLEM_COLUMNS)).astype(PROBLEM_COLUMNS)

    if not rows:
        return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in PROBLEM_COLUMNS.items()})
    return pd.concat([one(row) for row in rows], ignore_index=True)


@settings(max_examples=200, deadline=None)
@given(ROWS)
def test_the_frame_is_the_records_cast(rows):
    pd.testing.assert_frame_equal(problems_frame(rows), _plain(rows))


def test_a_literal_frame():
    frame = problems_frame([{"source": "club.csv", "line": 12, "message": "two results", "other": "left out"},
                            {"source": "hands.pbn", "value": np.nan, "column": "Contract"}])
    assert frame.to_dict("list") == {"source": ["club.csv", "hands.pbn"], "line": ["12", ""], "column": ["", "Contract"],
                                     "value": ["", ""], "message": ["two results", ""]}
    assert list(frame.dtypes) == [pd.StringDtype()] * 5
    assert problems_frame([{"value": 0.0}, {"value": 0}])["value"].tolist() == ["0.0", "0"]
    assert problems_frame([]).columns.tolist() == list(PROBLEM_COLUMNS) and not len(problems_frame([]))


def test_typed_casts_only_the_columns_of_another_dtype():
    """A column already of its dtype keeps its values and dtype; pandas' own ``str`` text is not the declared
    ``string`` and is cast; nothing to cast gives the frame itself (the same object)."""
    frame = pd.DataFrame({"pair": pd.array(["1", None], dtype="string"), "names": pd.Series(["A", "B"], dtype="str"),
                          "boards": [3, 4]})
    out = schema.typed(frame, {"pair": "string", "names": "string", "boards": "int64"})
    assert out["names"].dtype == pd.StringDtype() and out["names"].tolist() == ["A", "B"]
    assert out["pair"].equals(frame["pair"]) and out["pair"].dtype == pd.StringDtype()
    assert schema.typed(out, {"pair": "string", "names": "string", "boards": "int64"}) is out
    assert schema.typed(frame, {"boards": "float64"})["boards"].tolist() == [3.0, 4.0]
