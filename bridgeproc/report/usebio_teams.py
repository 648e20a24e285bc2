"""Write a scored teams event as USEBIO 1.2 XML (``.xml`` of ``report.teams_files.WRITERS``).

Layout, the pairs file's (report.usebio) head with teams inside: ``USEBIO Version="1.2"`` >
``CLUB`` > ``EVENT EVENT_TYPE="TEAMS"`` (``EVENT_DESCRIPTION``, ``PROGRAM_NAME``,
``PROGRAM_VERSION``, ``WINNER_TYPE`` 1, ``DATE``, ``SESSION_COUNT``, ``SCORING_METHOD``
``IMPS``, ``BOARD_SCORING_METHOD`` ``IMPS``) >

* ``PARTICIPANTS/TEAM``: ``TEAM_ID`` (1, 2 ... in the order of the standings), ``TEAM_NAME``,
  ``PLACE`` (``3=`` for a tie), ``TOTAL_SCORE`` (the VPs), ``PLAYER/PLAYER_NAME`` when the
  event names them;
* ``MATCH`` per match: ``ROUND_NUMBER``, ``TEAM`` (the home team's id) and ``OPPOSING_TEAM``,
  the match totals ``TEAM_IMPS``/``OPPOSING_TEAM_IMPS`` and ``TEAM_VICTORY_POINTS``/
  ``OPPOSING_TEAM_VICTORY_POINTS``, then ``BOARD`` (``BOARD_NUMBER``, ``IMPS`` the home team's)
  with one ``TRAVELLER_LINE`` per room: ``DIRECTION`` where the home team sat (``NS`` in the
  open room), ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE`` (NS's).
* ``HANDSET/BOARD/HAND`` when the event has one set of deals.

The match-total element names were not checked against the DTD (not available here);
bridgeproc's USEBIO reader takes the teams, matches, boards and lines of this layout and names
the match totals in its note of elements it does not read.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.io.atomic import atomic_path
from bridgeproc.model import TeamsSession
from bridgeproc.report.usebio import add_element, document, event_head, handset, number_text, usebio_date
from bridgeproc.schema import records

__all__ = ["usebio_teams_text", "write_usebio_teams", "EVENT_TYPE"]

EVENT_TYPE = "TEAMS"


def _team_ids(session: TeamsSession) -> dict[str, int]:
    """Team name -> TEAM_ID: the standings' order, then any team met only in the matches."""
    names = [str(t) for t in session.standings["team"]] if len(session.standings) else []
    for side in ("home", "away"):
        names += [str(t) for t in session.matches[side]] if len(session.matches) else []
    return {name: number for number, name in enumerate(dict.fromkeys(names), start=1)}


def _participants(event: ET.Element, session: TeamsSession, ids: dict[str, int]) -> None:
    block = ET.SubElement(event, "PARTICIPANTS", {"EVENT_TYPE": EVENT_TYPE})
    standing = {str(row.team): row for row in records(session.standings)} if len(session.standings) else {}
    for name, number in ids.items():
        team = ET.SubElement(block, "TEAM")
        add_element(team, "TEAM_ID", number)
        add_element(team, "TEAM_NAME", name)
        row = standing.get(name)
        if row is None:
            continue
        add_element(team, "PLACE", row.rank)
        add_element(team, "TOTAL_SCORE", number_text(row.vp))
        players = "" if pd.isna(row.names) else str(row.names)
        for player in [p.strip() for p in players.replace(",", " & ").split(" & ") if p.strip()]:
            add_element(ET.SubElement(team, "PLAYER"), "PLAYER_NAME", player)


def _lines(results: pd.DataFrame) -> pd.DataFrame:
    """One row per table result: match, board, where the home team sat, and the line's cells."""
    if not len(results):
        return pd.DataFrame(columns=["match", "board", "direction", "contract", "declarer", "lead", "tricks", "score",
                                     "played"])
    return pd.DataFrame({
        "match": results["match"].astype("string"), "board": results["board"].to_numpy(),
        "direction": (results["ns_team"].astype("string") == results["home"].astype("string")).map(
            {True: "NS", False: "EW"}),
        "contract": contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"]),
        "declarer": results["declarer"].astype("string"), "lead": results["lead"].astype("string"),
        "tricks": results["tricks"].astype("Int64").astype("string"),
        "score": results["score_ns"].astype("Int64").astype("string"),
        "played": (results["level"].fillna(0) > 0).to_numpy(),
    })


def _matches(event: ET.Element, session: TeamsSession, ids: dict[str, int]) -> None:
    lines = _lines(session.results)
    boards = session.boards
    for match in records(session.matches):
        node = ET.SubElement(event, "MATCH")
        add_element(node, "ROUND_NUMBER", match.round)
        add_element(node, "TEAM", ids[str(match.home)])
        add_element(node, "OPPOSING_TEAM", ids[str(match.away)])
        add_element(node, "TEAM_IMPS", number_text(match.imps_home))
        add_element(node, "OPPOSING_TEAM_IMPS", number_text(match.imps_away))
        add_element(node, "TEAM_VICTORY_POINTS", number_text(match.vp_home))
        add_element(node, "OPPOSING_TEAM_VICTORY_POINTS", number_text(match.vp_away))
        played = lines[lines["match"] == str(match.match)]
        swings = boards[boards["match"] == match.match] if len(boards) else boards
        imps = dict(zip(swings["board"], swings["imps_home"])) if len(swings) else {}
        for number, rooms in played.groupby("board", sort=True):
            board = ET.SubElement(node, "BOARD", {"EVENT_TYPE": EVENT_TYPE})
            add_element(board, "BOARD_NUMBER", int(number))
            add_element(board, "IMPS", number_text(imps.get(number)))
            for line in records(rooms.sort_values("direction", ascending=False)):
                row = ET.SubElement(board, "TRAVELLER_LINE")
                add_element(row, "DIRECTION", line.direction)
                add_element(row, "CONTRACT", None if pd.isna(line.contract) else line.contract)
                if line.played:
                    add_element(row, "PLAYED_BY", None if pd.isna(line.declarer) else line.declarer)
                    add_element(row, "LEAD", None if pd.isna(line.lead) else line.lead)
                    add_element(row, "TRICKS", None if pd.isna(line.tricks) else line.tricks)
                add_element(row, "SCORE", None if pd.isna(line.score) else line.score)


def usebio_teams_text(session: TeamsSession) -> str:
    """The USEBIO 1.2 document of a scored teams event, as text (UTF-8 declared)."""
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    root = ET.Element("USEBIO", {"Version": "1.2"})
    event = event_head(root, meta, EVENT_TYPE)
    add_element(event, "WINNER_TYPE", 1)
    add_element(event, "DATE", usebio_date(meta.get("date")))
    add_element(event, "SESSION_COUNT", 1)
    add_element(event, "SCORING_METHOD", "IMPS")
    add_element(event, "BOARD_SCORING_METHOD", "IMPS")
    ids = _team_ids(session)
    _participants(event, session, ids)
    _matches(event, session, ids)
    if session.deals is not None and len(session.deals):
        handset(root, {int(b["board"]): b for b in session.deals.to_dict("records")})
    return document(root)


def write_usebio_teams(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write ``session`` as a USEBIO 1.2 XML file at ``path`` (atomically; see :func:`usebio_teams_text`)."""
    text = usebio_teams_text(session)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
