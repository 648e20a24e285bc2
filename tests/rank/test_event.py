"""rank.event: the sessions' standings combined by each rule, pairs matched and missed sessions handled."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.errors import ValidationError
from bridgeproc.rank.event import SessionStandings, combine_sessions
from bridgeproc.rank.event_keys import ids_key, names_key, number_key
from tests.conftest import examples


def session(label: str, rows: list[tuple], top: float | None = 10.0, method: str = "mp",
            group: str = "ALL") -> SessionStandings:
    """A session's standings from (pair, names, boards, total[, top sum]) rows: pct = total / top sum."""
    pairs, names, boards, totals, tops = [], [], [], [], []
    for row in rows:
        pair, name, board_count, total = row[:4]
        pairs.append(pair)
        names.append(name)
        boards.append(board_count)
        totals.append(float(total))
        tops.append(float(row[4]) if len(row) > 4 else (board_count * top if top else np.nan))
    table = pd.DataFrame({"group": group, "rank": "", "pair": pairs, "names": names, "boards": boards,
                          "total": totals, "pct": np.array(totals) / np.array(tops) * 100 if top else np.nan,
                          "top": tops if top else np.nan})
    table["rank"] = table["total"].rank(method="min", ascending=False).astype(int).astype(str)
    return SessionStandings(label, method, table.astype({"group": "string", "rank": "string", "pair": "string",
                                                         "names": "string"}), top)


#: Two sessions of 2 boards (top 10 a board, 20 a session) and 3 pairs; pair 3 missed session 2.
S1 = session("s1", [("1", "Anna Strand - Bo Ek", 2, 14), ("2", "Cy Li - Di Wu", 2, 10),
                    ("3", "Ed Ho - Fa Ng", 2, 6)])
S2 = session("s2", [("1", "Anna Strand - Bo Ek", 2, 8), ("2", "Cy Li - Di Wu", 2, 12)])


def by_pair(ranking) -> dict[str, tuple]:
    table = ranking.standings
    return {p: (r, round(t, 6), round(c, 6)) for p, r, t, c in zip(table["pair"], table["rank"], table["total"],
                                                                    table["pct"])}


@pytest.mark.parametrize("rule, missing, expected", [
    # sum: 14 + 8 = 22 of 40 (55 %), 10 + 12 = 22 (55 %): tied
    ("sum", "drop", {"1": ("1=", 22.0, 55.0), "2": ("1=", 22.0, 55.0)}),
    # zero: pair 3 has 6 + 0 over 40 = 15 %
    ("sum", "zero", {"1": ("1=", 22.0, 55.0), "2": ("1=", 22.0, 55.0), "3": ("3", 6.0, 15.0)}),
    # average: pair 3's 30 % of session 1 on session 2's top of 20: 6 MPs, 12 of 40 = 30 %
    ("sum", "average", {"1": ("1=", 22.0, 55.0), "2": ("1=", 22.0, 55.0), "3": ("3", 12.0, 30.0)}),
    # percent-sum: 70 + 40 = 110, 50 + 60 = 110 (mean 55); pair 3 zero: 30 + 0
    ("percent-sum", "zero", {"1": ("1=", 110.0, 55.0), "2": ("1=", 110.0, 55.0), "3": ("3", 30.0, 15.0)}),
    ("percent-average", "drop", {"1": ("1=", 55.0, 55.0), "2": ("1=", 55.0, 55.0)}),
    ("percent-average", "average", {"1": ("1=", 55.0, 55.0), "2": ("1=", 55.0, 55.0), "3": ("3", 30.0, 30.0)}),
    # scaled, equal tops: as sum
    ("scaled", "drop", {"1": ("1=", 22.0, 55.0), "2": ("1=", 22.0, 55.0)}),
    # carry-over 50 %: pair 1 carries 0.5 x 70 % x 20 = 7, 7 + 8 = 15 of 30 (50 %); pair 2 5 + 12 = 17 (56.67 %)
    ("carry-over", "drop", {"2": ("1", 17.0, 56.666667), "1": ("2", 15.0, 50.0)}),
])
def test_each_rule_on_a_small_event(rule, missing, expected):
    assert by_pair(combine_sessions([S1, S2], rule=rule, missing=missing)) == expected


def test_the_event_columns_are_the_last_sessions():
    table = combine_sessions([S1, S2], missing="zero").standings.set_index("pair")
    assert table.loc["1", ["sessions", "boards", "session_boards", "session_total", "session_rank"]].tolist() == [
        2, 4, 2, 8.0, "2"]
    assert table.loc["3", ["sessions", "boards"]].tolist() == [1, 2]
    assert pd.isna(table.loc["3", "session_total"]) and pd.isna(table.loc["3", "session_rank"])


def test_a_dropped_pair_is_named_and_its_session_kept():
    ranking = combine_sessions([S1, S2], missing="drop")
    assert ranking.dropped[["pair", "missed"]].values.tolist() == [["3", "2"]]
    assert "3" in set(ranking.sessions["pair"]) and "3" not in set(ranking.standings["pair"])


def test_imputed_rows_are_marked():
    rows = combine_sessions([S1, S2], missing="average").sessions
    imputed = rows[rows["imputed"]]
    assert imputed[["session", "pair", "boards", "total", "pct"]].values.tolist() == [[2, pd.NA, 0, 6.0, 30.0]]


def test_carry_over_share_is_an_option():
    quarter = by_pair(combine_sessions([S1, S2], rule="carry-over", carry_over=0.25))
    # pair 1: 0.25 x 0.70 x 20 = 3.5 carried, 11.5 of 25 = 46 %; pair 2: 2.5 + 12 = 14.5 of 25 = 58 %
    assert quarter == {"2": ("1", 14.5, 58.0), "1": ("2", 11.5, 46.0)}


def test_sum_refuses_sessions_on_different_tops():
    other = session("s2.pbn", [("1", "A B - C D", 2, 16), ("2", "E F - G H", 2, 8)], top=12.0)
    with pytest.raises(ValidationError) as caught:
        combine_sessions([S1, other], rule="sum")
    problems = caught.value.problems
    assert problems[["source", "column", "value"]].values.tolist() == [["s2.pbn", "top", "12"]]
    assert "top is 12 here but 10 in s1" in problems["message"].iloc[0]
    assert "--rule scaled" in problems["message"].iloc[0]


def test_scaled_brings_every_session_to_the_largest_top():
    other = session("s2", [("1", "x", 2, 18), ("2", "y", 2, 6)], top=12.0)  # 75 % and 25 %
    got = by_pair(combine_sessions([S1, other], rule="scaled"))
    # session 1 x 12/10: pair 1 16.8 + 18 = 34.8 of 48 (72.5 %); pair 2 12 + 6 = 18 (37.5 %)
    assert got == {"1": ("1", 34.8, 72.5), "2": ("2", 18.0, 37.5)}


def test_imps_sum_and_refuse_percentages():
    one = session("a", [("1", "x", 3, 12.0), ("2", "y", 3, -12.0)], top=None, method="butler")
    two = session("b", [("1", "x", 3, -2.0), ("2", "y", 3, 2.0)], top=None, method="butler")
    table = combine_sessions([one, two], rule="sum").standings
    assert table[["pair", "total"]].values.tolist() == [["1", 10.0], ["2", -10.0]] and table["pct"].isna().all()
    with pytest.raises(ValidationError, match="IMPs have no top"):
        combine_sessions([one, two], rule="percent-average")
    with pytest.raises(ValidationError, match="scored in MPs"):
        combine_sessions([one, S1], rule="sum")


@pytest.mark.parametrize("left, right", [
    ("Anna Strand - Bo Ek", "bo ek & anna strand"),
    ("Strand, Anna - Ek, Bo", "Anna  Strand / Bo Ek"),
    ("Anna Strand, Bo Ek", "Ek, Bo & Strand, Anna"),
    ("Pirjo Juuri-Oja - Erkki Juuri-Oja", "erkki juuri-oja + pirjo juuri-oja"),
])
def test_names_match_regardless_of_case_order_and_spacing(left, right):
    keys = names_key(pd.Series([left, right], dtype="string"))
    assert keys.iloc[0] == keys.iloc[1]


def test_names_keys():
    keys = names_key(pd.Series(["Strand, Anna - Bo Ek", None, "Juuri-Oja Pirjo"], dtype="string")).tolist()
    assert keys == ["anna strand & bo ek", pd.NA, "juuri-oja pirjo"]
    assert ids_key(pd.Series(["1066307 & 964263", "964263/1066307", None], dtype="string")).tolist() == [
        "1066307+964263", "1066307+964263", pd.NA]


def test_match_by_names_finds_a_pair_under_another_number():
    renumbered = session("s2", [("7", "ek, bo & strand, anna", 2, 8), ("2", "Cy Li - Di Wu", 2, 12)])
    table = combine_sessions([S1, renumbered], match="names").standings
    assert table.set_index("pair").loc["7", ["sessions", "total"]].tolist() == [2, 22.0]
    by_number = combine_sessions([S1, renumbered], match="number")
    assert "7" not in set(by_number.standings["pair"])  # pair 7 played only session 2: dropped
    assert set(by_number.dropped["pair"]) == {"1", "3", "7"}


def test_matching_problems_are_all_listed():
    nameless = session("s2", [("1", None, 2, 8), ("2", "Cy Li - Di Wu", 2, 12), ("5", "di wu & cy li", 2, 4)])
    with pytest.raises(ValidationError) as caught:
        combine_sessions([S1, nameless], match="names")
    problems = caught.value.problems
    assert problems[["source", "value"]].values.tolist() == [["s2", "1"], ["s2", "cy li & di wu"]]
    assert "pair 1 has no names" in problems["message"].iloc[0]
    assert "pairs 2 and 5 have the same names" in problems["message"].iloc[1]


def test_a_number_whose_names_change_is_noted():
    other = session("s2", [("1", "Anna Strand - Bo Ek", 2, 8), ("2", "Zed Zo - Di Wu", 2, 12)])
    notes = combine_sessions([S1, other]).notes
    assert notes[["source", "value"]].values.tolist() == [["s2", "2"]]
    assert "names differ (s1: Cy Li - Di Wu; s2: Zed Zo - Di Wu)" in notes["message"].iloc[0]


def test_two_winner_sessions_keep_their_lines_and_per_direction_numbers():
    ns1 = session("s1", [("1", "a", 2, 12), ("2", "b", 2, 8)], group="NS")
    ew1 = session("s1", [("1", "c", 2, 11), ("2", "d", 2, 9)], group="EW")
    ns2 = session("s2", [("1", "a", 2, 10), ("2", "b", 2, 10)], group="NS")
    ew2 = session("s2", [("1", "c", 2, 4), ("2", "d", 2, 16)], group="EW")
    one = SessionStandings("s1", "mp", pd.concat([ns1.standings, ew1.standings], ignore_index=True), 10.0)
    two = SessionStandings("s2", "mp", pd.concat([ns2.standings, ew2.standings], ignore_index=True), 10.0)
    table = combine_sessions([one, two]).standings
    assert table[["group", "rank", "pair", "names", "total"]].values.tolist() == [
        ["EW", "1", "2", "d", 25.0], ["EW", "2", "1", "c", 15.0], ["NS", "1", "1", "a", 22.0],
        ["NS", "2", "2", "b", 18.0]]


# --------------------------------------------------------------------------- the oracle

def slow_event(sessions: list[list[tuple[str, float, float]]], rule: str) -> dict[str, tuple[float, float]]:
    """Pairs that played every session: (total, pct) by summing in plain Python, pair by pair."""
    everyone = set.intersection(*({p for p, _, _ in s} for s in sessions))
    out = {}
    for pair in everyone:
        rows = [next(r for r in s if r[0] == pair) for s in sessions]
        if rule == "sum":
            total = sum(t for _, t, _ in rows)
            out[pair] = (total, total / sum(top for _, _, top in rows) * 100)
        else:
            mean = sum(t / top * 100 for _, t, top in rows) / len(rows)
            out[pair] = (mean, mean)
    return out


@st.composite
def events(draw):
    pairs = [str(n) for n in range(1, draw(st.integers(2, 6)) + 1)]
    count = draw(st.integers(1, 4))
    out = []
    for _ in range(count):
        played = draw(st.lists(st.sampled_from(pairs), min_size=1, unique=True))
        rows = []
        for pair in played:
            boards = draw(st.integers(1, 5))
            top = boards * 10.0
            rows.append((pair, float(draw(st.integers(0, int(top)))), top))
        out.append(rows)
    return out


def slow_unmatched(sessions: list[list[tuple[str, float, float]]]) -> bool:
    """True when a session has fewer than half of the pairs it could share (the fewer of its own and the
    other sessions') in the other sessions: the event is refused."""
    if len(sessions) < 2:
        return False
    for n, rows in enumerate(sessions):
        mine = {p for p, _, _ in rows}
        others = {p for m, other in enumerate(sessions) if m != n for p, _, _ in other}
        could = min(len(mine), len(others))
        if could and len(mine & others) / could < 0.5:
            return True
    return False


@settings(max_examples=examples(200), deadline=None)
@given(events(), st.sampled_from(["sum", "percent-average"]))
def test_sum_and_percent_average_against_a_slow_oracle(sessions, rule):
    given_sessions = [session(f"s{n}", [(p, f"names {p}", int(top // 10), t, top) for p, t, top in rows])
                      for n, rows in enumerate(sessions, start=1)]
    if slow_unmatched(sessions):
        with pytest.raises(ValidationError, match="pairs of this session are found in the other sessions"):
            combine_sessions(given_sessions, rule=rule, missing="drop")
        return
    ranking = combine_sessions(given_sessions, rule=rule, missing="drop")
    want = slow_event(sessions, rule)
    table = ranking.standings
    assert set(table["pair"]) == set(want)
    for pair, total, pct in zip(table["pair"], table["total"], table["pct"]):
        assert total == pytest.approx(want[pair][0]) and pct == pytest.approx(want[pair][1])
    totals = table["total"].to_numpy()
    assert (np.diff(totals) <= 1e-9).all()  # best first
    expected_rank = [str(int((totals > t + 1e-6).sum()) + 1) for t in totals]
    assert [r.rstrip("=") for r in table["rank"]] == expected_rank


# --------------------------------------------------------------------------- keys by number

def table(rows: list[tuple[str, str]], **identity: list[str]) -> pd.DataFrame:
    """Standings rows of (group, pair), with session_table's identity columns when given."""
    frame = pd.DataFrame({"group": [g for g, _ in rows], "pair": [p for _, p in rows]}, dtype="string")
    return frame.assign(**{k: pd.Series(v, dtype="string") for k, v in identity.items()})


@pytest.mark.parametrize("rows, identity, keys", [
    # shared numbering (a Howell): the number alone
    ([("ALL", "1"), ("ALL", "2")], {}, ["::1", "::2"]),
    # a Mitchell numbered per direction: the direction too
    ([("NS", "1"), ("EW", "1")], {}, [":NS:1", ":EW:1"]),
    # a Mitchell numbered 1-2 NS, 3-4 EW: one number per pair, no direction
    ([("NS", "1"), ("NS", "2"), ("EW", "3"), ("EW", "4")], {}, ["::1", "::2", "::3", "::4"]),
    # two sections, per direction: the section too
    ([("A NS", "1"), ("A EW", "1"), ("B NS", "1")], {}, ["A:NS:1", "A:EW:1", "B:NS:1"]),
    # session_table's columns: one section (A) is no section, so a .bws's A 1 is a CSV's 1
    ([("ALL", "NS 1"), ("ALL", "EW 1")], {"section": ["A", "A"], "direction": ["NS", "EW"], "number": ["1", "1"]},
     [":NS:1", ":EW:1"]),
    ([("ALL", "A1"), ("ALL", "B1")], {"section": ["A", "B"], "direction": ["", ""], "number": ["1", "1"]},
     ["A::1", "B::1"]),
])
def test_the_key_by_number_is_built_alike_in_every_session(rows, identity, keys):
    assert number_key(table(rows, **identity)).tolist() == keys


def two_sections(label: str) -> SessionStandings:
    rows = [session(label, [("1", None, 2, 12), ("2", None, 2, 8)], group=g).standings for g in ("A NS", "A EW",
                                                                                                 "B NS", "B EW")]
    return SessionStandings(label, "mp", pd.concat(rows, ignore_index=True), 10.0)


def test_a_sectioned_and_an_unsectioned_session_are_refused_with_the_fix():
    plain = SessionStandings("s2", "mp", pd.concat([session("s2", [("1", None, 2, 12), ("2", None, 2, 8)],
                                                            group=g).standings for g in ("NS", "EW")],
                                                   ignore_index=True), 10.0)
    with pytest.raises(ValidationError) as caught:
        combine_sessions([two_sections("s1"), plain])
    problems = caught.value.problems
    assert problems[["source", "column", "value"]].values.tolist() == [["s1", "number", "0 of 4"],
                                                                      ["s2", "number", "0 of 4"]]
    assert "only 0 of 4 pairs of this session are found in the other sessions by number" in problems["message"][0]
    assert "(here section A NS 1" in problems["message"][0] and "there NS 1" in problems["message"][0]
    assert "--match names" in problems["message"][0]
    # the same sections in both: every pair found, NS and EW of each section ranked apart
    ranked = combine_sessions([two_sections("s1"), two_sections("s2")]).standings
    assert ranked[["group", "pair", "total"]].values.tolist()[:2] == [["A EW", "1", 24.0], ["A EW", "2", 16.0]]
    assert len(ranked) == 8


@pytest.mark.parametrize("second, refused", [
    (["1", "2"], False),          # 2 of 2 found
    (["1", "7"], False),          # 1 of 2 found: half, a pair can miss a session
    (["7", "8", "9"], True),      # 0 of 3
    (["1", "7", "8", "9"], True),  # 1 of 3 (the first session's 3 pairs are the fewer)
])
def test_only_a_small_share_of_pairs_found_is_refused(second, refused):
    other = session("s2", [(p, None, 2, 10) for p in second])
    if refused:
        with pytest.raises(ValidationError, match="pairs of this session are found in the other sessions"):
            combine_sessions([S1, other])
    else:
        assert len(combine_sessions([S1, other]).standings) >= 1
