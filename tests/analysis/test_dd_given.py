"""Double-dummy tables and OptimumScore from a file are checked before they are reused (issue 14).

BridgeWebs and Dealmaster Pro write every count below 7 as 1 (tests/data/realdata/README.md): such
tables are solved again with a note; a plausible table is reused without the solver.
"""
from __future__ import annotations

import random

import pandas as pd
import pytest

from bridgeproc.analysis import dd as ddmod
from bridgeproc.analysis.dd import (
    DD_COLUMNS,
    ONE_BELOW_SEVEN,
    clear_cache,
    dd_tables,
    encode_dd_hex,
    implausible_tables,
    normalize_deal,
    table_problem,
)
from bridgeproc.analysis.par import optimum_score_problem
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.model import ArchiveOptions, Options
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.write import process_session
from bridgeproc.validate.given import check_given

WINCHESTER = "winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn"
LEXINGTON = "lexington-2016-01-28-handrecord-dealmasterpro.pbn"
BRIDGECOMPOSER = "bkp-cz-2022-10-19-handrecord-bridgecomposer.pbn"

# North holds the top four spades and the heart ace-king; East leads the run of clubs in notrump.
DEAL = "N:AKQJ.AK32.432.32 T987.QJT.5.AKQJT 6543.987.AKQJ.54 2.654.T9876.9876"


def table(**counts: int) -> list[int]:
    """A plausible table for DEAL (7 everywhere) with some counts changed: ``table(N_S=2)``."""
    values = dict.fromkeys(DD_COLUMNS, 7)
    values.update({f"dd_{k}": v for k, v in counts.items()})
    return [values[c] for c in DD_COLUMNS]


def solved(deals: list[str]) -> list[tuple[int, ...]]:
    return ddmod._solve([normalize_deal(d) for d in deals], None)


@pytest.mark.parametrize(("counts", "problem"), [
    ({}, None),
    ({"N_S": 3}, "N declaring S takes 3 tricks, but the cards give at least 4"),          # 4 master trumps
    ({"S_S": 3}, "S declaring S takes 3 tricks, but the cards give at least 4"),          # partner's masters count
    ({"E_S": 10}, "E declaring S takes 10 tricks, but the cards give at most 9"),         # N's masters are tricks
    ({"N_NT": 9}, "N declaring NT takes 9 tricks, but the cards give at most 8"),         # E leads AKQJT of clubs
    ({"W_NT": 10}, "W declaring NT takes 10 tricks, but the cards give at most 9"),       # N leads AKQJ of spades
    ({"N_C": 14}, "a trick count is not 0-13"),
])
def test_table_problem_against_the_deal(counts, problem):
    assert table_problem(normalize_deal(DEAL), table(**counts)) == problem


def test_the_one_below_seven_signature():
    quirk = [1, 1, 1, 1, 1, 8, 9, 11, 11, 8] * 2
    assert table_problem(None, quirk) == ONE_BELOW_SEVEN
    assert table_problem(None, [7] * 20) is None                      # no 1 at all: not the signature
    assert table_problem(None, [1] * 19 + [2]) is None                # a 2: the producer wrote small counts


@pytest.mark.dd
def test_true_tables_of_random_deals_are_never_implausible():
    rng = random.Random(14)
    deals = []
    for _ in range(40):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sorted(cards[13 * h:13 * h + 13]) for h in range(4)]
        deals.append("N:" + " ".join(".".join("".join("AKQJT98765432"[c % 13] for c in hand if c // 13 == s)
                                              for s in range(4)) for hand in hands))
    for deal, tricks in zip(deals, solved(deals)):
        assert table_problem(normalize_deal(deal), tricks) is None, deal


def test_disagreeing_tags_are_implausible():
    boards = pd.DataFrame({"board": [1], "deal": [DEAL], "double_dummy_tricks": [encode_dd_hex(table(N_C=8))]})
    boards = boards.assign(**{c: pd.array([v], dtype="Int8") for c, v in zip(DD_COLUMNS, table())})
    assert implausible_tables(boards).tolist() == ["its DoubleDummyTricks and OptimumResultTable disagree"]


@pytest.mark.parametrize(("text", "ok"), [
    ("NS 420", True), ("NS +90", True), ("EW 620", True), ("NS -100", True), ("NS 450 EW -450", True),
    ("NS 7N; +1520", True), ("100", False), ("EW", False), ("NS", False), ("NS 425", False), ("EW 9000", False),
    ("NS 450 EW 450", False), ("NS 4S", False), ("", False),
])
def test_optimum_score_is_a_side_and_a_score(text, ok):
    assert (optimum_score_problem(text) is None) is ok


def test_optimum_scores_that_are_no_board_score_are_not_copied():
    # the PBN reader refuses "100" and "EW" (no side, no score); these pass its pattern but no board scores so
    boards = pd.DataFrame({"board": [1, 2, 3], "deal": [None] * 3, "line": [5, 20, 35],
                           "optimum_score": pd.array(["NS 420", "NS 425", "NS 420 EW 420"], dtype="string")})
    checked, notes = check_given(boards, "f.pbn")
    assert checked["optimum_score"].tolist() == ["NS 420", pd.NA, pd.NA]
    assert [(n["line"], n["value"]) for n in notes] == [("20", "NS 425"), ("35", "NS 420 EW 420")]
    assert notes[0]["message"] == ("board 2: OptimumScore 'NS 425' is not a score a board can have; it is not copied "
                                   "(par is worked out from the double-dummy table)")


@pytest.mark.dd
def test_winchester_tables_are_solved_again_and_republished(realdata, tmp_path):
    clear_cache()
    out = tmp_path / "winchester.pbn"
    session = process_session([realdata / WINCHESTER], [out], Options(archive=ArchiveOptions(store=False)))
    [note] = [m for m in session.notes["message"] if "double-dummy" in m]
    assert note.startswith("the double-dummy tables of 30 boards (1-30) are not used: every trick count below 7 is "
                           "written as 1 (as Bridgewebs exports them); they are solved again with DDS")
    boards = session.boards.sort_values("board")
    truth = solved(boards["deal"].tolist())
    assert [tuple(int(v) for v in row) for row in boards[list(DD_COLUMNS)].to_numpy()] == truth
    published = read_pbn(realdata / WINCHESTER).boards.sort_values("board")
    differ = sum(a != b for row, t in zip(published[list(DD_COLUMNS)].to_numpy(), truth) for a, b in zip(row, t))
    assert differ == 320                                              # as the README says
    written = read_pbn(out).boards.sort_values("board")
    assert written["double_dummy_tricks"].tolist() == [encode_dd_hex(t) for t in truth]
    assert [tuple(int(v) for v in row) for row in written[list(DD_COLUMNS)].to_numpy()] == truth
    # A re-run on the output reuses its (now plausible) tables: no solver
    assert implausible_tables(written).isna().all()


@pytest.mark.dd
def test_lexington_tables_are_solved_again(realdata):
    clear_cache()
    inputs = read_inputs([realdata / LEXINGTON])
    [note] = inputs.notes
    assert "8 boards (1-8)" in note["message"] and "as Dealmaster Pro exports them" in note["message"]
    boards = dd_tables(pd.concat(inputs.boards, ignore_index=True))
    truth = solved(boards["deal"].tolist())
    assert [tuple(int(v) for v in row) for row in boards[list(DD_COLUMNS)].to_numpy()] == truth
    published = read_pbn(realdata / LEXINGTON).boards
    assert sum(a != b for row, t in zip(published[list(DD_COLUMNS)].to_numpy(), truth) for a, b in zip(row, t)) == 88


def test_a_plausible_table_is_reused_without_the_solver(realdata, monkeypatch):
    def no_solver(*_):
        raise AssertionError("solved a deal whose table the file gives")

    monkeypatch.setattr(ddmod, "_solve", no_solver)
    inputs = read_inputs([realdata / BRIDGECOMPOSER])
    assert inputs.notes == []
    boards = pd.concat(inputs.boards, ignore_index=True)
    given = boards[list(DD_COLUMNS)].copy()
    assert dd_tables(boards, cache={})[list(DD_COLUMNS)].equals(given.astype("Int8"))


def test_dd_tables_solves_a_quirky_table_even_when_the_reader_was_skipped(monkeypatch):
    quirk = [1] * 5 + [7] * 15
    boards = pd.DataFrame({"board": [1], "deal": [DEAL], "double_dummy_tricks": [encode_dd_hex(quirk)],
                           "optimum_score": ["NS 100"]})
    monkeypatch.setattr(ddmod, "_solve", lambda deals, progress: [tuple(table())] * len(deals))
    out = dd_tables(boards, cache={})
    assert [int(out[c].iloc[0]) for c in DD_COLUMNS] == table()
    assert out["double_dummy_tricks"].isna().all() and out["optimum_score"].isna().all()


def _slow_bounds(deal: str) -> tuple[list[int], list[int]]:
    """The two facts of ``_sure_tricks`` counted card against card: (lowest, highest) in DD_COLUMNS order."""
    seats = "NESW"
    hands = dict(zip(seats, (h.split(".") for h in deal[2:].split(" "))))
    order = "AKQJT98765432"

    def beats_all(card: str, suit: int, others: str) -> bool:
        return all(order.index(card) < order.index(o) for seat in others for o in hands[seat][suit])

    def count(seat: str, suit: int, others: str) -> int:
        return sum(beats_all(card, suit, others) for card in hands[seat][suit])

    low, high = [], []
    for column in DD_COLUMNS:
        _, seat, strain = column.split("_")
        i = seats.index(seat)
        partner, lho, rho = seats[(i + 2) % 4], seats[(i + 1) % 4], seats[(i + 3) % 4]
        if strain == "NT":
            low.append(0)
            high.append(13 - max(count(lho, s, seat + partner + rho) for s in range(4)))
        else:
            s = "SHDC".index(strain)
            low.append(max(count(seat, s, lho + rho), count(partner, s, lho + rho)))
            high.append(13 - max(count(lho, s, seat + partner), count(rho, s, seat + partner)))
    return low, high


def test_the_sure_tricks_are_the_cards_counted_one_against_another():
    rng = random.Random(28)
    for _ in range(300):
        cards = list(range(52))
        rng.shuffle(cards)
        hands = [sorted(cards[13 * h:13 * h + 13]) for h in range(4)]
        deal = normalize_deal("N:" + " ".join(".".join("".join("AKQJT98765432"[c % 13] for c in hand if c // 13 == s)
                                                        for s in range(4)) for hand in hands))
        split = {seat: hand.split(".") for seat, hand in zip("NESW", deal[2:].split(" "))}
        low, high = ddmod._sure_tricks(split)
        assert (list(low), list(high)) == _slow_bounds(deal), deal
