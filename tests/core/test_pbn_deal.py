"""Deal strings: hands by seat, checks, high-card points."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.core.deal import DealError, check_deal, format_deal, hcp, parse_deal
from tests.conftest import examples

REFERENCE = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


@pytest.mark.parametrize("deal, seat, hand", [
    (REFERENCE, "N", ".63.AKQ987.A9732"),
    (REFERENCE, "W", "KQT2.AT.J6542.85"),
    ("E:A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85 .63.AKQ987.A9732", "N", ".63.AKQ987.A9732"),
    ("S:J973.J98742.3.K4 KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6", "E", "A8654.KQ5.T.QJT6"),
    ("W:KQT2.AT.J6542.85 - - -", "W", "KQT2.AT.J6542.85"),
    ("W:KQT2.AT.J6542.85 - - -", "N", None),
])
def test_hands_clockwise_from_first_seat(deal, seat, hand):
    assert parse_deal(deal)[seat] == hand


@pytest.mark.parametrize("deal, points", [
    (REFERENCE, {"N": 13, "E": 12, "S": 5, "W": 10}),
    ("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432", {"N": 37, "E": 3, "S": 0, "W": 0}),
    ("N:AKQJ.AKQ.AKQ.AKQ - - -", {"N": 37, "E": None, "S": None, "W": None}),
])
def test_hcp(deal, points):
    assert hcp(deal) == points


@settings(max_examples=examples(100), deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from("NESW"))
def test_random_deals_are_valid_and_total_40_points(rng: random.Random, first):
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = {}
    for seat, start in zip("NESW", range(0, 52, 13)):
        hand = cards[start:start + 13]
        hands[seat] = ".".join("".join(c[1] for c in sorted(hand, key=lambda c: "AKQJT98765432".index(c[1]))
                                       if c[0] == suit) for suit in "SHDC")
    deal = format_deal(hands, first)
    assert check_deal(deal) is None
    assert parse_deal(deal) == hands
    assert sum(hcp(deal).values()) == 40


def test_problems_are_all_listed():
    with pytest.raises(DealError) as caught:
        parse_deal("N:AA.63.AKQ987.A97 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85X")
    assert str(caught.value) == ("card SA appears twice in the North hand; "
                                 "bad card 'X' in the West hand's clubs: ranks are AKQJT98765432")
