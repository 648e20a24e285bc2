"""Travellers sheet: every result of every board, with what a member needs to check the sums."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..notation import contract_text
from .styles import BAND_FILL, BOLD, RED_FONT, a4, cell, header_row, is_red, set_widths

#: Per-method columns shown when present: (column, header, number format).
METHOD_COLUMNS = [
    ("mp_ns", "MP NS", "mp"), ("mp_ew", "MP EW", "mp"), ("pct_ns", "% NS", "pct"), ("pct_ew", "% EW", "pct"),
    ("ximp_ns", "X-IMP NS", "imp"), ("ximp_ew", "X-IMP EW", "imp"),
    ("butler_ns", "Butler NS", "imp"), ("butler_ew", "Butler EW", "imp"),
]
#: Per-board facts shown in the board's title line when present: (column, label, format string).
BOARD_FACTS = [("top", "top", "{:g}"), ("mp_factor", "factor", "{:.4g}"), ("datum", "datum", "{:g}")]
_LEAD_SUITS = str.maketrans({"S": "♠", "H": "♥", "D": "♦", "C": "♣"})


def lead_text(lead: pd.Series) -> pd.Series:
    """Leads as suit symbol + rank (``HK`` -> ``♥K``); anything else unchanged."""
    text = lead.astype("string").fillna("")
    suit = text.str[:1].str.upper()
    known = suit.isin(list("SHDC")) & (text.str.len() >= 2)
    return text.where(~known, suit.str.translate(_LEAD_SUITS) + text.str[1:].str.upper())


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
        if column in results:
            table[column] = results[column]
    order = np.lexsort((-score.to_numpy(dtype=float, na_value=-1e9), table["board"].to_numpy(), table["section"].to_numpy(dtype=str)))
    return table.iloc[order].reset_index(drop=True)


def write_travellers(wb, results: pd.DataFrame, boards: pd.DataFrame) -> None:
    """Add the Travellers sheet: one block per (section, board)."""
    ws = wb.create_sheet("Travellers")
    table = traveller_table(results)
    shown = [(c, h, f) for c, h, f in METHOD_COLUMNS if c in table and table[c].notna().any()]
    titles = ["NS", "EW", "Contract", "By", "Lead", "Tricks", "NS +", "EW +"] + [h for _, h, _ in shown]
    set_widths(ws, [7, 7, 10, 5, 6, 7, 8, 8] + [10] * len(shown))
    ws.freeze_panes = "A2"
    a4(ws, "1:1")
    ws.append(header_row(ws, titles))
    info = boards.set_index("board") if len(boards) else None
    several_sections = table["section"].nunique() > 1
    for (section, board), block in table.groupby(["section", "board"], sort=False):
        ws.append([])
        ws.append([cell(ws, _board_title(section if several_sections else "", board, block, info), font=BOLD, fill=BAND_FILL)]
                  + [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]])
        columns = [block[c] for c in ("ns", "ew", "contract", "declarer", "lead", "tricks", "plus_ns", "plus_ew")]
        extra = [block[c] for c, _, _ in shown]
        for values in zip(*columns, *extra):
            ns, ew, contract, declarer, lead, tricks, plus_ns, plus_ew = values[:8]
            row = [
                cell(ws, ns), cell(ws, ew),
                cell(ws, contract, font=RED_FONT if is_red(contract) else None),
                cell(ws, declarer), cell(ws, lead, font=RED_FONT if is_red(lead) else None),
                cell(ws, None if pd.isna(tricks) else int(tricks), fmt="int"),
                cell(ws, None if pd.isna(plus_ns) else int(plus_ns), fmt="score"),
                cell(ws, None if pd.isna(plus_ew) else int(plus_ew), fmt="score"),
            ]
            row += [cell(ws, None if pd.isna(v) else float(v), fmt=f) for v, (_, _, f) in zip(values[8:], shown)]
            ws.append(row)


def _board_title(section: str, board: int, block: pd.DataFrame, info: pd.DataFrame | None) -> str:
    parts = [f"Section {section} · Board {board}" if section else f"Board {board}"]
    if info is not None and board in info.index:
        row = info.loc[board]
        parts.append(f"Dealer {row['dealer']} · Vul {row['vul']}")
    for column, label, fmt in BOARD_FACTS:
        if column in block and block[column].notna().any():
            value = float(block[column].dropna().iloc[0])
            if column == "mp_factor" and abs(value - 1) < 1e-12:
                continue  # a full board needs no factor
            parts.append(f"{label} {fmt.format(value)}")
    return " · ".join(parts)
