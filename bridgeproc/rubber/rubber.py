"""Rubber bridge score sheets: the classic rubber and the simplified training rubber.

Input is a deal-by-deal sheet (``deal_sheet.read_sheet``; columns documented there).

Classic rubber (ACBL Laws of Contract Bridge, Laws 72-74 and 80; reference section 2.1)
    Below the line only the trick score of tricks bid and made; a game is 100
    below the line, reached in one deal or by part-scores, and ends the part-scores
    of both sides. Above the line: overtricks, undertricks (to the defenders),
    slams, the insult for a doubled (50) or redoubled (``redoubled_insult``,
    default 100) contract made, honours (100 for four of the five trump honours in
    one hand, 150 for all five or for four aces at no-trumps; to the side holding
    them) and the rubber bonus: 700 for two games to none, 500 for two to one. A
    side is vulnerable once it has won a game. An unfinished rubber at the end of
    the sheet gives 300 to a side with a game and ``unfinished_partscore`` (100,
    ACBL Law 80; 50 in some rules) to a side with a part-score in the unfinished game.
Simplified training rubber
    Each deal is scored on its own like a duplicate board: game premium 300, or 500
    once the side has a game (vulnerable); part-score 50; slams; doubled overtricks
    and undertricks as in Law 77, but making a doubled contract earns no insult. A
    game is a contract worth 100 trick points on its own; the rubber ends when a side
    has two games (no rubber bonus). Honours are not scored.

Several rubbers may follow each other on one sheet: a new rubber starts after a
finished one.
"""
from __future__ import annotations

import os
from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_name
from bridgeproc.rubber.deals import STRAINS, read_sheet
from bridgeproc.schema import RUBBER_COLUMNS, SIMPLIFIED_RUBBER_COLUMNS, records
from bridgeproc.scoring.law77 import DOUBLING_FACTOR, FIRST_TRICK_EXTRA, INSULT, TRICK_VALUE, declarer_score_codes

Variant = Literal["rubber", "simplified"]
SIDES = ("NS", "EW")
#: Rubber bonus for winning the rubber two games to none / two games to one (Law 74).
RUBBER_BONUS = {0: 700, 1: 500}
#: Unfinished rubber: one game won (Law 80).
UNFINISHED_GAME = 300
GAME_POINTS = 100



def duplicate_score(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """Declarer's Law 77 duplicate score (``scoring.DECLARER_SCORE``)."""
    value = declarer_score_codes(np.array([level]), np.array([STRAINS.index(strain)]), np.array([doubled]),
                                 np.array([int(vulnerable)]), np.array([tricks]))
    return int(value[0])


def trick_score(level: int, strain: str, doubled: int) -> int:
    """Trick points of the tricks bid (Law 77), doubled or redoubled."""
    s = STRAINS.index(strain)
    return int((level * TRICK_VALUE[s] + FIRST_TRICK_EXTRA[s]) * DOUBLING_FACTOR[doubled])


def made_parts(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int,
               insult: tuple[int, int, int] = (0, 50, 100)) -> tuple[int, int]:
    """``(below, above)`` for a made contract in rubber scoring: trick score, then
    overtricks + slam + ``insult[doubled]`` (the duplicate game/part-score premium removed)."""
    below = trick_score(level, strain, doubled)
    premium = (500 if vulnerable else 300) if below >= GAME_POINTS else 50
    rest = duplicate_score(level, strain, doubled, vulnerable, tricks) - below - premium - int(INSULT[doubled])
    return below, rest + insult[doubled]


def result_text(level: int, tricks: int) -> str:
    """``=``, ``+1``, ``-2``."""
    diff = tricks - level - 6
    return "=" if diff == 0 else f"{diff:+d}"


def declared_by(row) -> str | None:
    """The declarer's seat as written, else the declaring side (None when passed out)."""
    if not row.level:
        return None
    return row.declarer if isinstance(row.declarer, str) else row.side


def _contract_text(row) -> str:
    return contract_name(row.level, row.strain, row.doubled)


class _Rubber:
    """Running state of one rubber."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.games = [0, 0]
        self.below = [0, 0]  # current game
        self.total = [0, 0]
        self.deals = 0

    def winner(self) -> int | None:
        return next((s for s in (0, 1) if self.games[s] == 2), None)


def _deals(sheet: pd.DataFrame):
    """Each deal with the state of its rubber; a new rubber starts once one side has two games.

    A rubber is a sequence (each deal depends on the games before it), so this walks the deals.
    """
    state = _Rubber(1)
    for deal in records(sheet):
        if state.winner() is not None:
            state = _Rubber(state.number + 1)
        state.deals += 1
        yield state, deal


def rubber_sheet(source: str | os.PathLike | pd.DataFrame, variant: Variant = "rubber",
                 unfinished_partscore: int = 100, redoubled_insult: int = 100,
                 encoding: str | None = None) -> pd.DataFrame:
    """Score a sequence of rubber-bridge deals.

    Parameters
    ----------
    source : path or DataFrame
        A deal sheet (CSV path, a frame of text cells, or ``read_sheet``'s frame).
    variant : {"rubber", "simplified"}
        Classic rubber scoring, or the simplified training rubber (module docstring).
    unfinished_partscore : int
        Classic: bonus for a part-score in an unfinished game (100, or 50 by some rules).
    redoubled_insult : int
        Classic: premium for making a redoubled contract (100 as in duplicate, or 50).

    Returns
    -------
    DataFrame
        ``RUBBER_COLUMNS`` (classic) or ``SIMPLIFIED_RUBBER_COLUMNS``: one row per deal,
        plus, in the classic variant, a row for the bonus of an unfinished rubber.
        ``vulnerable`` is the declaring side's; totals run within each rubber.
    """
    sheet = source if isinstance(source, pd.DataFrame) and "level" in source else read_sheet(source, encoding)
    if variant == "simplified":
        return _simplified(sheet)
    if variant != "rubber":
        raise ValueError(f"unknown rubber variant {variant!r}; use 'rubber' or 'simplified'")
    insult = (0, 50, redoubled_insult)
    rows: list[dict] = []
    state = None
    for state, deal in _deals(sheet):
        points = {"ns_below": 0, "ns_above": 0, "ew_below": 0, "ew_above": 0}
        notes: list[str] = []
        side = SIDES.index(deal.side) if deal.level else None
        vulnerable = None
        if side is not None:
            name, other = SIDES[side].lower(), SIDES[1 - side].lower()
            vulnerable = state.games[side] > 0
            if deal.tricks >= deal.level + 6:
                below, above = made_parts(deal.level, deal.strain, deal.doubled, vulnerable, deal.tricks, insult)
                points[f"{name}_below"] += below
                points[f"{name}_above"] += above
            else:
                points[f"{other}_above"] -= duplicate_score(deal.level, deal.strain, deal.doubled, vulnerable,
                                                            deal.tricks)
            if deal.honours:
                points[f"{deal.honours_side.lower()}_above"] += int(deal.honours)
                notes.append(f"honours {deal.honours_side} {deal.honours}")
            state.below[side] += points[f"{name}_below"]
            if state.below[side] >= GAME_POINTS:
                state.games[side] += 1
                state.below = [0, 0]
                notes.append(f"game {SIDES[side]}")
                if state.games[side] == 2:
                    bonus = RUBBER_BONUS[state.games[1 - side]]
                    points[f"{name}_above"] += bonus
                    notes.append(f"rubber {SIDES[side]} {bonus}")
        else:
            notes.append("passed out")
        _add_row(rows, state, deal, vulnerable, points, notes)
    if state is not None and state.winner() is None:
        _unfinished(rows, state, unfinished_partscore)
    return pd.DataFrame(rows, columns=list(RUBBER_COLUMNS)).astype(RUBBER_COLUMNS)


def _add_row(rows: list[dict], state: _Rubber, deal, vulnerable, points: dict, notes: list[str]) -> None:
    state.total[0] += points["ns_below"] + points["ns_above"]
    state.total[1] += points["ew_below"] + points["ew_above"]
    rows.append({
        "rubber": state.number, "deal": deal.deal if deal is not None else pd.NA,
        "declarer": declared_by(deal) if deal is not None else None,
        "contract": _contract_text(deal) if deal is not None else None,
        "tricks": deal.tricks if deal is not None and deal.level else pd.NA,
        "result": result_text(deal.level, deal.tricks) if deal is not None and deal.level else None,
        "vulnerable": vulnerable if vulnerable is not None else pd.NA, **points,
        "ns_total": state.total[0], "ew_total": state.total[1],
        "games_ns": state.games[0], "games_ew": state.games[1], "note": "; ".join(notes) or None,
    })


def _unfinished(rows: list[dict], state: _Rubber, partscore: int) -> None:
    points = {"ns_below": 0, "ns_above": 0, "ew_below": 0, "ew_above": 0}
    notes = []
    for side in (0, 1):
        name = SIDES[side]
        if state.games[side]:
            points[f"{name.lower()}_above"] += UNFINISHED_GAME
            notes.append(f"{name} game {UNFINISHED_GAME}")
        if state.below[side]:
            points[f"{name.lower()}_above"] += partscore
            notes.append(f"{name} part-score {partscore}")
    _add_row(rows, state, None, None, points, ["unfinished rubber" + (": " if notes else "") + ", ".join(notes)])


def _simplified(sheet: pd.DataFrame) -> pd.DataFrame:
    rows: list[dict] = []
    for state, deal in _deals(sheet):
        ns = ew = 0
        notes: list[str] = []
        vulnerable = None
        if deal.level:
            side = SIDES.index(deal.side)
            vulnerable = state.games[side] > 0
            score = duplicate_score(deal.level, deal.strain, deal.doubled, vulnerable, deal.tricks)
            made = deal.tricks >= deal.level + 6
            if made:
                score -= int(INSULT[deal.doubled])  # no bonus for making a doubled contract
            ns, ew = (score, 0) if side == 0 else (0, score)
            if made and trick_score(deal.level, deal.strain, deal.doubled) >= GAME_POINTS:
                state.games[side] += 1
                notes.append(f"game {SIDES[side]}" + (", wins the rubber" if state.games[side] == 2 else ""))
        else:
            notes.append("passed out")
        state.total[0] += ns
        state.total[1] += ew
        rows.append({
            "rubber": state.number, "deal": deal.deal,
            "declarer": declared_by(deal),
            "contract": _contract_text(deal), "tricks": deal.tricks if deal.level else pd.NA,
            "result": result_text(deal.level, deal.tricks) if deal.level else None,
            "vulnerable": vulnerable if vulnerable is not None else pd.NA, "ns_points": ns, "ew_points": ew,
            "ns_total": state.total[0], "ew_total": state.total[1], "games_ns": state.games[0],
            "games_ew": state.games[1], "note": "; ".join(notes) or None,
        })
    return pd.DataFrame(rows, columns=list(SIMPLIFIED_RUBBER_COLUMNS)).astype(SIMPLIFIED_RUBBER_COLUMNS)


def sheet_totals(sheet: pd.DataFrame, key: str) -> pd.DataFrame:
    """One row per rubber or chicago (``key``): final ``ns``/``ew`` totals, ``winner`` (NS/EW/-), ``margin``."""
    last = sheet.groupby(key, sort=True).tail(1)
    ns, ew = last["ns_total"].to_numpy(), last["ew_total"].to_numpy()
    return pd.DataFrame({
        key: last[key].to_numpy(), "ns": ns, "ew": ew,
        "winner": pd.array(np.where(ns > ew, "NS", np.where(ew > ns, "EW", "-")), dtype="string"),
        "margin": np.abs(ns - ew),
    })


def rubber_totals(sheet: pd.DataFrame) -> pd.DataFrame:
    """One row per rubber: ``rubber``, ``ns``, ``ew`` (final totals), ``winner`` (NS/EW/-), ``margin``."""
    return sheet_totals(sheet, "rubber")
