"""The teams workbook: standings, the VP table of every match, match cards board by board,
travellers and the conventions used. Built with the pairs workbook's style helpers.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pandas as pd
from openpyxl import Workbook

from ..io.atomic import atomic_path
from ..notation import contract_text
from ..report.styles import BAND_FILL, BOLD, RED_FONT, SUBTITLE, TITLE, a4, cell, header_row, is_red, set_widths
from ..report.travellers import write_travellers

if TYPE_CHECKING:
    from .session import TeamsSession

_STATUS_TEXT = {"played": "", "adjusted": "artificial score", "one room": "one room only: 0 IMPs",
                "not played": "not played"}


def heading(session: "TeamsSession") -> list[str]:
    """Event, date/site, VP scale and tie-breaks: the lines above each table."""
    meta = session.meta
    lines = [meta.get("event") or "Teams results"]
    when = " · ".join(str(v) for v in (meta.get("date"), meta.get("site")) if v)
    if when:
        lines.append(when)
    opts = session.options
    scoring = {"vp": opts.scale.describe(), "imps": "Ranked by total IMP margin",
               "bam": "Board-a-match: 1 / ½ / 0 per board"}[opts.scoring]
    lines.append(scoring)
    lines.append(f"Ties broken by: {', '.join(session.tie_breaks) or 'none (shared rank)'}; "
                 f"A+ = +{opts.ave_plus_imps:g} IMPs (Law 86A)")
    return lines


def _title(ws, lines: list[str]) -> int:
    ws.append([cell(ws, lines[0], font=TITLE)])
    for line in lines[1:]:
        ws.append([cell(ws, line, font=SUBTITLE)])
    ws.append([])
    return len(lines) + 2


def _num(ws, value, fmt="imp", font=None):
    return cell(ws, None if pd.isna(value) else float(value), fmt=fmt, font=font)


def write_standings(wb, session: "TeamsSession") -> None:
    """The Standings sheet."""
    ws = wb.create_sheet("Standings")
    at = _title(ws, heading(session))
    vp = session.options.scoring == "vp"
    titles = ["Rank", "Team", "Matches", "VP" if vp else "Total", "IMPs +", "IMPs −", "Quotient", "Penalty", "Decided by", "Roster"]
    ws.append(header_row(ws, titles))
    ws.freeze_panes = f"A{at + 1}"
    s = session.standings
    for row in s.itertuples(index=False):
        quotient = None if pd.isna(row.imp_quotient) or row.imp_quotient == float("inf") else float(row.imp_quotient)
        ws.append([cell(ws, row.rank, font=BOLD), cell(ws, row.team, font=BOLD), cell(ws, int(row.matches), fmt="int"),
                   _num(ws, row.total, "0.00"), _num(ws, row.imps_for), _num(ws, row.imps_against),
                   cell(ws, quotient, fmt="0.000"), _num(ws, row.penalty_vp or None, "0.00"),
                   cell(ws, row.decided_by or ""), cell(ws, row.names if isinstance(row.names, str) else "")])
    set_widths(ws, [7, 24, 9, 9, 9, 9, 9, 9, 16, 50])
    a4(ws, f"{at}:{at}", landscape=True)


def write_vp_table(wb, session: "TeamsSession") -> None:
    """The Matches sheet: one row per match with IMPs, carry-over, penalties and VPs."""
    ws = wb.create_sheet("Matches")
    at = _title(ws, heading(session))
    titles = ["Round", "Home", "Away", "Boards", "IMPs home", "IMPs away", "Carry home", "Carry away",
              "Pen. home", "Pen. away", "VP home", "VP away", "Status"]
    ws.append(header_row(ws, titles))
    ws.freeze_panes = f"A{at + 1}"
    for r in session.matches.itertuples(index=False):
        ws.append([cell(ws, None if pd.isna(r.round) else int(r.round), fmt="int"), cell(ws, r.home), cell(ws, r.away),
                   cell(ws, int(r.boards), fmt="int"), _num(ws, r.imps_home), _num(ws, r.imps_away),
                   _num(ws, r.carry_home or None), _num(ws, r.carry_away or None),
                   _num(ws, (r.penalty_imps_home or 0) + (r.penalty_vp_home or 0) or None),
                   _num(ws, (r.penalty_imps_away or 0) + (r.penalty_vp_away or 0) or None),
                   _num(ws, r.vp_home, "0.00", BOLD), _num(ws, r.vp_away, "0.00", BOLD),
                   cell(ws, "" if r.status == "played" else r.status, font=RED_FONT if r.status != "played" else None)])
    set_widths(ws, [7, 22, 22, 7, 10, 10, 10, 10, 9, 9, 9, 9, 12])
    a4(ws, f"{at}:{at}", landscape=True)


def _room_texts(results: pd.DataFrame) -> pd.DataFrame:
    text = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True)
    declarer = results["declarer"].astype("string").fillna("")
    return pd.DataFrame({"match": results["match"], "board": results["board"], "room": results["room"],
                         "contract": (text.fillna("") + " " + declarer).str.strip()})


def write_match_cards(wb, session: "TeamsSession") -> None:
    """The Match cards sheet: per match, each board's two rooms, swing and IMPs, then the total."""
    ws = wb.create_sheet("Match cards")
    titles = ["Board", "Open room", "NS score", "Closed room", "NS score", "Swing", "IMPs home", "IMPs away", "Note"]
    set_widths(ws, [7, 14, 9, 14, 9, 8, 10, 10, 22])
    a4(ws)
    boards = session.boards
    if not len(boards):
        ws.append([cell(ws, "Match totals only: no boards in the input", font=SUBTITLE)])
        return
    rooms = _room_texts(session.results).set_index(["match", "board", "room"])["contract"]
    totals = session.matches.set_index("match")
    for match, block in boards.groupby("match", sort=False):
        total = totals.loc[match]
        ws.append([cell(ws, f"{match}", font=BOLD, fill=BAND_FILL)] + [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]])
        ws.append(header_row(ws, titles))
        for r in block.itertuples(index=False):
            open_text = rooms.get((match, r.board, "open"), "")
            closed_text = rooms.get((match, r.board, "closed"), "")
            ws.append([cell(ws, int(r.board), fmt="int"),
                       cell(ws, open_text, font=RED_FONT if is_red(open_text) else None),
                       cell(ws, None if pd.isna(r.score_open) else int(r.score_open), fmt="score"),
                       cell(ws, closed_text, font=RED_FONT if is_red(closed_text) else None),
                       cell(ws, None if pd.isna(r.score_closed) else int(r.score_closed), fmt="score"),
                       cell(ws, None if pd.isna(r.swing) else int(r.swing), fmt="score"),
                       _num(ws, r.imps_home if r.imps_home > 0 or r.status == "adjusted" else None),
                       _num(ws, r.imps_away if r.imps_away > 0 or r.status == "adjusted" else None),
                       cell(ws, _STATUS_TEXT.get(r.status, r.status))])
        vp = "" if pd.isna(total["vp_home"]) else f"VP {total['vp_home']:.2f} – {total['vp_away']:.2f}"
        ws.append([cell(ws, "Total", font=BOLD), cell(ws, total["home"], font=BOLD), None, cell(ws, total["away"], font=BOLD),
                   None, None, _num(ws, total["imps_home"], font=BOLD), _num(ws, total["imps_away"], font=BOLD),
                   cell(ws, vp or total["status"], font=BOLD)])
        ws.append([])


def write_conventions(wb, session: "TeamsSession") -> None:
    """Every option of the run, then what was noticed (matches not played, boards scored by convention)."""
    ws = wb.create_sheet("Conventions")
    ws.append([cell(ws, "Conventions used", font=TITLE)])
    ws.append([])
    ws.append(header_row(ws, ["Option", "Value"]))
    for name, value in session.options.describe():
        ws.append([cell(ws, name, font=BOLD), cell(ws, value)])
    ws.append([cell(ws, "tie_breaks used", font=BOLD), cell(ws, ", ".join(session.tie_breaks))])
    notices = session.notices
    if notices:
        ws.append([])
        ws.append([cell(ws, "Notices", font=BOLD)])
        for text in notices:
            ws.append([cell(ws, text)])
    set_widths(ws, [22, 100])
    a4(ws, landscape=True)


def write_teams_workbook(session: "TeamsSession", path: str | os.PathLike) -> None:
    """Write the teams workbook for ``session`` to ``path`` (atomically)."""
    wb = Workbook(write_only=True)
    write_standings(wb, session)
    write_vp_table(wb, session)
    write_match_cards(wb, session)
    if len(session.results):
        shown = session.results.assign(section=("R" + session.results["round"].astype("string")),
                                       ns=session.results["ns_team"], ew=session.results["ew_team"])
        write_travellers(wb, shown, pd.DataFrame())
    write_conventions(wb, session)
    with atomic_path(path) as tmp:
        wb.save(tmp)
