"""What is only suspicious: warnings a careful scorer would raise, never a refusal.

A result can be legal and still very likely mistyped. These checks find what a
director looks for by eye on the travellers (and what ECats and EBUScore flag):

* **the lead is not in the leader's hand** (declarer's left-hand opponent), or is not a card;
* **far from double dummy**: declarer took ``DD_MARGIN`` or more tricks more or fewer than
  double dummy says for that seat and strain (7NT= by a declarer who takes 5 tricks), and no
  other table in that strain from that side came within a trick of it (a result the field
  shares is a defence that missed the one lead, not a typing mistake);
* **a field outlier**: on a board with at least ``FIELD_MIN`` other results in the same strain,
  the declaring side's tricks are ``FIELD_MARGIN`` or more away from every one of them (a
  result entered for the wrong side, or ``-1`` typed as ``+1`` at another level).

Each is a row of ``schema.PROBLEM_COLUMNS`` naming the board, the pairs and the file position,
for the notes (warnings), so the evening is scored and the director decides. Whole columns:
the hands become one ``(board, card) -> seat`` table, the double-dummy table one lookup.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import dd_values
from bridgeproc.core.deal import DealError, parse_deal
from bridgeproc.core.keys import first_match, key_codes
from bridgeproc.core.notation import lead_cards
from bridgeproc.core.pairs import texts_at
from bridgeproc.schema import DD_COLUMNS, SEATS, problems_frame

#: Tricks away from double dummy that make a result suspicious (ECats flags 4 and more).
DD_MARGIN = 4
#: Tricks away from every other table in the same strain that make a result an outlier ...
FIELD_MARGIN = 3
#: ... when at least this many other tables played that strain on the board.
FIELD_MIN = 3
_STRAIN_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "notrumps"}
_SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _owners(boards: pd.DataFrame) -> pd.DataFrame:
    """``board, card, owner``: who holds each card of each dealt board (one parse per deal)."""
    rows: list[tuple[int, str, str]] = []
    for board, deal in zip(boards["board"], boards["deal"]):
        if not isinstance(deal, str):
            continue
        try:
            hands = parse_deal(deal)
        except DealError:
            continue  # the reader reported it
        for seat, hand in hands.items():
            if hand is None:
                continue
            for suit, ranks in zip("SHDC", hand.split(".")):
                rows.extend((int(board), suit + rank, seat) for rank in ranks)
    return pd.DataFrame(rows, columns=["board", "card", "owner"])


def _who(results: pd.DataFrame) -> pd.Series:
    """``board 3, NS 2 v EW 5`` for each result (with the section when the session has several: the
    ``sections`` column :func:`_rows` gives the flagged rows)."""
    where = "board " + results["board"].astype("string") + ", NS " + results["ns"].astype("string").fillna("?") + \
        " v EW " + results["ew"].astype("string").fillna("?")
    if results["sections"].iloc[0] > 1:
        where = "section " + results["section"].astype("string").fillna("") + " " + where
    return where


def _rows(results: pd.DataFrame, mask: np.ndarray, column: str, value: pd.Series,
          message: Callable[[pd.DataFrame], pd.Series]) -> list[dict]:
    """The warnings of the rows of ``mask``: ``message`` is given those rows of ``results`` alone (a
    frame of the facts it needs), so that an evening with nothing suspicious builds no text."""
    at = np.flatnonzero(mask)
    if not len(at):
        return []
    flagged = results.iloc[at].assign(sections=results["section"].nunique())
    return [{"source": s, "line": "" if pd.isna(line) else str(line), "column": column, "value": v, "message": m}
            for s, line, v, m in zip(flagged["source"], flagged["line"], value.iloc[at], message(flagged))]


def _declarers(results: pd.DataFrame) -> tuple[np.ndarray, pd.Series]:
    """Rows with a played contract and a declarer, and the declarer as text."""
    declarer = results["declarer"].astype("string")
    played = (results["level"].fillna(0).to_numpy() > 0) & declarer.notna().to_numpy() & \
        results["tricks"].notna().to_numpy() & results["adjusted"].isna().to_numpy()
    return played, declarer


def lead_warnings(results: pd.DataFrame, boards: pd.DataFrame) -> list[dict]:
    """A lead that is not a card, or that the opening leader (declarer's left) does not hold."""
    lead = results["lead"].astype("string")
    typed = lead.notna() & (lead.str.strip() != "")
    if not typed.any():
        return []
    card = lead_cards(lead)
    facts = results.assign(lead=lead)
    rows = _rows(facts, (typed & card.isna()).to_numpy(), "lead", lead, lambda r: _who(r) + ": the lead " +
                 r["lead"].fillna("") + " is not a card; write the suit and rank (SA, ♥10, DT)")
    played, declarer = _declarers(results)
    owners = _owners(boards)
    if not len(owners):
        return rows
    leader = declarer.map(dict(zip(SEATS, SEATS[1:] + SEATS[:1])))
    holder = first_match([results["board"].to_numpy(), card.to_numpy(dtype=object)],
                         [owners["board"].to_numpy(), owners["card"].to_numpy(dtype=object)])
    found = pd.Series(texts_at(owners["owner"].to_numpy(dtype=object), holder), index=results.index, dtype="object")
    wrong = played & card.notna().to_numpy() & found.notna().to_numpy() & (found != leader).fillna(False).to_numpy()
    if not wrong.any():
        return rows
    # the other defender holds it: the declarer's partner declared (N for S), the same side: the score stands
    opposite = dict(zip(SEATS, SEATS[2:] + SEATS[:2]))
    swapped = wrong & (found == leader.map(opposite)).fillna(False).to_numpy()
    facts = facts.assign(declarer=declarer, leader=leader, found=found)

    def name(seats: pd.Series) -> pd.Series:
        return seats.map(_SEAT_NAMES).fillna("")

    def not_held(r: pd.DataFrame) -> pd.Series:
        return _who(r) + ": the lead " + r["lead"].fillna("") + " is not in " + name(r["leader"]) + \
            "'s hand (declarer " + name(r["declarer"]) + "'s left); " + name(r["found"]) + \
            " holds it: check the lead and the declarer"

    def swap(r: pd.DataFrame) -> pd.Series:
        return _who(r) + ": the lead " + r["lead"].fillna("") + " is in " + name(r["found"]) + "'s hand, not " + \
            name(r["leader"]) + "'s: " + name(r["declarer"].map(opposite)) + " probably declared, not " + \
            name(r["declarer"]) + " (a declarer-seat swap: the same side, the score stands)"
    return rows + _rows(facts, wrong & ~swapped, "lead", lead, not_held) + _rows(facts, swapped, "lead", lead, swap)


def _corroborated(results: pd.DataFrame, played: np.ndarray, declarer: pd.Series) -> np.ndarray:
    """True where another table of the board's field took within a trick of the same tricks in the
    same strain from the same side: the double-dummy line needed a lead the field did not find, so
    a result the field shares is no typing mistake (3NT making 13 when only a club lead beats it).

    Counted, not paired: each (section, board, strain, side) gets 16 slots, one per number of tricks
    (offset by one), and a row is corroborated when its slot and the two beside it hold another row;
    linear in the results (a self-join of 2,000 tables a board took gigabytes)."""
    tricks = results["tricks"].to_numpy(dtype=np.float64, na_value=np.nan)
    rows = np.flatnonzero(played & ~np.isnan(tricks) & (tricks >= 0) & (tricks <= 13) & (tricks == np.round(tricks)))
    out = np.zeros(len(results), dtype=bool)
    if not len(rows):
        return out
    side = np.where(declarer.isin(["N", "S"]).to_numpy()[rows], "NS", "EW")
    group, _ = key_codes(results["section"].fillna("").to_numpy()[rows], results["board"].to_numpy()[rows],
                         results["strain"].astype("string").fillna("").to_numpy()[rows], side)
    slot = group * 16 + tricks[rows].astype(np.int64) + 1
    held = np.bincount(slot, minlength=int(slot.max()) + 2)
    out[rows] = held[slot - 1] + held[slot] + held[slot + 1] > 1  # itself, and at least one more
    return out


def double_dummy_warnings(results: pd.DataFrame, boards: pd.DataFrame, margin: int = DD_MARGIN) -> list[dict]:
    """Declarer's tricks ``margin`` or more away from double dummy for that seat and strain."""
    if not set(DD_COLUMNS) <= set(boards.columns) or not len(results):
        return []
    played, declarer = _declarers(results)
    column = "dd_" + declarer.fillna("N") + "_" + results["strain"].astype("string").fillna("NT")
    rows = pd.Index(boards["board"]).get_indexer(results["board"])
    cols = pd.Index(DD_COLUMNS).get_indexer(column)
    known = played & (rows >= 0) & (cols >= 0)
    values = dd_values(boards)
    dd = np.full(len(results), np.nan)
    dd[known] = values[rows[known], cols[known]]
    tricks = results["tricks"].to_numpy(dtype=np.float64, na_value=np.nan)
    away = tricks - dd
    far = known & ~np.isnan(dd) & (np.abs(np.nan_to_num(away)) >= margin)
    far &= ~_corroborated(results, played, declarer)
    facts = results.assign(declarer=declarer, away=away, dd=dd)

    def message(r: pd.DataFrame) -> pd.Series:
        contract = r["level"].astype("string") + r["strain"].astype("string")
        more = pd.Series(np.where(r["away"] > 0, "more", "fewer"), index=r.index)
        return _who(r) + ": " + contract.fillna("") + " by " + r["declarer"].map(_SEAT_NAMES).fillna("") + " took " + \
            r["tricks"].astype("string").fillna("") + " tricks, " + \
            r["away"].abs().fillna(0).astype(int).astype("string") + " " + more + " than double dummy (" + \
            r["dd"].fillna(0).astype(int).astype("string") + "); check the result, declarer and board"
    return _rows(facts, far, "result", results["tricks"].astype("string"), message)


def field_warnings(results: pd.DataFrame, margin: int = FIELD_MARGIN, at_least: int = FIELD_MIN) -> list[dict]:
    """A result whose declaring side's tricks are ``margin`` or more from every other table that
    played the board in the same strain (when ``at_least`` others did)."""
    played, declarer = _declarers(results)
    if not played.any():
        return []
    ns_side = declarer.isin(["N", "S"]).to_numpy()
    tricks = results["tricks"].to_numpy(dtype=np.float64, na_value=np.nan)
    rows = np.flatnonzero(played)
    group, count = key_codes(results["section"].fillna("").to_numpy()[rows], results["board"].to_numpy()[rows],
                             results["strain"].astype("string").fillna("").to_numpy()[rows])
    ns_tricks = np.where(ns_side, tricks, 13 - tricks)[rows]
    order = np.lexsort((ns_tricks, group))  # each (section, board, strain) together, by NS's tricks
    group, ns_tricks, rows = group[order], ns_tricks[order], rows[order]
    same = group[1:] == group[:-1]  # a row and the next are of one field
    gap = np.where(same, ns_tricks[1:] - ns_tricks[:-1], np.inf)
    nearest = np.fmin(np.append(np.inf, gap), np.append(gap, np.inf))  # the table below it or above it
    others = np.bincount(group, minlength=count)[group] - 1
    outlier = np.zeros(len(results), dtype=bool)
    outlier[rows[(others >= at_least) & (nearest >= margin)]] = True
    facts = results.assign(side=np.where(ns_side, "NS", "EW"))

    def message(r: pd.DataFrame) -> pd.Series:
        return _who(r) + ": " + r["side"] + " took " + r["tricks"].astype("string").fillna("") + " tricks in " + \
            r["strain"].astype("string").map(_STRAIN_NAMES).fillna("") + \
            f", {margin} or more away from every other table in that strain; check the result and who declared"
    return _rows(facts, outlier, "result", results["tricks"].astype("string"), message)


def check_plausibility(results: pd.DataFrame, boards: pd.DataFrame) -> pd.DataFrame | None:
    """Every warning above for the scored ``results`` and the ``boards`` (deals, and double dummy
    when solved or given); None when nothing is suspicious."""
    rows = lead_warnings(results, boards) + double_dummy_warnings(results, boards) + field_warnings(results)
    return problems_frame(rows) if rows else None


__all__ = ["check_plausibility", "lead_warnings", "double_dummy_warnings", "field_warnings", "DD_MARGIN",
           "FIELD_MARGIN", "FIELD_MIN"]
