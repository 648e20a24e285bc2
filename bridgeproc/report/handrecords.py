"""Hand records sheet: each board as a diagram, with HCP, double-dummy table and par."""
from __future__ import annotations

import re

import pandas as pd

from bridgeproc.core.deal import DealError, hcp, parse_deal
from bridgeproc.report.styles import (
    BOLD,
    BOX,
    CENTER,
    RED_FONT,
    SUBTITLE,
    a4,
    add_row,
    break_before,
    cell,
    fit_rows,
    new_sheet,
    set_widths,
)

SUIT_DISPLAY = [("♠", None), ("♥", RED_FONT), ("♦", RED_FONT), ("♣", None)]
DD_STRAINS = [("NT", "NT", None), ("S", "♠", None), ("H", "♥", RED_FONT), ("D", "♦", RED_FONT), ("C", "♣", None)]
DD_SEATS = "NSEW"
#: Rows per board block (title, 4+4+4 hand rows, a spacer).
BLOCK_ROWS = 14
#: Board diagrams per printed A4 page.
BOARDS_PER_PAGE = 4
#: Column widths: a seat's label (``N 12``) has its own column, apart from the spades beside it.
WIDTHS = [5, 14, 5, 14, 5, 14, 2, 5, 5, 5, 5, 5, 5]
#: A strain in a par contract (``4C``, ``3NT`` stays) and its suit symbol, as everywhere else.
_PAR_SUIT = re.compile(r"(\d)([SHDC])")
_PAR_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _suit_lines(hand: str | None) -> list[tuple[str, object]]:
    if hand is None:
        return [("", None)] * 4
    return [(f"{symbol} {ranks.replace('T', '10') or '—'}", font)
            for (symbol, font), ranks in zip(SUIT_DISPLAY, hand.split("."))]


def has_dd(boards: pd.DataFrame) -> bool:
    """True when the boards frame carries double-dummy columns ``dd_<seat>_<strain>``."""
    return all(f"dd_{seat}_{strain}" in boards for seat in DD_SEATS for strain, _, _ in DD_STRAINS)


def write_handrecords(wb, boards: pd.DataFrame) -> None:
    """Add the Hand records sheet (skipped rows for boards without a deal)."""
    ws = new_sheet(wb, "Hand records")
    set_widths(ws, WIDTHS)
    a4(ws)
    fit_rows(ws, BOARDS_PER_PAGE * BLOCK_ROWS, sum(WIDTHS))  # the same scale with or without the DD table
    with_dd = has_dd(boards)
    count = 0
    for count, board in enumerate(_rows(boards), start=1):
        for row in _block(ws, board, with_dd):
            add_row(ws, row)
    # four diagrams a page, none cut by a page end
    break_before(ws, range(1 + BOARDS_PER_PAGE * BLOCK_ROWS, 1 + count * BLOCK_ROWS, BOARDS_PER_PAGE * BLOCK_ROWS))


def _rows(boards: pd.DataFrame):
    ordered = boards.sort_values("board")
    columns = list(ordered.columns)
    for values in zip(*(ordered[c] for c in columns)):
        yield dict(zip(columns, values))


def _block(ws, board: dict, with_dd: bool) -> list[list]:
    deal = board.get("deal")
    try:
        hands = parse_deal(deal) if isinstance(deal, str) and deal else {}
        points = hcp(deal) if hands and isinstance(deal, str) else {}
    except DealError:
        hands, points = {}, {}
    grid = [[None] * 13 for _ in range(BLOCK_ROWS)]
    grid[0][0] = cell(ws, f"Board {board['board']}", font=BOLD)
    grid[0][3] = cell(ws, f"Dealer {board.get('dealer', '')} · Vul {board.get('vul', '')}", font=SUBTITLE)
    places = {"N": (1, 3), "W": (5, 1), "E": (5, 5), "S": (9, 3)}
    for seat, (top, col) in places.items():
        lines = _suit_lines(hands.get(seat))
        label = f"{seat} {points[seat]}" if points.get(seat) is not None else seat
        grid[top][col - 1] = cell(ws, label, font=SUBTITLE)
        for offset, (text, font) in enumerate(lines):
            grid[top + offset][col] = cell(ws, text, font=font)
    if with_dd:
        grid[1][7] = cell(ws, "DD", font=BOLD, align=CENTER, border=BOX)
        for j, (strain, symbol, font) in enumerate(DD_STRAINS):
            grid[1][8 + j] = cell(ws, symbol, font=font or BOLD, align=CENTER, border=BOX)
        for i, seat in enumerate(DD_SEATS):
            grid[2 + i][7] = cell(ws, seat, font=BOLD, align=CENTER, border=BOX)
            for j, (strain, _, _) in enumerate(DD_STRAINS):
                value = board.get(f"dd_{seat}_{strain}")
                grid[2 + i][8 + j] = cell(ws, None if value is None or pd.isna(value) else int(value), align=CENTER, border=BOX)
    # par under the DD table, one contract a line, so that no text runs past the last column
    for offset, line in enumerate(_par_lines(board)):
        grid[7 + offset][7] = cell(ws, line, font=BOLD if offset == 0 else None)
    return [[c for c in row] for row in grid]


def _par_lines(board: dict) -> list[str]:
    """``["Par EW 110", "EW 2♠", "EW 2♥"]``: the par score, then each par contract with suit symbols
    (at most five lines, the last holding the rest); empty when the board has no par."""
    score = board.get("par_score")
    contract = board.get("par_contracts")
    if score is None or pd.isna(score):
        return []
    side = "NS" if score >= 0 else "EW"
    lines = [f"Par {side} {abs(int(score))}" if score else "Par 0"]
    if isinstance(contract, str) and contract:
        shown = _PAR_SUIT.sub(lambda m: m.group(1) + _PAR_SYMBOL[m.group(2)], contract).split(", ")
        lines += shown[:4] + ([", ".join(shown[4:])] if shown[4:] else [])
    return lines
