"""The Swiss draw: score groups, floats, no avoidable rematch (checked against every perfect matching), byes."""
from __future__ import annotations

import itertools

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.teams.swiss import (
    Field,
    draw,
    fewest_rematches,
    field_from,
    max_matching,
    score_groups,
    swiss_pairings,
)
from tests.conftest import examples


def _draw(order, met=(), byes=(), totals=None):
    frame = swiss_pairings(pd.DataFrame({"team": list(order), **({"total": totals} if totals else {})}),
                           pd.DataFrame({"home": [a for a, _ in met], "away": [b for _, b in met]}), set(byes))
    return [(h, "-" if pd.isna(a) else a) for h, a in zip(frame["home"], frame["away"])], frame


CASES = [
    # (standings order, meetings so far, byes had, expected tables (bye last as (entry, "-")))
    ("first round: 1-2, 3-4", "ABCD", [], [], [("A", "B"), ("C", "D")]),
    ("no rematch: top takes the next it has not met", "ABCD", [("A", "B")], [], [("A", "C"), ("B", "D")]),
    ("backtracking: greedy A-C leaves B-D met", "ABCD", [("A", "B"), ("B", "D")], [], [("A", "D"), ("B", "C")]),
    ("odd field: bye to the lowest without one", "ABCDE", [], ["E"], [("A", "B"), ("C", "E"), ("D", "-")]),
    ("bye moves up when the lowest's bye forces a rematch", "ABCDE", [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C")],
     [], [("A", "E"), ("B", "D"), ("C", "-")]),
    ("unavoidable: every pair met, the fewest rematches", "ABCD",
     [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C")], [], [("A", "B"), ("C", "D")]),
    ("one rematch forced, pushed below the top", "ABCDEF",
     [("A", "B"), ("A", "C"), ("A", "D"), ("A", "E"), ("B", "F"), ("C", "F"), ("D", "F"), ("E", "F")], [],
     [("A", "F"), ("B", "C"), ("D", "E")]),
]


@pytest.mark.parametrize("what, order, met, byes, expected", CASES, ids=[c[0] for c in CASES])
def test_draw_cases(what, order, met, byes, expected):
    tables, _ = _draw(order, met, byes)
    assert tables == expected


def test_score_groups_and_a_forced_float_down():
    # groups: A B C on 30 VP, D E F on 20: C floats down to D; notes name the float
    tables, frame = _draw("ABCDEF", totals=[30.0, 30.0, 30.0, 20.0, 20.0, 20.0])
    assert tables == [("A", "B"), ("C", "D"), ("E", "F")]
    assert list(frame["note"]) == ["", "float: 30 VP meets 20 VP", ""]
    # A has met B and C: A floats down to D, B-C stay in their group, E-F
    tables, frame = _draw("ABCDEF", [("A", "B"), ("A", "C")], totals=[30.0, 30.0, 30.0, 20.0, 20.0, 20.0])
    assert tables == [("A", "D"), ("B", "C"), ("E", "F")]
    assert list(frame["rematch"]) == [0, 0, 0]


FLOAT_CASES = [
    # (what, totals in standings order, meetings so far, expected tables, expected notes)
    ("continuous VPs, every total apart: no float", [35.21, 30.07, 28.4, 21.93, 17.5, 12.38], [],
     [("A", "B"), ("C", "D"), ("E", "F")], ["", "", ""]),
    ("lone entries paired around a rematch: still no float", [40.5, 30.25, 20.75, 10.0], [("A", "B")],
     [("A", "C"), ("B", "D")], ["", ""]),
    ("two even groups: no float", [30.0, 30.0, 20.0, 20.0], [],
     [("A", "B"), ("C", "D")], ["", ""]),
    ("a lone leader takes one of a group of two, the other floats down", [40.0, 30.0, 30.0, 20.0], [],
     [("A", "B"), ("C", "D")], ["float: 40 VP meets 30 VP", "float: 30 VP meets 20 VP"]),
    ("a group of two that has met: both float", [30.0, 30.0, 20.0, 10.0], [("A", "B")],
     [("A", "C"), ("B", "D")], ["float: 30 VP meets 20 VP", "float: 30 VP meets 10 VP"]),
    ("one tie among continuous VPs", [35.2, 30.1, 30.1, 28.4, 20.0, 12.5], [],
     [("A", "B"), ("C", "D"), ("E", "F")], ["float: 35.2 VP meets 30.1 VP", "float: 30.1 VP meets 28.4 VP", ""]),
    ("totals equal but for rounding are one group", [30.1 + 0.2, 30.3, 20.0, 20.0], [],
     [("A", "B"), ("C", "D")], ["", ""]),
    ("all have met: rematches within the groups, no float", [30.0, 30.0, 20.0, 20.0],
     [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("C", "D")],
     [("A", "B"), ("C", "D")],
     ["rematch: no draw of the field avoids every repeat meeting; A and B have met once",
      "rematch: no draw of the field avoids every repeat meeting; C and D have met once"]),
    ("a rematch across groups: rematch and float both named", [30.0, 30.0, 20.0, 20.0],
     [("A", "B"), ("A", "C"), ("A", "D"), ("C", "D")],
     [("A", "C"), ("B", "D")],
     ["rematch: no draw of the field avoids every repeat meeting; A and C have met once; float: 30 VP meets 20 VP",
      "float: 30 VP meets 20 VP"]),
]


@pytest.mark.parametrize("what, totals, met, expected, notes", FLOAT_CASES, ids=[c[0] for c in FLOAT_CASES])
def test_a_float_only_takes_an_entry_out_of_its_score_group(what, totals, met, expected, notes):
    tables, frame = _draw("ABCDEF"[:len(totals)], met, totals=totals)
    assert tables == expected
    assert list(frame["note"]) == notes


def test_score_groups_are_numbered_from_the_top_with_their_sizes():
    group, size = score_groups((30.0, 30.0 + 1e-9, 20.0, -0.0, 0.0))
    assert group.tolist() == [0, 0, 1, 2, 2] and size.tolist() == [2, 1, 2]


def test_rematch_is_counted_and_named():
    _, frame = _draw("ABCD", [("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"), ("A", "D"), ("B", "C"), ("A", "B")])
    assert list(zip(frame["home"], frame["away"], frame["rematch"])) == [("A", "B", 2), ("C", "D", 1)]
    assert all(n.startswith("rematch: no draw of the field avoids every repeat meeting") for n in frame["note"])


def test_bye_notes_and_columns():
    _, frame = _draw("ABC", byes=["C"])
    assert list(frame.columns) == ["round", "table", "home", "away", "home_total", "away_total", "rematch", "note"]
    assert frame["table"].isna().tolist() == [False, True]
    assert frame["note"].iloc[-1] == "bye: the lowest-placed without one"
    _, frame = _draw("ABC", byes=["A", "B", "C"])
    assert frame["home"].iloc[-1] == "C" and frame["note"].iloc[-1] == "bye: every entry has had one; the lowest-placed"


# ----------------------------------------------------------------------------- the oracle


def _matchings(entries):
    if not entries:
        yield []
        return
    first, rest = entries[0], entries[1:]
    for i, other in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def _key(matching, met):
    """Top-down order of a draw: for each table from the top, (rematch?, the opponent's place)."""
    return sorted(matching), [(met[a][b] > 0, b) for a, b in sorted(matching)]


def _oracle(n, met, had):
    """The rules by brute force: bye, then the fewest rematches, then top-down (not-met opponents first)."""
    order = list(range(n))

    def best(players):
        found = [(sum(met[a][b] > 0 for a, b in m), _key(m, met)[1], sorted(m)) for m in _matchings(players)]
        return min(found) if found else (0, [], [])

    bye = None
    if n % 2:
        candidates = [v for v in reversed(order) if v not in had] or list(reversed(order))
        bye = next((v for v in candidates if best([u for u in order if u != v])[0] == 0), candidates[0])
    return sorted(best([u for u in order if u != bye])[2]), bye


@st.composite
def fields(draw_):
    n = draw_(st.integers(2, 10))
    pairs = list(itertools.combinations(range(n), 2))
    met_pairs = draw_(st.lists(st.sampled_from(pairs), max_size=len(pairs) + 3)) if pairs else []
    met = [[0] * n for _ in range(n)]
    for a, b in met_pairs:
        met[a][b] += 1
        met[b][a] += 1
    had = set(draw_(st.lists(st.integers(0, n - 1), max_size=n)))
    return n, met, had


@settings(max_examples=examples(300), deadline=None)
@given(fields())
def test_the_draw_is_the_best_perfect_matching(case):
    n, met, had = case
    names = [f"E{i:02d}" for i in range(n)]
    field = Field(entries=tuple(names), totals=tuple(float(n - i) for i in range(n)),
                  met=tuple(tuple(row) for row in met))
    frame = draw(field, {names[i] for i in had})
    index = {e: i for i, e in enumerate(names)}
    tables = sorted((index[h], index[a]) for h, a in zip(frame["home"], frame["away"]) if not pd.isna(a))
    bye = next((index[h] for h, a in zip(frame["home"], frame["away"]) if pd.isna(a)), None)
    expected, expected_bye = _oracle(n, met, had)
    assert (tables, bye) == (expected, expected_bye)
    # rematches only when unavoidable, and then as few as possible
    assert int((frame["rematch"] > 0).sum()) == min(
        sum(met[a][b] > 0 for a, b in m) for m in _matchings([u for u in range(n) if u != bye]))


@settings(max_examples=examples(200), deadline=None)
@given(fields())
def test_blossom_matching_size_is_the_brute_force_maximum(case):
    n, met, _ = case
    field = Field(entries=tuple(str(i) for i in range(n)), totals=(0.0,) * n, met=tuple(tuple(r) for r in met))
    allowed = field.allowed
    vertices = list(range(n))
    best = 0
    for size in range(n // 2, 0, -1):
        if any(all(allowed[a] >> b & 1 for a, b in combo) and len({v for e in combo for v in e}) == 2 * size
               for combo in itertools.combinations(itertools.combinations(vertices, 2), size)):
            best = size
            break
    assert max_matching(vertices, allowed) == best
    if n % 2 == 0:
        assert fewest_rematches(vertices, allowed) == n // 2 - best


def test_field_from_counts_meetings_both_ways_and_ignores_byes():
    field = field_from(["A", "B", "C"], pd.DataFrame({"home": ["A", "B", "C"], "away": ["B", "A", pd.NA]}))
    assert field.met == ((0, 2, 0), (2, 0, 0), (0, 0, 0))


def test_two_hundred_entries_draw_quickly():
    import time

    import numpy as np

    rng = np.random.default_rng(5)
    names = [f"P{i:03d}" for i in range(200)]
    rows = [(names[a], names[b]) for _ in range(12) for a, b in rng.permutation(200).reshape(-1, 2)]
    start = time.perf_counter()
    frame = swiss_pairings(pd.DataFrame({"pair": names, "total": np.linspace(200, 0, 200)}),
                           pd.DataFrame(rows, columns=["home", "away"]), round_number=13)
    assert time.perf_counter() - start < 5.0
    assert len(frame) == 100 and int(frame["rematch"].sum()) == 0 and set(frame["round"]) == {13}
