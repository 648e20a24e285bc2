"""Travellers sheet: every result of every board, with what a member needs to check the sums."""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.notation import card_text, contract_text, each_distinct
from bridgeproc.core.shown import column_decimals, kind_of, shown_frame
from bridgeproc.rank.methods import METHODS
from bridgeproc.report.styles import (
    BAND_FILL,
    BOLD,
    RED_FONT,
    a4,
    add_row,
    cell,
    excel_format,
    header_row,
    is_red,
    new_sheet,
    numbers,
    set_widths,
    styled,
)

#: Columns shown after the score when present: (column, header, number format): a fouled
#: board's group of tables (blank: the deal as dealt), then each method's (rank.methods).
METHOD_COLUMNS = [("fouled", "Group", None), ("switched", "Switched", None)] + [
    shown for m in METHODS.values() for shown in m.shown]
#: Per-board facts shown in the board's title line when present: (column, label, format string).
BOARD_FACTS = [fact for m in METHODS.values() for fact in m.board_facts]
_LEAD_SUITS = str.maketrans({"S": "♠", "H": "♥", "D": "♦", "C": "♣"})


def lead_text(lead: pd.Series) -> pd.Series:
    """Leads as suit symbol + rank (``HK`` -> ``♥K``); anything else unchanged, a missing one empty."""
    return each_distinct(lead, _lead_shown).fillna("")


def _lead_shown(text: str) -> str:
    suit = text[:1].upper()
    return suit.translate(_LEAD_SUITS) + text[1:].upper() if suit in ("S", "H", "D", "C") and len(text) >= 2 else text


def traveller_table(results: pd.DataFrame) -> pd.DataFrame:
    """The displayed traveller rows, sorted by section, board and NS score (best first)."""
    score = results["score_ns"]
    table = pd.DataFrame({
        "section": results["section"].fillna(""),
        "board": results["board"],
        "ns": results["ns"], "ew": results["ew"],
        "contract": contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True),
        "declarer": results["declarer"].astype("string").fillna(""),
        "lead": lead_text(results["lead"]) if "lead" in results else "",
        "tricks": results["tricks"],
        "plus_ns": score.where(score > 0),
        "plus_ew": (-score).where(score < 0),
    })
    for column, _, _ in METHOD_COLUMNS + [(c, None, None) for c, _, _ in BOARD_FACTS]:
        if column == "switched":
            # an arrow-switched result (the EW-numbered pair sat NS), as a Switched column reads back: Y
            if column in results and results[column].fillna(False).astype(bool).any():
                marks = results[column].fillna(False).astype(bool)
                table[column] = pd.Series("Y", index=results.index, dtype="string").where(marks)
        elif column in results:
            table[column] = results[column]
    order = np.lexsort((-score.to_numpy(dtype=float, na_value=-1e9), table["board"].to_numpy(), table["section"].to_numpy(dtype=str)))
    return table.iloc[order].reset_index(drop=True)


def plain(column: pd.Series) -> list:
    """Column values as Python objects with None for missing: one conversion per column,
    so writing a row costs no pandas look-ups."""
    return column.astype(object).where(column.notna(), None).tolist()


def block_starts(*keys: pd.Series) -> list[int]:
    """Row positions where a run of equal keys (e.g. section and board) begins."""
    change = np.zeros(len(keys[0]), dtype=bool)
    if len(change):
        change[0] = True
    for key in keys:
        values = key.to_numpy(dtype=object)
        change[1:] |= values[1:] != values[:-1]
    return np.flatnonzero(change).tolist()


def board_titles(table: pd.DataFrame, boards: pd.DataFrame) -> list[str]:
    """One title per (section, board) block: board, dealer and vulnerability, top/factor/datum."""
    starts = block_starts(table["section"], table["board"])  # the table runs block by block
    keys = zip(table["section"].to_numpy(dtype=object)[starts].tolist(), table["board"].to_numpy()[starts].tolist())
    several_sections = table["section"].nunique() > 1
    info = boards.drop_duplicates("board").set_index("board") if len(boards) else None
    dealt = {} if info is None else {b: f"Dealer {d} · Vul {v}" for b, d, v in
                                     zip(info.index.tolist(), info["dealer"].tolist(), info["vul"].tolist())}
    facts = [(column, label, fmt, _first_known(table[column], starts))
             for column, label, fmt in BOARD_FACTS if column in table]  # each column read once, not per block
    titles = []
    for position, (section, board) in enumerate(keys):
        parts = [f"Section {section} · Board {board}" if several_sections and section else f"Board {board}"]
        if board in dealt:
            parts.append(dealt[board])
        for column, label, fmt, values in facts:
            value = values[position]
            if value == value:  # not NaN
                if column == "mp_factor" and abs(value - 1) < 1e-12:
                    continue  # a full board needs no factor
                parts.append(f"{label} {fmt.format(value)}")
        titles.append(" · ".join(parts))
    return titles


def _first_known(column: pd.Series, starts: list[int]) -> list[float]:
    """Each block's first value of ``column`` that is known (NaN when none is), as floats."""
    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
    if not starts:
        return []
    at = np.where(np.isnan(values), len(values), np.arange(len(values)))
    return np.append(values, np.nan)[np.minimum.reduceat(at, starts)].tolist()


def write_travellers(wb, results: pd.DataFrame, boards: pd.DataFrame) -> None:
    """Add the Travellers sheet: one block per (section, board)."""
    ws = new_sheet(wb, "Travellers")
    table = traveller_table(shown_frame(results))  # the numbers as every output shows them (core.shown)
    shown = [(c, h, f) for c, h, f in METHOD_COLUMNS if c in table and table[c].notna().any()]
    with_lead = bool((table["lead"].astype("string").fillna("") != "").any())  # no empty Lead column
    titles = ["NS", "EW", "Contract", "By"] + ["Lead"] * with_lead + ["Tricks", "NS +", "EW +"] + [h for _, h, _ in shown]
    # pair numbers or team names: as wide as the longest, so no name is cut
    sides = pd.concat([table["ns"], table["ew"]]).astype("string").str.len()
    side_width = max(7, min(int(sides.max()) + 1, 40)) if len(sides) and sides.notna().any() else 7
    set_widths(ws, [side_width, side_width, 10, 5] + [6] * with_lead + [7, 8, 8] + [10] * len(shown))
    ws.freeze_panes = "A2"
    a4(ws, "1:1")
    add_row(ws, header_row(ws, titles))
    starts = set(block_starts(table["section"], table["board"]))
    block_titles = iter(board_titles(table, boards))
    columns = [plain(table[c]) for c in ("ns", "ew", "contract", "declarer", "lead", "tricks", "plus_ns", "plus_ew")]
    columns[0], columns[1] = numbers(columns[0]), numbers(columns[1])
    columns[4] = plain(card_text(table["lead"]))  # ♥10 as on the hand diagrams, not the file's HT
    extra = [plain(table[c]) for c, _, _ in shown]
    formats = [None if f is None else excel_format(column_decimals(table[c], kind_of(c))) for c, _, f in shown]
    red = styled(ws, font=RED_FONT)
    points = [styled(ws, fmt=f) for f in formats]
    for position, values in enumerate(zip(*columns, *extra)):
        if position in starts:
            add_row(ws, [])
            add_row(ws, [cell(ws, next(block_titles), font=BOLD, fill=BAND_FILL)]
                      + [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]])
        contract, lead = values[2], values[4]
        row = [values[0], values[1], red(contract) if is_red(contract) else contract, values[3]]
        row += [red(lead) if is_red(lead) else lead] * with_lead + list(values[5:8])
        row += [make(v) for v, make in zip(values[8:], points)]
        add_row(ws, row)
