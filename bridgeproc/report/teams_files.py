"""Teams outputs by extension: ``.xlsx`` workbook, ``.csv`` results, ``.pbn`` games and tables.

PBN output (PBN 2.1 export format, :func:`bridgeproc.io.pbn.writer.game_lines`; all text quoted,
``-`` for no value):

* one game per table result. A result read from a PBN room game keeps every tag of that
  game (players, ``Deal``, ``Auction`` and ``Play`` with their notes, ``DoubleDummyTricks``,
  ``OptimumResultTable``, ``OptimumScore``, ``Table`` ...); other results get ``Event Site
  Date Board Dealer Vulnerable`` and ``Deal`` (when the input had one set of deals; dealer
  and vulnerability otherwise follow the board number). Every game is given the scored
  result: ``Round``, ``HomeTeam VisitTeam Room`` (Open: home NS), ``Contract Declarer
  Result`` (Result = tricks), ``Score "NS n"`` and ``ScoreIMP "NS i EW j"``. A board not
  played at a table has ``Contract``, ``Declarer`` and ``Result`` ``"?"`` (unknown), no
  score, and a comment saying so (``NP`` is no PBN contract: other readers refuse it);
  :func:`bridgeproc.teams.load.unplayed_rooms` reads it back as not played;
* a last game (Board ``0`` is not allowed, so it repeats the first board number)
  carrying ``ScoreTable "Round;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;VP_Away"``
  (MatchDetails ``200,<home IMPs>,<away IMPs>`` as Ruter writes it) and
  ``TotalScoreTable "Rank;TeamId;TotalScoreVP;TotalScoreIMP"``.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

from bridgeproc.core.boards import dealer_codes, vul_codes
from bridgeproc.core.notation import contract_text
from bridgeproc.io.pbn.model import Game, Tag
from bridgeproc.io.pbn.writer import HEADER, game_lines, quote
from bridgeproc.model import TeamsSession
from bridgeproc.report import csv_files
from bridgeproc.report.teams import write_teams_workbook
from bridgeproc.report.usebio_teams import write_usebio_teams
from bridgeproc.report.web.render import write_teams_page, write_teams_site
from bridgeproc.schema import VULS, records

#: Columns of the teams results CSV.
CSV_COLUMNS = ["round", "match", "room", "board", "ns_team", "ew_team", "contract", "declarer", "tricks", "lead",
               "score_ns", "imp_ns", "imp_ew"]


def results_table(session: TeamsSession) -> pd.DataFrame:
    """One row per table result (CSV_COLUMNS); match rows when the input had match totals only."""
    r = session.results
    if not len(r):
        return session.matches.copy()
    table = r.assign(contract=contract_text(r["level"], r["strain"], r["doubled"], r["adjusted"]))
    return table[CSV_COLUMNS].sort_values(["round", "match", "board", "room"], ascending=[True, True, True, False],
                                          kind="stable")


def write_csv(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write :func:`results_table` to ``path``."""
    csv_files.write_csv(results_table(session), path)


def write_xlsx(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write the teams workbook (see :mod:`bridgeproc.report.teams`)."""
    write_teams_workbook(session, path)


#: A table cell written without quotes (as io.pbn.writer writes cells): no space, quote,
#: backslash, ``;``, brace or bracket, and not ``-`` (which would read as "no value").
_BARE_CELL = re.compile(r'^[^\s"\\;{}\[\]]+$')


def _q(value) -> str:
    """A table cell: ``-`` for no value, the text bare when it reads back as one token, else quoted."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "-"
    text = str(value)
    return text if _BARE_CELL.match(text) and text != "-" else quote(text)


def _tag(name: str, value) -> str:
    """``[Name "value"]`` with the value escaped by the PBN writer (``\\"``, ``\\\\``)."""
    return f"[{name} {quote(str(value))}]"


def _num(value: float) -> str:
    return "-" if pd.isna(value) else f"{value:g}" if float(value).is_integer() else f"{value:.2f}"


#: Tags of a room game the export writes from the scored result (the match's teams and rooms,
#: the contract and scores), whatever the source game said.
_RESULT_TAGS = ("Round", "HomeTeam", "VisitTeam", "Room", "Contract", "Declarer", "Result", "Score", "ScoreIMP")
#: Event tables: written once, in the last game, never copied from a room game.
_EVENT_TABLES = ("ScoreTable", "TotalScoreTable")
#: Ends the game of a table where the board was not played (PBN has no tag for it).
NOT_PLAYED = "{Not played at this table: no contract, no result}"


def _room_game(row, game: Game | None, head: dict[str, str]) -> list[str]:
    """The lines of one table result: the source game's tags (players, Auction, Play, double
    dummy ...) when the result was read from one, with the result tags rewritten."""
    unplayed = row.contract == "NP"
    contract = row.contract if isinstance(row.contract, str) else ""
    given = {
        "Round": row.round, "HomeTeam": row.home, "VisitTeam": row.away,
        "Room": "Open" if row.room == "open" else "Closed",
        # "?": unknown (PBN 2.1), so no reader takes an unplayed board for a passed-out one
        "Contract": "?" if unplayed else "Pass" if contract == "PASS" else contract,
        "Declarer": "?" if unplayed else "" if pd.isna(row.declarer) else row.declarer,
        "Result": "?" if unplayed else "" if pd.isna(row.tricks) else int(row.tricks),
    }
    if not pd.isna(row.score_ns):
        given["Score"] = f"NS {int(row.score_ns)}"
    if not pd.isna(row.imp_ns) and not unplayed:
        given["ScoreIMP"] = f"NS {_num(row.imp_ns)} EW {_num(row.imp_ew)}"
    board = {"Board": row.board, "Dealer": row.dealer, "Vulnerable": row.vul, **({"Deal": row.deal} if row.deal else {})}
    kept = [t for t in (game.tags if game is not None else ()) if t.name not in _RESULT_TAGS
            and t.name not in _EVENT_TABLES]
    have = {t.name for t in kept}
    added = [Tag(name, str(value), 0) for name, value in {**head, **board, **given}.items()
             if name not in have]
    return game_lines(Game(kept + added, 0)) + ([NOT_PLAYED] if unplayed else [])


def pbn_text(session: TeamsSession) -> str:
    """The PBN text described in the module docstring."""
    meta = session.meta
    fields = {"Event": meta.get("event", ""), "Site": meta.get("site", ""), "Date": meta.get("date", "")}
    head = [_tag(name, value) for name, value in fields.items()]
    lines = [*HEADER, ""]
    r = session.results
    first_board = 1
    if len(r):
        t = results_table(session).join(r[["home", "away"]])
        first_board = int(t["board"].iloc[0])
        t = t.assign(dealer=np.asarray(list("NESW"))[dealer_codes(t["board"].to_numpy())],
                     vul=np.asarray(VULS)[vul_codes(t["board"].to_numpy())], deal="")
        if session.deals is not None:
            known = session.deals.drop_duplicates(subset=["board"]).set_index("board")
            at = t["board"].to_numpy()
            t["dealer"] = known["dealer"].astype("string").reindex(at).fillna(pd.Series(t["dealer"].to_numpy(), index=at)).to_numpy()
            t["vul"] = known["vul"].astype("string").reindex(at).fillna(pd.Series(t["vul"].to_numpy(), index=at)).to_numpy()
            t["deal"] = known["deal"].reindex(at).fillna("").to_numpy()
        games = r["game"].reindex(t.index) if "game" in r else pd.Series(None, index=t.index, dtype="object")
        for row, game in zip(records(t), games):
            lines += _room_game(row, game if isinstance(game, Game) else None, fields) + [""]
    m = session.matches
    lines += head + [_tag("Board", first_board),
                     '[ScoreTable "Round\\2R;TeamId_Home\\20L;TeamId_Away\\20L;MatchDetails\\16L;VP_Home\\6R;VP_Away\\6R"]']
    for row in records(m):
        details = "-" if pd.isna(row.imps_home) else f"200,{_num(row.imps_home)},{_num(row.imps_away)}"
        lines.append(" ".join([_num(row.round), _q(row.home), _q(row.away), _q(details), _num(row.vp_home), _num(row.vp_away)]))
    lines.append('[TotalScoreTable "Rank\\4R;TeamId\\20L;TotalScoreVP\\7R;TotalScoreIMP\\7R"]')
    for row in records(session.standings):
        lines.append(" ".join([_q(row.rank), _q(row.team), _num(row.total), _num(row.imp_difference)]))
    return "\n".join(lines) + "\n"


def write_pbn(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write :func:`pbn_text` to ``path`` (UTF-8)."""
    Path(path).write_text(pbn_text(session), encoding="utf-8")



#: ``"/"`` is pipeline.write's FOLDER: ``-o results/`` writes the teams website as a folder.
WRITERS: dict[str, Callable] = {".xlsx": write_xlsx, ".csv": write_csv, ".pbn": write_pbn, ".xml": write_usebio_teams,
                                ".html": write_teams_page, "/": write_teams_site}
