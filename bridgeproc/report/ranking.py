"""Ranking sheets: one per method and winner group, with the event and conventions above."""
from __future__ import annotations

import pandas as pd
from openpyxl.chart import BarChart, Reference

from bridgeproc.core.shown import column_decimals, rounded
from bridgeproc.io.sheets.own import ALL_PLAYERS, GROUP_TITLES
from bridgeproc.rank.handicaps import BESIDE
from bridgeproc.rank.methods import METHODS
from bridgeproc.report.styles import (
    BOLD,
    MAX_TITLE,
    SUBTITLE,
    TITLE,
    a4,
    add_row,
    cell,
    excel_format,
    header_row,
    new_sheet,
    numbers,
    set_widths,
)

METHOD_TITLES = {**{m.name: m.title for m in METHODS.values()}, "teams": "Teams"}
TOTAL_FORMAT = {m.name: m.unit for m in METHODS.values()}


def sheet_title(method: str, group: str, several_methods: bool, limit: int = MAX_TITLE) -> str:
    """``Ranking``, ``Ranking NS``, ``Butler Ranking EW``, ``Ranking A`` or ``Ranking A NS`` (Excel allows 31 characters:
    a long section name is cut, keeping the direction; :func:`styles.new_sheet` makes it valid and unique)."""
    prefix = f"{METHOD_TITLES.get(method, method)} Ranking" if several_methods else "Ranking"
    if group == "ALL":
        return prefix
    section, _, line = group.rpartition(" ")
    if not section:
        return f"{prefix} {group}"
    if line == "ALL":  # one ranking of the section: its name says it all ("Ranking A", not "Ranking A ALL")
        return f"{prefix} {section[:max(limit - len(prefix) - 1, 1)].rstrip()}"
    room = limit - len(prefix) - len(line) - 2
    return f"{prefix} {section[:max(room, 1)].rstrip()} {line}"


def write_ranking(wb, standings: pd.DataFrame, method: str, group: str, heading: list[str],
                  several_methods: bool, chart: bool = True, individual: bool = False) -> None:
    """Add one ranking sheet for ``standings`` rows of one method and group."""
    ws = new_sheet(wb, sheet_title(method, group, several_methods),
                   wanted=sheet_title(method, group, several_methods, limit=len(group) + 64))
    header_at = len(heading) + 2
    set_widths(ws, [7, 7, 44, 8, 9, 9])  # write-only sheets take widths, panes and print set-up before rows
    ws.freeze_panes = f"A{header_at + 1}"
    a4(ws, f"{header_at}:{header_at}")
    group_title = GROUP_TITLES.get(group, group)
    if individual and group_title == GROUP_TITLES["ALL"]:
        group_title = ALL_PLAYERS
    title = f"{heading[0]} — {METHOD_TITLES.get(method, method)}, {group_title}"
    add_row(ws, [cell(ws, title, font=TITLE)])
    for line in heading[1:]:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])
    has_pct = standings["pct"].notna().any()
    has_mp = "masterpoints" in standings and bool((standings["masterpoints"] > 0).any())
    beside = [(c, t) for c, t in BESIDE if c in standings]  # the handicapped ranking and the strata, when asked
    titles = (["Rank", "Player" if individual else "Pair", "Name" if individual else "Names", "Boards", "Total"]
              + (["%"] if has_pct else []) + (["Masterpoints"] if has_mp else []) + [t for _, t in beside])
    add_row(ws, header_row(ws, titles))
    # the totals and percentages as every output shows them (core.shown): rounded once, as many
    # decimals as the column needs
    unit = TOTAL_FORMAT.get(method, "imp")
    totals, pcts = rounded(standings["total"], unit), rounded(standings["pct"], "pct")
    total_fmt, pct_fmt = excel_format(column_decimals(totals, unit)), excel_format(column_decimals(pcts, "pct"))
    awards = standings["masterpoints"] if has_mp else pd.Series(0.0, index=standings.index)
    columns = [standings[c] for c in ("rank", "pair", "names", "boards")] + [totals, pcts, awards]
    extra = [standings[c].round(2).astype("object").where(standings[c].notna(), None)
             if standings[c].dtype.kind == "f" else standings[c].astype("object").where(standings[c].notna(), None)
             for c, _ in beside]
    for (rank, pair, names, boards, total, pct, award), more in zip(zip(*columns), zip(*extra) if extra
                                                                    else iter(lambda: (), None)):
        place, tied = rank_number(rank)
        values = [
            cell(ws, place, font=BOLD, fmt='0"="' if tied else None), cell(ws, numbers([pair])[0]),
            cell(ws, names if isinstance(names, str) else ""),
            cell(ws, int(boards), fmt="int"), cell(ws, float(total), fmt=total_fmt),
        ]
        if has_pct:
            values.append(cell(ws, None if pd.isna(pct) else float(pct), fmt=pct_fmt))
        if has_mp:  # blank where none was awarded, as the federations' result sheets show it
            values.append(cell(ws, float(award) if award > 0 else None))
        values.extend(cell(ws, v) for v in more)
        add_row(ws, values)
    if chart and len(standings) > 1:
        _add_chart(ws, header_at, len(standings), 6 if has_pct else 5, "Percentage" if has_pct else "Total")


def rank_number(rank) -> tuple[object, bool]:
    """A rank as a number (``3=`` is 3 shown with a ``=``, so the column sorts as numbers), and whether tied."""
    text = str(rank)
    digits = text.rstrip("=")
    if digits.isdigit():
        return int(digits), text.endswith("=")
    return text, False


def _add_chart(ws, header_at: int, rows: int, value_column: int, label: str) -> None:
    chart = BarChart()
    chart.type = "bar"
    chart.title = f"{label} by pair"
    chart.y_axis.title = label
    chart.legend = None
    data = Reference(ws, min_col=value_column, min_row=header_at, max_row=header_at + rows)
    pairs = Reference(ws, min_col=2, min_row=header_at + 1, max_row=header_at + rows)
    chart.add_data(data, titles_from_data=True)
    chart.set_categories(pairs)
    chart.height = max(7.5, 0.45 * rows + 2)
    chart.width = 17
    chart.x_axis.scaling.orientation = "maxMin"  # best pair on top, as in the table
    chart.x_axis.tickLblSkip = 1  # every pair's label, not every other one
    chart.y_axis.number_format = "0"
    if label == "Percentage":
        chart.y_axis.scaling.min = 0
        chart.y_axis.scaling.max = 100
    ws.add_chart(chart, f"A{header_at + rows + 3}")  # below the table, so a page holds both
