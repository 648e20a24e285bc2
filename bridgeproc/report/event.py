"""An event of several sessions written out: the event ranking as CSV, a workbook (the event ranking,
then one ranking sheet per session) and a PBN whose TotalScoreTable is the event's, as Ruter writes
a later session's file: the last session's boards and results, and the cumulative table (``Rank``,
``TotalScoreMP``, ``TotalPercentage``, ``NrBoards``, ``NrBoardsSession``, ``SessionScoreMP``,
``SessionPercentage``, ``SessionRank``).

The writers take the event as ``pipeline.event`` builds it (anything with ``ranking``, ``sessions``,
``labels`` and ``meta``, see :class:`bridgeproc.model.Event`) and a plain path (pipeline.publish stages it).
"""
from __future__ import annotations

import os
from typing import Sequence

import pandas as pd

from bridgeproc.io.pbn.model import Column
from bridgeproc.io.pbn.writer import write_games
from bridgeproc.model import Event, Session
from bridgeproc.rank.event import EventRanking
from bridgeproc.rank.event_rules import EVENT_RULES, MISSING_RULES
from bridgeproc.rank.methods import METHODS
from bridgeproc.report.csv_files import write_csv
from bridgeproc.report.pbn import cell_texts, scored_games, scored_parts, table_tag, total_table
from bridgeproc.report.pbn_source import point_texts
from bridgeproc.report.ranking import GROUP_TITLES, rank_number
from bridgeproc.report.styles import (
    BOLD,
    SUBTITLE,
    TITLE,
    a4,
    add_row,
    cell,
    header_row,
    new_sheet,
    new_workbook,
    numbers,
    set_widths,
)
from bridgeproc.report.workbook import heading_lines


def event_table(event: Event) -> pd.DataFrame:
    """The event ranking as written to CSV: ``group`` (when NS and EW are ranked apart), ``rank, pair,
    names, sessions, boards``, ``carry`` (carry-over only), ``total``, ``pct`` (matchpoints), the last
    session's columns, then each session's ``s<n>_boards, s<n>_total, s<n>_pct, s<n>_rank`` (a missed
    session's imputed score without a rank)."""
    ranking = event.ranking
    table = ranking.standings
    columns = ["rank", "pair", "names", "sessions", "boards", "carry", "total", "pct", "session_boards",
               "session_total", "session_pct", "session_rank"]
    if (table["group"] != "ALL").any():
        columns.insert(0, "group")
    if ranking.rule != "carry-over":
        columns.remove("carry")
    if ranking.unit != "mp" and ranking.rule not in ("percent-sum", "percent-average"):
        columns = [c for c in columns if c not in ("pct", "session_pct")]
    out = table[[*columns, "key"]]
    rows = ranking.sessions
    for number in range(1, len(event.sessions) + 1):
        one = rows[rows["session"] == number].set_index("key")
        keep = ["boards", "total", *(["pct"] if "pct" in columns else []), "rank"]
        part = one[keep].rename(columns={c: f"s{number}_{c}" for c in keep})
        out = out.join(part, on="key")
    return out.drop(columns="key").reset_index(drop=True)


def write_event_csv(event: Event, path: str | os.PathLike) -> None:
    """The event ranking with every session's score (:func:`event_table`) as CSV."""
    write_csv(event_table(event), path)


def event_heading(event: Event) -> list[str]:
    """The event title, the date and site, the sessions and the rules the ranking was formed by."""
    meta, ranking = event.meta, event.ranking
    lines = [str(meta.get("event") or "Event")]
    when = " · ".join(str(v) for v in (meta.get("date"), meta.get("site")) if v)
    if when:
        lines.append(when)
    lines.append("Sessions: " + "; ".join(f"{n}. {label}" for n, label in enumerate(event.labels, start=1)))
    rule = EVENT_RULES[ranking.rule]
    if ranking.rule == "carry-over":
        rule = f"{ranking.carry_over:.0%} carried over: {rule}"
    lines.append(f"Event total: {ranking.rule} — {rule}")
    lines.append(f"Pairs matched by {ranking.match}; a missed session: {ranking.missing} — "
                 f"{MISSING_RULES[ranking.missing]}")
    return lines


def _sheet(wb, title: str, heading: list[str], headers: list[str], widths: Sequence[float]):
    """A sheet with the heading lines and the header row; the caller adds the rows."""
    ws = new_sheet(wb, title)
    header_at = len(heading) + 2
    set_widths(ws, widths)  # write-only sheets take widths, panes and print set-up before rows
    ws.freeze_panes = f"A{header_at + 1}"
    a4(ws, f"{header_at}:{header_at}", landscape=len(headers) > 8)
    add_row(ws, [cell(ws, heading[0], font=TITLE)])
    for line in heading[1:]:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])
    add_row(ws, header_row(ws, headers))
    return ws


def _rank_cell(ws, rank):
    if rank is None or rank is pd.NA or (isinstance(rank, float) and pd.isna(rank)):
        return None
    place, tied = rank_number(rank)
    return cell(ws, place, font=BOLD, fmt='0"="' if tied else None)


def _value(ws, value, fmt: str):
    return None if value is None or pd.isna(value) else cell(ws, float(value), fmt=fmt)


def _names(value) -> str:
    return value if isinstance(value, str) else ""


def _write_event_sheet(wb, event: Event) -> None:
    """One event ranking sheet per group: the event's columns, then each session's total, % and rank."""
    table = event_table(event)
    ranking = event.ranking
    unit = "pct" if ranking.rule in ("percent-sum", "percent-average") else ranking.unit
    has_pct = "pct" in table
    sessions = range(1, len(event.sessions) + 1)
    headers = ["Rank", "Pair", "Names", "Boards"] + (["Carry-over"] if "carry" in table else []) + ["Total"]
    headers += ["%"] if has_pct else []
    for n in sessions:
        headers += [f"S{n} total"] + ([f"S{n} %"] if has_pct else []) + [f"S{n} rank"]
    groups = list(dict.fromkeys(table["group"])) if "group" in table else ["ALL"]
    for group in groups:
        rows_of = table[table["group"] == group] if "group" in table else table
        heading = event_heading(event)
        heading[0] = f"{heading[0]} — {GROUP_TITLES.get(group, group)}"
        ws = _sheet(wb, "Event ranking" if group == "ALL" else f"Event ranking {group}", heading, headers,
                    [7, 7, 40, 8] + [10] * (len(headers) - 4))
        for row in rows_of.to_dict("records"):
            values = [_rank_cell(ws, row["rank"]), cell(ws, numbers([row["pair"]])[0]), cell(ws, _names(row["names"])),
                      cell(ws, int(row["boards"]), fmt="int")]
            if "carry" in table:
                values.append(_value(ws, row["carry"], unit))
            values.append(_value(ws, row["total"], unit))
            if has_pct:
                values.append(_value(ws, row["pct"], "pct"))
            for n in sessions:
                values.append(_value(ws, row[f"s{n}_total"], ranking.unit))
                if has_pct:
                    values.append(_value(ws, row[f"s{n}_pct"], "pct"))
                values.append(_rank_cell(ws, row[f"s{n}_rank"]))
            add_row(ws, values)


def _write_session_sheets(wb, session: Session, number: int, label: str) -> None:
    """The session's own ranking, one sheet per group, as ``score`` ranks it."""
    standings = session.standings
    method = METHODS.get(session.conventions.method)
    fmt = method.unit if method is not None else "0.00"
    for group in dict.fromkeys(standings["group"]):
        rows_of = standings[standings["group"] == group]
        heading = heading_lines(session)
        heading[0] = f"Session {number}: {heading[0]} — {GROUP_TITLES.get(group, group)}"
        heading.insert(1, label)
        has_pct = bool(rows_of["pct"].notna().any())
        ws = _sheet(wb, f"Session {number}" if group == "ALL" else f"Session {number} {group}", heading,
                    ["Rank", "Pair", "Names", "Boards", "Total"] + (["%"] if has_pct else []), [7, 7, 44, 8, 9, 9])
        for r in rows_of.to_dict("records"):
            add_row(ws, [_rank_cell(ws, r["rank"]), cell(ws, numbers([r["pair"]])[0]), cell(ws, _names(r["names"])),
                         cell(ws, int(r["boards"]), fmt="int"), _value(ws, r["total"], fmt)]
                    + ([_value(ws, r["pct"], "pct")] if has_pct else []))


def _write_notes_sheet(wb, event: Event) -> None:
    """Every note of the sessions and the event, with its file and line (no sheet when none)."""
    notes = getattr(event, "notes", None)
    if notes is None or not len(notes):
        return
    ws = _sheet(wb, "Notes", ["Notes on the sessions and the event"], ["File", "Line", "Column", "Value", "Note"],
                [34, 7, 12, 12, 110])
    for r in notes.to_dict("records"):
        add_row(ws, [cell(ws, str(r[c])) for c in ("source", "line", "column", "value", "message")])


def write_event_workbook(event: Event, path: str | os.PathLike) -> None:
    """The event ranking sheet(s), one ranking sheet per session and group, and the notes."""
    wb = new_workbook()
    _write_event_sheet(wb, event)
    for number, (session, label) in enumerate(zip(event.sessions, event.labels), start=1):
        _write_session_sheets(wb, session, number, label)
    _write_notes_sheet(wb, event)
    wb.save(path)


def cumulative_table(ranking: EventRanking) -> tuple[list[Column], list[list[str]]]:
    """The event's TotalScoreTable columns and rows, Ruter's cumulative spelling: ``Section`` and
    ``Direction`` when the event ranks sections or lines apart (``report.pbn.total_table``). For the
    percentage rules the ranking value is the percentage, so ``TotalPercentage`` holds it and
    ``TotalScoreMP`` the matchpoints the pair scored over the sessions (a missed one as imputed)."""
    table = ranking.standings
    imps = ranking.unit == "imp"
    shown = table
    if ranking.rule in ("percent-sum", "percent-average"):
        points = ranking.sessions.groupby("key", sort=False)["total"].sum()
        shown = table.assign(total=table["key"].map(points).to_numpy(dtype="float64"))
    columns, rows = total_table(shown, imps)
    cells: dict[str, list[str]] = {"NrBoardsSession": cell_texts(table["session_boards"])}
    cells["SessionScoreIMP" if imps else "SessionScoreMP"] = point_texts(table["session_total"],
                                                                         "imp" if imps else "mp")
    if not imps:
        cells["SessionPercentage"] = point_texts(table["session_pct"], "pct")
    cells["SessionRank"] = cell_texts(table["session_rank"])
    columns = [*columns, *(Column(name, "", None, "") for name in cells)]
    return columns, [[*row, *more] for row, more in zip(rows, zip(*cells.values()))]


def write_event_pbn(event: Event, path: str | os.PathLike) -> None:
    """The last session's scored PBN (as ``score -o .pbn`` writes it) with the event's cumulative
    TotalScoreTable in its first game, the event's name in the Event tags."""
    boards, results, _, meta = scored_parts(event.sessions[-1])
    if event.meta.get("event"):
        meta["Event"] = str(event.meta["event"])
    games = scored_games(boards, results, None, meta)
    if games:
        tags = games[0].tags
        at = next((i for i, t in enumerate(tags) if t.name == "ScoreTable"), len(tags))
        tags.insert(at, table_tag("TotalScoreTable", *cumulative_table(event.ranking), 0))
    write_games(games, path)


__all__ = ["cumulative_table", "event_heading", "event_table", "write_event_csv", "write_event_pbn",
           "write_event_workbook"]
