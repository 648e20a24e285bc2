"""The rules of the game on a PBN file: every Auction and Play section checked.

``check_games(pbn_file)`` returns one problem per row (``schema.PROBLEM_COLUMNS``:
``source, line, column, value, message``), ``column`` naming the tag concerned
(``Auction``, ``Play``, ``Contract``, ``Declarer``, ``Result``). It checks:

* the auction (``auction.read_auction``): calls in turn from the dealer, legal
  bids, doubles and redoubles, a proper end; note references ``=n=`` that have a
  ``[Note "n:..."]``;
* the contract, declarer and doubling the auction gives against the Contract and
  Declarer tags (a mismatch names both values); an irregular declarer ``^S`` (declarer
  and dummy swapped, PBN 2.1 section 3.4.13) is the partner of the auction's declarer;
* the play (``play.read_play``): opening leader on declarer's left, every card from
  its column's hand, suit followed, tricks rebuilt from their winners, irregularity
  marks ``^R``/``^L`` and ``+`` where the cards allow them; its note references too;
* the tricks declarer won in the play record against the Result tag: equal for a
  complete record; after a claim (``*``) between the tricks already won and those
  plus the tricks left. A Result with a leading ``^`` (agreed result differs from
  the play) is not compared.

Games without Auction or Play sections are not looked at; hands given as ``-``
(unknown) stop the play check for that game without a problem.
"""
from __future__ import annotations

import os
import re

import pandas as pd

from bridgeproc.core.deal import DealError, parse_deal
from bridgeproc.io.pbn.game_rows import unfinished_play
from bridgeproc.io.pbn.model import Game, Tag
from bridgeproc.io.pbn.reader import PbnFile, read_pbn
from bridgeproc.schema import problems_frame
from bridgeproc.validate.auction import SEAT_NAMES, STRAINS, Auction, first_caller, next_seat, read_auction, side_of
from bridgeproc.validate.play import note_refs, read_play

_CONTRACT = re.compile(r"(?i)^([1-7])(C|D|H|S|NT|N)(X{0,2})$")
_RESULT = re.compile(r"^(?:(\d{1,2})|NS (\d{1,2})(?: EW (\d{1,2}))?|EW (\d{1,2})(?: NS (\d{1,2}))?)$")
STRAIN_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "notrumps"}
_NOTE = re.compile(r"^\s*(\d{1,2})\s*:")


def parse_contract_tag(value: str) -> tuple[int, str | None, int] | None:
    """``(level, strain, doubled)`` of a Contract tag (``(0, None, 0)`` for Pass); None if unreadable."""
    text = value.strip().replace(" ", "")
    if text.upper() == "PASS":
        return 0, None, 0
    m = _CONTRACT.match(text)
    if not m:
        return None
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    return int(m.group(1)), strain, len(m.group(3))


def declarer_result(value: str, declarer: str) -> int | None:
    """Tricks won by declarer from a Result tag (``9``, ``NS 9``, ``EW 4 NS 9``); None if absent or agreed (``^``)."""
    m = _RESULT.match(value.strip())
    if not m:
        return None
    if m.group(1):
        return int(m.group(1))
    ns = m.group(2) or m.group(5)
    ew = m.group(4) or m.group(3)
    if side_of(declarer) == "NS":
        return int(ns) if ns else (13 - int(ew) if ew else None)
    return int(ew) if ew else (13 - int(ns) if ns else None)


class _Collector:
    def __init__(self, source: str) -> None:
        self.source = source
        self.rows: list[dict] = []

    def add(self, line: int, column: str, value: str, message: str) -> None:
        self.rows.append({"source": self.source, "line": str(line), "column": column, "value": value,
                          "message": message})


def _check_auction(game: Game, out: _Collector) -> Auction | None:
    tag = game.tag("Auction")
    if tag is None:
        return None
    tokens, lines = tag.tokens or [], tag.token_lines or []
    auction, problems = read_auction(tag.value, tokens, lines, tag_line=tag.line)
    for line, message in problems:
        out.add(line, "Auction", tag.value, message)
    dealer = (game.get("Dealer") or "").strip().upper()
    starter = first_caller(tag.value, tokens)
    if dealer in SEAT_NAMES and starter is not None and starter != dealer:
        out.add(tag.line, "Auction", tag.value,
                f"the first call is made by {SEAT_NAMES[starter]} but the dealer is {SEAT_NAMES[dealer]}; "
                f"the auction starts with the dealer (pad the first line with '-' if it starts from another seat)")
    _check_note_refs(tag, auction.note_refs, out)
    if auction.complete and not problems:
        _compare_tags(game, auction, out)
    return auction


def _check_note_refs(section: Tag, refs: list[tuple[int, int]], out: _Collector) -> None:
    """Every ``=n=`` of an Auction or Play section has its ``[Note "n:..."]`` after the section."""
    notes = {int(m.group(1)) for note in section.notes or () if (m := _NOTE.match(note.value))}
    for number, line in refs:
        if number not in notes:
            out.add(line, section.name, f"={number}=", f"note reference ={number}= has no [Note \"{number}:...\"] "
                                                       f"after the {section.name.lower()}")


def _compare_tags(game: Game, auction: Auction, out: _Collector) -> None:
    contract_tag, declarer_tag = game.tag("Contract"), game.tag("Declarer")
    derived = auction.contract
    if contract_tag is not None and contract_tag.value.strip() not in ("", "?"):
        written = parse_contract_tag(contract_tag.value)
        if written != (auction.level, auction.strain, auction.doubled):
            by = f" by {SEAT_NAMES[auction.declarer]}" if auction.declarer else ""
            out.add(contract_tag.line, "Contract", contract_tag.value,
                    f"the auction ends in {derived}{by} but the Contract tag is {contract_tag.value!r}")
            return
    if declarer_tag is None or auction.declarer is None:
        return
    written_seat = declarer_tag.value.strip().upper()
    if written_seat in ("", "?"):
        return
    side = side_of(auction.declarer)
    assert auction.strain is not None  # an auction with a declarer ended in a bid
    made = (f"the auction makes {SEAT_NAMES[auction.declarer]} declarer (first of {side} to bid "
            f"{STRAIN_NAMES[auction.strain]}) but the Declarer tag is {declarer_tag.value!r}")
    swapped = next_seat(auction.declarer, 2)
    if written_seat.startswith("^") and written_seat[1:] != swapped:
        out.add(declarer_tag.line, "Declarer", declarer_tag.value,
                f"{made}: '^' names the irregular declarer, the partner who played the hand when declarer and "
                f"dummy were swapped, here \"^{swapped}\"")
    elif not written_seat.startswith("^") and written_seat != auction.declarer:
        out.add(declarer_tag.line, "Declarer", declarer_tag.value, made)


def hands_of(game: Game) -> dict[str, str] | None:
    """The four hands of a complete deal, else None (the PBN reader reports bad deals)."""
    deal = game.get("Deal")
    if not deal:
        return None
    try:
        hands = parse_deal(deal)
    except DealError:
        return None  # the PBN reader reports bad deals
    if any(hand is None for hand in hands.values()):
        return None
    return hands  # type: ignore[return-value]


def _check_play(game: Game, auction: Auction | None, out: _Collector) -> None:
    tag = game.tag("Play")
    if tag is None:
        return
    _check_note_refs(tag, note_refs(tag.tokens or [], tag.token_lines or []), out)
    written = parse_contract_tag(game.get("Contract") or "")
    if written is not None and written[0] == 0:
        out.add(tag.line, "Play", tag.value, "the deal was passed out (Contract \"Pass\") but has a Play section")
        return
    # "^S": South played the hand for its partner (PBN 2.1 section 3.4.13): South is the one whose left leads
    declarer = (game.get("Declarer") or "").strip().upper().lstrip("^")
    strain = written[1] if written else None
    if declarer not in SEAT_NAMES and auction is not None and auction.declarer:
        declarer = auction.declarer
    if strain is None and auction is not None and auction.complete:
        strain = auction.strain
    hands = hands_of(game)
    leader = tag.value.strip().upper()
    if declarer in SEAT_NAMES and leader in SEAT_NAMES and leader != next_seat(declarer):
        out.add(tag.line, "Play", tag.value,
                f"the opening lead is by {SEAT_NAMES[leader]} but declarer {SEAT_NAMES[declarer]}'s left-hand "
                f"opponent is {SEAT_NAMES[next_seat(declarer)]}; [Play] names the opening leader")
        return  # every column would be misread: one problem is enough
    if hands is None or strain is None or declarer not in SEAT_NAMES:
        return
    trump = None if strain == "NT" else strain
    result_tag = game.tag("Result")
    play, problems = read_play(hands, tag.value, tag.tokens or [], tag.token_lines or [], trump, declarer, tag.line,
                               claim_implied=result_tag is not None and bool(result_tag.value.strip()),
                               unfinished=unfinished_play(game) is not None)
    for line, message in problems:
        out.add(line, "Play", tag.value, message)
    if problems or not play.known or play.continued or result_tag is None:
        return
    result = declarer_result(result_tag.value, declarer)
    if result is None:
        return
    won, played = play.declarer_tricks, len(play.tricks)
    if play.complete and result != won:
        out.add(result_tag.line, "Result", result_tag.value,
                f"declarer's side won {won} tricks in the play record but the Result tag says {result}")
    elif play.claimed and not won <= result <= won + 13 - played:
        out.add(result_tag.line, "Result", result_tag.value,
                f"the Result tag says {result} tricks but after the claim at trick {played + 1} declarer's side "
                f"had won {won} of {played}, so the result must be {won} to {won + 13 - played}")


def check_game(game: Game, source: str = "<string>") -> pd.DataFrame:
    """Problems of one game (see :func:`check_games`)."""
    out = _Collector(source)
    auction = _check_auction(game, out)
    _check_play(game, auction, out)
    return problems_frame(out.rows)


def check_games(pbn_file: PbnFile | str | os.PathLike) -> pd.DataFrame:
    """Check the auction and play of every game of a PBN file.

    Parameters
    ----------
    pbn_file : PbnFile or path
        As ``io.pbn.read_pbn`` returns it (its ``games`` and ``source`` are used),
        or a path to read.

    Returns
    -------
    DataFrame
        ``schema.PROBLEM_COLUMNS`` (``source, line, column, value, message``), one
        row per problem, in file order; empty when every auction and play is legal
        and agrees with the Contract, Declarer and Result tags.
    """
    if isinstance(pbn_file, (str, os.PathLike)):
        pbn_file = read_pbn(pbn_file)
    out = _Collector(pbn_file.source)
    for game in pbn_file.games:
        auction = _check_auction(game, out)
        _check_play(game, auction, out)
    return problems_frame(out.rows)


__all__ = ["check_games", "check_game", "parse_contract_tag", "declarer_result", "hands_of", "STRAINS"]
