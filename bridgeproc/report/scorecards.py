"""Score cards: each pair's board-by-board record with a running total."""
from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.core.pairs import pair_directions, pair_keys
from bridgeproc.rank import is_individual
from bridgeproc.rank.methods import methods_in
from bridgeproc.report.styles import (
    BAND_FILL,
    BOLD,
    RED_FONT,
    a4,
    add_row,
    break_before,
    cell,
    fit_rows,
    header_row,
    is_red,
    new_sheet,
    numbers,
    set_widths,
    styled,
)
from bridgeproc.report.travellers import block_starts, plain


def scorecard_table(results: pd.DataFrame, numbering: Literal["shared", "per-direction"]) -> tuple[pd.DataFrame, tuple | None]:
    """One row per pair (per player in an individual) and board from its side, sorted, with ``running`` totals.

    ``direction`` is the direction of the pair's number (its card), ``seat`` the seat it played the
    board in: they differ on an arrow-switched board, which the pair's own card lists with the
    score and points of the seat it sat."""
    shown = methods_in(results)  # the first method present is the one a card shows
    points = (*shown[0].points, shown[0].card_header, shown[0].unit) if shown else None
    ns_key, ew_key = pair_keys(results, numbering)
    ns_dir, ew_dir = pair_directions(results)
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True)
    common = {"board": results["board"], "contract": contract, "declarer": results["declarer"].astype("string").fillna(""),
              "tricks": results["tricks"]}
    sides = []
    for key, own, opp, direction, seat, sign, col in ((ns_key, "ns", "ew", ns_dir, "NS", 1, 0),
                                                      (ew_key, "ew", "ns", ew_dir, "EW", -1, 1)):
        side = pd.DataFrame({"key": key, "section": results["section"].fillna(""), "pair": results[own],
                             "direction": direction, "seat": seat, "opponents": results[opp], **common,
                             "score": results["score_ns"] * sign})
        side["points"] = results[points[col]] if points else pd.NA
        sides.append(side)
    cards = pd.concat(sides, ignore_index=True)
    if is_individual(results):
        # One card per player: each side "north+south" is two players who share its score.
        cards = cards.assign(partner=cards["pair"]).assign(pair=cards["pair"].str.split("+")).explode("pair", ignore_index=True)
        cards["key"] = cards["section"] + ":" + cards["pair"]
        cards["opponents"] = cards["opponents"].str.replace("+", " & ", regex=False)
    # by section, EW's cards after NS's when numbered per direction, pair number (a pair without one after
    # those with), pair as written (missing last), board: one stable lexsort of the keys' codes
    section, _ = pd.factorize(cards["section"].to_numpy(dtype=object), sort=True)
    pair, pairs = pd.factorize(cards["pair"].to_numpy(dtype=object), sort=True)
    number = pd.to_numeric(cards["pair"], errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    ew_after = (cards["direction"] == "EW").to_numpy(dtype=bool) if numbering == "per-direction" \
        else np.zeros(len(cards), dtype=bool)
    unnumbered = np.isnan(number)  # a key of its own: a pair named "inf" has a number, pandas' inf
    order = np.lexsort((cards["board"].to_numpy(), np.where(pair < 0, len(pairs), pair),
                        np.where(unnumbered, 0.0, number), unnumbered, ew_after, section))
    cards = cards.iloc[order].reset_index(drop=True)
    cards["running"] = cards.groupby("key")["points"].cumsum() if points else pd.NA
    return cards, points


def write_scorecards(wb, results: pd.DataFrame, numbering: Literal["shared", "per-direction"],
                     names: dict[str, str]) -> None:
    """Add the Score cards sheet, one block per pair."""
    ws = new_sheet(wb, "Score cards")
    cards, points = scorecard_table(results, numbering)
    point_header = points[2] if points else "Points"
    fmt = points[3] if points else "0.0"
    titles = ["Board", "Dir", "Opponents", "Contract", "By", "Tricks", "Score", point_header, "Running"]
    widths = [7, 5, 10, 10, 5, 7, 8, 9, 9]
    set_widths(ws, widths)
    ws.freeze_panes = "A2"
    a4(ws, "1:1")
    starts = block_starts(cards["key"])
    # each card starts a printed page (its blank and title rows; row 1 is the header) and the longest fits
    # one (write-only: the page set-up before the first row)
    lengths = np.diff([*starts, len(cards)])
    first_rows = 2 + np.arange(len(starts)) * 2 + np.asarray(starts, dtype=int)
    break_before(ws, first_rows[1:].tolist())
    fit_rows(ws, int(lengths.max(initial=0)) + 3, sum(widths))
    add_row(ws, header_row(ws, titles))
    heads = cards.iloc[starts]
    direction_note = heads["direction"].map(lambda d: f" ({d})") if numbering == "per-direction" else ""
    who = "Player " if is_individual(results) else "Pair "
    labels = (who + heads["pair"].astype(str) + direction_note).where(
        heads["section"] == "", "Section " + heads["section"].astype(str) + " · " + who + heads["pair"].astype(str) + direction_note)
    labels = [f"{label}  {names.get(key, '')}".rstrip() for label, key in zip(labels, heads["key"])]
    label_at = dict(zip(starts, labels))
    columns = [plain(cards[c]) for c in ("board", "seat", "opponents", "contract", "declarer", "tricks", "score", "points", "running")]
    columns[2] = numbers(columns[2])  # opponents' pair numbers as numbers, as on the ranking
    red, points_cell = styled(ws, font=RED_FONT), styled(ws, fmt=fmt)
    for position, (board, direction, opp, contract, declarer, tricks, score, pts, running) in enumerate(zip(*columns)):
        if position in label_at:
            add_row(ws, [])
            add_row(ws, [cell(ws, label_at[position], font=BOLD, fill=BAND_FILL)]
                      + [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]])
        add_row(ws, [board, direction, opp, red(contract) if is_red(contract) else contract, declarer,
                   tricks, score, points_cell(pts), points_cell(running)])
