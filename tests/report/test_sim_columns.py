"""The simultaneous event's column-wise formatting (report.sim, report.web.sim_site) gives each row the
text the per-cell way gives: CSV lines as ``to_csv`` writes the whole frame, HTML cells as Jinja's escape
writes each value, numbers as ``number_text``. They now work once per distinct value; these tests hold
them to the per-cell answers on hostile values."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from bridgeproc.report.sim import _csv_lines, _whole_lines
from bridgeproc.report.web.sim_site import _escaped, _rows, _suited, numbers_text
from bridgeproc.report.web.site import number_text

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TEXT = st.one_of(st.none(), st.text(alphabet=st.sampled_from(list("A1 ,\"'\n\r=+-@\t<>&♥♦é")), max_size=5))
FLOAT = st.one_of(st.floats(allow_nan=True, allow_infinity=False), st.sampled_from([0.0, -0.0, 1e16, 1e-5, 0.1 + 0.2]))


@st.composite
def frames(draw) -> pd.DataFrame:
    n = draw(st.integers(1, 12))
    return pd.DataFrame({
        "text": pd.array(draw(st.lists(TEXT, min_size=n, max_size=n)), dtype="string"),
        "points": np.array(draw(st.lists(FLOAT, min_size=n, max_size=n)), dtype=np.float64),
        "score": pd.array(draw(st.lists(st.one_of(st.none(), st.integers(-7600, 7600)), min_size=n, max_size=n)),
                          dtype="Int64"),
        "seat": pd.Categorical(draw(st.lists(st.sampled_from(["N", "E", "S", "W", None]), min_size=n, max_size=n)),
                               categories=["N", "E", "S", "W"]),
        "board": np.array(draw(st.lists(st.integers(1, 36), min_size=n, max_size=n)), dtype=np.int64),
    })


@settings(max_examples=150, deadline=None)
@given(frame=frames())
def test_csv_lines_are_what_to_csv_writes_for_the_whole_frame(frame):
    header, lines = _csv_lines(frame)
    assert header == "text,points,score,seat,board"
    assert lines.tolist() == _whole_lines(frame).tolist()


def test_csv_lines_keep_negative_zero_guard_formulas_and_quote():
    frame = pd.DataFrame({"lead": pd.array(["=1", "+3", "a,b", 'say "x"', None, ""], dtype="string"),
                          "mp": [-0.0, 0.0, 0.1 + 0.2, np.nan, 1e16, 2.5]})
    # numbers as every output shows them (core.shown): no float noise, no -0
    assert _csv_lines(frame)[1].tolist() == ["'=1,0.0", "+3,0.0", '"a,b",0.3', '"say ""x""",', ",1e+16", ",2.5"]


@settings(max_examples=150, deadline=None)
@given(values=st.lists(TEXT, min_size=1, max_size=12))
def test_escaped_and_suited_cells_are_jinjas_escape_of_each_value(values):
    column = pd.Series(pd.array(values, dtype="string"))
    escaped = [str(escape(v)) if v is not None else "" for v in values]
    assert _escaped(column).tolist() == escaped
    red = [e.replace("♥", '<span class="red">♥</span>').replace("♦", '<span class="red">♦</span>') for e in escaped]
    assert _suited(column).tolist() == red


@settings(max_examples=150, deadline=None)
@given(values=st.lists(FLOAT, min_size=1, max_size=12))
def test_numbers_text_is_number_text_of_each_value(values):
    column = pd.Series(values, dtype="float64")
    assert numbers_text(column).tolist() == [number_text(v) for v in values]


def test_rows_join_the_cells_of_each_row_in_order():
    rows = _rows([(pd.Series(["1", None]), "num"), (pd.Series(["a&amp;b", "c"]), "")])
    assert rows.tolist() == ['<tr><td class="num">1</td><td>a&amp;b</td></tr>', '<tr><td class="num"></td><td>c</td></tr>']
