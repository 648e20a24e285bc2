"""The standings' names from a names list (rank._standings._names) against a slow oracle that reads the list
row by row: the pair's own direction first, then a row without a direction, then any row of its number; by
section where the list has sections; the first row of each key, whose empty names leave the pair to the next
rule."""
from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.rank._standings import _names

_PAIR = st.sampled_from(["1", "2", "12", "", None])
_SECTION = st.sampled_from(["A", "B", "", None])
_DIRECTION = st.sampled_from(["NS", "EW", "", None])
_NAMES = st.sampled_from(["Ann & Bob", "Cy & Di", "", None])


def _text(value) -> str:
    return "" if value is None or value is pd.NA else value


def _slow(table: pd.DataFrame, names: pd.DataFrame) -> list[str | None]:
    by_section = bool("section" in names and names["section"].notna().any())
    listed = [{c: _text(names[c].iloc[i]) if c in names else "" for c in ("section", "pair", "direction", "names")}
              for i in range(len(names))]
    out = []
    for section, pair, direction in zip(table["section"], table["pair"], table["direction"]):
        mine = {"section": _text(section), "pair": _text(pair), "direction": _text(direction)}
        keys = ["pair"] + ["section"] * by_section
        found = ""
        for rule in ("own direction", "no direction", "any"):
            if rule == "own direction":
                rows, on = [r for r in listed if r["direction"] != ""], keys + ["direction"]
            elif rule == "no direction":
                rows, on = [r for r in listed if r["direction"] == ""], keys
            else:
                rows, on = listed, keys
            first = next((r for r in rows if all(r[k] == mine[k] for k in on)), None)
            if first is not None and first["names"] != "":
                found = first["names"]
                break
        out.append(found or None)
    return out


@given(st.lists(st.tuples(_SECTION, _PAIR, _DIRECTION), max_size=8),
       st.lists(st.tuples(_SECTION, _PAIR, _DIRECTION, _NAMES), max_size=8),
       st.booleans(), st.booleans())
def test_names_as_the_list_read_row_by_row_gives_them(table_rows, list_rows, sections, directions):
    table = pd.DataFrame({c: pd.array([r[i] for r in table_rows], dtype="string")
                          for i, c in enumerate(("section", "pair", "direction"))}, index=pd.RangeIndex(3, 3 + len(table_rows)))
    columns = {"pair": 1, "names": 3} | ({"section": 0} if sections else {}) | ({"direction": 2} if directions else {})
    names = pd.DataFrame({c: pd.array([r[i] for r in list_rows], dtype="string") for c, i in columns.items()})
    found = _names(table, names)
    assert found.dtype == "string" and found.index.equals(table.index)
    assert [None if pd.isna(v) else v for v in found] == _slow(table, names)
