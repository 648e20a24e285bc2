"""The director's workbook: rankings, travellers, score cards, hand records, conventions.

Only this package imports openpyxl for writing. The workbook is built in write-only
mode and saved to the path given (pipeline.publish stages it: a failed run leaves no partial file).
"""
from __future__ import annotations

import os

from bridgeproc.model import Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.conventions import convention_label
from bridgeproc.report.checks import write_checks_sheet
from bridgeproc.report.corrections import write_corrections
from bridgeproc.report.handrecords import write_handrecords
from bridgeproc.report.ranking import write_ranking
from bridgeproc.report.scorecards import write_scorecards
from bridgeproc.report.styles import (
    BOLD,
    TITLE,
    a4,
    add_changed_text,
    add_row,
    cell,
    header_row,
    new_sheet,
    new_workbook,
    set_widths,
)
from bridgeproc.report.travellers import write_travellers


def heading_lines(session: "Session") -> list[str]:
    """Event title, then the date/site line, movement and conventions, for the ranking sheets."""
    meta = session.meta
    title = meta.get("event") or "Results"
    lines = [title]
    when = " · ".join(str(v) for v in (meta.get("date"), meta.get("site")) if v)
    if when:
        lines.append(when)
    if session.movement:
        lines.append(session.movement)
    lines.extend(beside_lines(session))
    lines.append(conventions_summary(session.conventions))  # last: the website shows it apart
    return lines


def beside_lines(session: "Session") -> list[str]:
    """What the rankings beside the scratch one are, the handicap's sign said once."""
    table, conv = session.standings, session.conventions
    lines = []
    if table is not None and "handicap" in table:
        to = "percentage" if conv.handicap_style == "percentage" else "total"
        lines.append(f"Handicapped: each contestant's handicap (the sum of its players') is added to its {to}; "
                     "a + handicap helps, and the scratch ranking is kept")
    if table is not None and "stratum" in table:
        limits = [t.strip() for t in conv.strata.split(",") if t.strip()]
        under = ", ".join(f"{'BCDEFGH'[i]} under {v}" for i, v in enumerate(limits))
        lines.append(f"Strata by masterpoint holdings (the players' average): A everyone, {under}; each contestant "
                     "ranked in its stratum and those above")
    return lines


def conventions_summary(conv) -> str:
    """The conventions that matter for the method, in one line."""
    if conv.method == "mp":
        parts = [f"Matchpoints, {conv.mp_scale} per result beaten", f"factoring {conv.factoring}",
                 f"A+ {conv.ave_plus:g}% / A {conv.ave:g}% / A- {conv.ave_minus:g}%"
                 + (" or own session % if better" if conv.adjusted_mode == "session" else "")]
        if conv.centred:
            parts.append("centred on zero")
    elif conv.method == "cross-imp":
        totals = {"sum": "summed", "average": "averaged per comparison", "average-n": "averaged per result",
                  "board-average": "averaged per board, then summed"}
        parts = [f"Cross-IMPs, totals {totals[conv.cross_imp]}"]
    else:
        drop = f"{conv.datum_drop_share:.0%} of results" if conv.datum_drop_share else f"{conv.datum_drop} result(s)"
        parts = [f"Butler IMPs, datum = mean after dropping {drop} at each end, rounded to {conv.datum_round}"]
    parts.append("across the field" if conv.across_field else "within sections")
    return "Scoring: " + "; ".join(parts)


def convention_value(value) -> str:
    """A convention's value as a member reads it: ``yes``/``no`` for a switch, blank when not set (the
    meaning says what blank does)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def write_conventions(wb, session: "Session") -> None:
    """A sheet naming every convention used and what it means, then any text changed to fit the
    workbook (a control character in a name, a section too long for a sheet title)."""
    ws = new_sheet(wb, "Conventions")
    set_widths(ws, [40, 16, 90])
    a4(ws, landscape=True)
    add_row(ws, [cell(ws, "Conventions used", font=TITLE)])
    if session.origin:  # whose conventions, and how much of the file's published numbers they reproduce
        add_row(ws, [cell(ws, session.origin)])
    add_row(ws, [])
    add_row(ws, header_row(ws, ["Convention", "Value", "Meaning"]))
    for name, value, meaning in session.conventions_used:
        add_row(ws, [cell(ws, convention_label(name), font=BOLD), cell(ws, convention_value(value)), cell(ws, meaning)])
    add_changed_text(ws)


def _group_order(group: str) -> tuple:
    """Sections in order, and within one NS before EW before ALL."""
    section, _, line = group.rpartition(" ")
    return (section, {"NS": 0, "EW": 1}.get(line, 2), group)


def write_workbook(session: "Session", path: str | os.PathLike) -> None:
    """Write the workbook for ``session`` to ``path``."""
    wb = new_workbook()
    heading = heading_lines(session)
    standings = session.standings
    if standings is not None and len(standings):
        methods = list(dict.fromkeys(standings["method"]))
        individual = is_individual(session.results)  # once: a national event has hundreds of groups
        for method in methods:
            groups = dict.fromkeys(standings.loc[standings["method"] == method, "group"])
            for group in sorted(groups, key=_group_order):
                rows = standings[(standings["method"] == method) & (standings["group"] == group)]
                write_ranking(wb, rows, method, group, heading, several_methods=len(methods) > 1,
                              individual=individual)
    if len(session.results):  # hand records alone have no travellers or score cards
        write_travellers(wb, session.results, session.boards)
        write_scorecards(wb, session.results, session.numbering, session.pair_names)
    if session.boards is not None and len(session.boards) and session.boards["deal"].notna().any():
        write_handrecords(wb, session.boards)
    # the run's notes and warnings with their positions (no sheet when there are none)
    write_checks_sheet(wb, session)
    write_corrections(wb, session)  # the director's corrections with their reasons (no sheet when none)
    write_conventions(wb, session)
    wb.save(path)
