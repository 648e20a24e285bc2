"""The movements a club plays when the full one does not fit (issue 30), checked exhaustively for every size:
an even Mitchell with a relay and a bye stand, short Howells, a half table (a sit-out pair) in every place it
can be, two or more sections; and the seats: which pairs sit both ways. Each property is checked on the
seating frame the entry workbook, the cards and the checks all read."""
from __future__ import annotations

import itertools

import pandas as pd
import pytest

from bridgeproc.movements import PHANTOM, howell, in_sections, mitchell, with_sitout
from bridgeproc.movements.howell import MAX_TABLES as HOWELL_MAX
from bridgeproc.movements.howell import MIN_TABLES as HOWELL_MIN
from bridgeproc.movements.mitchell import MAX_TABLES, MIN_TABLES
from bridgeproc.schema import SEATING_COLUMNS

EVEN = [t for t in range(MIN_TABLES, MAX_TABLES + 1) if t % 2 == 0]


def _pair_plays(seating: pd.DataFrame, shared: bool) -> pd.DataFrame:
    """One row per pair per round it is seated in: the pair (``NS 3`` / ``EW 3`` when numbered per direction),
    its round, table, board set and opponents; the missing pair left out."""
    sides = []
    for side, other in (("ns", "ew"), ("ew", "ns")):
        name = seating[side].astype(str) if shared else side.upper() + " " + seating[side].astype(str)
        against = seating[other].astype(str) if shared else other.upper() + " " + seating[other].astype(str)
        sides.append(pd.DataFrame({"pair": name, "real": seating[side] != PHANTOM, "section": seating["section"],
                                   "round": seating["round"], "table": seating["table"],
                                   "board_set": seating["board_set"], "against": against,
                                   "plays": (seating[other] != PHANTOM), "direction": side}))
    long = pd.concat(sides, ignore_index=True)
    return long[long["real"]].drop(columns="real")


def _keeps_its_promises(seating: pd.DataFrame, shared: bool) -> None:
    """What every movement promises: one row (one board set) per table per round; no pair seated twice in a
    round; no pair plays a board set twice; no two pairs meet twice."""
    assert dict(seating.dtypes.astype(str)) == SEATING_COLUMNS
    assert not seating.duplicated(["section", "round", "table"]).any()
    plays = _pair_plays(seating, shared)
    assert not plays.duplicated(["section", "pair", "round"]).any()
    played = plays[plays["plays"]]
    assert not played.duplicated(["section", "pair", "board_set"]).any()
    tables = played[played["direction"] == "ns"]  # each meeting once, from the NS side
    meetings = tables.assign(key=[frozenset(k) for k in zip(tables["pair"], tables["against"])])
    assert not meetings.duplicated(["section", "key"]).any()


@pytest.mark.parametrize("tables", EVEN)
def test_a_relay_and_bye_mitchell_plays_every_round_and_every_board(tables):
    movement = mitchell(tables, 2, even="relay")
    seating = movement.seating
    _keeps_its_promises(seating, shared=False)
    assert (movement.rounds, movement.board_sets, len(seating)) == (tables, tables, tables * tables)
    # every EW pair meets every NS pair once and plays every board set once: nothing missed, no skip
    assert seating.groupby("ew")["ns"].nunique().eq(tables).all()
    assert seating.groupby("ew")["board_set"].nunique().eq(tables).all()
    assert seating.groupby("ns")["board_set"].nunique().eq(tables).all()
    # every set is played by every NS pair once, so as often as every other: n times
    assert set(seating["board_set"].value_counts()) == {tables}
    # tables 1 and n share (relay) one set each round; one set a round rests on the bye stand
    by = seating.pivot(index="round", columns="table", values="board_set")
    assert (by[1] == by[tables]).all()
    assert (by.drop(columns=tables).nunique(axis=1) == tables - 1).all()
    resting = [set(range(1, tables + 1)) - set(by.loc[r]) for r in by.index]
    assert all(len(rest) == 1 for rest in resting)
    # the boards move down one place of the circuit bye, n/2, ..., 1, n - 1, ..., n/2 + 1, bye
    half = tables // 2
    circuit = [0, *range(half, 1, -1), 1, *range(tables - 1, half, -1)]
    for r in range(1, tables):
        here = {t: by.loc[r, t] for t in range(1, tables)} | {0: next(iter(resting[r - 1]))}
        there = {t: by.loc[r + 1, t] for t in range(1, tables)} | {0: next(iter(resting[r]))}
        for i, place in enumerate(circuit):
            assert there[circuit[(i + 1) % tables]] == here[place]


def test_a_relay_needs_two_boards_a_round_to_share():
    with pytest.raises(ValueError, match="tables 1 and n share their boards"):
        mitchell(6, 1, even="relay")
    assert mitchell(7, 1, even="relay").name.startswith("Mitchell, 7 tables")  # odd: no relay is needed


@pytest.mark.parametrize(("tables", "rounds"), [(t, r) for t in range(HOWELL_MIN, HOWELL_MAX + 1)
                                                for r in range(1, 2 * t - 1)])
def test_every_short_howell_keeps_its_promises(tables, rounds):
    movement = howell(tables, 2, rounds)
    seating = movement.seating
    _keeps_its_promises(seating, shared=True)
    assert movement.rounds == rounds and len(seating) == tables * rounds
    assert movement.name.startswith(f"short Howell ({rounds} of the complete Howell's {2 * tables - 1} rounds)")
    # every pair plays every round; the board sets numbered 1..k with none left unplayed
    assert (seating.groupby("round")[["ns", "ew"]].nunique().sum(axis=1) == 2 * tables).all()
    assert sorted(seating["board_set"].unique()) == list(range(1, movement.board_sets + 1))
    # the complete Howell's first rounds, its sets renumbered in order
    full = howell(tables, 2).seating
    head = full[full["round"] <= rounds]
    assert head[["round", "table", "ns", "ew"]].reset_index(drop=True).equals(
        seating[["round", "table", "ns", "ew"]].reset_index(drop=True))
    renumbered = head["board_set"].rank(method="dense").astype("int64").to_numpy()
    assert (renumbered == seating["board_set"].to_numpy()).all()


def _mitchell_sitouts():
    for tables in range(MIN_TABLES, MAX_TABLES + 1):
        for side in ("ns", "ew"):
            for pair in (1, (tables + 1) // 2, tables):
                yield tables, side, pair


@pytest.mark.parametrize(("tables", "side", "pair"), list(_mitchell_sitouts()))
def test_a_mitchell_half_table_sits_out_the_pair_the_missing_one_meets(tables, side, pair):
    full = mitchell(tables, 2)
    movement = with_sitout(full, pair, side)
    seating = movement.seating
    _keeps_its_promises(seating, shared=False)
    other = "ew" if side == "ns" else "ns"
    missing = seating[side] == PHANTOM
    # the missing pair is gone from every round, in its place only; every other seat is as it was
    assert missing.groupby(seating["round"]).sum().eq(1).all()
    assert (full.seating.loc[missing, side] == pair).all() and (full.seating.loc[~missing, side] == seating.loc[~missing, side]).all()
    assert seating[other].equals(full.seating[other])
    # every pair it meets sits out once at most (one sit-out a round, a pair meets it at most once)
    assert not seating.loc[missing, other].duplicated().any()
    # no travellers at the sit-out tables: one table fewer each round
    travellers = movement.travellers()
    assert len(travellers) == (tables - 1) * full.rounds * 2
    assert not (travellers[["ns", "ew"]] == PHANTOM).any().any()
    assert movement.sitout == f"{pair}{side.upper()}"


@pytest.mark.parametrize("tables", range(HOWELL_MIN, HOWELL_MAX + 1))
@pytest.mark.parametrize("which", ["top", "first"])
def test_a_howell_half_table_sits_out_each_pair_once(tables, which):
    pair = 2 * tables if which == "top" else 1
    full = howell(tables, 2)
    movement = with_sitout(full, pair)
    seating = movement.seating
    _keeps_its_promises(seating, shared=True)
    missing = (seating["ns"] == PHANTOM) | (seating["ew"] == PHANTOM)
    assert missing.groupby(seating["round"]).sum().eq(1).all()  # one sit-out table a round
    sat_out = seating.loc[missing, ["ns", "ew"]].max(axis=1)  # the pair there, not the missing one
    # the complete Howell meets every pair once, so every other pair sits out exactly once
    assert sorted(sat_out) == sorted(set(range(1, 2 * tables + 1)) - {pair})
    # each board set is at the sit-out table once (as the missing pair plays every set once): played one time
    # fewer than in the complete Howell
    assert (seating.loc[missing, "board_set"].value_counts() == 1).all()


@pytest.mark.parametrize("count", [2, 3, 4])
def test_sections_play_the_same_movement_each_with_its_own_pairs(count):
    one = mitchell(7, 2)
    movement = in_sections(one, count)
    seating = movement.seating
    _keeps_its_promises(seating, shared=False)
    letters = "ABCD"[:count]
    assert list(dict.fromkeys(seating["section"])) == list(letters)
    for letter in letters:
        part = seating[seating["section"] == letter].drop(columns="section").reset_index(drop=True)
        assert part.equals(one.seating.drop(columns="section"))
    assert movement.name.endswith(f"in {count} sections ({', '.join(letters)})")
    travellers = movement.travellers()
    assert len(travellers) == count * 7 * 14 and travellers["section"].tolist()[:1] == ["A"]
    # a half table in the section named (the last by default), the other sections whole
    half = with_sitout(movement, 7, "ns")
    gone = half.seating["ns"] == PHANTOM
    assert set(half.seating.loc[gone, "section"]) == {letters[-1]}
    assert set(with_sitout(movement, 7, "ns", "A").seating.loc[lambda s: s["ns"] == PHANTOM, "section"]) == {"A"}


@pytest.mark.parametrize("tables", range(HOWELL_MIN, HOWELL_MAX + 1))
def test_a_howell_seats_every_moving_pair_both_ways(tables):
    """A Howell ranks every pair against every other (one winner): every pair but the stationary one sits NS
    in some rounds and EW in others, and every board is played in both directions by the field."""
    plays = _pair_plays(howell(tables, 2).seating, shared=True)
    directions = plays.groupby("pair")["direction"].nunique()
    stationary = str(2 * tables)
    assert directions.drop(index=stationary).eq(2).all() and directions[stationary] == 1


@pytest.mark.parametrize("tables", range(MIN_TABLES, MAX_TABLES + 1))
def test_an_arrow_switched_mitchell_seats_every_pair_both_ways(tables):
    """A Mitchell keeps its pairs in one direction (two winners) unless the last rounds are switched: then
    every pair sits both ways, the NS pairs EW in the switched rounds."""
    full = tables if tables % 2 else tables - 1
    last = max(1, full // 4)  # a quarter of the rounds, as clubs switch them
    plain = mitchell(tables, 2).seating
    assert (plain["ns"] == plain["table"]).all()
    switched = mitchell(tables, 2, arrow_switch=range(full - last + 1, full + 1)).seating
    turned = switched["switched"].astype(bool)
    assert turned.sum() == last * tables
    # the stationary pair of each table sits NS in the rounds not switched and EW in those switched
    assert (switched.loc[~turned, "ns"] == switched.loc[~turned, "table"]).all()
    assert (switched.loc[turned, "ew"] == switched.loc[turned, "table"]).all()


@pytest.mark.parametrize(("call", "message"), [
    (lambda: with_sitout(mitchell(7), 8, "ns"), "there is no pair 8 NS in the movement"),
    (lambda: with_sitout(howell(4), 9), "there is no pair 9 in the movement"),
    (lambda: with_sitout(in_sections(mitchell(5), 2), 1, "ew", "C"), "there is no section C"),
    (lambda: in_sections(mitchell(5), 27), "give 1 to 26"),
    (lambda: howell(4, 2, 8), "plays 1 to 7 rounds, not 8"),
])
def test_a_variant_the_movement_cannot_have_is_refused(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_sizes_and_variants_are_all_covered():
    """Every Mitchell (odd, skip, relay) and every Howell (complete and short) the library builds: counted, so
    that a size added to the library is added to the properties too."""
    mitchells = sum(1 for _ in range(MIN_TABLES, MAX_TABLES + 1)) + len(EVEN)
    howells = sum(2 * t - 1 for t in range(HOWELL_MIN, HOWELL_MAX + 1))
    assert (mitchells, howells) == (19, 63)
    assert list(itertools.islice(_mitchell_sitouts(), 3)) == [(3, "ns", 1), (3, "ns", 2), (3, "ns", 3)]
