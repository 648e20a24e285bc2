"""Auction legality: read a PBN Auction section, check every call, derive the contract.

Rules checked (Laws 18-22 and 36, reference section 4.4):

* calls come in turn, clockwise from the seat in the Auction tag; ``-`` tokens
  before the first call pad the first line (that seat is skipped), they are not
  passes;
* a bid (level 1-7, C < D < H < S < NT) must be higher than the last bid;
* ``X`` only of the opponents' last bid, not already doubled; ``XX`` only of a
  double of one's own side's bid, not already redoubled;
* the auction ends after three passes following a bid, or four passes (passed
  out); ``AP`` stands for the remaining passes; ``*`` ends an auction that was
  not finished (nothing is derived from it); ``+`` means it continues later.

Annotations after a call (``!``, ``?``, ``=n=`` note references, ``$n`` NAGs) are
kept aside. Irregularity marks go *before* their call (PBN 2.1 section 3.9; the
standard's own ``correct_10`` game 3: ``- ^S 1D ^I 1C``): ``^I`` accepts an insufficient
bid (it then stands; on a sufficient bid it is a problem) and each ``^S`` records that a
player's turn was skipped, so the call is made by the next player.

The contract is the last bid, doubled or redoubled by the calls after it, and
the declarer is the first player of the declaring side to name its strain.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bridgeproc.schema import SEATS, STRAINS

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
#: Strains in rank order (a bid outranks another by level, then by this order).
_BID = re.compile(r"(?i)^([1-7])(C|D|H|S|NT|N)$")
_NOTE_REF = re.compile(r"^=(\d{1,2})=$")
_ANNOTATION = re.compile(r"^(?:=\d{1,2}=|\$\d{1,3}|!!|\?\?|!\?|\?!|!|\?)$")
_DOUBLING = ("", "X", "XX")


def side_of(seat: str) -> str:
    """``NS`` or ``EW``."""
    return "NS" if seat in "NS" else "EW"


def next_seat(seat: str, steps: int = 1) -> str:
    """The seat ``steps`` places clockwise from ``seat``."""
    return SEATS[(SEATS.index(seat) + steps) % 4]


def bid_rank(call: str) -> int:
    """0..34 for ``1C``..``7NT`` (canonical bids only)."""
    return (int(call[0]) - 1) * 5 + STRAINS.index(call[1:])


def canonical_call(token: str) -> str | None:
    """``Pass``, ``X``, ``XX``, ``AP`` or a bid such as ``3NT``; None if ``token`` is not a call."""
    t = token.upper()
    if t in ("PASS", "P"):
        return "Pass"
    if t in ("X", "XX", "AP"):
        return t
    m = _BID.match(t)
    if m:
        return m.group(1) + ("NT" if m.group(2) in ("N", "NT") else m.group(2))
    return None


@dataclass
class Auction:
    """An auction as read: calls in order with their seats and file lines, and what it gives.

    ``complete`` is True when it ended by passes (or ``AP``); ``level`` 0 means
    passed out; ``contract`` is ``4SX``-style text, ``Pass``, or None while incomplete.
    """

    calls: list[str] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    note_refs: list[tuple[int, int]] = field(default_factory=list)  # (note number, line)
    complete: bool = False
    unfinished: bool = False  # '*' or '+': stopped on purpose
    level: int = 0
    strain: str | None = None
    doubled: int = 0
    declarer: str | None = None

    @property
    def contract(self) -> str | None:
        if not self.complete:
            return None
        if self.level == 0:
            return "Pass"
        return f"{self.level}{self.strain}{_DOUBLING[self.doubled]}"


class _State:
    """The running state of a legal auction, one call at a time."""

    def __init__(self) -> None:
        self.last_bid: str | None = None
        self.last_bidder: str | None = None
        self.doubled = 0
        self.passes = 0
        self.any_bid = False
        self.first_to_name: dict[tuple[str, str], str] = {}

    def ended(self) -> bool:
        return self.passes >= (3 if self.any_bid else 4)

    def problem(self, seat: str, call: str, accept_insufficient: bool = False) -> str | None:
        """Why ``call`` by ``seat`` is not legal now (None if it is)."""
        name = SEAT_NAMES[seat]
        if call == "Pass":
            return None
        if call == "X":
            if self.last_bid is None:
                return f"{name} doubles but no bid has been made"
            by = f"{self.last_bid} by {SEAT_NAMES[self.last_bidder]}"  # type: ignore[index]
            if side_of(self.last_bidder) == side_of(seat):  # type: ignore[arg-type]
                return f"{name} doubles {by}, a bid of its own side: only the opponents' last bid can be doubled"
            if self.doubled:
                return f"{name} doubles {by}, which is already {'doubled' if self.doubled == 1 else 'redoubled'}"
            return None
        if call == "XX":
            if self.last_bid is None or self.doubled == 0:
                what = "no bid has been made" if self.last_bid is None else f"{self.last_bid} is not doubled"
                return f"{name} redoubles but {what}"
            by = f"{self.last_bid} by {SEAT_NAMES[self.last_bidder]}"  # type: ignore[index]
            if self.doubled == 2:
                return f"{name} redoubles {by}, which is already redoubled"
            if side_of(self.last_bidder) != side_of(seat):  # type: ignore[arg-type]
                return f"{name} redoubles its own side's double of {by}: only the side whose bid was doubled may redouble"
            return None
        if self.last_bid is not None and bid_rank(call) <= bid_rank(self.last_bid) and not accept_insufficient:
            return (f"{name} bids {call} after {self.last_bid} by {SEAT_NAMES[self.last_bidder]}: "  # type: ignore[index]
                    "a bid must be higher than the last bid (C < D < H < S < NT)")
        return None

    def apply(self, seat: str, call: str) -> None:
        if call == "Pass":
            self.passes += 1
            return
        self.passes = 0
        if call == "X":
            self.doubled = 1
        elif call == "XX":
            self.doubled = 2
        else:
            self.last_bid, self.last_bidder, self.doubled, self.any_bid = call, seat, 0, True
            self.first_to_name.setdefault((side_of(seat), call[1:]), seat)


def _items(tokens: list[str], lines: list[int]) -> list[tuple[str, int, list[str]]]:
    """Group tokens into (call or marker, line, the marks before it and the annotations after it)."""
    items: list[tuple[str, int, list[str]]] = []
    marks: list[str] = []
    for token, line in zip(tokens, lines):
        if token.upper() in ("^I", "^S"):
            marks.append(token.upper())
        elif _ANNOTATION.match(token):
            if items:
                items[-1][2].append(token)
        else:
            items.append((token, line, marks))
            marks = []
    return items


def read_auction(first: str, tokens: list[str], lines: list[int] | None = None,
                 tag_line: int = 0) -> tuple[Auction, list[tuple[int, str]]]:
    """Read and check an Auction section.

    Parameters
    ----------
    first : str
        The Auction tag value: the seat of the first call (or of the first ``-``).
    tokens : list of str
        The section's tokens as the PBN lexer gives them (calls, ``-``, ``AP``,
        ``*``, ``+``, ``^I``, ``^S``, annotations).
    lines : list of int, optional
        The file line of each token (for messages); ``tag_line`` when absent.

    Returns
    -------
    (Auction, problems)
        ``problems`` is a list of ``(line, message)``; checking stops at the first
        illegal call (what follows it cannot be judged), so there is at most one
        call problem plus one for the ending.
    """
    lines = lines if lines is not None else [tag_line] * len(tokens)
    auction = Auction()
    seat = first.strip().upper()
    if seat not in SEAT_NAMES:
        return auction, [(tag_line, f"Auction {first!r}: the first seat must be N, E, S or W")]
    state = _State()
    problems: list[tuple[int, str]] = []
    started = False
    last_line = tag_line
    for token, line, notes in _items(tokens, lines):
        last_line = line
        for note in notes:
            m = _NOTE_REF.match(note)
            if m:
                auction.note_refs.append((int(m.group(1)), line))
        upper = token.upper()
        if upper in ("*", "+"):
            auction.unfinished = True
            break
        if upper == "-":
            if started:
                problems.append((line, "'-' after the first call: '-' only pads the first line before the "
                                       "first call; write Pass (or AP for all pass)"))
                return auction, problems
            seat = next_seat(seat)
            continue
        call = canonical_call(token)
        if call is None:
            problems.append((line, f"{token!r} is not a call: write Pass, X, XX, AP or a bid such as 1C or 3NT"))
            return auction, problems
        if state.ended():
            problems.append((line, f"{call} by {SEAT_NAMES[seat]} after the auction has ended: it ends after "
                                   "three passes following a bid, or four passes"))
            return auction, problems
        started = True
        if call == "AP":
            while not state.ended():
                _record(auction, state, seat, "Pass", line)
                seat = next_seat(seat)
            continue
        if "^S" in notes:
            seat = next_seat(seat, notes.count("^S"))
        insufficient = "^I" in notes
        if insufficient and (call in ("Pass", "X", "XX") or state.last_bid is None
                             or bid_rank(call) > bid_rank(state.last_bid)):
            after = f" after {state.last_bid}" if state.last_bid is not None and call not in ("Pass", "X", "XX") else ""
            problems.append((line, f"^I marks {call} by {SEAT_NAMES[seat]} as an accepted insufficient bid, but it "
                                   f"is not one (sufficient{after}); remove the ^I"))
            return auction, problems
        problem = state.problem(seat, call, accept_insufficient=insufficient)
        if problem:
            problems.append((line, problem))
            return auction, problems
        _record(auction, state, seat, call, line)
        seat = next_seat(seat)
    if state.ended():
        auction.complete = True
        if state.any_bid:
            auction.level = int(state.last_bid[0])  # type: ignore[index]
            auction.strain = state.last_bid[1:]  # type: ignore[index]
            auction.doubled = state.doubled
            auction.declarer = state.first_to_name[(side_of(state.last_bidder), auction.strain)]  # type: ignore[arg-type]
    elif not auction.unfinished:
        needed = (3 if state.any_bid else 4) - state.passes
        after = f"after {auction.calls[-1]} by {SEAT_NAMES[auction.seats[-1]]}" if auction.calls else "with no call"
        problems.append((last_line, f"the auction stops {after} without ending: it needs {needed} more "
                                    "pass(es), AP, or * if it was not finished"))
    return auction, problems


def _record(auction: Auction, state: _State, seat: str, call: str, line: int) -> None:
    state.apply(seat, call)
    auction.calls.append(call)
    auction.seats.append(seat)
    auction.lines.append(line)


def first_caller(auction_seat: str, tokens: list[str]) -> str | None:
    """The seat of the first call (after any ``-`` padding), or None."""
    seat = auction_seat.strip().upper()
    if seat not in SEAT_NAMES:
        return None
    for token in tokens:
        if token == "-":
            seat = next_seat(seat)
        elif canonical_call(token) is not None:
            return seat
    return None
