"""The standings' places and names against slow oracles: each place counted one contestant against the others
of its group (rank_text); the names read from the list row by row (rank._standings._names): the pair's own
direction first, then a row without a direction, then any row of its number, by section where the list has
sections, the first row of each key, whose empty names leave the pair to the next rule."""
from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.rank import Conventions, matchpoints, standings
from bridgeproc.rank._standings import _TIE_DECIMALS, _names, rank_text
from bridgeproc.report.scorecards import scorecard_table
from tests.conftest import ROOT
from tests.rank.test_rank_examples import board

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


def test_a_pair_whose_name_reads_as_a_number_sorts_among_the_numbered_ones():
    """Tied pairs sort by pair number, those without one after: ``inf`` reads as a number (as pandas reads
    it), so it comes before ``X``, as the standings and score cards always sorted them."""
    results = board([100, 100]).assign(ns=pd.array(["X", "inf"], dtype="string"), ew=pd.array(["1", "2"], dtype="string"))
    table = standings(matchpoints(results), Conventions(winners="two"))
    assert table.loc[table["group"] == "NS", "pair"].tolist() == ["inf", "X"]
    evening = build_session([str(ROOT / "sample_data" / "club-evening.pbn"),
                             str(ROOT / "sample_data" / "club-evening-travellers.csv")], Options(dd=False)).results
    renamed = {"1": "X", "2": "inf"}
    evening = evening.assign(ns=evening["ns"].replace(renamed), ew=evening["ew"].replace(renamed))
    cards, _ = scorecard_table(evening, "shared")
    order = list(dict.fromkeys(cards["pair"]))
    assert order[-2:] == ["inf", "X"] and order[:-2] == sorted(order[:-2], key=int)
