"""Individual movements for 2 to 4 tables (issue 30): every property checked exhaustively against the
seating itself (partners once, opponents twice, every board set once per player), the base rounds found
again by the module's own search, and the entry workbook of each size typed in and scored with no
options against a slow count."""
from __future__ import annotations

import csv
import itertools
from collections import Counter

import openpyxl
import pytest

from bridgeproc.cli import cli
from bridgeproc.movements import individual
from bridgeproc.movements.howell import copies
from bridgeproc.movements.individual import BASE_ROUNDS, MAX_TABLES, MIN_TABLES, board_offsets, find_base_round
from bridgeproc.report.cards import card_models
from tests.movements.test_entry_workbook import _slow_matchpoints

SIZES = range(MIN_TABLES, MAX_TABLES + 1)
SEATS = ("north", "south", "east", "west")


def _tables(movement):
    """(round, table, board set, (N, S, E, W)) of every row."""
    players = movement.players.set_index(["round", "table"])
    sets = movement.seating.set_index(["round", "table"])["board_set"]
    return [(r, t, int(sets[(r, t)]), tuple(int(players.loc[(r, t), s]) for s in SEATS)) for r, t in players.index]


@pytest.mark.parametrize("tables", SIZES)
def test_every_individual_keeps_its_promises(tables):
    movement = individual(tables, 2)
    players = 4 * tables
    rows = _tables(movement)
    assert movement.rounds == players - 1 and len(rows) == tables * movement.rounds
    partners, opponents, sets_met = Counter(), Counter(), Counter()
    for r in range(1, movement.rounds + 1):
        seated = [p for row in rows if row[0] == r for p in row[3]]
        assert sorted(seated) == list(range(1, players + 1))  # everyone plays every round, once
    for _, _, board_set, (n, s, e, w) in rows:
        partners.update([frozenset((n, s)), frozenset((e, w))])
        opponents.update(frozenset(pair) for pair in itertools.product((n, s), (e, w)))
        sets_met.update((p, board_set) for p in (n, s, e, w))
    everyone = [frozenset(pair) for pair in itertools.combinations(range(1, players + 1), 2)]
    assert all(partners[pair] == 1 for pair in everyone) and sum(partners.values()) == len(everyone)
    assert all(opponents[pair] == 2 for pair in everyone) and sum(opponents.values()) == 2 * len(everyone)
    # no player meets a board twice, and every player plays every board set
    assert set(sets_met.values()) == {1} and len(sets_met) == players * movement.board_sets
    assert movement.board_sets == movement.rounds
    per_set = Counter(board_set for _, _, board_set, _ in rows)
    assert set(per_set.values()) == {tables}  # every board played once at every table
    # one board set a table a round, shared as the counts force (see the module): 2 and 3 tables all share
    assert copies(movement) == {2: 2, 3: 3, 4: 2}[tables]
    # the stationary player sits North throughout; every other player sits NS 2n - 1 times and EW 2n times
    ns = Counter(p for row in rows for p in row[3][:2])
    assert ns[players] == movement.rounds and set(ns[p] for p in range(1, players)) == {2 * tables - 1}


@pytest.mark.parametrize("tables", SIZES)
def test_a_short_individual_meets_no_one_as_partner_twice(tables):
    movement = individual(tables, 2, rounds=tables + 2)
    rows = _tables(movement)
    partners = Counter(frozenset(pair) for *_, (n, s, e, w) in rows for pair in ((n, s), (e, w)))
    sets_met = Counter((p, board_set) for _, _, board_set, seats in rows for p in seats)
    assert set(partners.values()) == {1} and set(sets_met.values()) == {1}
    assert movement.name.startswith(f"short individual ({tables + 2} of")


@pytest.mark.parametrize("tables", [2, 3, pytest.param(4, marks=pytest.mark.slow)])
def test_the_base_rounds_are_what_the_search_finds(tables):
    """The constants are the search's: the first base round for 2 and 3 tables (every offset choice is
    forced to share there); for 4 tables the first of the search's base rounds whose offsets share least."""
    base, offsets = BASE_ROUNDS[tables]
    skip = {2: 0, 3: 0, 4: 256}[tables]
    assert find_base_round(tables, skip) == base
    assert board_offsets(base, tables) == offsets
    if tables == 4:
        shares = [max(o.count(x) for x in o) for o in (board_offsets(find_base_round(4, k), 4) for k in range(skip))]
        assert min(shares) > 2  # none before it shares less than all of one pair of tables


def test_a_size_it_does_not_build_is_refused():
    with pytest.raises(ValueError, match="give 2 to 4 tables"):
        individual(5)
    with pytest.raises(ValueError, match="plays 1 to 7 rounds, not 8"):
        individual(2, 2, 8)


def test_the_sides_are_the_two_players_as_score_reads_them():
    movement = individual(2, 3)
    travellers = movement.travellers()
    assert travellers.iloc[0][["board", "round", "table", "ns", "ew"]].tolist() == [1, 1, 1, "8+1", "2+4"]
    assert len(travellers) == 2 * 7 * 3


def test_the_cards_have_a_table_card_and_a_player_card_each():
    movement = individual(3, 2)
    cards = card_models(movement)
    assert [c["title"] for c in cards] == [f"Table {t}" for t in (1, 2, 3)] + [f"Player {p}" for p in range(1, 13)]
    assert cards[0]["rows"][0] == [1, 12, 1, 2, 4, "1-2", "done"]  # all three tables share a set, once
    four = card_models(individual(4, 2))
    assert [row[-1] for row in four[2]["rows"][:2]] == ["1, 4", "1, 4"]  # table 3's set goes on to tables 1 and 4
    player1 = cards[3]["rows"]
    assert len(player1) == 11 and player1[0] == [1, 1, "South", 12, "2 & 4", "1-2"]
    assert sorted(row[3] for row in player1) == list(range(2, 13))  # a partner each round, each once


def _fill(path):
    wb = openpyxl.load_workbook(path)
    ws = wb["Travellers"]
    head = [c.value for c in ws[1]]
    assert head == ["Board", "Round", "Table", "NS", "EW", "Contract", "Declarer", "Result", "Lead"]
    contracts, results = ["3NT", "4S", "2H", "3C", "1NT", "4H", "5D", "2S"], ["=", "+1", "-1", "=", "-2", "+2", "=", "-1"]
    for r in range(2, ws.max_row + 1):
        board, north = ws.cell(r, 1).value, int(ws.cell(r, 4).value.split("+")[0])
        pick = (board * 5 + north * 3) % 8
        for column, value in zip(range(6, 10), [contracts[pick], "NESW"[(board + pick) % 4], results[pick], "SA"]):
            ws.cell(r, column).value = value
    names = wb["Names"]
    assert [c.value for c in names[1]] == ["Player no", "Name"]
    assert [names.cell(r, 1).value for r in range(2, names.max_row + 1)] == list(range(1, names.max_row))
    for r in range(2, names.max_row + 1):
        names.cell(r, 2).value = f"Player {names.cell(r, 1).value:02d}"
    wb.save(path)
    return path


@pytest.mark.e2e
@pytest.mark.parametrize(("tables", "boards"), [(2, 21), (3, 22), (4, 30)])
def test_the_entry_workbook_of_an_individual_scores_with_no_options(runner, tmp_path, tables, boards):
    path = tmp_path / "entry.xlsx"
    made = runner.invoke(cli, ["movement", "individual", "--tables", str(tables), "--boards", str(boards), "-o", str(path)])
    assert made.exit_code == 0, made.output
    out, ranking = tmp_path / "scored.csv", tmp_path / "scored.xlsx"
    result = runner.invoke(cli, ["score", str(_fill(path)), "--no-dd", "--no-archive", "-o", str(out), "-o", str(ranking)])
    assert result.exit_code == 0, result.output
    assert "not in" not in result.output  # every player has a name
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == tables * boards
    slow = _slow_matchpoints(rows)
    for row in rows:
        assert float(row["mp_ns"]) == pytest.approx(slow[("", row["board"], row["ns"], row["ew"])], abs=0.005), row
    # each player's total is the sum of the matchpoints of the sides it sat in, found by the slow count
    totals: Counter = Counter()
    for row in rows:
        top = 2 * (tables - 1)
        for side, points in (("ns", slow[("", row["board"], row["ns"], row["ew"])]),
                             ("ew", top - slow[("", row["board"], row["ns"], row["ew"])])):
            for player in row[side].split("+"):
                totals[int(player)] += points
    sheet = openpyxl.load_workbook(ranking, read_only=True)["Ranking"]
    grid = [list(r) for r in sheet.iter_rows(values_only=True)]
    head = next(r for r in grid if r and "Name" in r)
    at = {name: head.index(name) for name in head if name}
    shown = {int(r[at["Player"]]): float(r[at["Total"]]) for r in grid[grid.index(head) + 1:]
             if r and r[at["Player"]] not in (None, "")}
    assert len(shown) == 4 * tables
    assert shown == pytest.approx({p: float(t) for p, t in totals.items()}, abs=0.01)
    names = {int(r[at["Player"]]): r[at["Name"]] for r in grid[grid.index(head) + 1:] if r and r[at["Player"]]}
    assert names[1] == "Player 01"


@pytest.mark.e2e
def test_a_result_typed_at_the_wrong_table_of_an_individual_is_refused_with_its_cell(runner, tmp_path):
    path = tmp_path / "entry.xlsx"
    assert runner.invoke(cli, ["movement", "individual", "--tables", "3", "--boards", "22", "-o", str(path)]).exit_code == 0
    _fill(path)
    wb = openpyxl.load_workbook(path)
    ws = wb["Travellers"]
    ws.protection.sheet = False
    ws.cell(2, 3).value = 2  # board 1, round 1 was played at table 1
    wb.save(path)
    result = runner.invoke(cli, ["score", str(path), "--no-dd", "--no-archive", "-o", str(tmp_path / "s.csv")])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "entry.xlsx!Travellers:C2: table: NS 12+1 v EW 2+4 played round 1 at table 1, not 2, in the movement" \
        in result.output, result.output
    assert not (tmp_path / "s.csv").exists()


@pytest.mark.parametrize(("given", "words"), [
    (["--tables", "3", "--sitout", "4"], "--sitout and --sections are for a pairs movement"),
    (["--tables", "3", "--arrow-switch", "2"], "--arrow-switch and --relay are for a Mitchell"),
    (["--tables", "5"], "give 2 to 4 tables"),
    (["--tables", "2", "--boards", "20"], "20 boards do not divide into the 7 board sets"),
])
def test_an_individual_it_cannot_have_is_refused(runner, given, words):
    result = runner.invoke(cli, ["movement", "individual", *given])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output, result.output


def test_the_command_says_how_many_tables_share_the_boards(runner):
    four = runner.invoke(cli, ["movement", "individual", "--tables", "4", "--boards", "30"])
    assert four.output == ("individual, 4 tables, 16 players, 15 rounds of 2 boards: 30 boards; 2 tables share a board "
                           "set in a round: relay the boards between them, or make 2 copies\n")
    mitchell = runner.invoke(cli, ["movement", "mitchell", "--tables", "7"])
    assert mitchell.output == "Mitchell, 7 tables, 7 rounds of 2 boards: 14 boards\n"
