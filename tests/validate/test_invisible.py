"""A character nobody sees does not make another pair (issue 29): a zero-width space, a joiner, a
direction mark, a word joiner, a soft hyphen or a BOM inside a cell is taken out, with a note."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.validate.results import validate_results


def _raw(ns: list[str], result: list[str] | None = None) -> pd.DataFrame:
    n = len(ns)
    return pd.DataFrame({"board": [str(b + 1) for b in range(n)], "ns": ns, "ew": ["1"] * n, "contract": ["4S"] * n,
                         "declarer": ["N"] * n, "result": result or ["="] * n, "source": ["t.csv"] * n,
                         "line": list(range(2, n + 2))})


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\u200e", "\u2060", "\u00ad", "\ufeff"])
def test_pair_3_with_an_invisible_mark_is_pair_3_with_a_note(mark):
    checked = validate_results(_raw(["3" + mark, "3"]))
    assert checked.results["ns"].tolist() == ["3", "3"]
    [note] = checked.notes.to_dict("records")
    assert (note["line"], note["column"]) == ("2", "ns")
    assert f"U+{ord(mark):04X}" in note["message"] and "reads as '3'" in note["message"]


def test_the_same_pair_twice_on_a_board_is_then_found():
    with pytest.raises(ValidationError, match="pair 3 has a second result on board 1"):
        validate_results(_raw(["3\u200b", "3"]).assign(board=["1", "1"], ew=["1", "2"]))


def test_an_invisible_mark_in_a_result_cell_is_taken_out_too():
    checked = validate_results(_raw(["3", "4"], result=["=\u200b", "+1"]))
    assert checked.results["tricks"].tolist() == [10, 11]
    assert checked.notes["column"].tolist() == ["result"]
