"""bridgeproc's own workbook read back: its results are its Travellers sheet, its published standings
its Ranking sheets.

The workbook is known by its Creator property (``report.styles.new_workbook``). The Ranking sheets
give the totals, percentages and places bridgeproc published, in the frame every published-totals
reader gives (``pipeline.read.published_totals``), so that reading the workbook back finds the
conventions that ranked it (one winner, one-decimal board MPs) from its own numbers, as it does for
any other program's file.
"""
from __future__ import annotations

import re
from typing import Any

import pandas as pd

#: How bridgeproc's own workbook is known (report.styles.CREATOR, the Creator property) and the sheet
#: that holds its results (report.travellers).
OWN_CREATOR = "bridgeproc"
OWN_TRAVELLERS = "Travellers"
#: A ranking sheet's group, as its title row names it (report.ranking): ``North-South``, ``East-West``,
#: ``All pairs`` / ``All players``, or a section's ``A NS`` / ``A EW`` / ``A ALL``.
GROUP_TITLES = {"NS": "North-South", "EW": "East-West", "ALL": "All pairs"}
ALL_PLAYERS = "All players"
_DIRECTIONS = {"North-South": "NS", "East-West": "EW", "All pairs": "", ALL_PLAYERS: ""}
#: The title row of a ranking sheet: ``{event} — {method}, {group}`` (a method's title has no comma).
_RANKING_TITLE = re.compile(r"^.* — ([^,—]+), (.+)$", re.DOTALL)
_SECTION_GROUP = re.compile(r"^(.+) (NS|EW|ALL)$", re.DOTALL)
#: The first header cells of a ranking sheet, and how many rows above the header may hold its title.
_RANKING_HEADER = ("Rank", ("Pair", "Player"))
_TITLE_ROWS = 12
_COLUMNS = ("section", "pair", "direction", "place", "percentage", "total", "names", "source", "line")


def is_own(workbook: Any) -> bool:
    """True for a workbook bridgeproc wrote (its Creator property)."""
    return str(workbook.properties.creator or "").startswith(OWN_CREATOR)


def _group(title: str) -> tuple[str, str] | None:
    """(section, direction) of a ranking sheet from its group title; None when it is not one."""
    if title in _DIRECTIONS:
        return "", _DIRECTIONS[title]
    m = _SECTION_GROUP.match(title)
    if m is None:
        return None
    return m.group(1), "" if m.group(2) == "ALL" else m.group(2)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _sheet_totals(ws: Any, name: str) -> tuple[str, list[dict]] | None:
    """(method title, rows) of one ranking sheet; None when the sheet is not one."""
    rows = ws.iter_rows(values_only=True)
    method = section = direction = None
    for at, row in enumerate(rows, start=1):
        first = _text(row[0]) if row else ""
        if method is None:
            m = _RANKING_TITLE.match(first)
            group = _group(m.group(2)) if m else None
            if m is None or group is None:
                if at >= _TITLE_ROWS:
                    return None
                continue
            method, (section, direction) = m.group(1).strip(), group
            continue
        if first == _RANKING_HEADER[0] and len(row) > 4 and _text(row[1]) in _RANKING_HEADER[1]:
            header = [_text(c) for c in row]
            break
        if at >= _TITLE_ROWS:
            return None
    else:
        return None
    pct = header.index("%") if "%" in header else None
    found = []
    for at, row in enumerate(rows, start=at + 1):
        cells = [_text(c) for c in row]
        if not any(cells):
            break  # the chart sits beside the table, nothing below it
        cells += [""] * (len(header) - len(cells))
        found.append({"section": section or "", "pair": cells[1], "direction": direction or "", "place": cells[0],
                      "percentage": cells[pct] if pct is not None else "", "total": cells[4], "names": cells[2],
                      "source": f"{name}!{ws.title}", "line": str(at)})
    return method, found


def own_totals(workbook: Any, name: str) -> pd.DataFrame | None:
    """The standings bridgeproc published in its own workbook (its Ranking sheets of the first method),
    as the published-totals frame; None when it has none (a hand record, or not bridgeproc's workbook)."""
    if not is_own(workbook):
        return None
    rows: list[dict] = []
    first = None
    for ws in workbook.worksheets:
        if "Ranking" not in ws.title:
            continue
        found = _sheet_totals(ws, name)
        if found is None:
            continue
        method, sheet_rows = found
        first = first or method
        if method == first:
            rows.extend(sheet_rows)
    if not rows:
        return None
    frame = pd.DataFrame(rows, columns=list(_COLUMNS)).astype("string")
    return frame.replace("", pd.NA)
