"""The season ladder from the archive: best N of M, minimum sessions, by pair or player, identity."""
import dataclasses
import math

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.archive import archive_session, history
from bridgeproc.archive.ladder import ladder, rank_ladder
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.schema import LADDER_COLUMNS
from tests.conftest import examples

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
    got = ladder(season, **AUTUMN, best=3)
    assert got.dtypes.astype(str).to_dict() == {k: str(v) for k, v in LADDER_COLUMNS.items()}
    assert _rows(got) == [  # by hand: each pair's best three of the five nights
        ["1", "Anna Strand & Gus Hart", "", 1, 1, 66.0, 66.0],
        ["2", "Ed Wood & Flo Grey", "", 2, 2, (65 + 63) / 2, 65.0],
        ["3", "Anna Strand & Bjørn Sæther", "", 4, 3, (70 + 60 + 55) / 3, 70.0],
        ["4", "Cy Young & Di Lane", "", 5, 3, (61 + 58 + 57) / 3, 61.0],
        ["5", "Bjørn Sæther & Hal Ray", "", 1, 1, 40.0, 40.0],
    ]
    assert got.attrs["sessions"] == 5
    assert got.attrs["rule"] == "best 3 of 5 sessions, by pair"
    assert got.attrs["notes"] == [
        "'Strand, Anna', 'anna strand', 'Anna  Strand' and 'Anna Strand' taken as one player (the same name)",
        "'Sæther, Bjørn', 'bjørn sæther' and 'Bjørn Sæther' taken as one player (the same name)",
        "events: 'Autumn ladder' (5), 'Autumn ladder butler' (1)",
        "sessions scored by IMPs have no percentage, left out: 2026-09-12_autumn-ladder-butler",
    ]


def test_min_sessions_lists_the_others_unranked(season):
    got = ladder(season, **AUTUMN, best=3, min_sessions=3)
    assert [(r.rank, r.names) for r in got.itertuples()] == [
        ("1", "Anna Strand & Bjørn Sæther"), ("2", "Cy Young & Di Lane"),
        ("", "Anna Strand & Gus Hart"), ("", "Ed Wood & Flo Grey"), ("", "Bjørn Sæther & Hal Ray")]
    assert got.attrs["notes"][-1] == "3 pair(s) with fewer than 3 sessions listed unranked"
    assert got.attrs["rule"] == "best 3 of 5 sessions, by pair, at least 3 sessions to be ranked"


def test_by_player(season):
    got = ladder(season, **AUTUMN, best=3, by="player")
    assert [(r.rank, r.names, r.sessions, r.counted) for r in got.itertuples()] == [
        ("1", "Gus Hart", 1, 1), ("2", "Anna Strand", 5, 3), ("3=", "Ed Wood", 2, 2), ("3=", "Flo Grey", 2, 2),
        ("5", "Bjørn Sæther", 5, 3), ("6=", "Cy Young", 5, 3), ("6=", "Di Lane", 5, 3), ("8", "Hal Ray", 1, 1)]
    assert got["pct"].tolist()[:2] == [66.0, pytest.approx((70 + 66 + 60) / 3)]
    assert got.attrs["rule"] == "best 3 of 5 sessions, by player"


def test_every_session_without_best_and_the_range_alone(season):
    got = ladder(season, event="Autumn ladder")  # August too, no date range
    row = got.set_index("names").loc["Anna Strand & Bjørn Sæther"]
    assert (row["sessions"], row["counted"], row["pct"]) == (5, 5, pytest.approx((99 + 60 + 55 + 70 + 50) / 5))
    until = ladder(season, date_to="2026-08-31")
    assert _rows(until) == [["1", "Strand, Anna & Sæther, Bjørn", "", 1, 1, 99.0, 99.0],  # as written there
                            ["2", "Cy Young & Di Lane", "", 1, 1, 1.0, 1.0]]
    assert ladder(season, date_from="2027-01-01").empty


def test_member_id_beats_name(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0, "100 & 5"),
                                                ("Anna Strand & Di Lane", 50.0, "200 & 6")]), archive_url)
    archive_session(club_session("2026-10-08", [("Anna Lindqvist & Cy Young", 70.0, "100 & 5"),
                                                ("Strand, Anna & Ed Wood", 40.0)]), archive_url)
    got = ladder(archive_url, by="player")
    table = {(r.names, r.ids): (r.sessions, r.pct) for r in got.itertuples()}
    assert table[("Anna Lindqvist", "100")] == (2, 65.0)  # married: one member, the latest name on a tie
    assert table[("Anna Strand", "200")] == (1, 50.0)  # the other Anna Strand
    assert table[("Strand, Anna", "")] == (1, 40.0)  # which of the two is unknown: kept apart
    assert table[("Cy Young", "5")] == (2, 65.0)
    assert got.attrs["notes"] == [
        "'Anna Strand' and 'Anna Lindqvist' taken as one player (member id 100)",
        "'Anna Strand' and 'Strand, Anna' are 2 players by member id (100, 200); 1 row(s) without a member id kept apart"]
    pairs = ladder(archive_url)
    assert set(zip(pairs["names"], pairs["ids"])) == {("Anna Lindqvist & Cy Young", "100 & 5"),
                                                     ("Anna Strand & Di Lane", "200 & 6"),
                                                     ("Ed Wood & Strand, Anna", "")}


def test_rows_that_cannot_count_are_named(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0), (None, 55.0),
                                                ("anna strand & Di Lane", 50.0)]), archive_url)
    got = ladder(archive_url, by="player")
    assert got.set_index("names").loc["anna strand", ["sessions", "pct"]].tolist() == [1, 60.0]  # latest spelling
    assert "1 standings row(s) without names left out (a pair is known from one session to the next only by its " \
           "names): 2026-10-01_autumn-ladder" in got.attrs["notes"]
    assert "in two rows of one session, the better counts: anna strand in 2026-10-01_autumn-ladder" \
        in got.attrs["notes"]


def test_history_finds_every_spelling(season):
    got = history(season, "Strand, Anna")
    assert got["date"].tolist() == ["2026-08-25", "2026-09-01", "2026-09-08", "2026-09-10", "2026-09-12",
                                    "2026-09-15", "2026-09-22", "2026-09-29"]
    assert got["partner"].tolist() == ["Sæther, Bjørn", "Sæther, Bjørn", "bjørn sæther", "Sæther, Bjørn",
                                       "Sæther, Bjørn", "Bjørn Sæther", "Bjørn Sæther", "Gus Hart"]
    assert got.attrs["matches"][0].endswith("taken as one player (the same name)")
    both = history(season, "bjørn sæther & ANNA STRAND")
    assert len(both) == 7 and "Gus Hart" not in set(both["names"].str.cat(sep=" "))


def test_history_by_member_id(archive_url):
    archive_session(club_session("2026-10-01", [("Anna Strand & Cy Young", 60.0, "100 & 5")]), archive_url)
    archive_session(club_session("2026-10-08", [("Anna Lindqvist & Di Lane", 70.0, "100 & 6")]), archive_url)
    for asked in ("Anna Strand", "100", "anna lindqvist"):
        assert history(archive_url, asked)["partner"].tolist() == ["Cy Young", "Di Lane"], asked


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
    got = ladder(archive_url, by="player")
    anna = got[got["names"] == "Anna Strand"]
    assert anna[["ids", "sessions", "pct"]].values.tolist() == [[member or "", 1, 60.0]]  # the better row counts
    assert got.attrs["notes"][-1] == "in two rows of one session, the better counts: Anna Strand in 2026-10-01_autumn-ladder, " \
                                     "Cy Young in 2026-10-01_autumn-ladder"
    assert len(history(archive_url, "100")) == (2 if member else 0)
    assert len(history(archive_url, "Anna Strand")) == 2
