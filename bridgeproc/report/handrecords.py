"""Hand records sheet: each board as a diagram, with HCP, double-dummy table and par."""
from __future__ import annotations

import pandas as pd
from openpyxl.worksheet.pagebreak import Break

from bridgeproc.core.deal import DealError, hcp, parse_deal
from bridgeproc.report.styles import BOLD, BOX, CENTER, RED_FONT, SUBTITLE, a4, add_row, cell, new_sheet, set_widths

SUIT_DISPLAY = [("♠", None), ("♥", RED_FONT), ("♦", RED_FONT), ("♣", None)]
DD_STRAINS = [("NT", "NT", None), ("S", "♠", None), ("H", "♥", RED_FONT), ("D", "♦", RED_FONT), ("C", "♣", None)]
DD_SEATS = "NSEW"
#: Rows per board block (title, 4+4+4 hand rows, a spacer).
BLOCK_ROWS = 14
#: Board diagrams per printed A4 page.
BOARDS_PER_PAGE = 4


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
    set_widths(ws, [4, 15, 4, 15, 4, 15, 2, 5, 5, 5, 5, 5, 5])
    a4(ws)
    with_dd = has_dd(boards)
    for count, board in enumerate(_rows(boards), start=1):
        for row in _block(ws, board, with_dd):
            add_row(ws, row)
        if count % BOARDS_PER_PAGE == 0:
            ws.row_breaks.append(Break(id=count * BLOCK_ROWS))  # a diagram is never cut by a page end


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
    par_text = _par_text(board)
    if par_text:
        grid[7][7] = cell(ws, par_text, font=BOLD)
    return [[c for c in row] for row in grid]


def _par_text(board: dict) -> str:
    score = board.get("par_score")
    contract = board.get("par_contracts")
    if score is None or pd.isna(score):
        return ""
    side = "NS" if score >= 0 else "EW"
    text = f"Par {side} {abs(int(score))}" if score else "Par 0"
    if isinstance(contract, str) and contract:
        text += f": {contract}"
    return text
