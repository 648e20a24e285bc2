"""Hand records compared as deals, not as text: the Bridgemate + BridgeComposer combination.

A US club gives the Bridgemate ``.bws`` with the BridgeComposer hand record that came with
the deals; BridgeComposer writes ``[Deal "E:..."]`` from the dealer's seat, the dealing
program (or an earlier export) from North. The same cards from another seat are one deal.
"""
from __future__ import annotations

import random

import pytest

import bridgeproc.io.bws as bws_module
from bridgeproc.core.boards import board_dealer, board_vul
from bridgeproc.core.deal import format_deal
from bridgeproc.model import CheckOptions, Options
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.pipeline.run import build_session
from tests.conftest import REALDATA

BWS = REALDATA / "bridgemate-sample.bws"
SEATS = "NESW"
VUL = {"none": "None", "ns": "NS", "ew": "EW", "both": "All"}


def _deals(boards: int, seed: int = 14) -> dict[int, dict[str, str]]:
    rng = random.Random(seed)
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    deals = {}
    for board in range(1, boards + 1):
        rng.shuffle(cards)
        deals[board] = {seat: ".".join("".join(c[1] for c in cards[13 * i:13 * i + 13] if c[0] == suit)
                                       for suit in "SHDC") for i, seat in enumerate(SEATS)}
    return deals


def _hand_record(path, deals, first_seat) -> None:
    games = []
    for board, hands in deals.items():
        dealer = board_dealer(board)
        first = dealer if first_seat == "dealer" else "N"
        games.append(f'[Event "Bridgemate sample"]\n[Board "{board}"]\n[Dealer "{dealer}"]\n'
                     f'[Vulnerable "{VUL.get(str(board_vul(board)).lower(), board_vul(board))}"]\n'
                     f'[Deal "{format_deal(hands, first)}"]\n')
    path.write_text("\n".join(games), encoding="utf-8")


@pytest.fixture
def bws_with_hand_record(monkeypatch):
    """The real sample's results with the HandRecord table BCS writes when the deals are loaded
    (hands by seat and suit, ``10`` for the ten), and the template's table/round numbers (which
    do not match its own movement) left out, as in tests/io/test_bws.py."""
    deals = _deals(21)
    parse = bws_module.parse_bws_tables

    def with_hands(tables, source="<bws>", catalog=None):
        received = {k: v for k, v in tables["ReceivedData"].items() if k not in ("Table", "Round")}
        hands = {"Section": [1] * 21, "Board": list(range(1, 22))}
        for seat, name in zip(SEATS, ("North", "East", "South", "West")):
            for i, suit in enumerate(("Spades", "Hearts", "Diamonds", "Clubs")):
                hands[name + suit] = [deals[b][seat].split(".")[i].replace("T", "10") for b in range(1, 22)]
        return parse({**tables, "ReceivedData": received, "HandRecord": hands}, source, catalog)

    monkeypatch.setattr(bws_module, "parse_bws_tables", with_hands)
    return deals


def test_bws_with_its_hand_record_from_the_dealers_seat_scores_without_a_conflict(tmp_path, bws_with_hand_record):
    dealer = tmp_path / "bridgecomposer.pbn"
    _hand_record(dealer, bws_with_hand_record, "dealer")
    assert 'Deal "E:' in dealer.read_text()  # board 2 is written from East, as BridgeComposer does
    options = Options(check=CheckOptions(movement_check=False), dd=False)  # the template movement does not match (test_bws.py)
    inputs = read_inputs([BWS, dealer], options)
    assert inputs.boards[0]["deal"].str.startswith("N:").all()  # the .bws deals: from North
    assert inputs.fatal == []
    session = build_session([BWS, dealer], options)
    assert len(session.results) == 63
    assert session.boards["deal"].notna().sum() == 21


def test_bws_with_another_deal_in_the_hand_record_is_a_conflict(tmp_path, bws_with_hand_record):
    other = tmp_path / "other.pbn"
    _hand_record(other, _deals(21, seed=15), "dealer")
    [conflicts] = read_inputs([BWS, other], Options(check=CheckOptions(movement_check=False), dd=False)).fatal
    assert len(conflicts) == 21


def test_a_card_that_really_differs_is_still_a_conflict(tmp_path):
    deals = _deals(21)
    north, dealer = tmp_path / "dealt.pbn", tmp_path / "bridgecomposer.pbn"
    _hand_record(north, deals, "N")
    changed = {board: dict(hands) for board, hands in deals.items()}
    # swap one card between North and East on board 5: another deal
    n, e = changed[5]["N"].split("."), changed[5]["E"].split(".")
    suit = next(i for i in range(4) if n[i] and e[i])
    n[suit], e[suit] = e[suit][0] + n[suit][1:], n[suit][0] + e[suit][1:]
    changed[5]["N"], changed[5]["E"] = ".".join(n), ".".join(e)
    _hand_record(dealer, changed, "dealer")
    [conflicts] = read_inputs([north, dealer]).fatal
    assert conflicts["message"].str.startswith("board 5 is dealt differently").tolist() == [True]


@pytest.mark.parametrize("first", list(SEATS))
def test_every_first_seat_is_the_same_deal(tmp_path, first):
    deals = _deals(4, seed=3)
    a, b = tmp_path / "a.pbn", tmp_path / "b.pbn"
    _hand_record(a, deals, "N")
    b.write_text("\n".join(f'[Board "{board}"]\n[Deal "{format_deal(hands, first)}"]\n'
                           for board, hands in deals.items()), encoding="utf-8")
    assert read_inputs([a, b]).fatal == []
