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
  ``PLAYER/PLAYER_NAME`` from the roster (names separated by `` - ``, ``, `` or `` & ``); when the
  inputs say who sat at each table (a PBN room game's North ... West tags, RealBridge's
  ``Name#member``; a USEBIO file's ``1-3-4`` pairs), ``PAIR`` per pair that played instead, as
  TeamsScorer writes it: ``PAIR_NUMBER`` ``team-i-j`` (the team's id and its players' places in
  the team's list), and the pair's ``PLAYER`` s with ``NATIONAL_ID_NUMBER``;
* ``MATCH`` per match: ``ROUND_NUMBER``, ``TEAM`` (the home team's id), ``OPPOSING_TEAM``,
  ``TEAM_SCORE``/``OPPOSING_TEAM_SCORE``, then ``BOARD`` (``BOARD_NUMBER``, ``IMPS`` the home
  team's) with one ``TRAVELLER_LINE`` per room: ``DIRECTION`` where the home team sat (``NS``
  in the open room), ``NS_PAIR_NUMBER``/``EW_PAIR_NUMBER`` (the pairs above, when known),
  ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE`` (NS's);
* ``HANDSET/BOARD/HAND`` when the event has one set of deals.

A match not played has no scores; an event read from match totals only (Ruter) has matches
without boards, so its match IMPs are not in the file (USEBIO has no element for them).
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
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
                                                         "/MASTER_POINTS", "/MASTER_POINTS/MASTER_POINTS_AWARDED",
                                                         "/MASTER_POINTS/MASTER_POINT_TYPE",
                                                         "/PLAYER", "/PLAYER/PLAYER_NAME", "/PLAYER/CLUB_ID_NUMBER",
                                                         "/PLAYER/NATIONAL_ID_NUMBER", "/PAIR", "/PAIR/PAIR_NUMBER",
                                                         "/PAIR/PLAYER", "/PAIR/PLAYER/PLAYER_NAME",
                                                         "/PAIR/PLAYER/CLUB_ID_NUMBER",
                                                         "/PAIR/PLAYER/NATIONAL_ID_NUMBER")),
    *(f"USEBIO/EVENT/MATCH/{tag}" for tag in ("ROUND_NUMBER", "TEAM", "OPPOSING_TEAM", "TEAM_SCORE",
                                              "OPPOSING_TEAM_SCORE", "BOARD", "BOARD/@EVENT_TYPE", "BOARD/BOARD_NUMBER",
                                              "BOARD/IMPS", "BOARD/TRAVELLER_LINE")),
    *(f"USEBIO/EVENT/MATCH/BOARD/TRAVELLER_LINE/{tag}" for tag in ("DIRECTION", "NS_PAIR_NUMBER", "EW_PAIR_NUMBER",
                                                                   "CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE")),
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


#: A player named with their member number, as RealBridge writes a seat (``Markus Knob#39415``).
_MEMBER = re.compile(r"^(?P<name>.*?\S)\s*#\s*(?P<number>\d{1,12})$")
#: A pair named by its team and its players' places in the team's list (TeamsScorer's ``1-3-4``).
_PLACED_PAIR = re.compile(r"^\d+-(\d{1,3})-(\d{1,3})$")
_SEATS = {"ns": ("North", "South"), "ew": ("East", "West")}
_NO_PLAYER = ("", "?", "-")


@dataclass
class TablePlayers:
    """Who sat at each table, where the inputs say: each team's players in order (name, member
    number, club number), the pairs each team played (``team-i-j`` -> places), and the pair number
    of each result row's NS and EW (None where unknown)."""

    players: dict[str, list[list[str]]]
    pairs: dict[str, dict[str, tuple[int, ...]]]
    ns: list[str | None]
    ew: list[str | None]

    def place(self, team: str, name: str, number: str = "") -> int:
        """The 1-based place of ``name`` in ``team``'s list (added at its end when new)."""
        roster = self.players.setdefault(team, [])
        for at, (known, national, _) in enumerate(roster, start=1):
            if known == name:
                if number and not national:
                    roster[at - 1][1] = number
                return at
        roster.append([name, number, ""])
        return len(roster)


def _seated(game, seats: tuple[str, str]) -> list[tuple[str, str]] | None:
    """(name, member number) of the two seats of a PBN game, None when either is not named."""
    out = []
    for seat in seats:
        tag = game.tag(seat) if hasattr(game, "tag") else None  # NaN where the row has no game
        text = (tag.value or "").strip() if tag is not None else ""
        if text in _NO_PLAYER:
            return None
        m = _MEMBER.match(text)
        out.append((m.group("name"), m.group("number")) if m else (text, ""))
    return out


def table_players(session: TeamsSession, ids: dict[str, str]) -> TablePlayers:
    """The players at each table of ``session`` (:class:`TablePlayers`), from the room games' seats or the
    pairs a USEBIO file numbered by places in the team's list; each team's list starts with its roster."""
    known = TablePlayers({}, {}, [], [])
    for team in ids:
        standing = session.standings[session.standings["team"].astype(str) == team] if len(session.standings) else None
        row = next(iter(records(standing)), None) if standing is not None and len(standing) else None
        numbers = {n: (national, club) for n, national, club in session.members.get(team, ())}
        for name in _name_and_players(team, session, row)[1]:
            known.players.setdefault(team, []).append([name, *numbers.get(name, ("", ""))])
    results = session.results
    if not len(results) or "ns_team" not in results:
        return known
    games = results["game"] if "game" in results else pd.Series(None, index=results.index, dtype="object")
    for side, out in (("ns", known.ns), ("ew", known.ew)):
        written = results[f"{side}_pair"].astype("string") if f"{side}_pair" in results else \
            pd.Series(pd.NA, index=results.index, dtype="string")
        for team, game, pair in zip(results[f"{side}_team"].astype(str), games, written):
            seated = _seated(game, _SEATS[side])
            places: tuple[int, ...] | None = None
            if seated is not None:
                places = tuple(sorted(known.place(team, name, number) for name, number in seated))
            elif not pd.isna(pair) and _PLACED_PAIR.match(str(pair)) and team in known.players:
                m = _PLACED_PAIR.match(str(pair))
                assert m is not None
                places = tuple(int(g) for g in m.groups())
                if not all(1 <= p <= len(known.players[team]) for p in places):
                    places = None
            if places is None or team not in ids:
                out.append(None)
                continue
            number = f"{ids[team]}-" + "-".join(str(p) for p in places)
            known.pairs.setdefault(team, {})[number] = places
            out.append(number)
    return known


def _player(parent: ET.Element, name: str, national: str, club: str) -> None:
    element = ET.SubElement(parent, "PLAYER")
    add_element(element, "PLAYER_NAME", name)
    add_element(element, "CLUB_ID_NUMBER", club or None)
    add_element(element, "NATIONAL_ID_NUMBER", national or None)


def _participants(event: ET.Element, session: TeamsSession, ids: dict[str, str], event_type: str,
                  seated: TablePlayers) -> None:
    block = ET.SubElement(event, "PARTICIPANTS", {"EVENT_TYPE": event_type})
    standing = {str(row.team): row for row in records(session.standings)} if len(session.standings) else {}
    kind = "vp" if session.options.scoring == "vp" else "imp"
    totals = dict(zip(session.standings["team"].astype("string"), number_texts(session.standings["total"], kind, len(
        session.standings)))) if len(session.standings) else {}  # the column as every output shows it
    for team, number in ids.items():
        row = standing.get(team)
        name, _ = _name_and_players(team, session, row)
        node = ET.SubElement(block, "TEAM", {"TEAM_ID": number, "TEAM_NAME": name})
        if row is not None:
            add_element(node, "TOTAL_SCORE", totals.get(team))
            add_element(node, "PLACE", row.rank)
            awarded = getattr(row, "masterpoints", None)
            if awarded is not None and not pd.isna(awarded) and awarded > 0:  # as TeamsScorer writes it
                points = ET.SubElement(node, "MASTER_POINTS")
                add_element(points, "MASTER_POINTS_AWARDED", f"{float(awarded):g}")
                add_element(points, "MASTER_POINT_TYPE", session.meta.get("masterpoint_type") or None)
        roster = seated.players.get(team, [])
        pairs = seated.pairs.get(team, {})
        for number, places in pairs.items():  # the pairs that played (TeamsScorer's layout)
            pair = ET.SubElement(node, "PAIR")
            add_element(pair, "PAIR_NUMBER", number)
            for place in places:
                _player(pair, *roster[place - 1])
        in_pairs = {p for places in pairs.values() for p in places}
        for place, (player, national, club) in enumerate(roster, start=1):
            if place not in in_pairs:  # the roster's players who sat at no named table
                _player(node, player, national, club)


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


def _matches(event: ET.Element, session: TeamsSession, ids: dict[str, str], event_type: str, score: str,
             seated: TablePlayers) -> None:
    lines = _lines(session.results)
    if len(lines) and len(seated.ns) == len(lines):
        lines = lines.assign(ns_pair=seated.ns, ew_pair=seated.ew)
    else:
        lines = lines.assign(ns_pair=None, ew_pair=None)
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
                add_element(row, "NS_PAIR_NUMBER", line.ns_pair)
                add_element(row, "EW_PAIR_NUMBER", line.ew_pair)
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
    seated = table_players(session, ids)
    _participants(event, session, ids, event_type, seated)
    _matches(event, session, ids, event_type, score, seated)
    if session.deals is not None and len(session.deals):
        handset(root, {int(b["board"]): b for b in session.deals.to_dict("records")})
    return document(root)


def write_usebio_teams(session: TeamsSession, path: str | os.PathLike) -> None:
    """Write ``session`` as a USEBIO 1.2 XML file at ``path`` (see :func:`usebio_teams_text`)."""
    text = usebio_teams_text(session)
    Path(path).write_text(text, encoding="utf-8", newline="\n")
