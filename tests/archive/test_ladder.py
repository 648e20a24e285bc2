"""The season ladder from the archive: best N of M, minimum sessions, by pair or player, identity."""
import dataclasses
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.archive import archive_session, history
from bridgeproc.archive.ladder import _locate, _sorted_by, ladder, rank_ladder
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.schema import LADDER_COLUMNS
from tests.conftest import examples

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TEMPLATE = synthetic_session(2, 2, seed=1)


def club_session(date: str, rows: list[tuple], event: str = "Autumn ladder", method: str = "mp"):
    """A session whose standings are ``rows`` of (names, pct[, ids]): the archive stores them as given."""
    pairs = [str(i + 1) for i in range(len(rows))]
    standings = pd.DataFrame({"method": method, "group": "ALL", "rank": [str(i + 1) for i in range(len(rows))],
                              "pair": pairs, "names": [r[0] for r in rows], "boards": 24,
                              "total": [r[1] if r[1] is not None else 0.0 for r in rows],
                              "pct": [r[1] for r in rows]}).astype(TEMPLATE.standings.dtypes.to_dict())
    names = pd.DataFrame({"section": "", "pair": pairs, "names": [r[0] for r in rows]}).astype("string")
    if any(len(r) > 2 for r in rows):
        names["ids"] = pd.array([r[2] if len(r) > 2 else None for r in rows], dtype="string")
    names = names[names["names"].notna()].reset_index(drop=True)
    return dataclasses.replace(TEMPLATE, standings=standings, names=names, meta={"event": event, "date": date})


ANNA_BJORN = ["Strand, Anna & Sæther, Bjørn", "anna strand & bjørn sæther", "Anna  Strand & Bjørn Sæther",
              "Bjørn Sæther & Anna Strand"]
SEASON = [
    club_session("2026-09-01", [(ANNA_BJORN[0], 60.0), ("Cy Young & Di Lane", 52.0), ("Ed Wood & Flo Grey", 65.0)]),
    club_session("2026-09-08", [(ANNA_BJORN[1], 55.0), ("Cy Young & Di Lane", 58.0), ("Ed Wood & Flo Grey", 63.0)]),
    club_session("2026-09-15", [(ANNA_BJORN[2], 70.0), ("Di Lane & Cy Young", 49.0)]),
    club_session("2026-09-22", [(ANNA_BJORN[3], 50.0), ("Cy Young & Di Lane", 61.0)]),
    club_session("2026-09-29", [("Anna Strand & Gus Hart", 66.0), ("Cy Young & Di Lane", 57.0),
                                ("Bjørn Sæther & Hal Ray", 40.0)]),
    # outside the season: another month, another series, a Butler night (no percentage)
    club_session("2026-08-25", [(ANNA_BJORN[0], 99.0), ("Cy Young & Di Lane", 1.0)]),
    club_session("2026-09-10", [(ANNA_BJORN[0], 99.0)], event="Summer cup"),
    club_session("2026-09-12", [(ANNA_BJORN[0], None)], event="Autumn ladder butler", method="butler"),
]


@pytest.fixture
def season(archive_url):
    for session in SEASON:
        archive_session(session, archive_url)
    return archive_url


def _rows(table):
    return [[r.rank, r.names, r.ids, r.sessions, r.counted, pytest.approx(r.pct), r.best] for r in table.itertuples()]


AUTUMN = {"date_from": "2026-09-01", "date_to": "2026-09-30", "event": "autumn LADDER"}


def test_best_three_of_five_by_pair_with_names_written_four_ways(season):
    answer = ladder(season, **AUTUMN, best=3)
    got = answer.table
    assert got.dtypes.astype(str).to_dict() == {k: str(v) for k, v in LADDER_COLUMNS.items()}
    assert _rows(got) == [  # by hand: each pair's best three of the five nights
        ["1", "Anna Strand & Gus Hart", "", 1, 1, 66.0, 66.0],
        ["2", "Ed Wood & Flo Grey", "", 2, 2, (65 + 63) / 2, 65.0],
        ["3", "Anna Strand & Bjørn Sæther", "", 4, 3, (70 + 60 + 55) / 3, 70.0],
        ["4", "Cy Young & Di Lane", "", 5, 3, (61 + 58 + 57) / 3, 61.0],
        ["5", "Bjørn Sæther & Hal Ray", "", 1, 1, 40.0, 40.0],
    ]
    assert answer.sessions == 5
    assert answer.rule == "best 3 of 5 sessions, by pair"
    assert list(answer.notes) == [
        "'Strand, Anna', 'anna strand', 'Anna  Strand' and 'Anna Strand' taken as one player (the same name)",
        "'Sæther, Bjørn', 'bjørn sæther' and 'Bjørn Sæther' taken as one player (the same name)",
        "events: 'Autumn ladder' (5), 'Autumn ladder butler' (1)",
        "sessions scored by IMPs have no percentage, left out: 2026-09-12_autumn-ladder-butler",
    ]


def test_min_sessions_lists_the_others_unranked(season):
    answer = ladder(season, **AUTUMN, best=3, min_sessions=3)
    got = answer.table
    assert [(r.rank, r.names) for r in got.itertuples()] == [
        ("1", "Anna Strand & Bjørn Sæther"), ("2", "Cy Young & Di Lane"),
        ("", "Anna Strand & Gus Hart"), ("", "Ed Wood & Flo Grey"), ("", "Bjørn Sæther & Hal Ray")]
    assert answer.notes[-1] == "3 pair(s) with fewer than 3 sessions listed unranked"
    assert answer.rule == "best 3 of 5 sessions, by pair, at least 3 sessions to be ranked"


def test_by_player(season):
    answer = ladder(season, **AUTUMN, best=3, by="player")
    got = answer.table
    assert [(r.rank, r.names, r.sessions, r.counted) for r in got.itertuples()] == [
        ("1", "Gus Hart", 1, 1), ("2", "Anna Strand", 5, 3), ("3=", "Ed Wood", 2, 2), ("3=", "Flo Grey", 2, 2),
        ("5", "Bjørn Sæther", 5, 3), ("6=", "Cy Young", 5, 3), ("6=", "Di Lane", 5, 3), ("8", "Hal Ray", 1, 1)]
    assert got["pct"].tolist()[:2] == [66.0, pytest.approx((70 + 66 + 60) / 3)]
    assert answer.rule == "best 3 of 5 sessions, by player"


def test_every_session_without_best_and_the_range_alone(season):
    answer = ladder(season, event="Autumn ladder")
    got = answer.table  # August too, no date range
    row = got.set_index("names").loc["Anna Strand & Bjørn Sæther"]
    assert (row["sessions"], row["counted"], row["pct"]) == (5, 5, pytest.approx((99 + 60 + 55 + 70 + 50) / 5))
    until = ladder(season, date_to="2026-08-31").table
    assert _rows(until) == [["1", "Strand, Anna & Sæther, Bjørn", "", 1, 1, 99.0, 99.0],  # as written there
                            ["2", "Cy Young & Di Lane", "", 1, 1, 1.0, 1.0]]
    assert ladder(season, date_from="2027-01-01").table.empty


def test_member_id_beats_name(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0, "100 & 5"),
                                                ("Anna Strand & Di Lane", 50.0, "200 & 6")]), archive_url)
    archive_session(club_session("2026-10-08", [("Anna Lindqvist & Cy Young", 70.0, "100 & 5"),
                                                ("Strand, Anna & Ed Wood", 40.0)]), archive_url)
    answer = ladder(archive_url, by="player")
    got = answer.table
    table = {(r.names, r.ids): (r.sessions, r.pct) for r in got.itertuples()}
    assert table[("Anna Lindqvist", "100")] == (2, 65.0)  # married: one member, the latest name on a tie
    assert table[("Anna Strand", "200")] == (1, 50.0)  # the other Anna Strand
    assert table[("Strand, Anna", "")] == (1, 40.0)  # which of the two is unknown: kept apart
    assert table[("Cy Young", "5")] == (2, 65.0)
    assert list(answer.notes) == [
        "'Anna Strand' and 'Anna Lindqvist' taken as one player (member id 100)",
        "'Anna Strand' and 'Strand, Anna' are 2 players by member id (100, 200); 1 row(s) without a member id kept apart"]
    pairs = ladder(archive_url).table
    assert set(zip(pairs["names"], pairs["ids"])) == {("Anna Lindqvist & Cy Young", "100 & 5"),
                                                     ("Anna Strand & Di Lane", "200 & 6"),
                                                     ("Ed Wood & Strand, Anna", "")}


def test_rows_that_cannot_count_are_named(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0), (None, 55.0),
                                                ("anna strand & Di Lane", 50.0)]), archive_url)
    answer = ladder(archive_url, by="player")
    got = answer.table
    assert got.set_index("names").loc["anna strand", ["sessions", "pct"]].tolist() == [1, 60.0]  # latest spelling
    assert "1 standings row(s) without names left out (a pair is known from one session to the next only by its " \
           "names): 2026-10-01_autumn-ladder" in answer.notes
    assert "in two rows of one session, the better counts: anna strand in 2026-10-01_autumn-ladder" \
        in answer.notes


def test_history_finds_every_spelling(season):
    answer = history(season, "Strand, Anna")
    got = answer.table
    assert got["date"].tolist() == ["2026-08-25", "2026-09-01", "2026-09-08", "2026-09-10", "2026-09-12",
                                    "2026-09-15", "2026-09-22", "2026-09-29"]
    assert got["partner"].tolist() == ["Sæther, Bjørn", "Sæther, Bjørn", "bjørn sæther", "Sæther, Bjørn",
                                       "Sæther, Bjørn", "Bjørn Sæther", "Bjørn Sæther", "Gus Hart"]
    assert answer.matches[0].endswith("taken as one player (the same name)")
    both = history(season, "bjørn sæther & ANNA STRAND").table
    assert len(both) == 7 and "Gus Hart" not in set(both["names"].str.cat(sep=" "))


def test_history_by_member_id(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0, "100 & 5")]), archive_url)
    archive_session(club_session("2026-10-08", [("Anna Lindqvist & Di Lane", 70.0, "100 & 6")]), archive_url)
    for asked in ("Anna Strand", "100", "anna lindqvist"):
        assert history(archive_url, asked).table["partner"].tolist() == ["Cy Young", "Di Lane"], asked


def _slow_ladder(pcts: dict[str, list[float]], best, min_sessions):
    """The obvious ladder: sort each entry's percentages, average the best, rank by counting."""
    rows = {}
    for entry, values in pcts.items():
        top = sorted(values, reverse=True)[:best] if best else values
        rows[entry] = (len(values), len(top), math.fsum(top) / len(top), max(values))
    ranked = {e: r for e, r in rows.items() if r[0] >= min_sessions}
    out = {}
    for entry, (played, counted, pct, high) in rows.items():
        if entry in ranked:
            above = sum(round(r[2], 6) > round(pct, 6) for r in ranked.values())
            tied = sum(round(r[2], 6) == round(pct, 6) for r in ranked.values()) > 1
            rank = f"{above + 1}" + ("=" if tied else "")
        else:
            rank = ""
        out[entry] = (rank, played, counted, pct, high)
    return out


@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(st.sampled_from([f"P{i}" for i in range(12)]),
                       st.lists(st.sampled_from([0.0, 25.0, 37.5, 50.0, 50.0, 62.5, 100.0, 33.3333333]),
                                min_size=1, max_size=8), min_size=1),
       st.one_of(st.none(), st.integers(1, 6)), st.integers(1, 5))
def test_best_n_against_the_obvious_implementation(pcts, best, min_sessions):
    scores = pd.DataFrame([{"entry": e, "names": e, "ids": "", "session_id": f"s{i}", "pct": p}
                           for e, values in pcts.items() for i, p in enumerate(values)])
    got = rank_ladder(scores, best, min_sessions)
    expected = _slow_ladder(pcts, best, min_sessions)
    assert {r.names: (r.rank, r.sessions, r.counted, pytest.approx(r.pct), r.best) for r in got.itertuples()} \
        == expected
    ranked = got[got["rank"] != ""]
    assert ranked["pct"].round(6).is_monotonic_decreasing and (got["rank"] == "").sum() == len(got) - len(ranked)
    assert (got["rank"] == "").tolist() == sorted((got["rank"] == "").tolist())  # the unranked come last


@pytest.mark.parametrize(("second_ids", "member"), [
    ("100 & 5", "100"),  # the same ids on both names rows of that text: the member
    ("200 & 5", None),  # two ids texts for one names text: whose is unknown
    (None, None),  # one names row without ids: as unknown
])
def test_a_names_text_listed_twice_gives_its_ids_only_when_both_rows_agree(archive_url, second_ids, member):
    rows = [("Anna Strand & Cy Young", 60.0, "100 & 5"), ("Anna Strand & Cy Young", 50.0, second_ids)]
    archive_session(club_session("2026-10-01", rows), archive_url)
    answer = ladder(archive_url, by="player")
    got = answer.table
    anna = got[got["names"] == "Anna Strand"]
    assert anna[["ids", "sessions", "pct"]].values.tolist() == [[member or "", 1, 60.0]]  # the better row counts
    assert answer.notes[-1] == "in two rows of one session, the better counts: Anna Strand in 2026-10-01_autumn-ladder, " \
                                     "Cy Young in 2026-10-01_autumn-ladder"
    assert len(history(archive_url, "100").table) == (2 if member else 0)
    assert len(history(archive_url, "Anna Strand").table) == 2


# --- issue 17: the ladder's narrow queries (standings rows, players and member ids as aggregated
# columns) read hostile names and ids exactly, and SQLite and PostgreSQL give the same ladder ---

ACE, BOB = 'Åse "Ace" Berg', "Bo\\b Ray"  # JSON's quote and backslash, and a letter beyond ASCII
HOSTILE = [
    club_session("2026-10-01", [(f"{ACE} & {BOB}", 61.0, "7 & 8"),
                                ("Cy Young & Di Lane", 55.5, " 5 & 6 "),  # the text listed twice, ids alike
                                ("Cy Young & Di Lane", 40.0, "5 & 6"),
                                (None, 50.0),  # no names
                                ("Ed Wood & Flo Grey", None)]),  # no percentage
    club_session("2026-10-08", [(f"{BOB} & {ACE}", 10.0), ("Di Lane & Cy Young", 10.0, "6 & 5"),
                                ("Ed Wood & Flo Grey", 10.0, "9 & 10")]),  # corrected below: not counted
    club_session("2026-10-08", [(f"{BOB} & {ACE}", 49.0), ("Di Lane & Cy Young", 70.0, "6 & 5"),
                                ("Ed Wood & Flo Grey", 52.0, "9 &")]),  # Flo Grey's id lost: Ed Wood is 9
    club_session("2026-10-15", [("Cy Young & Di Lane", None)], method="butler"),
]
LEFT_OUT = ["sessions scored by IMPs have no percentage, left out: 2026-10-15_autumn-ladder",
            "1 standings row(s) without names left out (a pair is known from one session to the next only by its "
            "names): 2026-10-01_autumn-ladder",
            "1 pair(s) without a percentage left out: 2026-10-01_autumn-ladder pair 5"]


@pytest.fixture
def hostile(archive_url):
    for session in HOSTILE:
        archive_session(session, archive_url)
    return archive_url


def test_hostile_names_and_ids_by_pair_on_either_database(hostile):
    answer = ladder(hostile)
    got = answer.table
    assert _rows(got) == [  # by hand: the latest version of 2026-10-08 only, the better of two rows
        ["1", "Cy Young & Di Lane", "5 & 6", 2, 2, (55.5 + 70) / 2, 70.0],
        ["2", f"{BOB} & {ACE}", "8 & 7", 2, 2, (61 + 49) / 2, 61.0],  # "B" sorts before "Å"
        ["3", "Ed Wood & Flo Grey", "9 & -", 1, 1, 52.0, 52.0],
    ]
    assert answer.rule == "all of 2 sessions, by pair"
    assert list(answer.notes) == [*LEFT_OUT, "in two rows of one session, the better counts: Cy Young & Di Lane "
                                             "in 2026-10-01_autumn-ladder"]


def test_hostile_names_and_ids_by_player_on_either_database(hostile):
    answer = ladder(hostile, by="player", best=1)
    got = answer.table
    assert _rows(got) == [  # ties by name, in their order as text
        ["1=", "Cy Young", "5", 2, 1, 70.0, 70.0], ["1=", "Di Lane", "6", 2, 1, 70.0, 70.0],
        ["3=", BOB, "8", 2, 1, 61.0, 61.0], ["3=", ACE, "7", 2, 1, 61.0, 61.0],
        ["5=", "Ed Wood", "9", 1, 1, 52.0, 52.0], ["5=", "Flo Grey", "", 1, 1, 52.0, 52.0],
    ]
    assert answer.notes[-1] == ("in two rows of one session, the better counts: Cy Young in "
                                      "2026-10-01_autumn-ladder, Di Lane in 2026-10-01_autumn-ladder")


def _club_nights(count: int, seed: int) -> list:
    """``count`` club nights of six pairs from a pool of 16 players, a third of them with member ids
    (the bench's archive in small), some pairs without ids or a percentage."""
    rng = np.random.default_rng(seed)
    pool = [f"Player {chr(65 + i)}{' Ø' if i % 5 == 0 else ''}" for i in range(16)]
    member = {name: str(500 + i) for i, name in enumerate(pool) if i % 3 == 0}
    nights = []
    for n in range(count):
        chosen = rng.choice(len(pool), size=12, replace=False)
        rows = []
        for i in range(6):
            a, b = pool[chosen[2 * i]], pool[chosen[2 * i + 1]]
            ids = f"{member[a]} & {member[b]}" if a in member and b in member else None
            pct = None if rng.random() < 0.05 else round(float(rng.uniform(30, 70)), 4)
            rows.append((f"{a} & {b}", pct, ids))
        nights.append(club_session(f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}", rows))
    return nights


@pytest.mark.postgres
def test_sqlite_and_postgresql_give_the_same_ladder(tmp_path, postgres_server):
    from tests.conftest_pg import fresh_database

    urls = [str(tmp_path / "archive.sqlite"), fresh_database(postgres_server)]
    for url in urls:
        for session in _club_nights(40, seed=17):
            archive_session(session, url)
    for by in ("pair", "player"):
        for best, least in ((None, 1), (5, 3)):
            lite, pg = (ladder(url, by=by, best=best, min_sessions=least) for url in urls)
            assert len(lite.table) > 10
            pd.testing.assert_frame_equal(lite.table, pg.table, check_exact=True)
            assert (lite.sessions, lite.rule, lite.notes) == (pg.sessions, pg.rule, pg.notes)


@pytest.mark.parametrize(("rows", "order"), [
    # (entry, names, pct) -> names in ladder order: ties at six decimals by names, NA last, then entry
    ([("e1", "Bea", 50.0), ("e2", "Al", 50.0), ("e3", "Cy", 60.0)], ["Cy", "Al", "Bea"]),
    ([("e1", "Bea", 50.0), ("e2", "Al", 50.0000001)], ["Al", "Bea"]),  # equal to six decimals
    ([("e1", "Al", 50.0), ("e2", "Bea", 50.000001)], ["Bea", "Al"]),  # better by a millionth
    ([("e1", "Al", 50.0001), ("e2", "Bea", 50.0)], ["Al", "Bea"]),
    ([("e1", None, 50.0), ("e2", "Al", 50.0), ("e3", None, 50.0)], ["Al", None, None]),
    ([("e2", "Al", 40.0), ("e1", "Al", 40.0)], ["Al", "Al"]),
])
def test_ties_are_ordered_by_names(rows, order):
    scores = pd.DataFrame({"entry": [r[0] for r in rows], "names": pd.array([r[1] for r in rows], dtype="string"),
                           "ids": "", "session_id": "s1", "pct": [r[2] for r in rows]})
    got = rank_ladder(scores)
    assert [None if pd.isna(n) else n for n in got["names"]] == order


def test_tied_entries_of_one_name_keep_their_entry_order():
    scores = pd.DataFrame({"entry": ["b", "a"], "names": "Al", "ids": ["2", "1"], "session_id": "s1",
                           "pct": [40.0, 40.0]})
    assert rank_ladder(scores)["ids"].tolist() == ["1", "2"]


@pytest.mark.parametrize("big", [False, True])
def test_rows_located_and_sorted_alike_packed_or_not(big):
    """The packed-integer paths and the ones taken when the numbers do not fit give the same answer."""
    lift = 2 ** 40 if big else 0
    version = np.array([3, 1, 3, 2, 1]) + lift
    key = np.array([0, 5, 1, 0, 5]) * (2 ** 30 if big else 1)
    found = _locate(version, key, np.array([1, 3, 9, 2]) + lift, np.array([5, 1, 0, 0]) * (2 ** 30 if big else 1))
    assert found.tolist() == [1, 2, -1, 3]  # the first of a pair listed twice; -1 for none
    assert _sorted_by(version, key).tolist() == [1, 4, 3, 0, 2]


def test_a_names_text_takes_the_ids_of_its_own_session(archive_url):
    """One names text with other member ids in each session: each session's rows its own."""
    archive_session(club_session("2026-10-01", [("Ann Lee & Bo Sun", 60.0, "1 & 2"), ("Cy Young & Di Lane", 50.0)]),
                    archive_url)
    archive_session(club_session("2026-10-08", [("Ann Lee & Bo Sun", 40.0, "3 & 4"), ("Cy Young & Di Lane", 45.0)]),
                    archive_url)
    answer = ladder(archive_url, by="player")
    got = answer.table
    assert [(r.names, r.ids, r.sessions, r.pct) for r in got.itertuples()] == [
        ("Ann Lee", "1", 1, 60.0), ("Bo Sun", "2", 1, 60.0), ("Cy Young", "", 2, 47.5), ("Di Lane", "", 2, 47.5),
        ("Ann Lee", "3", 1, 40.0), ("Bo Sun", "4", 1, 40.0)]
    assert list(answer.notes) == ["'Ann Lee' are 2 players by member id (1, 3)", "'Bo Sun' are 2 players by member id (2, 4)"]
