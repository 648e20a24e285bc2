"""PBN deal strings: parse, check (52 distinct cards, 13 per hand), high-card points.

A deal is ``"<first>:<hand> <hand> <hand> <hand>"`` with hands clockwise from
``<first>`` (``N E S W``); a hand is ``spades.hearts.diamonds.clubs`` with ranks
``AKQJT98765432`` and ``-`` for an unknown hand (PBN 2.1 section 3.4.11,
bridge-scoring-reference.md section 4.3).
"""
from __future__ import annotations

import re

from bridgeproc.errors import BridgeprocError

SEAT_ORDER = "NESW"
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANKS = "AKQJT98765432"
#: Milton Work count: A=4, K=3, Q=2, J=1.
HCP_VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1}

_HAND = r"[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*"
_FULL_DEAL = re.compile(rf"^[NESW]:{_HAND} {_HAND} {_HAND} {_HAND}$")
_GOOD_HAND = re.compile(r"^[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*$")


class DealError(BridgeprocError, ValueError):
    """A deal string is malformed; the message says which hand and card, and how to fix it.

    A :class:`~bridgeproc.errors.BridgeprocError` (bad input, like every error bridgeproc
    raises on purpose) and a ValueError (as before), like ``analysis.dd.DDError``."""


def _seat_cycle(first: str) -> str:
    start = SEAT_ORDER.index(first)
    return SEAT_ORDER[start:] + SEAT_ORDER[:start]


def _hand_problems(seat: str, hand: str) -> list[str]:
    name = SEAT_NAMES[seat]
    suits = hand.split(".")
    if len(suits) != 4:
        return [f"the {name} hand {hand!r} has {len(suits)} suit(s); write spades.hearts.diamonds.clubs "
                "with 3 dots (leave a void empty) or '-' for an unknown hand"]
    problems = []
    count = 0
    for suit, ranks in zip(SUITS, suits):
        seen = set()
        for rank in ranks:
            if rank not in RANKS:
                hint = " (write T for the ten)" if rank in "10" else (
                    f" in upper case (write {rank.upper()})" if rank.upper() in RANKS else "")
                problems.append(f"bad card {rank!r} in the {name} hand's {SUIT_NAMES[suit]}: "
                                f"ranks are AKQJT98765432{hint}")
            elif rank in seen:
                problems.append(f"card {suit}{rank} appears twice in the {name} hand")
            seen.add(rank)
            count += 1
    if not problems and count != 13:
        problems.append(f"the {name} hand has {count} cards; every hand needs 13 (or '-' if unknown)")
    return problems


def parse_deal(deal: str) -> dict[str, str | None]:
    """Split a PBN deal into hands by seat; ``None`` for an unknown (``-``) hand.

    Raises
    ------
    DealError
        Listing every problem: wrong layout, bad card (which card, which hand), a hand
        without 13 cards, a card held twice.
    """
    text = deal.strip()
    first, colon, rest = text.partition(":")
    first = first.strip().upper()
    if not colon or first not in SEAT_NAMES:
        raise DealError(f"{deal!r} must start with the first seat and a colon (N:, E:, S: or W:), "
                        "e.g. N:AKQ.JT9.876.5432 ...")
    hands = rest.split()
    if len(hands) != 4:
        raise DealError(f"{len(hands)} hand(s) instead of 4; write 4 hands separated by spaces, "
                        "clockwise from the first seat ('-' for an unknown hand)")
    seats = _seat_cycle(first)
    by_seat: dict[str, str | None] = {}
    problems: list[str] = []
    owner: dict[str, str] = {}
    for seat, hand in zip(seats, hands):
        if hand == "-":
            by_seat[seat] = None
            continue
        by_seat[seat] = hand
        if _GOOD_HAND.match(hand) and len(hand) == 16:
            bad = []
            # fast path: 13 valid ranks; still check repeats and other hands
            for suit, ranks in zip(SUITS, hand.split(".")):
                if len(set(ranks)) != len(ranks):
                    bad = _hand_problems(seat, hand)
                    break
                for rank in ranks:
                    card = suit + rank
                    if card in owner:
                        problems.append(f"card {card} is in both the {SEAT_NAMES[owner[card]]} and the "
                                        f"{SEAT_NAMES[seat]} hands; each card must be dealt once")
                    owner[card] = seat
            problems.extend(bad)
            continue
        problems.extend(_hand_problems(seat, hand))
    if problems:
        raise DealError("; ".join(problems))
    return {seat: by_seat[seat] for seat in SEAT_ORDER}


def _complete_and_valid(deal: str) -> bool:
    """Fast check for the usual case: four 13-card hands holding 52 distinct cards."""
    if len(deal) != 69 or not _FULL_DEAL.match(deal):
        return False
    suits = [hand.split(".") for hand in deal[2:].split(" ")]
    for s in range(4):
        ranks = suits[0][s] + suits[1][s] + suits[2][s] + suits[3][s]
        if len(set(ranks)) != len(ranks):
            return False
    return True


def check_deal(deal: str) -> str | None:
    """The problem with a deal string as text, or None if it is a valid (possibly partial) deal."""
    if _complete_and_valid(deal):
        return None
    try:
        parse_deal(deal)
    except DealError as exc:
        return str(exc)
    return None


def hcp(deal: str) -> dict[str, int | None]:
    """High-card points (A4 K3 Q2 J1) of each seat; ``None`` for an unknown hand."""
    return {seat: None if hand is None else sum(HCP_VALUES.get(c, 0) for c in hand)
            for seat, hand in parse_deal(deal).items()}


def format_deal(hands: dict[str, str | None], first: str = "N") -> str:
    """Build a PBN deal string from hands by seat, clockwise from ``first``."""
    return f"{first}:" + " ".join(hands.get(seat) or "-" for seat in _seat_cycle(first))


def beats(card: str, best: str, trump: str | None) -> bool:
    """True if ``card`` wins over the card ``best`` currently winning the trick."""
    if card[0] == best[0]:
        return RANKS.index(card[1]) < RANKS.index(best[1])
    return card[0] == trump


def trick_winner(order: list[tuple[str, str]], trump: str | None) -> str:
    """Seat winning a trick given ``(seat, card)`` in play order (first is the lead)."""
    best_seat, best = order[0]
    for seat, card in order[1:]:
        if beats(card, best, trump):
            best_seat, best = seat, card
    return best_seat
