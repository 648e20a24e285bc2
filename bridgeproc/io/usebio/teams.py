"""USEBIO 1.2 team events -> raw frames for ``bridgeproc.teams`` (``read_usebio_teams``).

Layout read (the names are USEBIO 1.2's for team events; where they come from is in
``bridgeproc.report.usebio_teams``): ``EVENT`` (``EVENT_TYPE`` ``TEAMS``, ``SWISS_TEAMS``,
``TEAMS_OF_FOUR`` ..., ``MATCH_SCORING_METHOD``) holding, also inside ``SESSION``/``SECTION``:

* ``PARTICIPANTS/TEAM``: ``TEAM_ID`` and ``TEAM_NAME`` (attributes or elements), ``PLACE``,
  ``TOTAL_SCORE``, ``PLAYER/PLAYER_NAME``;
* ``MATCH``: ``ROUND_NUMBER``, ``TEAM`` and ``OPPOSING_TEAM`` (team ids), ``TEAM_SCORE`` and
  ``OPPOSING_TEAM_SCORE`` (in the unit of ``MATCH_SCORING_METHOD``), ``BOARD`` (``BOARD_NUMBER``,
  ``IMPS`` the first team's) with a ``TRAVELLER_LINE`` per room whose ``DIRECTION`` says where
  ``TEAM`` sat (``NS`` when absent);
* ``HANDSET/BOARD/HAND``: the hand record.

A team is known by its ``TEAM_NAME`` when every team has one and no two share it (so a file
bridgeproc wrote reads back with the teams it had), else by its ``TEAM_ID``. Every structural
problem is collected and raised at once as a ValidationError naming the file, the line and the
element path (``USEBIO/EVENT/MATCH[3]/OPPOSING_TEAM``): a team without its id, two teams with
one id, a match naming a team that is not among the participants or missing one, a board with
results outside every match. Elements that are not read are named in one note.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import BinaryIO

import pandas as pd

from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.text import read_source
from bridgeproc.io.usebio.layout import KNOWN_ELEMENTS, Tree, number_text
from bridgeproc.io.usebio.reader import add_board_hands, boards_from_hands, event_meta
from bridgeproc.io.usebio.travellers import board_number, line_row, passout_notes, unused_score_notes
from bridgeproc.io.usebio.xml_tree import Node, parse_tree
from bridgeproc.schema import problems_frame

__all__ = ["UsebioTeams", "parse_usebio_teams", "read_usebio_teams", "LINE_COLUMNS", "MATCH_COLUMNS", "TEAM_COLUMNS",
           "PAIR_COLUMNS"]

#: Raw result columns (text), then ``source``, ``line``: one row per TRAVELLER_LINE of a MATCH.
LINE_COLUMNS = ["round", "board", "contract", "declarer", "result", "lead", "score", "ns", "ew", "ns_team", "ew_team",
                "home", "away", "imps", "ximp_ns", "ximp_ew"]
#: Match columns (text), then ``source``, ``line``: one row per MATCH, teams as the frames name them.
MATCH_COLUMNS = ["round", "home", "away", "home_score", "away_score", "boards", "imps_home", "imps_away"]
#: Team columns (text), then ``source``, ``line``.
TEAM_COLUMNS = ["team", "team_id", "team_name", "place", "total", "masterpoints", "players", "members"]
#: Pair columns (text), then ``source``, ``line``: one row per ``TEAM/PAIR`` (TeamsScorer's pairwise figures).
PAIR_COLUMNS = ["team", "pair", "boards_played", "pair_imps", "players"]
#: Elements of USEBIO team events beyond those the pairs reader knows.
TEAM_ELEMENTS = frozenset({"TEAM_SCORE", "OPPOSING_TEAM_SCORE", "MATCH_SCORING_METHOD", "START_BOARD_NUMBER",
                           "END_BOARD_NUMBER", "BOARDS_PLAYED", "BOARDS_PER_ROUND", "WINS_OR_DRAWS"})
#: Elements read, or known to hold nothing the results need; any other is named in a note.
#: Pairwise elements of a teams event that are read (TeamsScorer: ``PAIRWISE_SCORING_METHOD`` CROSS_IMPS).
_PAIRWISE = frozenset({"PAIRWISE_SCORING_METHOD", "PAIR_IMPS", "TEAM_PAIRING_AVAILABLE"})
_KNOWN = KNOWN_ELEMENTS | TEAM_ELEMENTS | _PAIRWISE
#: Pair-event elements that a teams file may carry but the teams reader does not read.
_NOT_READ = frozenset({"NS_MATCH_POINTS", "EW_MATCH_POINTS", "NS_IMPS", "EW_IMPS", "NS_BUTLER_POINTS",
                       "EW_BUTLER_POINTS", "PERCENTAGE"})


@dataclass
class UsebioTeams:
    """A parsed USEBIO team event.

    results  LINE_COLUMNS + ``source``, ``line``: each room's result, with the pairs as written
             (``ns``/``ew``: ``1-3-4``, or the teams in bridgeproc's own files), ``ns_team``/``ew_team``
             and the match's ``home`` (``TEAM``) and ``away`` (``OPPOSING_TEAM``); ``imps`` the
             board's published ``IMPS`` for ``home``
    matches  MATCH_COLUMNS + ``source``, ``line``: the published match scores (``home_score`` =
             ``TEAM_SCORE``), the number of boards, and the IMPs each team won on them
             (NaN-text ``None`` for a match without boards)
    teams    TEAM_COLUMNS + ``source``, ``line``: ``team`` the name the frames use, the published
             ``place`` and ``total``, ``players`` joined with `` - ``
    pairs    PAIR_COLUMNS + ``source``, ``line``: each team's pairs as the file names them (``1-3-4``)
             with their published ``PAIR_IMPS`` (empty when the file has no ``PAIR``)
    boards   schema.BOARDS_COLUMNS: the hand record
    meta     as :class:`bridgeproc.io.usebio.reader.UsebioFile` (``event``, ``date``, ``club``,
             ``event_type``, ``program`` ...) plus ``match_scoring_method``
    notes    problems-columns dicts: elements not read, pass-outs written with a declarer
    """

    results: pd.DataFrame
    matches: pd.DataFrame
    teams: pd.DataFrame
    boards: pd.DataFrame
    meta: dict[str, str]
    source: str = "<string>"
    pairs: pd.DataFrame = field(default_factory=lambda: _frame([], PAIR_COLUMNS))
    notes: list[dict] = field(default_factory=list)


def _path(tree: Tree, node: Node, child: str | None = None) -> str:
    """``USEBIO/EVENT/MATCH[3]/TEAM``: the element's path, numbering an element among its like siblings."""
    parts = []
    at: Node | None = node
    while at is not None:
        parent = tree.parent.get(id(at))
        like = [c for c in parent.children if c.tag == at.tag] if parent is not None else [at]
        parts.append(f"{at.tag}[{like.index(at) + 1}]" if len(like) > 1 else at.tag)
        at = parent
    return "/".join(reversed(parts)) + (f"/{child}" if child else "")


class _Problems:
    """Problems of one file, each with its line and element path."""

    def __init__(self, tree: Tree, source: str) -> None:
        self.tree, self.source, self.rows = tree, source, []  # type: ignore[var-annotated]

    def add(self, node: Node, column: str, value: object, message: str, child: str | None = None) -> None:
        where = node.find(child) if child else None
        self.rows.append({"source": self.source, "line": str((where or node).line), "column": column,
                          "value": "" if value is None else str(value),
                          "message": f"{_path(self.tree, node, child)}: {message}"})

    def number(self, node: Node, tag: str, kind: type = float) -> str | None:
        """``number_text`` with its ParseError kept as a problem (None then)."""
        try:
            return number_text(node, tag, self.source, kind)
        except ParseError as exc:
            self.add(node, tag.lower(), node.value(tag), exc.message, tag)
            return None


def _awards_of(node: Node) -> Node:
    """Where a team's award is written: its ``MASTER_POINTS`` (the USEBIO layout), else the team itself."""
    wrapper = node.find("MASTER_POINTS")
    return wrapper if wrapper is not None else node


def _teams(tree: Tree, problems: _Problems) -> tuple[dict[str, str], list[dict]]:
    """(TEAM_ID -> team as named in the frames, team rows)."""
    nodes = [n for n in tree.nodes if n.tag == "TEAM" and tree.inside(n, "PARTICIPANTS")
             and not tree.inside(n, "MATCH")]
    rows: list[dict] = []
    seen: dict[str, Node] = {}
    for node in nodes:
        team_id = node.value("TEAM_ID") or node.value("TEAM_NUMBER")
        if team_id is None:
            problems.add(node, "team", node.value("TEAM_NAME"), "a <TEAM> without its TEAM_ID; give every team its "
                         "number (TEAM_ID=\"1\"), the matches name the teams by it")
            continue
        if team_id in seen:
            problems.add(node, "team", team_id, f"TEAM_ID {team_id} is also the id of the team on line "
                         f"{seen[team_id].line}; give each team its own number")
            continue
        seen[team_id] = node
        # each player's member and club numbers (written again by report.usebio_teams); a player in two of
        # the team's PAIRs (the team's six played in other pairs) is one player
        members = tuple(dict.fromkeys((p.value("PLAYER_NAME") or p.value("NAME") or "",
                                       p.value("NATIONAL_ID_NUMBER") or "", p.value("CLUB_ID_NUMBER") or "")
                                      for p in node.iter("PLAYER")))
        players = [m[0] for m in members]
        rows.append({"team_id": team_id, "team_name": node.value("TEAM_NAME"), "place": node.value("PLACE"),
                     "total": problems.number(node, "TOTAL_SCORE"),
                     "masterpoints": problems.number(_awards_of(node), "MASTER_POINTS_AWARDED"),
                     "players": " - ".join(p for p in players if p) or None,
                     # text, as every cell of the frame: JSON of [[name, member number, club number], ...]
                     "members": json.dumps([m for m in members if m[1] or m[2]], ensure_ascii=False)
                     if any(m[1] or m[2] for m in members) else None,
                     "source": problems.source, "line": str(node.line)})
    names = [r["team_name"] for r in rows]
    by_name = all(names) and len(set(names)) == len(names)
    for row in rows:
        row["team"] = row["team_name"] if by_name else row["team_id"]
    return {r["team_id"]: r["team"] for r in rows}, rows


def _pairs(tree: Tree, problems: _Problems, teams: dict[str, str]) -> list[dict]:
    """Each ``TEAM/PAIR`` with its number and published ``PAIR_IMPS`` (TeamsScorer's pairwise cross-IMPs)."""
    rows = []
    for team in (n for n in tree.nodes if n.tag == "TEAM" and tree.inside(n, "PARTICIPANTS")):
        team_id = team.value("TEAM_ID") or team.value("TEAM_NUMBER")
        for pair in (c for c in team.children if c.tag == "PAIR"):
            players = [p.value("PLAYER_NAME") or "" for p in pair.iter("PLAYER")]
            rows.append({"team": teams.get(team_id or "", team_id), "pair": pair.value("PAIR_NUMBER"),
                         "boards_played": problems.number(pair, "BOARDS_PLAYED", int),
                         "pair_imps": problems.number(pair, "PAIR_IMPS"),
                         "players": " - ".join(p for p in players if p) or None,
                         "source": problems.source, "line": str(pair.line)})
    return rows


def _match_team(match: Node, tags: tuple[str, ...], teams: dict[str, str], problems: _Problems,
                side: str) -> str | None:
    """The team a MATCH names under the first of ``tags`` present (a problem if absent or unknown)."""
    tag = next((t for t in tags if match.value(t) is not None), None)
    if tag is None:
        problems.add(match, side, None, f"<MATCH> without <{tags[0]}>: say which team played it (its TEAM_ID)")
        return None
    team_id = match.value(tag)
    if team_id not in teams:
        known = ", ".join(sorted(teams, key=lambda t: (len(t), t))) or "none"
        problems.add(match, side, team_id, f"team {team_id} is not among the PARTICIPANTS (TEAM_ID {known}); "
                     "correct the number or add the team", tag)
        return None
    return teams[team_id]


#: A traveller line's pair named ``team-seat-seat`` (TeamsScorer, EBUScoreTeams: ``1-3-4`` is team 1's
#: players 3 and 4): the pair's team is the leading number.
_TEAM_SEATS = re.compile(r"^\s*(?P<team>\d+)-\d+-\d+\s*$")


def _line_teams(line: Node, row: dict, sat: str, home: str, away: str, ids: dict[str, str],
                problems: _Problems) -> tuple[str | None, str | None]:
    """(NS team, EW team) of one room: the pair numbers when they are the teams (bridgeproc's own files),
    else the match's ``TEAM`` at the side ``DIRECTION`` names, the pairs' team numbers checked against it."""
    ns_team, ew_team = (away, home) if sat in ("EW", "E", "W") else (home, away)
    pairs = {"NS_PAIR_NUMBER": row["ns"], "EW_PAIR_NUMBER": row["ew"]}
    if set(pairs.values()) <= {home, away, None}:
        return row["ns"] or ns_team, row["ew"] or ew_team
    for (tag, pair), team in zip(pairs.items(), (ns_team, ew_team)):
        m = _TEAM_SEATS.match(pair or "")
        if m is not None and m.group("team") != ids.get(team, team):
            problems.add(line, tag.lower(), pair, f"pair {pair} is team {m.group('team')}'s, but DIRECTION "
                         f"{sat} puts team {ids.get(team, team)} there; correct the DIRECTION or the pair", tag)
        elif m is None and pair is not None:
            problems.add(line, tag.lower(), pair, f"pair {pair} is neither team of the match ({home}, {away}) "
                         "nor a team's seats written team-seat-seat (1-3-4); correct the pair number", tag)
    return ns_team, ew_team


def _match(tree: Tree, match: Node, teams: dict[str, str], problems: _Problems, lines: list[dict]) -> dict | None:
    """One MATCH: its row, and its traveller lines appended to ``lines``."""
    ids = {name: team_id for team_id, name in teams.items()}
    home = _match_team(match, ("TEAM", "TEAM_ID", "NS_PAIR_NUMBER"), teams, problems, "home")
    away = _match_team(match, ("OPPOSING_TEAM", "OPPOSING_TEAM_ID", "EW_PAIR_NUMBER"), teams, problems, "away")
    if home is not None and home == away:
        problems.add(match, "away", away, f"<MATCH> has team {home} on both sides; correct OPPOSING_TEAM",
                     "OPPOSING_TEAM")
    rnd = problems.number(match, "ROUND_NUMBER", int)
    scores = {tag: problems.number(match, tag) for tag in ("TEAM_SCORE", "OPPOSING_TEAM_SCORE")}
    won_home = won_away = 0.0
    boards = 0
    for board in (b for b in match.iter("BOARD")):
        try:
            number = board_number(board, problems.source)
        except ParseError as exc:
            problems.add(board, "board", board.value("BOARD_NUMBER"), exc.message, "BOARD_NUMBER")
            continue
        imps = problems.number(board, "IMPS")
        boards += 1
        if imps is not None:
            won_home += max(float(imps), 0.0)
            won_away += max(-float(imps), 0.0)
        for line in (n for n in board.children if n.tag == "TRAVELLER_LINE"):
            sat = (line.value("DIRECTION") or "NS").upper().replace("-", "").replace("/", "")
            if sat not in ("NS", "EW", "N", "S", "E", "W"):
                problems.add(line, "direction", sat, "<DIRECTION> says where the match's TEAM sat: write NS or EW",
                             "DIRECTION")
                continue
            if home is None or away is None:
                continue
            row = line_row(line, number, "", "", problems.source, {"team": home, "opposing_team": away})
            ns_team, ew_team = _line_teams(line, row, sat, home, away, ids, problems)
            lines.append({**row, "round": rnd, "ns_team": ns_team, "ew_team": ew_team, "home": home,
                          "away": away, "imps": imps, "ximp_ns": problems.number(line, "NS_CROSS_IMP_POINTS"),
                          "ximp_ew": problems.number(line, "EW_CROSS_IMP_POINTS")})
    if home is None or away is None:
        return None
    return {"round": rnd, "home": home, "away": away, "home_score": scores["TEAM_SCORE"],
            "away_score": scores["OPPOSING_TEAM_SCORE"], "boards": str(boards),
            "imps_home": str(won_home) if boards else None, "imps_away": str(won_away) if boards else None,
            "source": problems.source, "line": str(match.line)}


def _strays(tree: Tree, problems: _Problems) -> None:
    """Boards with results outside every MATCH: in a team event a result belongs to its match."""
    for board in (n for n in tree.nodes if n.tag == "BOARD"):
        if tree.inside(board, "MATCH") or tree.inside(board, "HANDSET"):
            continue
        if any(c.tag == "TRAVELLER_LINE" for c in board.children):
            problems.add(board, "board", board.value("BOARD_NUMBER"), "a <BOARD> with results outside every "
                         "<MATCH>: a team event gives each board inside the match it was played in (TEAM and "
                         "OPPOSING_TEAM); export the teams event again, or score a pairs file with bridgeproc score")


def _unknown_note(tree: Tree, source: str) -> list[dict]:
    """One note naming the elements not read (unknown to USEBIO, or pair-event points)."""
    found: dict[str, list[int]] = {}
    for node in tree.nodes:
        if node.tag not in _KNOWN or node.tag in _NOT_READ:
            found.setdefault(node.tag, []).append(node.line)
    if not found:
        return []
    named = ", ".join(f"<{tag}> (line {lines[0]})" if len(lines) == 1 else
                      f"<{tag}> ({len(lines)} times, first on line {lines[0]})" for tag, lines in found.items())
    return [{"source": source, "line": str(min(v[0] for v in found.values())), "column": "",
             "value": ", ".join(found), "message": f"elements not read for a teams event: {named}; check that "
             "they hold nothing the results need"}]


def _frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    data = {c: pd.array([None if r.get(c) is None else str(r.get(c)) for r in rows], dtype="string")
            for c in [*columns, "source"]}
    data["line"] = pd.array([int(r["line"]) for r in rows], dtype="Int64")
    return pd.DataFrame(data)


def parse_usebio_teams(data: bytes | str, source: str = "<string>") -> UsebioTeams:
    """Parse a USEBIO team event (bytes: the XML declaration's encoding is honoured).

    Raises
    ------
    ParseError
        Not well-formed XML, a root other than ``USEBIO``, no ``EVENT``, no team matches.
    ValidationError
        Every structural problem at once (see the module text), each with the element path.
    """
    notes: list[dict] = []
    root = parse_tree(data, source, notes)
    if root.tag != "USEBIO":
        raise ParseError(source, root.line, f"the root element is <{root.tag}>, not <USEBIO>; "
                         "this is not a USEBIO results file (export the results as USEBIO XML)")
    event = root.find("EVENT")
    if event is None:
        raise ParseError(source, root.line, "<USEBIO> has no <EVENT>; the file holds no results")
    tree = Tree(root)
    problems = _Problems(tree, source)
    teams, team_rows = _teams(tree, problems)
    pair_rows = _pairs(tree, problems, teams)
    matches = [n for n in tree.nodes if n.tag == "MATCH"]
    if not matches and not team_rows:
        kind = event.value("EVENT_TYPE") or "no EVENT_TYPE"
        raise ParseError(source, event.line, f"<EVENT> ({kind}) has no <MATCH> and no teams: this is not a teams "
                         "event; score a pairs file with bridgeproc score")
    lines: list[dict] = []
    match_rows = [row for m in matches if (row := _match(tree, m, teams, problems, lines)) is not None]
    _strays(tree, problems)
    if problems.rows:
        raise ValidationError(problems_frame(problems.rows))
    hands: dict[int, dict] = {}
    for board in (n for n in tree.nodes if n.tag == "BOARD"):
        add_board_hands(board, str(board_number(board, source)), source, hands)
    notes.extend(_unknown_note(tree, source))
    notes.extend(unused_score_notes(lines, source))
    notes.extend(passout_notes(lines, source))
    meta = event_meta(root, event)
    for tag in ("MATCH_SCORING_METHOD", "PAIRWISE_SCORING_METHOD"):
        if event.value(tag):
            meta[tag.lower()] = str(event.value(tag)).upper()
    return UsebioTeams(_frame(lines, LINE_COLUMNS), _frame(match_rows, MATCH_COLUMNS), _frame(team_rows, TEAM_COLUMNS),
                       boards_from_hands(hands, source), meta, source, pairs=_frame(pair_rows, PAIR_COLUMNS), notes=notes)


def read_usebio_teams(path_or_file: str | os.PathLike | BinaryIO) -> UsebioTeams:
    """Read a USEBIO team event (a path or an open binary file); see :func:`parse_usebio_teams`."""
    data, source = read_source(path_or_file)
    return parse_usebio_teams(data, source)

