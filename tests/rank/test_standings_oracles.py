"""The standings' places and names against slow oracles: each place counted one contestant against the others
of its group (rank_text); the names read from the list row by row (rank._standings._names): the pair's own
direction first, then a row without a direction, then any row of its number, by section where the list has
sections, the first row of each key, whose empty names leave the pair to the next rule."""
from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.rank._standings import _TIE_DECIMALS, _names, rank_text

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


@given(st.lists(st.tuples(st.sampled_from(["NS", "EW", "A ALL"]),
                          st.sampled_from([0.0, -0.0, 1.0, 2.5, 2.500001, 50.0, -7.25, 61.111111])), max_size=14))
def test_rank_text_as_counted_one_contestant_against_the_others(rows):
    """A contestant's place is one more than the contestants of its group above it (values equal once rounded
    tie), written ``3=`` when another of its group has its value."""
    values = pd.Series([v for _, v in rows], index=pd.RangeIndex(7, 7 + len(rows)), dtype="float64")
    groups = pd.Series([g for g, _ in rows], index=values.index, dtype="string")
    shown = values.round(_TIE_DECIMALS).tolist()
    expected = []
    for i, (group, _) in enumerate(rows):
        mine = [shown[j] for j, (g, _) in enumerate(rows) if g == group and j != i]
        place = 1 + sum(other > shown[i] for other in mine)
        expected.append(f"{place}=" if shown[i] in mine else str(place))
    found = rank_text(values, groups)
    assert found.dtype == "string" and found.index.equals(values.index)
    assert found.tolist() == expected
