"""Write a scored teams event as USEBIO 1.2 XML (``.xml`` of ``report.teams_files.WRITERS``).

Element names (``ELEMENTS`` lists each path written) are those of USEBIO 1.2 for team events,
as two independent implementations of the 1.2 document (usebio.org, ``usebio-1.2.pdf``) use
them: Marc Shearer's ImportUsebio reader (github marcshearer/ImportUsebio, ``Usebio
Parser.swift``: ``MATCH`` > ``ROUND_NUMBER``, ``TEAM``, ``OPPOSING_TEAM``, ``TEAM_SCORE``,
``OPPOSING_TEAM_SCORE``, ``BOARD`` > ``TRAVELLER_LINE`` > ``DIRECTION``; ``TEAM`` with
``TEAM_ID``/``TEAM_NAME`` attributes; ``MATCH_SCORING_METHOD``; event types ``TEAMS``,
``SWISS_TEAMS``) and a Swiss-teams generator that cites the 1.2 document (the same names,
``BOARD EVENT_TYPE=...`` > ``BOARD_NUMBER``, ``IMPS`` the first team's net IMPs). No
``TEAM_IMPS`` or ``*_VICTORY_POINTS`` element exists: a match has one score per team, in the
unit ``MATCH_SCORING_METHOD`` names (``VPS``; ``IMPS`` for IMP-scored matches), and its IMPs
are the sum of its boards' ``IMPS``.

Layout: ``USEBIO Version="1.2"`` > ``CLUB`` > ``EVENT EVENT_TYPE="TEAMS"`` (``SWISS_TEAMS``
for a Swiss event) with ``EVENT_DESCRIPTION``, ``PROGRAM_NAME``, ``PROGRAM_VERSION``,
``WINNER_TYPE`` 1, ``DATE``, ``SESSION_COUNT``, ``BOARD_SCORING_METHOD`` (``IMPS``, ``BAM``),
``MATCH_SCORING_METHOD`` (``VPS``, ``IMPS``, ``BAM``), then

* ``PARTICIPANTS/TEAM TEAM_ID=.. TEAM_NAME=..``: the team's own number as ``TEAM_ID`` when
  every team is known by a whole number (Ruter's ``TeamId``), else 1, 2 ... in the order of
  the standings; ``TEAM_NAME`` the name (the part of the roster text before ``: ``, else the
  team); ``TOTAL_SCORE`` (the match scores' total, VPs), ``PLACE`` (``3=`` for a tie),
  ``PLAYER/PLAYER_NAME`` from the roster (names separated by `` - ``, ``, `` or `` & ``);
* ``MATCH`` per match: ``ROUND_NUMBER``, ``TEAM`` (the home team's id), ``OPPOSING_TEAM``,
  ``TEAM_SCORE``/``OPPOSING_TEAM_SCORE``, then ``BOARD`` (``BOARD_NUMBER``, ``IMPS`` the home
  team's) with one ``TRAVELLER_LINE`` per room: ``DIRECTION`` where the home team sat (``NS``
  in the open room), ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE`` (NS's);
* ``HANDSET/BOARD/HAND`` when the event has one set of deals.

A match not played has no scores; an event read from match totals only (Ruter) has matches
without boards, so its match IMPs are not in the file (USEBIO has no element for them).
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.io.atomic import atomic_path
from bridgeproc.model import TeamsSession
from bridgeproc.report.usebio import add_element, document, event_head, handset, number_text, number_texts, usebio_date
from bridgeproc.schema import records

__all__ = ["usebio_teams_text", "write_usebio_teams", "EVENT_TYPE", "ELEMENTS", "team_ids", "roster_players"]

EVENT_TYPE = "TEAMS"
#: TeamsOptions.scoring -> (BOARD_SCORING_METHOD, MATCH_SCORING_METHOD, the match column of each side's score).
SCORING = {"vp": ("IMPS", "VPS", "vp"), "imps": ("IMPS", "IMPS", "margin"), "bam": ("BAM", "BAM", "bam")}
#: Every element path this writer can write (attributes after ``@``).
ELEMENTS = frozenset({
    "USEBIO", "USEBIO/@Version", "USEBIO/CLUB", "USEBIO/CLUB/CLUB_NAME", "USEBIO/CLUB/CLUB_ID_NUMBER",
    "USEBIO/EVENT", "USEBIO/EVENT/@EVENT_TYPE",
    *(f"USEBIO/EVENT/{tag}" for tag in ("EVENT_DESCRIPTION", "PROGRAM_NAME", "PROGRAM_VERSION", "WINNER_TYPE", "DATE",
                                        "SESSION_COUNT", "BOARD_SCORING_METHOD", "MATCH_SCORING_METHOD",
                                        "PARTICIPANTS", "PARTICIPANTS/@EVENT_TYPE", "MATCH")),
    *(f"USEBIO/EVENT/PARTICIPANTS/TEAM{tail}" for tail in ("", "/@TEAM_ID", "/@TEAM_NAME", "/TOTAL_SCORE", "/PLACE",
                                                         "/PLAYER", "/PLAYER/PLAYER_NAME")),
    *(f"USEBIO/EVENT/MATCH/{tag}" for tag in ("ROUND_NUMBER", "TEAM", "OPPOSING_TEAM", "TEAM_SCORE",
                                              "OPPOSING_TEAM_SCORE", "BOARD", "BOARD/@EVENT_TYPE", "BOARD/BOARD_NUMBER",
                                              "BOARD/IMPS", "BOARD/TRAVELLER_LINE")),
    *(f"USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/{tag}" for tag in ("DIRECTION", "CONTRACT", "PLAYED_BY", "LEAD",
                                                                   "TRICKS", "SCORE")),
    "USEBIO/HANDSET", "USEBIO/HANDSET/BOARD", "USEBIO/HANDSET/BOARD/BOARD_NUMBER",
    "USEBIO/HANDSET/BOARD/VULNERABILITY", "USEBIO/HANDSET/BOARD/HAND",
    *(f"USEBIO/HANDSET/BOARD/HAND/{tag}" for tag in ("DIRECTION", "CLUBS", "DIAMONDS", "HEARTS", "SPADES")),
})
_PLAYER_SEPARATORS = re.compile(r"\s+-\s+|\s*&\s*|\s*,\s*|\s*;\s*")


def _teams(session: TeamsSession) -> list[str]:
    """Every team: the standings' order, then any team met only in the matches."""
    names = [str(t) for t in session.standings["team"]] if len(session.standings) else []
    for side in ("home", "away"):
        names += [str(t) for t in session.matches[side]] if len(session.matches) else []
    return list(dict.fromkeys(names))


def team_ids(teams: list[str]) -> dict[str, str]:
    """Team -> TEAM_ID: its own number when every team is a whole number (1 or more, no two alike),
    else 1, 2 ... in the order given."""
    if teams and all(re.fullmatch(r"[1-9]\d*", t) for t in teams) and len({int(t) for t in teams}) == len(teams):
        return {t: t for t in teams}
    return {t: str(number) for number, t in enumerate(teams, start=1)}


def roster_players(text: str) -> list[str]:
    """The players of a roster text (``Ann - Bob - Cy``, ``Ann, Bob``, ``Ann & Bob``)."""
    return [p for p in _PLAYER_SEPARATORS.split(text.strip()) if p]


def _name_and_players(team: str, session: TeamsSession, standing: object) -> tuple[str, list[str]]:
    """(TEAM_NAME, players) from the event's names (``NAME: roster``) or the standings' names column."""
    text = session.names.get(team) if session.names else None
    if text is None and standing is not None and not pd.isna(getattr(standing, "names", None)):
        text = str(getattr(standing, "names"))
    if not text:
        return team, []
    name, colon, roster = str(text).partition(": ")
    if not colon:
        return (team, roster_players(name)) if name != team else (team, [])
    return name.strip() or team, roster_players(roster)


def _participants(event: ET.Element, session: TeamsSession, ids: dict[str, str], event_type: str) -> None:
    block = ET.SubElement(event, "PARTICIPANTS", {"EVENT_TYPE": event_type})
    standing = {str(row.team): row for row in records(session.standings)} if len(session.standings) else {}
    kind = "vp" if session.options.scoring == "vp" else "imp"
    totals = dict(zip(session.standings["team"].astype("string"), number_texts(session.standings["total"], kind, len(
        session.standings)))) if len(session.standings) else {}  # the column as every output shows it
    for team, number in ids.items():
        row = standing.get(team)
        name, players = _name_and_players(team, session, row)
        node = ET.SubElement(block, "TEAM", {"TEAM_ID": number, "TEAM_NAME": name})
        if row is not None:
            add_element(node, "TOTAL_SCORE", totals.get(team))
            add_element(node, "PLACE", row.rank)
        numbers = {name: (national, club) for name, national, club in session.members.get(team, ())}
        for player in players:
            element = ET.SubElement(node, "PLAYER")
            add_element(element, "PLAYER_NAME", player)
            national, club = numbers.get(player, ("", ""))
            add_element(element, "CLUB_ID_NUMBER", club or None)
            add_element(element, "NATIONAL_ID_NUMBER", national or None)


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


def _text(value: object) -> object:
    return None if value is None or pd.isna(value) else value


def _matches(event: ET.Element, session: TeamsSession, ids: dict[str, str], event_type: str, score: str) -> None:
    lines = _lines(session.results)
    boards = session.boards
    kind = "vp" if score == "vp" else "imp"
    both = [session.matches.get(f"{score}_{side}") for side in ("home", "away")]
    shown = [number_texts(column if column is not None else np.nan, kind, len(session.matches)) for column in both]
    for at, match in enumerate(records(session.matches)):
        node = ET.SubElement(event, "MATCH")
        add_element(node, "ROUND_NUMBER", match.round)
        add_element(node, "TEAM", ids[str(match.home)])
        add_element(node, "OPPOSING_TEAM", ids[str(match.away)])
        add_element(node, "TEAM_SCORE", shown[0][at])
        add_element(node, "OPPOSING_TEAM_SCORE", shown[1][at])
        played = lines[lines["match"] == str(match.match)]
        swings = boards[boards["match"] == match.match] if len(boards) else boards
        imps = dict(zip(swings["board"], swings["imps_home"])) if len(swings) else {}
        for number, rooms in played.groupby("board", sort=True):
            board = ET.SubElement(node, "BOARD", {"EVENT_TYPE": event_type})
            add_element(board, "BOARD_NUMBER", int(number))
            add_element(board, "IMPS", number_text(imps.get(number)))
            for line in records(rooms.sort_values("direction", ascending=False)):
                row = ET.SubElement(board, "TRAVELLER_LINE")
                add_element(row, "DIRECTION", line.direction)
                add_element(row, "CONTRACT", _text(line.contract))
                if line.played:
                    add_element(row, "PLAYED_BY", _text(line.declarer))
                    add_element(row, "LEAD", _text(line.lead))
                    add_element(row, "TRICKS", _text(line.tricks))
                add_element(row, "SCORE", _text(line.score))


def usebio_teams_text(session: TeamsSession) -> str:
    """The USEBIO 1.2 document of a scored teams event, as text (UTF-8 declared)."""
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    swiss = session.options.format == "swiss"
    event_type = "SWISS_TEAMS" if swiss else EVENT_TYPE
    board_method, match_method, score = SCORING.get(session.options.scoring, SCORING["vp"])
    root = ET.Element("USEBIO", {"Version": "1.2"})
    event = event_head(root, meta, event_type)
    add_element(event, "WINNER_TYPE", 1)
    add_element(event, "DATE", usebio_date(meta.get("date")))
    add_element(event, "SESSION_COUNT", 1)
    add_element(event, "BOARD_SCORING_METHOD", board_method)
    add_element(event, "MATCH_SCORING_METHOD", match_method)
    ids = team_ids(_teams(session))
    _participants(event, session, ids, event_type)
    _matches(event, session, ids, event_type, score)
    if session.deals is not None and len(session.deals):
        handset(root, {int(b["board"]): b for b in session.deals.to_dict("records")})
    return document(root)


def write_usebio_teams(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write ``session`` as a USEBIO 1.2 XML file at ``path`` (atomically; see :func:`usebio_teams_text`)."""
    text = usebio_teams_text(session)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
