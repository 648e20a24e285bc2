"""What a PBN game's Auction and Play records give where its result tags are empty.

A one-result game's ``Contract``, ``Declarer`` and ``Result`` tags are its result; its
``Auction`` and ``Play`` sections record how it came about. Exports often write only the
records: an empty Contract after a complete auction, the opening lead only as the first
card of the Play (the EBL/RealBridge teams file: 278 Play sections, no lead anywhere), the
tricks only as a complete play. Here the records fill what the tags leave empty, and each
kind of fill is one note, so nothing is changed silently. A legal Play is also kept as the results'
``play`` column (:data:`bridgeproc.schema.PLAY_COLUMN`): the cards in the order they were played, for the
profile's defence after the lead (:mod:`bridgeproc.analysis.profile`). Where both are given,
:func:`bridgeproc.validate.rules.check_games` compares them (a contract that is not the
auction's, a result the play contradicts), and a record that is not legal fills nothing.
"""
from __future__ import annotations

from collections import Counter

import pandas as pd

from bridgeproc.io.pbn.game_rows import result_line, unfinished_play
from bridgeproc.io.pbn.model import Game, PbnFile
from bridgeproc.validate.auction import SEAT_NAMES, Auction, read_auction
from bridgeproc.validate.play import read_play
from bridgeproc.validate.rules import hands_of, parse_contract_tag

#: What the records may fill, in the order the facts frame gives them.
FILLED = ("contract", "declarer", "result", "lead")
_FILL_NOTES = {
    "contract": "contract read from the complete Auction (the Contract tag is empty)",
    "declarer": "declarer read from the complete Auction (the Declarer tag is empty)",
    "result": "declarer's tricks counted from the complete Play (the Result tag is empty)",
    "lead": "opening lead read from the Play (the first card of trick 1)",
}


def _auction(game: Game) -> Auction | None:
    """The game's auction when it is complete and legal, else None."""
    tag = game.tag("Auction")
    if tag is None or not tag.tokens:
        return None
    auction, problems = read_auction(tag.value, tag.tokens, tag.token_lines, tag_line=tag.line)
    return auction if auction.complete and not problems else None


def game_facts(game: Game) -> tuple[dict[str, str | None], bool]:
    """Contract, declarer, tricks and lead that the game's records give (None where they do not),
    and whether its play stops early with no claim mark (read as a claim: a Result is given)."""
    facts: dict[str, str | None] = dict.fromkeys(FILLED)
    auction = _auction(game)
    if auction is not None:
        facts["contract"] = auction.contract
        facts["declarer"] = auction.declarer
    tag = game.tag("Play")
    written = parse_contract_tag(game.get("Contract") or "")
    strain = written[1] if written and written[0] else (auction.strain if auction is not None else None)
    declarer = (game.get("Declarer") or "").strip().upper().lstrip("^") or facts["declarer"] or ""
    hands = hands_of(game)
    if tag is None or hands is None or strain is None or declarer not in SEAT_NAMES:
        return facts, False
    result = game.tag("Result")
    play, problems = read_play(hands, tag.value, tag.tokens or [], tag.token_lines or [],
                               None if strain == "NT" else strain, declarer, tag.line,
                               claim_implied=result is not None and bool(result.value.strip()))
    if problems:
        return facts, False
    first = play.tricks[0].order if play.tricks else play.partial
    if first and first[0][1] != "-":
        facts["lead"] = first[0][1]
    facts["play"] = played_cards(play) or None
    if play.complete:
        facts["tricks"] = str(play.declarer_tricks)
    return {**facts, "result": facts.pop("tricks", None)}, play.claim_implied


def played_cards(play) -> str:
    """The cards of a rebuilt Play (:func:`bridgeproc.validate.play.read_play`) in the order they were
    played, space-separated (``C3 C9 CT CA D6 ...``): every whole trick, then the known cards of a trick
    in progress; nothing after an unknown card ``-``."""
    cards = [card for trick in play.tricks for _, card in trick.order]
    for _, card in play.partial:
        if card in ("-", "+"):
            break
        cards.append(card)
    return " ".join(cards)


def fill_from_records(results: pd.DataFrame, pbn: PbnFile) -> tuple[pd.DataFrame, list[tuple[int, str]]]:
    """The one-result games' rows of ``results`` with empty contract, declarer, result and lead
    filled from their Auction and Play, and ``(line, note)`` pairs: one per kind of fill. When a game's
    Play is legal, ``results`` gains the ``play`` column (:func:`played_cards`; NA for the other rows).

    Rows are matched to games by line (:func:`bridgeproc.io.pbn.game_rows.result_line`);
    ScoreTable rows (other tables of the board) are never filled from this game's records.
    """
    games = [g for g in pbn.games if g.tag("Auction") is not None or g.tag("Play") is not None]
    if not games or not len(results):
        return results, []
    rows, claims = [], []
    for game in games:
        if unfinished_play(game) is not None:
            continue  # an unfinished table is an average (io.pbn.game_rows): no contract to fill
        facts, implied = game_facts(game)
        if implied:
            claims.append(game.tag("Play").line)  # type: ignore[union-attr]
        if any(facts.values()):
            rows.append({"line": result_line(game), **facts})
    notes: list[tuple[int, str]] = []
    if claims:
        notes.append((claims[0], f"{len(claims)} play record(s) stop before trick 13 without '*' (as BBO and pbntools "
                                 "write a claim): read as claims, the Result tag gives the tricks"))
    if not rows:
        return results, notes
    facts_frame = pd.DataFrame(rows).drop_duplicates(subset=["line"]).astype({"line": "Int64"})
    given = results[["line"]].merge(facts_frame, on="line", how="left")
    given.index = results.index
    filled = results.copy()
    counts: Counter[str] = Counter()
    first_line: dict[str, int] = {}
    for column in FILLED:
        empty = filled[column].isna() | (filled[column].astype("string").str.strip() == "")
        found = given[column].notna() & empty
        if column == "declarer":  # a passed-out auction has no declarer to fill
            found &= given["contract"].fillna("") != "Pass"
        if found.any():
            filled.loc[found, column] = given.loc[found, column].astype("string")
            counts[column] = int(found.sum())
            first_line[column] = int(filled.loc[found, "line"].iloc[0])
    for column in FILLED:
        if counts[column]:
            notes.append((first_line[column], f"{counts[column]} result(s): {_FILL_NOTES[column]}"))
    if "play" in given and given["play"].notna().any():
        filled["play"] = given["play"].astype("string")
    return filled, notes


__all__ = ["fill_from_records", "game_facts", "played_cards", "FILLED"]
