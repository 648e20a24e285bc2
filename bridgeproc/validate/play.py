"""Play legality: rebuild the tricks of a PBN Play section and check every card.

A Play section is one line per trick with the cards in **fixed seat columns**,
clockwise from the opening leader in the Play tag, not in the order they were
played (PBN 2.1 section 3.5; reference section 4.5). The order is rebuilt from
trick winners: the winner of a trick leads to the next, then play goes clockwise.

Checked for every card: it is in the hand of its column's seat and was not played
before; it follows the suit led when the player can (a revoke names the trick, the
card and the cards of the led suit still held, unless the card is marked ``^R``).
``-`` is an unknown card: it is not checked, and a trick holding one has no known
winner, so the record is only read up to there. ``*`` ends the record early (a
claim; the Result tag gives the tricks) and ``+`` means it continues later: ``+``
takes the place of the next card to be played, so a card after it in the trick's
playing order is a problem (the seats after it hold ``-``).

Irregularity marks stand before the card they mark. ``^L`` marks a lead out of turn:
that card's seat led the trick; it is a problem on the card of the seat that was on
lead, or on a second card of one trick. ``^R`` marks a revoke; it is a problem on the
card that leads the trick, on a card that follows suit and on a card of a player who
holds none of the suit led (showing out is no revoke).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bridgeproc.core.deal import RANKS, trick_winner
from bridgeproc.schema import SEATS
from bridgeproc.validate.auction import SEAT_NAMES, next_seat, side_of

SUIT_ORDER = "SHDC"
SUIT_NAMES = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_ANNOTATION = re.compile(r"^(?:=\d{1,2}=|\$\d{1,3}|!!|\?\?|!\?|\?!|!|\?)$")
_NOTE_REF = re.compile(r"^=(\d{1,2})=$")


def note_refs(tokens: list[str], lines: list[int]) -> list[tuple[int, int]]:
    """``(note number, line)`` of every note reference ``=n=`` of a Play section, in file order."""
    return [(int(m.group(1)), line) for token, line in zip(tokens, lines) if (m := _NOTE_REF.match(token))]


def hand_cards(hand: str) -> set[str]:
    """Cards (``SA``, ``HT`` ...) of a PBN hand ``spades.hearts.diamonds.clubs``."""
    return {suit + rank for suit, ranks in zip(SUIT_ORDER, hand.split(".")) for rank in ranks}




@dataclass
class Trick:
    """One trick: its number, leader, cards in play order, winner and file line."""

    number: int
    leader: str
    order: list[tuple[str, str]]
    winner: str | None
    line: int


@dataclass
class Play:
    """A play record as rebuilt: tricks in order and what they give declarer.

    ``complete``: 13 tricks with known winners. ``claimed``: ended by ``*``.
    ``known``: False when an unknown card (``-``) left a trick without a known winner.
    """

    tricks: list[Trick] = field(default_factory=list)
    declarer_tricks: int = 0
    complete: bool = False
    claimed: bool = False
    continued: bool = False
    known: bool = True
    claim_implied: bool = False  # stopped early without '*' in a game with a Result: read as a claim
    partial: list[tuple[str, str]] = field(default_factory=list)  # cards of an unfinished last trick


def _cards(tokens: list[str], lines: list[int]) -> tuple[list[tuple[str, int, set[str]]], str,
                                                         list[tuple[str, int, int]]]:
    """Card tokens with their line and markers (``^R``, ``^L``), how the record ends, and the
    cards after the trick that holds ``+`` on the line of the ``+`` (``(card, line, + line)``).

    A marker stands before the card it marks, as the PBN standard's own test file writes
    them (``C2 ^R S5 ^L CK``: East's S5 is a revoke, South's CK a lead out of turn).
    ``+`` is kept in its trick's place (as the card ``+``) and the rest of that trick is
    read, so that a card played after it can be named; a lone ``+`` after whole tricks is
    only the record's end. Cards on the lines after a ``+`` are the PBN reader's to report."""
    cards: list[tuple[str, int, set[str]]] = []
    beyond: list[tuple[str, int, int]] = []
    pending: set[str] = set()
    ending, plus_line = "", 0
    for token, line in zip(tokens, lines):
        t = token.upper()
        if t == "*":
            return cards, ending or "*", beyond
        if t in ("^R", "^L"):
            pending.add(t)
        elif _ANNOTATION.match(t):
            continue
        elif ending == "+" and len(cards) % 4 == 0:
            if line == plus_line and t not in ("-", "+"):
                beyond.append((t, line, plus_line))
        else:
            cards.append((t, line, pending))
            pending = set()
            if t == "+" and not ending:
                ending, plus_line = "+", line
    if ending == "+" and len(cards) % 4 == 1 and cards[-1][0] == "+":
        cards.pop()
    return cards, ending, beyond


def read_play(hands: dict[str, str], first: str, tokens: list[str], lines: list[int] | None = None,
              trump: str | None = None, declarer: str | None = None,
              tag_line: int = 0, claim_implied: bool = False,
              unfinished: bool = False) -> tuple[Play, list[tuple[int, str]]]:
    """Rebuild and check a Play section.

    Parameters
    ----------
    hands : dict
        The 13-card PBN hand of each seat (``N E S W``), as ``deal.parse_deal`` gives.
    first : str
        The Play tag value: the opening leader, first of the fixed columns.
    tokens, lines : list
        The section's tokens and their file lines (PBN lexer).
    trump : str, optional
        ``S H D C``, or None/``NT`` for no trumps.
    declarer : str, optional
        Declarer's seat: tricks won by declarer's side are counted.
    claim_implied : bool
        The game has a Result: a record that stops after a whole trick without ``*`` is
        read as a claim (BBO and pbntools write claims so), marked ``claim_implied``.
    unfinished : bool
        The game is an unfinished table (``io.pbn.game_rows.unfinished_play``: a contract,
        no Result): a record that stops early is what the table played, not a problem.

    Returns
    -------
    (Play, problems)
        ``problems`` lists ``(line, message)``: cards not in their column's hand or
        played twice, revokes, a record of fewer than 13 tricks without ``*``/``+``,
        more than 13 tricks.
    """
    lines = lines if lines is not None else [tag_line] * len(tokens)
    play = Play()
    first = first.strip().upper()
    if first not in SEAT_NAMES:
        return play, [(tag_line, f"Play {first!r}: the opening leader must be N, E, S or W")]
    trump = None if trump in (None, "NT", "N") else trump
    columns = [next_seat(first, i) for i in range(4)]
    remaining = {seat: hand_cards(hands[seat]) for seat in SEATS}
    owner = {card: seat for seat in SEATS for card in remaining[seat]}
    played_in: dict[str, int] = {}
    problems: list[tuple[int, str]] = []
    cards, ending, beyond = _cards(tokens, lines)
    play.claimed, play.continued = ending == "*", ending == "+"
    leader = first
    for start in range(0, len(cards), 4):
        number = start // 4 + 1
        group = cards[start:start + 4]
        line = group[0][1]
        if number > 13:
            problems.append((line, f"trick {number}: a deal has only 13 tricks; remove the extra line(s)"))
            break
        by_seat = {columns[i]: group[i] for i in range(len(group))}
        leader = _leader(number, leader, by_seat, problems)
        order_seats = [next_seat(leader, i) for i in range(4)]
        order: list[tuple[str, str]] = []
        led = by_seat[leader][0] if leader in by_seat and by_seat[leader][0] not in ("-", "+") else None
        plus: tuple[str, int] | None = None  # seat and line of a '+' met in this trick's playing order
        for seat in order_seats:
            if seat not in by_seat:
                continue
            card, card_line, marks = by_seat[seat]
            if plus is not None:
                if card not in ("-", "+"):
                    problems.append((card_line, _after_plus(number, seat, card, card_line, *plus)))
                continue
            if card == "+":
                plus = (seat, card_line)
                continue
            order.append((seat, card))
            problem = _card_problem(number, seat, card, leader, led, remaining, owner, played_in, "^R" in marks)
            if problem:
                problems.append((card_line, problem))
            remaining[seat].discard(card)
            played_in.setdefault(card, number)
        if len(group) < 4 or plus is not None or any(card == "-" for _, card in order):
            # An unfinished last trick, or unknown cards: no known winner from here on.
            play.partial = order
            play.known = start + 4 >= len(cards) and ending == "*"
            break
        winner = trick_winner(order, trump)
        play.tricks.append(Trick(number, leader, order, winner, line))
        if declarer is not None and side_of(winner) == side_of(declarer):
            play.declarer_tricks += 1
        leader = winner
    problems += [(line, f"{card} after the trick that holds '+' (line {plus_line}): '+' means the play continues "
                        "later, so its trick holds the last card played") for card, line, plus_line in beyond]
    played = len(play.tricks)
    play.complete = played == 13
    if not play.complete and not ending and claim_implied and _claimed_without_mark(cards, played):
        play.claimed = play.claim_implied = play.known = True
    elif not play.complete and not ending and not unfinished:
        where = f"after trick {played}" if played else "before the first trick"
        line = cards[-1][1] if cards else tag_line
        problems.append((line, f"the play stops {where} without * (a claim) or + (continued later)"))
    return play, problems


def _claimed_without_mark(cards: list[tuple[str, int, set[str]]], played: int) -> bool:
    """True when a record without ``*`` stops as a claim does: after the whole tricks at most one
    trick in progress, then nothing or only unknown cards ``-`` (BBO via pbntools writes so)."""
    rest = [card for card, _, _ in cards[4 * played:]]
    return bool(played or rest) and all(card == "-" for card in rest[4:])


def _leader(number: int, on_lead: str, by_seat: dict[str, tuple[str, int, set[str]]],
            problems: list[tuple[int, str]]) -> str:
    """The seat that led trick ``number``: the one whose card is marked ``^L`` (a lead out of
    turn), else ``on_lead``. A ``^L`` on the card of the seat on lead, or on a second card of
    the trick, contradicts the record: a problem on its line."""
    leader = on_lead
    for seat, (card, line, marks) in by_seat.items():
        if "^L" not in marks or card == "+":
            continue
        what = f"trick {number}: ^L marks {card} by {SEAT_NAMES[seat]} as a lead out of turn, but"
        if seat == on_lead:
            why = "the Play tag names the opening leader" if number == 1 else f"it won trick {number - 1}"
            problems.append((line, f"{what} {SEAT_NAMES[seat]} is on lead ({why}); remove the ^L"))
        elif leader != on_lead:
            problems.append((line, f"{what} {SEAT_NAMES[leader]}'s {by_seat[leader][0]} is marked ^L already: "
                                   "a trick has one lead"))
        else:
            leader = seat
    return leader


def _after_plus(number: int, seat: str, card: str, line: int, plus_seat: str, plus_line: int) -> str:
    """The problem of a card played after ``+`` in its trick's playing order."""
    where = "" if line == plus_line else f" (line {plus_line})"
    return (f"trick {number}: {SEAT_NAMES[seat]} plays {card} after '+'{where}, which stands for "
            f"{SEAT_NAMES[plus_seat]}'s card: '+' means the play continues later from there, so the cards after "
            "it in the trick are '-' (or '+' goes after the last card played)")


def _card_problem(number: int, seat: str, card: str, leader: str, led: str | None, remaining: dict[str, set[str]],
                  owner: dict[str, str], played_in: dict[str, int], revoke_marked: bool) -> str | None:
    """What is wrong with ``card`` played by ``seat`` in trick ``number`` (None if legal): not its
    hand's, played before, a revoke not marked ``^R``, or a ``^R`` on a card that is no revoke."""
    if card == "-":
        return None
    name = SEAT_NAMES[seat]
    if card not in remaining[seat]:
        if card in played_in:
            return f"trick {number}: {name} plays {card}, already played in trick {played_in[card]}"
        return f"trick {number}: {card} is in {name}'s column but {SEAT_NAMES[owner[card]]} holds it"
    marked = f"trick {number}: ^R marks {card} by {name} as a revoke, but"
    if revoke_marked and seat == leader:
        return f"{marked} it leads the trick; remove the ^R"
    if led is None:
        return None  # the card led is unknown: there is no suit to follow
    suit = SUIT_NAMES[led[0]]
    held = sorted((c for c in remaining[seat] if c[0] == led[0]), key=lambda c: RANKS.index(c[1]))
    if revoke_marked and card[0] == led[0]:
        return f"{marked} it follows the {suit} lead; remove the ^R"
    if revoke_marked and not held:
        return f"{marked} {name} holds no {suit} (showing out is no revoke); remove the ^R"
    if not revoke_marked and card[0] != led[0] and held:
        return f"trick {number}: {name} plays {card} on a {suit} lead while holding {' '.join(held)} (revoke)"
    return None
