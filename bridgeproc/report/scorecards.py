"""Score cards: each pair's board-by-board record with a running total."""
from __future__ import annotations

import pandas as pd

from ..movement import pair_keys
from ..notation import contract_text
from .styles import BAND_FILL, BOLD, RED_FONT, a4, cell, header_row, is_red, set_widths

#: The method whose points a card shows, first present wins: (NS column, EW column, header, format).
CARD_POINTS = [("mp_ns", "mp_ew", "MP", "mp"), ("ximp_ns", "ximp_ew", "X-IMP", "imp"), ("butler_ns", "butler_ew", "IMP", "imp")]


def scorecard_table(results: pd.DataFrame, numbering: str) -> tuple[pd.DataFrame, tuple | None]:
    """One row per pair and board from that pair's side, sorted, with ``running`` totals."""
    points = next(((ns, ew, h, f) for ns, ew, h, f in CARD_POINTS if ns in results), None)
    ns_key, ew_key = pair_keys(results, numbering)
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True)
    common = {"board": results["board"], "contract": contract, "declarer": results["declarer"].astype("string").fillna(""),
              "tricks": results["tricks"]}
    sides = []
    for key, own, opp, direction, sign, col in ((ns_key, "ns", "ew", "NS", 1, 0), (ew_key, "ew", "ns", "EW", -1, 1)):
        side = pd.DataFrame({"key": key, "section": results["section"].fillna(""), "pair": results[own],
                             "direction": direction, "opponents": results[opp], **common,
                             "score": results["score_ns"] * sign})
        side["points"] = results[points[col]] if points else pd.NA
        sides.append(side)
    cards = pd.concat(sides, ignore_index=True)
    order = cards.assign(_dir=cards["direction"] == "EW", _num=pd.to_numeric(cards["pair"], errors="coerce"))
    if numbering != "per-direction":
        order["_dir"] = False
    cards = cards.loc[order.sort_values(["section", "_dir", "_num", "pair", "board"], kind="stable").index].reset_index(drop=True)
    cards["running"] = cards.groupby("key")["points"].cumsum() if points else pd.NA
    return cards, points


def write_scorecards(wb, results: pd.DataFrame, numbering: str, names: dict[str, str]) -> None:
    """Add the Score cards sheet, one block per pair."""
    ws = wb.create_sheet("Score cards")
    cards, points = scorecard_table(results, numbering)
    point_header = points[2] if points else "Points"
    fmt = points[3] if points else "0.0"
    titles = ["Board", "Dir", "Opponents", "Contract", "By", "Tricks", "Score", point_header, "Running"]
    set_widths(ws, [7, 5, 10, 10, 5, 7, 8, 9, 9])
    ws.freeze_panes = "A2"
    a4(ws, "1:1")
    ws.append(header_row(ws, titles))
    for key, card in cards.groupby("key", sort=False):
        first = card.iloc[0]
        label = f"Pair {first['pair']}" + (f" ({first['direction']})" if numbering == "per-direction" else "")
        if first["section"]:
            label = f"Section {first['section']} · {label}"
        who = names.get(key, "")
        ws.append([])
        ws.append([cell(ws, f"{label}  {who}".rstrip(), font=BOLD, fill=BAND_FILL)]
                  + [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]])
        columns = [card[c] for c in ("board", "direction", "opponents", "contract", "declarer", "tricks", "score", "points", "running")]
        for board, direction, opp, contract, declarer, tricks, score, pts, running in zip(*columns):
            ws.append([
                cell(ws, int(board)), cell(ws, direction), cell(ws, opp),
                cell(ws, contract, font=RED_FONT if is_red(contract) else None), cell(ws, declarer),
                cell(ws, None if pd.isna(tricks) else int(tricks)),
                cell(ws, None if pd.isna(score) else int(score), fmt="score"),
                cell(ws, None if pd.isna(pts) else float(pts), fmt=fmt),
                cell(ws, None if pd.isna(running) else float(running), fmt=fmt),
            ])
