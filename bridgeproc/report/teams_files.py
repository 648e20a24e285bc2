"""Teams outputs by extension: ``.xlsx`` workbook, ``.csv`` results, ``.pbn`` games and tables.

PBN output (PBN 2.1 import format; all text quoted, ``-`` for no value):

* one game per table result: ``Event Site Date Board Dealer Vulnerable``, ``Deal``
  (when the input had one set of deals; dealer and vulnerability otherwise follow
  the board number), ``HomeTeam VisitTeam Room`` (Open: home NS), ``Round``, ``Contract
  Declarer Result`` (Result = tricks), ``Score "NS n"`` and ``ScoreIMP "NS i EW j"``;
* a last game (Board ``0`` is not allowed, so it repeats the first board number)
  carrying ``ScoreTable "Round;TeamId_Home;TeamId_Away;MatchDetails;VP_Home;VP_Away"``
  (MatchDetails ``200,<home IMPs>,<away IMPs>`` as Ruter writes it) and
  ``TotalScoreTable "Rank;TeamId;TotalScoreVP;TotalScoreIMP"``.
"""
from __future__ import annotations

import os
import re
from typing import Callable

import numpy as np
import pandas as pd

from bridgeproc.core.boards import dealer_codes, vul_codes
from bridgeproc.core.notation import contract_text
from bridgeproc.io.atomic import atomic_path
from bridgeproc.io.pbn.writer import quote
from bridgeproc.model import TeamsSession
from bridgeproc.report.teams import write_teams_workbook
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
    """Write :func:`results_table` to ``path`` (atomically)."""
    with atomic_path(path) as tmp:
        results_table(session).to_csv(tmp, index=False, lineterminator="\n")


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


def pbn_text(session: TeamsSession) -> str:
    """The PBN text described in the module docstring."""
    meta = session.meta
    head = [_tag("Event", meta.get("event", "")), _tag("Site", meta.get("site", "")), _tag("Date", meta.get("date", ""))]
    lines = ["% PBN 2.1", "% EXPORT", ""]
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
        for row in records(t):
            score = "" if pd.isna(row.score_ns) else f"NS {int(row.score_ns)}"
            imps = "" if pd.isna(row.imp_ns) else f"NS {_num(row.imp_ns)} EW {_num(row.imp_ew)}"
            contract = row.contract if isinstance(row.contract, str) else ""
            lines += head + [
                _tag("Board", row.board), _tag("Dealer", row.dealer), _tag("Vulnerable", row.vul),
                *([_tag("Deal", row.deal)] if row.deal else []), _tag("Round", row.round),
                _tag("HomeTeam", row.home), _tag("VisitTeam", row.away),
                _tag("Room", "Open" if row.room == "open" else "Closed"),
                _tag("Contract", "Pass" if contract == "PASS" else contract),
                _tag("Declarer", "" if pd.isna(row.declarer) else row.declarer),
                _tag("Result", "" if pd.isna(row.tricks) else int(row.tricks)),
                _tag("Score", score), _tag("ScoreIMP", imps), "",
            ]
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
    """Write :func:`pbn_text` to ``path`` (UTF-8, atomically)."""
    with atomic_path(path) as tmp:
        tmp.write_text(pbn_text(session), encoding="utf-8")


WRITERS: dict[str, Callable] = {".xlsx": write_xlsx, ".csv": write_csv, ".pbn": write_pbn}
