"""Sheets laid out as one block per board: a board's number in the sheet's name, in a title cell
above the header, or in a title row over each block (``Board 3 · Dealer S · Vul EW``), as bridgeproc's
Travellers sheet and many club sheets lay them out."""
from __future__ import annotations

import re

from bridgeproc.io.sheets.travellers import HEADER_SEARCH_ROWS

#: A title row over a board's results (``Board 3 · Dealer S · Vul EW``, ``Section A · Board 3``).
_BOARD_TITLE = re.compile(r"^(?:section\s+(.{1,120}?)\s*[·,:]\s*)?(?:board|bd)\s*(\d{1,4})\b(?:\s*[·,:-].*)?$",
                          re.IGNORECASE)
#: A sheet name or title cell naming one board (``5``, ``Board 5``, ``Bd #5``, ``Spiel 5``).
_BOARD_IN_TEXT = re.compile(r"^(?:board|bd|brd|deal|spiel|donne)?\s*(?:no\.?|nr\.?|#)?\s*(\d{1,3})\s*$", re.IGNORECASE)


def board_hint(title: str, rows: list[list[str]], header_index: int | None) -> str | None:
    """The board a sheet holds, from its name or a title cell above its header; None when neither names one."""
    m = _BOARD_IN_TEXT.match(title.strip())
    if m:
        return m.group(1)
    for row in rows[: header_index if header_index is not None else HEADER_SEARCH_ROWS]:
        for cell in row:
            m = _BOARD_IN_TEXT.match(cell)
            if m and not cell.strip().isdigit():
                return m.group(1)
    return None


def board_titles(rows: list[list[str]]) -> dict[int, tuple[str, str]]:
    """Row index -> (section, board) of each board title row: the title in its first cell, nothing else."""
    titles = {}
    for i, row in enumerate(rows):
        cells = [c for c in row if c]
        if len(cells) == 1 and row[0]:
            m = _BOARD_TITLE.match(row[0].strip())
            if m:
                titles[i] = (m.group(1) or "", m.group(2))
    return titles


def titled_blocks(body: list[list[str]], lines: list[int], titles: dict[int, tuple[str, str]], first: int
                   ) -> tuple[list[list[str]], list[int], list[str], list[str]]:
    """The result rows of a sheet of board blocks, without their title rows, and each row's section and
    board from the title above it; rows above the first title have none."""
    rows, kept, sections, boards = [], [], [], []
    section, board = "", ""
    for i, (row, line) in enumerate(zip(body, lines)):
        if first + i in titles:
            section, board = titles[first + i]
            continue
        rows.append(row)
        kept.append(line)
        sections.append(section)
        boards.append(board)
    return rows, kept, sections, boards
