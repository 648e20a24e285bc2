"""Score sheets for rubber bridge and Chicago: one row per deal, in the order played.

CSV columns (header row first; case, spaces and ``_`` in headers are ignored; only
``contract`` is required; other columns, e.g. notes, are ignored):

``deal``
    Deal number (aliases ``board``, ``no``); default the row order. Only shown.
``declarer``
    Declarer's seat ``N E S W`` (any spelling ``notation`` accepts), or the side
    ``NS``/``EW``; blank for a passed-out deal. A seat may also be written inside the
    contract (``4SN``).
``contract``
    ``4S``, ``3NTX``, ``2HXX``; ``PASS`` (or ``P``, ``passed out``) for a passed-out deal.
``tricks``
    Tricks taken by declarer (0-13), or relative to the contract (``=``, ``+1``,
    ``-2``); alias ``result``. A result may also follow the contract (``4S+1``).
``honours``
    Rubber bridge only: ``NS 100``, ``EW 150`` (or ``100 NS``); a bare ``100``/``150``
    goes to declarer's side. Blank: none (or worked out from ``cards``).
``hcp``
    HCP-target Chicago only: combined high-card points of a side: ``NS 23`` or
    ``EW 17``; a bare number is the declaring side's (North-South's on a passed-out
    deal). Blank: worked out from ``cards``.
``cards``
    Optional PBN deal string (``N:AKQ.... ...``); fills blank ``honours`` and ``hcp``.

``read_sheet`` returns the typed frame ``RUBBER_SHEET_COLUMNS`` or raises
``ValidationError`` listing every bad cell as ``file:line: column: message``
(the header is line 1).
"""
from __future__ import annotations

import csv
import io
import os
import re

import pandas as pd

from bridgeproc.core.deal import DealError, parse_deal
from bridgeproc.core.notation import parse_contract, parse_result, parse_seat
from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.text import csv_field_limit, read_text
from bridgeproc.schema import RUBBER_SHEET_COLUMNS, STRAINS, problems_frame

#: Canonical column -> accepted header spellings (compared lower-case without spaces, ``_`` and ``.``).
SHEET_ALIASES: dict[str, tuple[str, ...]] = {
    "deal": ("deal", "board", "no", "dealno", "number", "hand"),
    "declarer": ("declarer", "decl", "by", "side"),
    "contract": ("contract", "contr", "bid"),
    "tricks": ("tricks", "result", "res", "taken"),
    "honours": ("honours", "honors", "hon"),
    "hcp": ("hcp", "hcpns", "highcardpoints"),
    "cards": ("cards", "pbn", "dealcards", "hands"),
}
_SIDE_VALUE = re.compile(r"(?i)^\s*(?:(NS|EW|N-?S|E-?W)\s*:?\s*(\d{1,3})|(\d{1,3})\s*:?\s*(NS|EW|N-?S|E-?W)?)\s*$")
_HONOUR_RANKS = "AKQJT"


def _key(header: str) -> str:
    return re.sub(r"[\s_.\-/#]", "", header.strip().lower())


def _side(text: str) -> str:
    return "NS" if text.upper().replace("-", "") == "NS" else "EW"


def honours_of(cards: str, strain: str) -> tuple[str, int] | None:
    """Honours held in one hand of a PBN deal: ``(side, 100|150)`` or None (rubber bridge; reference section 2.1)."""
    hands = parse_deal(cards)
    for seat, hand in hands.items():
        if hand is None:
            continue
        suits = dict(zip("SHDC", hand.split(".")))
        if strain == "NT":
            if sum("A" in suits[s] for s in "SHDC") == 4:
                return ("NS" if seat in "NS" else "EW"), 150
            continue
        count = sum(rank in suits[strain] for rank in _HONOUR_RANKS)
        if count >= 4:
            return ("NS" if seat in "NS" else "EW"), 150 if count == 5 else 100
    return None


def _hcp_ns(cards: str) -> int | None:
    hands = parse_deal(cards)
    if hands["N"] is None or hands["S"] is None:
        return None
    points = {"A": 4, "K": 3, "Q": 2, "J": 1}
    return sum(points.get(c, 0) for c in hands["N"] + hands["S"])  # type: ignore[operator]


def _rows(text: str, source: str) -> tuple[dict[str, int], list[tuple[int, list[str]]]]:
    reader = csv.reader(io.StringIO(text))
    with csv_field_limit(len(text)):  # a cell as long as the file is read, never a traceback
        rows = [(reader.line_num, row) for row in reader]
    rows = [(n, r) for n, r in rows if any(c.strip() for c in r)]
    if not rows:
        raise ParseError(source, 1, "the sheet is empty; write a header row such as deal,declarer,contract,tricks")
    lookup = {alias: canon for canon, aliases in SHEET_ALIASES.items() for alias in aliases}
    header_line, header = rows[0]
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        canon = lookup.get(_key(cell))
        if canon and canon not in columns:
            columns[canon] = index
    if "contract" not in columns:
        raise ParseError(source, header_line, f"no contract column in the header {','.join(header)!r}; "
                                              "write e.g. deal,declarer,contract,tricks,honours")
    return columns, rows[1:]


def read_sheet(source: str | os.PathLike | pd.DataFrame, encoding: str | None = None) -> pd.DataFrame:
    """Read a deal-by-deal score sheet (CSV path, or a frame of text cells with those headers).

    Returns
    -------
    DataFrame
        ``RUBBER_SHEET_COLUMNS``: one row per deal in sheet order.

    Raises
    ------
    ParseError
        The file cannot be read or has no contract column.
    ValidationError
        Every bad cell, as ``file:line: column: message``.
    """
    if isinstance(source, pd.DataFrame):
        frame = source.astype("string").fillna("")
        text = frame.to_csv(index=False)
        name = "<frame>"
    else:
        text, name = read_text(source, encoding)
    columns, rows = _rows(text, name)
    out: list[dict] = []
    problems: list[dict] = []

    def cell(row: list[str], name_: str) -> str:
        index = columns.get(name_)
        return row[index].strip() if index is not None and index < len(row) else ""

    for number, (line, row) in enumerate(rows, start=1):
        before = len(problems)

        def bad(column: str, value: str, message: str) -> None:
            problems.append({"source": name, "line": str(line), "column": column, "value": value,
                             "message": message})

        parsed = _parse_row({c: cell(row, c) for c in SHEET_ALIASES}, bad)
        if len(problems) == before:
            deal_text = cell(row, "deal")
            parsed["deal"] = int(deal_text) if deal_text.isdigit() else number
            out.append({**parsed, "source": name, "line": line})
    if problems:
        raise ValidationError(problems_frame(problems))
    frame = pd.DataFrame(out, columns=list(RUBBER_SHEET_COLUMNS))
    return frame.astype(RUBBER_SHEET_COLUMNS)


def _parse_row(cells: dict[str, str], bad) -> dict:
    row: dict = {"declarer": None, "side": None, "level": 0, "strain": None, "doubled": 0, "tricks": None,
                 "honours_side": None, "honours": 0, "hcp_ns": None}
    contract: dict = parse_contract(cells["contract"]) if cells["contract"] else {"error": "the contract is blank; "
                                                                             "write e.g. 4S, 3NTX or PASS"}
    if "error" in contract or "adjusted" in contract:
        message = (f"{cells['contract']!r} is not a contract; write e.g. 4S, 3NTX, 2HXX or PASS"
                   if cells["contract"] else contract["error"])
        bad("contract", cells["contract"], message)
        return row
    row["level"] = contract["level"]
    if row["level"] == 0:
        hcp_text = cells["hcp"]
        _read_hcp(row, hcp_text, cells["cards"], None, bad)
        return row
    row["strain"], row["doubled"] = STRAINS[contract["strain"]], contract["doubled"]
    declarer_text = cells["declarer"]
    if declarer_text.upper().replace("-", "").replace("/", "") in ("NS", "EW"):
        row["side"] = _side(declarer_text.replace("/", ""))
    elif declarer_text or "declarer" in contract:
        seat: dict = parse_seat(declarer_text) if declarer_text else {"seat": contract["declarer"]}
        if "error" in seat:
            bad("declarer", declarer_text, f"{declarer_text!r} is not a seat or side; write N, E, S, W, NS or EW")
        else:
            row["declarer"] = "NESW"[seat["seat"]]
            row["side"] = "NS" if row["declarer"] in "NS" else "EW"
    else:
        bad("declarer", "", "the declarer is blank; write the seat (N, E, S, W) or the side (NS, EW)")
    result_text = cells["tricks"] or contract.get("result", "")
    result: dict = parse_result(result_text) if result_text else {"error": "blank"}
    tricks = result.get("tricks", row["level"] + 6 + result["relative"] if "relative" in result else None)
    if tricks is None or not 0 <= tricks <= 13:
        bad("tricks", result_text, f"{result_text!r} is not a result; write the tricks taken (0-13) or =, +1, -2")
    row["tricks"] = tricks
    _read_honours(row, cells["honours"], cells["cards"], bad)
    _read_hcp(row, cells["hcp"], cells["cards"], row["side"], bad)
    return row


def _read_honours(row: dict, text: str, cards: str, bad) -> None:
    if text:
        m = _SIDE_VALUE.match(text)
        value = int(m.group(2) or m.group(3)) if m else None
        side = (m.group(1) or m.group(4)) if m else None
        if value not in (100, 150) and value != 0:
            bad("honours", text, f"{text!r} is not honours; write NS 100, EW 150 (or 100/150 for declarer's side)")
            return
        row["honours_side"] = _side(side) if side else row["side"]
        row["honours"] = value or 0
    elif cards and row["strain"]:
        try:
            held = honours_of(cards, row["strain"])
        except DealError as exc:
            bad("cards", cards, str(exc))
            return
        if held:
            row["honours_side"], row["honours"] = held


def _read_hcp(row: dict, text: str, cards: str, side: str | None, bad) -> None:
    if text:
        m = _SIDE_VALUE.match(text)
        value = int(m.group(2) or m.group(3)) if m else -1
        if not 0 <= value <= 40:
            bad("hcp", text, f"{text!r} is not a count of high-card points; write NS 23, EW 17 or a number 0-40")
            return
        whose = (m.group(1) or m.group(4)) if m else None
        whose_side = _side(whose) if whose else (side or "NS")
        row["hcp_ns"] = value if whose_side == "NS" else 40 - value
    elif cards:
        try:
            row["hcp_ns"] = _hcp_ns(cards)
        except DealError as exc:
            bad("cards", cards, str(exc))

