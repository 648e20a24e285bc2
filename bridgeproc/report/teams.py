"""The teams workbook: standings, the VP table of every match, match cards board by board,
travellers, the hand records, what was read with a note and the conventions used, in words.
Built with the pairs workbook's style helpers.
"""
from __future__ import annotations

import os

import numpy as np
import pandas as pd

from bridgeproc.analysis.par import optimum_score_problem, parse_optimum_score
from bridgeproc.core.notation import contract_text
from bridgeproc.model import TeamsSession
from bridgeproc.report.checks import in_terminal_order
from bridgeproc.report.handrecords import write_handrecords
from bridgeproc.report.ranking import rank_number
from bridgeproc.report.styles import (
    BAND_FILL,
    BOLD,
    HEADER,
    HEADER_FILL,
    RED_FONT,
    SUBTITLE,
    TITLE,
    a4,
    add_changed_text,
    add_row,
    break_before,
    cell,
    fit_rows,
    header_row,
    is_red,
    new_sheet,
    new_workbook,
    set_widths,
)
from bridgeproc.report.teams_words import (
    convention_rows,
    heading,
    scale_words,
    tie_break_words,
)
from bridgeproc.report.travellers import write_travellers
from bridgeproc.schema import PROBLEM_COLUMNS, problems_frame, records

_STATUS_TEXT = {"played": "", "adjusted": "artificial score", "one room": "one room only: 0 IMPs",
                "not played": "not played"}

#: The Checks sheet's columns (the pairs sheet's, without the result a note points at: teams have no pairs).
CHECK_TITLES = ["Kind", "File", "Line", "Column", "Value", "Message"]


def _title(ws, lines: list[str]) -> None:
    """The heading lines and a blank row (after the page set-up: a write-only sheet writes it first)."""
    add_row(ws, [cell(ws, lines[0], font=TITLE)])
    for line in lines[1:]:
        add_row(ws, [cell(ws, line, font=SUBTITLE)])
    add_row(ws, [])


def _num(ws, value, fmt="imp", font=None):
    """A number cell; VPs (format ``0.00``) stored rounded to 2 decimals, as shown (70.93, not 70.92999999999999)."""
    if pd.isna(value):
        return cell(ws, None, fmt=fmt, font=font)
    return cell(ws, round(float(value), 2) if fmt == "0.00" else float(value), fmt=fmt, font=font)


def _widths(titles: list[str], widths: list[float], texts: dict[int, pd.Series] | None = None) -> list[float]:
    """Column widths wide enough for each header (bold, so two spare) and, for the columns in ``texts``
    (position -> values), the longest value: team names are never cut."""
    out = [max(w, len(t) + 2) for t, w in zip(titles, widths)]
    for position, values in (texts or {}).items():
        longest = values.astype("string").str.len().max() if len(values) else 0
        out[position] = max(out[position], min(int(0 if pd.isna(longest) else longest) + 2, 60))
    return out


def write_standings(wb, session: TeamsSession) -> None:
    """The Standings sheet."""
    ws = new_sheet(wb, "Standings")
    lines = heading(session)
    at = len(lines) + 2
    vp = session.options.scoring == "vp"
    titles = ["Rank", "Team", "Matches", "VP" if vp else "Total", "IMPs +", "IMPs −", "Quotient", "Penalty", "Decided by", "Roster"]
    # write-only: widths, panes, page before the rows
    set_widths(ws, _widths(titles, [7, 12, 9, 9, 9, 9, 9, 9, 16, 50], {1: session.standings["team"]}))
    a4(ws, f"{at}:{at}", landscape=True)
    ws.freeze_panes = f"A{at + 1}"
    _title(ws, lines)
    add_row(ws, header_row(ws, titles))
    s = session.standings
    for row in records(s):
        quotient = None if pd.isna(row.imp_quotient) or row.imp_quotient == float("inf") else float(row.imp_quotient)
        place, tied = rank_number(row.rank)  # 3= is the number 3 shown with a '=': the column sorts
        decided = tie_break_words([row.decided_by], short=True) if row.decided_by else ""
        add_row(ws, [cell(ws, place, font=BOLD, fmt='0"="' if tied else None), cell(ws, row.team, font=BOLD),
                   cell(ws, int(row.matches), fmt="int"),
                   _num(ws, row.total, "0.00"), _num(ws, row.imps_for), _num(ws, row.imps_against),
                   cell(ws, quotient, fmt="0.000"), _num(ws, row.penalty_vp or None, "0.00"),
                   cell(ws, decided), cell(ws, row.names if isinstance(row.names, str) else "")])


def write_vp_table(wb, session: TeamsSession) -> None:
    """The Matches sheet: one row per match with IMPs, carry-over, penalties and VPs."""
    ws = new_sheet(wb, "Matches")
    lines = heading(session)
    at = len(lines) + 2
    titles = ["Round", "Home", "Away", "Boards", "IMPs home", "IMPs away", "Carry home", "Carry away",
              "Pen. home", "Pen. away", "VP home", "VP away", "Status"]
    matches = session.matches
    set_widths(ws, _widths(titles, [7, 12, 12, 7, 10, 10, 10, 10, 9, 9, 9, 9, 12],
                           {1: matches["home"], 2: matches["away"], 12: matches["status"]}))
    a4(ws, f"{at}:{at}", landscape=True)  # fitted to the page width: the Status column is never printed alone
    ws.freeze_panes = f"A{at + 1}"
    _title(ws, lines)
    add_row(ws, header_row(ws, titles))
    for r in records(matches):
        add_row(ws, [cell(ws, None if pd.isna(r.round) else int(r.round), fmt="int"), cell(ws, r.home), cell(ws, r.away),
                   cell(ws, int(r.boards), fmt="int"), _num(ws, r.imps_home), _num(ws, r.imps_away),
                   _num(ws, r.carry_home or None), _num(ws, r.carry_away or None),
                   _num(ws, (r.penalty_imps_home or 0) + (r.penalty_vp_home or 0) or None),
                   _num(ws, (r.penalty_imps_away or 0) + (r.penalty_vp_away or 0) or None),
                   _num(ws, r.vp_home, "0.00", BOLD), _num(ws, r.vp_away, "0.00", BOLD),
                   cell(ws, "" if r.status == "played" else r.status, font=RED_FONT if r.status != "played" else None)])


def write_vp_scale(wb, session: TeamsSession) -> None:
    """The VP scale sheet: winner and loser VPs at each IMP margin, per match length in the event."""
    ws = new_sheet(wb, "VP scale")
    played = session.matches[session.matches["status"] == "played"]
    lengths = sorted({int(n) for n in played["boards"] if n > 0})
    set_widths(ws, [11] + [13] * 2 * len(lengths))  # write-only: before the rows; two columns hold a length's title
    a4(ws, "3:4")
    scale = session.options.scale
    add_row(ws, [cell(ws, f"VP scale: {scale_words(scale)}", font=TITLE)])
    add_row(ws, [])
    if not lengths:
        return
    top = int(np.ceil(15 * np.sqrt(max(lengths)))) + 1
    margins = np.arange(top + 1)
    # the match length over its two columns: left-aligned, the second cell empty, so the words run on into it
    blank = cell(ws, None, fill=HEADER_FILL)
    add_row(ws, [blank] + [c for n in lengths
                           for c in (cell(ws, f"VPs for a {n}-board match", font=HEADER, fill=HEADER_FILL), blank)])
    add_row(ws, header_row(ws, ["IMP margin"] + ["winner", "loser"] * len(lengths)))
    columns = [v for n in lengths for v in (scale.convert(margins, n), scale.convert(-margins, n))]
    for i, margin in enumerate(margins.tolist()):
        add_row(ws, [margin] + [_num(ws, c[i], "0.00") for c in columns])


#: Characters of column width a landscape A4 page shows readably (the cross table is cut into parts this wide).
LANDSCAPE_WIDTH = 110


def write_cross_table(wb, session: TeamsSession, limit: int = 40) -> None:
    """Round-robin grid: the row team's VPs against each column team (events up to ``limit`` teams).

    Columns as wide as the longest team name; when they do not fit one landscape page, the grid is
    printed in parts (teams 1-7, 8-14 ... as columns), each part on a page of its own, every row team
    in each, the totals in the last."""
    teams = session.standings["team"].tolist()
    if not 1 < len(teams) <= limit:
        return
    ws = new_sheet(wb, "Cross table")
    first = max(12, max(len(str(t)) for t in teams) + 2)
    width = max(7, max(len(str(t)) for t in teams) + 2)
    per_part = max(1, (LANDSCAPE_WIDTH - first - 9) // width)
    parts = -(-len(teams) // per_part)
    per_part = -(-len(teams) // parts)  # parts of even size: 30 teams at 7 a page are 6, 6, 6, 6, 6
    widths = [first] + [width] * per_part + [9]
    set_widths(ws, widths)  # write-only: before the rows
    a4(ws, landscape=True)
    block = len(teams) + 3  # title, header, the teams, a blank row
    break_before(ws, [1 + part * block for part in range(1, parts)])
    fit_rows(ws, block, sum(widths))
    m = session.matches[session.matches["status"] == "played"]
    column = "vp" if session.options.scoring == "vp" else {"imps": "margin", "bam": "bam"}[session.options.scoring]
    both = pd.concat([pd.DataFrame({"team": m["home"], "opp": m["away"], "v": m[f"{column}_home"]}),
                      pd.DataFrame({"team": m["away"], "opp": m["home"], "v": m[f"{column}_away"]})])
    grid = both.groupby(["team", "opp"])["v"].sum().unstack().reindex(index=teams, columns=teams)
    totals = session.standings.set_index("team")["total"]
    for part in range(parts):
        shown = teams[part * per_part:(part + 1) * per_part]
        last = part == parts - 1
        title = "VPs of the row team against the column team" + (f" ({part + 1} of {parts})" if parts > 1 else "")
        add_row(ws, [cell(ws, title, font=TITLE)])
        add_row(ws, header_row(ws, ["Team"] + [str(t) for t in shown] + ["Total"] * last))
        for team in teams:
            values = grid.loc[team, shown].tolist()
            add_row(ws, [cell(ws, team, font=BOLD)] + [_num(ws, v, "0.00") for v in values]
                      + [_num(ws, totals[team], "0.00", BOLD)] * last)
        add_row(ws, [])


def _room_texts(results: pd.DataFrame) -> pd.DataFrame:
    text = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"], symbols=True)
    declarer = results["declarer"].astype("string").fillna("")
    return pd.DataFrame({"match": results["match"], "board": results["board"], "room": results["room"],
                         "contract": (text.fillna("") + " " + declarer).str.strip()})


def _card_columns(session: TeamsSession) -> pd.DataFrame:
    """The match-card rows as plain Python-ready columns (one pass over whole columns)."""
    b = session.boards
    rooms = _room_texts(session.results)
    for room in ("open", "closed"):
        texts = rooms[rooms["room"] == room].drop(columns="room").rename(columns={"contract": f"text_{room}"})
        b = b.merge(texts, on=["match", "board"], how="left", sort=False)
    shown = b["status"] == "adjusted"
    return pd.DataFrame({
        "match": b["match"], "board": b["board"].astype("int64"),
        "text_open": b["text_open"].fillna(""), "text_closed": b["text_closed"].fillna(""),
        "score_open": b["score_open"].astype("object").where(b["score_open"].notna(), None),
        "score_closed": b["score_closed"].astype("object").where(b["score_closed"].notna(), None),
        "swing": b["swing"].astype("object").where(b["swing"].notna(), None),
        "imps_home": b["imps_home"].where((b["imps_home"] > 0) | shown).astype("object").where(lambda s: s.notna(), None),
        "imps_away": b["imps_away"].where((b["imps_away"] > 0) | shown).astype("object").where(lambda s: s.notna(), None),
        "note": b["status"].map(_STATUS_TEXT).fillna(""),
    })


def write_match_cards(wb, session: TeamsSession) -> None:
    """The Match cards sheet: per match, each board's two rooms, swing and IMPs, then the total."""
    ws = new_sheet(wb, "Match cards")
    titles = ["Board", "Open room", "NS score", "Closed room", "NS score", "Swing", "IMPs home", "IMPs away", "Note"]
    # the Total row names the teams under the rooms' contracts: those columns as wide as the longest name
    teams = pd.concat([session.matches["home"], session.matches["away"]])
    set_widths(ws, _widths(titles, [7, 12, 9, 12, 9, 8, 10, 10, 22], {1: teams, 3: teams}))
    a4(ws)
    if not len(session.boards):
        add_row(ws, [cell(ws, "Match totals only: no boards in the input", font=SUBTITLE)])
        return
    cards = _card_columns(session)
    totals = {r.match: r for r in records(session.matches)}
    band = [cell(ws, None, fill=BAND_FILL) for _ in titles[1:]]
    header = header_row(ws, titles)
    rows = zip(*(cards[c].tolist() for c in cards.columns))
    previous = None
    for match, board, text_open, text_closed, score_open, score_closed, swing, imps_home, imps_away, note in rows:
        if match != previous:
            if previous is not None:
                _card_total(ws, totals[previous])
            add_row(ws, [cell(ws, match, font=BOLD, fill=BAND_FILL)] + band)
            add_row(ws, header)
            previous = match
        add_row(ws, [board, cell(ws, text_open, font=RED_FONT) if is_red(text_open) else text_open, score_open,
                   cell(ws, text_closed, font=RED_FONT) if is_red(text_closed) else text_closed, score_closed,
                   swing, imps_home, imps_away, note])
    if previous is not None:
        _card_total(ws, totals[previous])


def _card_total(ws, total) -> None:
    vp = "" if pd.isna(total.vp_home) else f"VP {total.vp_home:.2f} – {total.vp_away:.2f}"
    add_row(ws, [cell(ws, "Total", font=BOLD), cell(ws, total.home, font=BOLD), None, cell(ws, total.away, font=BOLD),
               None, None, _num(ws, total.imps_home, font=BOLD), _num(ws, total.imps_away, font=BOLD),
               cell(ws, vp or total.status, font=BOLD)])
    add_row(ws, [])


def hand_record_boards(deals: pd.DataFrame) -> pd.DataFrame:
    """The deals as the Hand records sheet reads them: the input's optimum score as the par (a teams
    run solves nothing; a score that is not a side and a score is left out, as read_teams noted),
    with its contract when the file gives one."""
    if "par_score" in deals or "optimum_score" not in deals:
        return deals
    texts = deals["optimum_score"].astype("object").tolist()
    score = [parse_optimum_score(t) if isinstance(t, str) and optimum_score_problem(t) is None else None for t in texts]
    contracts = deals["optimum_contract"].astype("string") if "optimum_contract" in deals \
        else pd.Series(pd.NA, index=deals.index, dtype="string")
    return deals.assign(par_score=pd.array(score, dtype="Int64"), par_contracts=contracts)


def write_pairs(wb, session: TeamsSession) -> None:
    """The Pairs sheet: each pair's pairwise cross-IMPs inside the teams event, best first (no sheet
    when the event has none)."""
    pairs = session.pairs
    if not len(pairs):
        return
    ws = new_sheet(wb, "Pairs")
    titles = ["Pair", "Team", "Boards", "Cross-IMPs"]
    set_widths(ws, _widths(titles, [10, 14, 8, 12], {0: pairs["pair"], 1: pairs["team"]}))
    lines = heading(session)
    a4(ws, f"{len(lines) + 2}:{len(lines) + 2}")
    _title(ws, lines)
    add_row(ws, header_row(ws, titles))
    for r in records(pairs.sort_values(["imps", "pair"], ascending=[False, True], kind="stable")):
        add_row(ws, [cell(ws, r.pair), cell(ws, r.team), cell(ws, int(r.boards), fmt="int"),
                     _num(ws, r.imps, "0.00", BOLD)])


def write_teams_checks(wb, session: TeamsSession) -> None:
    """The Checks sheet: what was read with a note (a lead read from the Play ...), each with its file
    and line, as ``bridgeproc teams`` prints them; no sheet when there are none."""
    if not session.notes:
        return
    notes = in_terminal_order(problems_frame(list(session.notes)))
    ws = new_sheet(wb, "Checks")
    set_widths(ws, _widths(CHECK_TITLES, [9, 28, 7, 10, 14, 100], {1: notes["source"]}))  # write-only: first
    a4(ws, title_rows="4:4", landscape=True)
    add_row(ws, [cell(ws, "Checks", font=TITLE)])
    add_row(ws, [cell(ws, f"What was read with a note: scored as it stands ({len(notes)} "
                          f"note{'' if len(notes) == 1 else 's'})", font=SUBTITLE)])
    add_row(ws, [])
    add_row(ws, header_row(ws, CHECK_TITLES))
    for source, line, column, value, message in zip(*(notes[c].tolist() for c in PROBLEM_COLUMNS)):
        add_row(ws, ["note", source, int(line) if line.isdigit() else (line or None), column or None, value or None,
                     message])


def write_conventions(wb, session: TeamsSession) -> None:
    """Every convention of the run in words, then what was noticed (matches not played, boards scored by
    convention) and any text changed to fit the workbook."""
    ws = new_sheet(wb, "Conventions")
    set_widths(ws, [28, 100])  # write-only: before the rows
    a4(ws, landscape=True)
    add_row(ws, [cell(ws, "Conventions used", font=TITLE)])
    add_row(ws, [])
    add_row(ws, header_row(ws, ["Convention", "How it was applied"]))
    for label, words in convention_rows(session):
        add_row(ws, [cell(ws, label, font=BOLD), cell(ws, words)])
    notices = session.notices
    if notices:
        add_row(ws, [])
        add_row(ws, [cell(ws, "Notices", font=BOLD)])
        for text in notices:
            add_row(ws, [cell(ws, text)])
    add_changed_text(ws)


def write_teams_workbook(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write the teams workbook for ``session`` to ``path``."""
    wb = new_workbook()
    write_standings(wb, session)
    write_vp_table(wb, session)
    write_cross_table(wb, session)
    write_vp_scale(wb, session)
    write_match_cards(wb, session)
    write_pairs(wb, session)
    if len(session.results):
        shown = session.results.assign(section=("R" + session.results["round"].astype("string")),
                                       ns=session.results["ns_team"], ew=session.results["ew_team"])
        write_travellers(wb, shown, pd.DataFrame())
    if session.deals is not None and len(session.deals) and session.deals["deal"].notna().any():
        write_handrecords(wb, hand_record_boards(session.deals))
    write_teams_checks(wb, session)
    write_conventions(wb, session)
    wb.save(path)
