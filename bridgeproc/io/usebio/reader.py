"""USEBIO XML results files (EBU interchange format, versions 1.0-1.3) -> frames.

``read_usebio``/``parse_usebio`` return a :class:`UsebioFile` whose ``results`` is
the raw text frame every reader gives (see io.travellers): validate decodes the
contract and result text, so an odd cell is a listed problem, not a crash.

Layout read (bridge-scoring-reference.md section 10). Containers are the
``SECTION`` elements, else the ``SESSION`` elements, else ``EVENT`` itself, so
files with and without the wrappers read alike:

* ``PARTICIPANTS/PAIR`` (``PAIR_NUMBER``, ``DIRECTION``, ``PLACE``, ``PERCENTAGE``,
  ``TOTAL_SCORE``, ``PLAYER/PLAYER_NAME`` and ``NATIONAL_ID_NUMBER``) and
  ``PARTICIPANTS/TEAM`` (``TEAM_ID``/``TEAM_NAME`` as attributes or elements);
* ``BOARD/TRAVELLER_LINE`` of a pairs event (``NS_PAIR_NUMBER``, ``EW_PAIR_NUMBER``,
  ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE`` or ``NS_SCORE``/``EW_SCORE``,
  ``NS_MATCH_POINTS``/``EW_MATCH_POINTS``, ``NS_IMPS``/``EW_IMPS`` or Compscore's
  ``NS_BUTLER_POINTS``/``NS_CROSS_IMP_POINTS``, and the board's ``BOARD_AVERAGE``, the
  published Butler datum, as ``butlerdatum``);
* ``MATCH/BOARD/TRAVELLER_LINE`` of a teams event: ``TEAM`` and ``OPPOSING_TEAM`` of
  the match, the line's ``DIRECTION`` is where ``TEAM`` sat (``NS`` unless it says
  ``EW``), the board's ``IMPS`` are ``TEAM``'s (read as pair results here; the teams reader,
  ``io.usebio.teams``, reads the match with its teams and scores for ``bridgeproc.teams``);
* ``BOARD/HAND`` and ``HANDSET/BOARD/HAND`` (``DIRECTION``, ``SPADES`` ... ``CLUBS``)
  and ``VULNERABILITY`` -> the boards frame.

Exporters differ in the cell text (``4S``, ``4 S``, ``4Sx``, ``Pass``; ``TRICKS`` a
count or ``=``/``-1``): cells are kept as written. An artificial score written in
``SCORE`` (``A60``, ``AVE+``) with no contract becomes the contract cell, as in PBN.
Structure errors (not XML, another root, no EVENT, a board without a number, a
number that is not one) raise ParseError ``file:line: message``.

Producers' quirks (tests/data/realdata/README.md, "Compscore3 USEBIO exports"): the method
is in ``EVENT_TYPE`` (``MP_PAIRS``, ``BUTLER_PAIRS``, ``CROSS_IMP``; often an attribute)
with no ``BOARD_SCORING_METHOD``; the producer in ``PROGRAM_NAME``/``PROGRAM_VERSION``
(``meta["program"]`` picks its conventions); two-winner pair numbers ``1NS``/``1EW``
(read as pair 1 with its direction); a pass-out written ``PASS`` with a ``PLAYED_BY`` seat
and ``TRICKS`` 0 or empty (Compscore, ScoreBridge) is read as passed out, with a note in
``UsebioFile.notes``: the director cannot edit the export.

This module walks the file and reads the participants, hands and event; the elements known and
an element's place are ``io.usebio.layout``'s, the result lines ``io.usebio.travellers``'.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np
import pandas as pd

from bridgeproc.core.boards import dealer_of, vul_from_text, vul_of
from bridgeproc.errors import ParseError, ValidationError
from bridgeproc.io.text import read_source
from bridgeproc.io.usebio.layout import KNOWN_ELEMENTS, Place, Tree, directed_pair, number_text
from bridgeproc.io.usebio.travellers import (
    board_number,
    line_like,
    line_row,
    lines_of,
    match_info,
    passout_notes,
    unused_score_notes,
)
from bridgeproc.io.usebio.xml_tree import Node, parse_tree
from bridgeproc.schema import BOARDS_COLUMNS, problems_frame

__all__ = ["UsebioFile", "parse_usebio", "read_usebio", "usebio_from_tree", "hand_text", "boards_from_hands", "add_board_hands", "event_meta"]

#: Raw results columns, in order (after them: ``source``, ``line``).
RESULT_COLUMNS = ["section", "board", "ns", "ew", "contract", "declarer", "result", "lead", "score",
                  "mp_ns", "mp_ew", "imp_ns", "imp_ew", "butlerdatum", "session", "round", "team", "opposing_team"]
#: USEBIO BOARD_SCORING_METHOD -> PBN ``Scoring`` tag (so session picks the method).
SCORING_TAGS = {"MATCH_POINTS": "MatchPoints", "MATCHPOINTS": "MatchPoints", "MP": "MatchPoints",
                "CROSS_IMPS": "IMP;Cross", "CROSS_IMP": "IMP;Cross", "XIMPS": "IMP;Cross",
                "BUTLER": "IMP;Butler", "BUTLER_IMPS": "IMP;Butler", "IMPS": "IMP", "IMP": "IMP"}
#: USEBIO EVENT_TYPE (an element or, as Compscore writes it, an attribute of EVENT) -> Scoring tag.
#: Teams types are scored by the teams pipeline (no pairs method); unknown types name none.
#: A cross-IMP event type is ``IMP`` (cross-IMPs), not ``IMP;Cross``: it names the method, not how
#: the totals are formed, so the producer's conventions (Compscore's board averages) stand.
EVENT_TYPE_TAGS = {"MP_PAIRS": "MatchPoints", "PAIRS": "MatchPoints", "MATCH_POINTS": "MatchPoints",
                   "INDIVIDUAL": "MatchPoints", "BUTLER_PAIRS": "IMP;Butler", "BUTLER": "IMP;Butler",
                   "CROSS_IMP": "IMP", "CROSS_IMPS": "IMP", "CROSS_IMP_PAIRS": "IMP", "IMP_PAIRS": "IMP"}
_SEATS = {"N": "N", "NORTH": "N", "E": "E", "EAST": "E", "S": "S", "SOUTH": "S", "W": "W", "WEST": "W"}
_HAND_CHARS = re.compile(r"[^AKQJT2-9]")


@dataclass
class UsebioFile:
    """A parsed USEBIO file.

    results   raw text frame: RESULT_COLUMNS, ``source``, ``line`` (of the TRAVELLER_LINE)
    boards    schema.BOARDS_COLUMNS, one row per board with a hand record
    names     ``section, pair, direction, names, ids, club_ids, source, line`` (io.names layout;
              ``names`` joined with " & ", or the team name; ``ids`` the national ids, ``club_ids``
              the players' clubs' numbers)
    totals    published standings: ``section, pair, direction, place, percentage, total,
              masterpoints, names, source, line`` (text as written)
    meta      ``event``, ``date`` (``YYYY.MM.DD`` like PBN when readable), ``club``,
              ``scoring`` (a PBN Scoring tag, from ``BOARD_SCORING_METHOD``, else ``EVENT_TYPE``,
              else ``SCORING_METHOD``), ``event_type``, ``winner_type``, ``board_scoring_method``,
              ``scoring_method``, ``program`` and ``program_version`` (the producer), ``version``, ``masterpoint_scale`` and
              ``masterpoint_type`` (the awards' scale and colour: Club, BLACK)
    notes     what was read other than written, for the director (problems columns as dicts:
              ``source, line, column, value, message``), e.g. a pass-out with a declarer
    """

    results: pd.DataFrame
    boards: pd.DataFrame
    names: pd.DataFrame
    totals: pd.DataFrame
    meta: dict[str, str]
    source: str = "<string>"
    notes: list[dict] = field(default_factory=list)


def _players(node: Node) -> tuple[str, str]:
    players = node.findall("PLAYER")
    names = " & ".join(p.value("PLAYER_NAME") or p.value("NAME") or "" for p in players)
    ids = " & ".join(p.value("NATIONAL_ID_NUMBER") or p.value("PLAYER_ID") or "" for p in players)
    return names.strip(" &"), ids.strip(" &")


def _club_ids(node: Node) -> str:
    """The players' ``CLUB_ID_NUMBER`` (each player's home club), joined as the ids are."""
    return " & ".join(p.value("CLUB_ID_NUMBER") or "" for p in node.findall("PLAYER")).strip(" &")


def _participants_of(block: Node) -> list[Node]:
    """The ``PAIR``/``TEAM`` elements of a ``PARTICIPANTS`` block, also inside an unknown wrapper."""
    out: list[Node] = []
    stack = list(reversed(block.children))
    while stack:
        node = stack.pop()
        if node.tag in ("PAIR", "TEAM"):
            out.append(node)
        elif node.tag not in KNOWN_ELEMENTS:
            stack.extend(reversed(node.children))
    return out


def _participants(block: Node, section: str, source: str, names: list, totals: list) -> None:
    for node in _participants_of(block):
        key = "PAIR_NUMBER" if node.tag == "PAIR" else "TEAM_ID"
        pair = node.value(key) or (node.value("TEAM_NUMBER") if node.tag == "TEAM" else None)
        if pair is None:
            raise ParseError(source, node.line, f"<{node.tag}> without <{key}>; every participant needs its number")
        player_names, ids = _players(node)
        label = (node.value("TEAM_NAME") or player_names) if node.tag == "TEAM" else player_names
        direction = (node.value("DIRECTION") or "").upper().replace("-", "").replace("/", "") or None
        pair, written = directed_pair(pair)
        direction = direction or written
        if direction not in (None, "NS", "EW"):
            raise ParseError(source, node.line, f"<DIRECTION> is {direction!r}; write NS or EW")
        if label:
            names.append({"section": section, "pair": pair, "direction": direction, "names": label, "ids": ids,
                          "club_ids": _club_ids(node), "source": source, "line": str(node.line)})
        totals.append({"section": section, "pair": pair, "direction": direction, "place": node.value("PLACE"),
                       "percentage": number_text(node, "PERCENTAGE", source),
                       "total": number_text(node, "TOTAL_SCORE", source) or number_text(node, "SCORE", source),
                       "masterpoints": _awarded(node, source),
                       "names": label, "source": source, "line": str(node.line)})


def _awarded(node: Node, source: str) -> str | None:
    """The masterpoints a participant was awarded as written: ``MASTER_POINTS/MASTER_POINTS_AWARDED`` (the
    USEBIO layout, EBUScore) or ``MASTER_POINTS_AWARDED`` on the participant (Compscore)."""
    wrapper = node.find("MASTER_POINTS")
    return number_text(wrapper if wrapper is not None else node, "MASTER_POINTS_AWARDED", source)


class _Reading:
    """What one file's results read so far: rows, the lines read, and what was read other than written."""

    def __init__(self, tree: Tree, source: str) -> None:
        self.tree, self.source = tree, source
        self.rows: list[dict] = []
        self.read: set[int] = set()
        self.problems: list[dict] = []
        #: kind -> elements it concerns (one grouped note per kind)
        self.odd: dict[str, list[Node]] = {}

    def odd_one(self, kind: str, node: Node) -> None:
        self.odd.setdefault(kind, []).append(node)

    def board(self, board: Node, hands: dict) -> None:
        """A board's hands and result lines, wherever it is nested."""
        number = board_number(board, self.source)
        add_board_hands(board, number, self.source, hands)
        place = self.tree.place(board)
        for wrapper in place.wrappers[:1]:
            self.odd_one(f"wrapper {wrapper.tag} BOARD", board)
        match = place.match if not place.handset else None
        extra = match_info(match)
        if match is not None:
            extra["imps"] = number_text(board, "IMPS", self.source)
        extra["datum"] = number_text(board, "BOARD_AVERAGE", self.source)
        for line in lines_of(board):
            self.line(line, number, place, extra, board)

    def line(self, line: Node, number: str, place: Place, extra: dict, board: Node | None = None) -> None:
        if place.handset:
            self.odd_one("handset", line)
        if line.tag != "TRAVELLER_LINE":
            self.odd_one(f"spelt {line.tag}", line)
        elif board is not None and self.tree.parent.get(id(line)) is not board:
            self.odd_one("line wrapper", line)
        self.rows.append(line_row(line, number, place.section, place.session, self.source, extra))
        self.read.add(id(line))

    def strays(self) -> None:
        """Result lines not reached from a board (inside a known element of a board, or outside every
        board): read as a line of the board around them or by their own ``BOARD_NUMBER``, else a problem."""
        for node in self.tree.nodes:
            if id(node) in self.read or not (node.tag == "TRAVELLER_LINE" or line_like(node)):
                continue
            ancestors = list(self.tree.ancestors(node))
            if any(id(up) in self.read for up in ancestors):
                continue  # part of a line already read
            board = next((up for up in ancestors if up.tag == "BOARD"), None)
            number = (board_number(board, self.source) if board is not None
                      else number_text(node, "BOARD_NUMBER", self.source, int))
            if number is None or int(number) < 1:
                where = f"<{ancestors[0].tag}>" if ancestors else "the file"
                self.problems.append({"source": self.source, "line": str(node.line), "column": "board",
                                      "value": node.tag, "message": f"<{node.tag}> directly inside {where} is not in "
                                      "a <BOARD> and names no <BOARD_NUMBER>: its board is unknown; move it into its "
                                      "<BOARD>, or export the file again"})
                continue
            self.odd_one("stray", node)
            place = self.tree.place(node)
            self.line(node, str(int(number)), place, {**match_info(place.match), "datum": None})


def hand_text(ranks: str | None) -> str:
    """One suit as PBN ranks (``AKQ10`` -> ``AKQT``; ``-``, void and spaces -> ``""``)."""
    text = (ranks or "").upper().replace("10", "T")
    return _HAND_CHARS.sub("", text)


def add_board_hands(board: Node, number: str, source: str, hands: dict) -> None:
    """Add a board's ``HAND`` elements and ``VULNERABILITY`` to ``hands`` (the first given of each is kept)."""
    seats: dict[str, str] = {}
    for hand in board.findall("HAND"):
        seat = _SEATS.get((hand.value("DIRECTION") or "").upper())
        if seat is None:
            raise ParseError(source, hand.line, f"<HAND> with <DIRECTION> {hand.value('DIRECTION')!r}; "
                             "write North, East, South or West")
        seats[seat] = ".".join(hand_text(hand.value(s)) for s in ("SPADES", "HEARTS", "DIAMONDS", "CLUBS"))
    vul = board.value("VULNERABILITY")
    if seats or vul:
        known = hands.setdefault(int(number), {"line": board.line})
        known.update({k: v for k, v in seats.items() if k not in known})
        if vul and "vul" not in known:
            if vul_from_text(vul) is None:
                raise ParseError(source, board.line, f"<VULNERABILITY> {vul!r}; write Love, North-South, East-West or All")
            known["vul"] = vul_from_text(vul)


def boards_from_hands(hands: dict[int, dict], source: str) -> pd.DataFrame:
    """Boards frame from ``{board: {"N": "AKQ.J.T9.8765", ..., "vul": "NS", "line": 3}}``.

    Seats missing from a board are ``-`` (unknown) in the PBN deal; vulnerability
    not given follows the board number; the dealer always does.
    """
    numbers = np.array(sorted(hands), dtype=np.int64)
    deals = [f"N:{' '.join(hands[b].get(s) or '-' for s in 'NESW')}" if any(s in hands[b] for s in "NESW") else None
             for b in numbers]
    vul = pd.Series(vul_of(numbers))
    given = pd.Series([hands[b].get("vul") for b in numbers], dtype="object")
    frame = pd.DataFrame({
        "board": numbers, "dealer": pd.Series(dealer_of(numbers)),
        "vul": given.where(given.notna(), vul.astype("object")),
        "deal": pd.array(deals, dtype="string"),
        "source": pd.array([source] * len(numbers), dtype="string"),
        "line": pd.array([hands[b].get("line") for b in numbers], dtype="Int64"),
    })
    return frame.astype(BOARDS_COLUMNS)


def _date(text: str | None) -> str | None:
    m = re.fullmatch(r"(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})", text or "")
    return f"{m.group(3)}.{int(m.group(2)):02d}.{int(m.group(1)):02d}" if m else text


def scoring_of(board_method: str | None, event_type: str | None, scoring_method: str | None) -> str | None:
    """The PBN Scoring tag a USEBIO event names: ``BOARD_SCORING_METHOD``, else ``EVENT_TYPE`` (Compscore
    writes ``MP_PAIRS``, ``BUTLER_PAIRS``, ``CROSS_IMP`` and no board method), else ``SCORING_METHOD``
    (``IMPS`` alone does not say cross-IMPs or Butler, so it comes last). None for teams events."""
    kind = (event_type or "").upper().replace(" ", "_")
    if "TEAM" in kind:  # scored by the teams pipeline, not a pairs method
        return None
    return (SCORING_TAGS.get((board_method or "").upper()) or EVENT_TYPE_TAGS.get(kind)
            or SCORING_TAGS.get((scoring_method or "").upper()))


def event_meta(root: Node, event: Node) -> dict[str, str]:
    """The event's metadata (:class:`UsebioFile`'s ``meta``): its name, date, club, scoring and producer."""
    club = root.find("CLUB")
    method = (event.value("BOARD_SCORING_METHOD") or "").upper()
    event_type = event.value("EVENT_TYPE")
    meta = {"event": event.value("EVENT_DESCRIPTION") or event.value("EVENT_NAME"), "date": _date(event.value("DATE")),
            "club": club.value("CLUB_NAME") if club is not None else None,
            "club_id": club.value("CLUB_ID_NUMBER") if club is not None else None,
            "scoring": scoring_of(method, event_type, event.value("SCORING_METHOD")),
            "event_type": event_type, "winner_type": event.value("WINNER_TYPE"),
            "board_scoring_method": method or None, "scoring_method": event.value("SCORING_METHOD"),
            "program": event.value("PROGRAM_NAME") or root.value("PROGRAM_NAME"),
            "program_version": event.value("PROGRAM_VERSION") or root.value("PROGRAM_VERSION"),
            "version": root.value("VERSION"),
            "masterpoint_scale": event.value("MASTER_POINT_SCALE"),
            "masterpoint_type": event.value("MASTER_POINT_TYPE") or next(
                (t.text.strip() for t in event.iter("MASTER_POINT_TYPE") if t.text and t.text.strip()), None)}
    return {k: v for k, v in meta.items() if v}


#: What each kind of element outside the USEBIO layout was read as (one note per kind; ``{tag}`` the
#: element around or instead of the usual one).
_ODD = {"wrapper": "<{what}> inside <{tag}>, an element USEBIO does not have: read as {read}",
        "spelt": "result line written <{tag}>, not <TRAVELLER_LINE>: read as a traveller line of its <BOARD>",
        "line wrapper": "<TRAVELLER_LINE> inside an element USEBIO does not have: read as a line of its <BOARD>",
        "handset": "result line inside <HANDSET> (the hand records): read as a result of its board",
        "stray": "result line not directly in a <BOARD>: read as a line of the board around it (or that its "
                 "<BOARD_NUMBER> names)",
        "outside": "<BOARD> outside every <EVENT>: read as a board of the event"}


_READ_AS = {"BOARD": "a board of its section", "PAIR": "a participant of its section",
            "TEAM": "a participant of its section"}


def _odd_notes(reading: _Reading, source: str) -> list[dict]:
    """One note per kind of element read from outside the expected structure, with its first line."""
    out = []
    for kind, nodes in reading.odd.items():
        base, tag = (kind.split(" ") + [""])[:2] if kind.startswith(("wrapper ", "spelt ")) else (kind, "")
        first = min(nodes, key=lambda n: n.line)
        count = f"{len(nodes)} times, first on line {first.line}" if len(nodes) > 1 else f"line {first.line}"
        out.append({"source": source, "line": str(first.line), "column": "", "value": tag or first.tag,
                    "message": f"{_ODD[base].format(tag=tag, what=first.tag, read=_READ_AS.get(first.tag, 'usual'))}"
                               f" ({count}); check what was read there"})
    return out


def _unknown_note(tree: Tree, reading: _Reading, source: str) -> list[dict]:
    """One note naming every element bridgeproc does not know and did not read through."""
    through = {kind.split(" ")[1] for kind in reading.odd if kind.startswith(("wrapper ", "spelt "))}
    for node in tree.nodes:
        if id(node) in reading.read:
            through.update(up.tag for up in tree.ancestors(node) if up.tag not in KNOWN_ELEMENTS)
    unknown: dict[str, list[int]] = {}
    for node in tree.nodes:
        if node.tag not in KNOWN_ELEMENTS and node.tag not in through:
            unknown.setdefault(node.tag, []).append(node.line)
    if not unknown:
        return []
    named = ", ".join(f"<{tag}> (line {lines[0]})" if len(lines) == 1 else
                      f"<{tag}> ({len(lines)} times, first on line {lines[0]})" for tag, lines in unknown.items())
    first = min(lines[0] for lines in unknown.values())
    return [{"source": source, "line": str(first), "column": "", "value": ", ".join(unknown),
             "message": f"elements that are not USEBIO were not read: {named}; check that they hold nothing the "
                        "results need"}]


def _frame(rows: list[dict], columns: list[str], line_dtype: str) -> pd.DataFrame:
    data = {c: pd.array([r.get(c) for r in rows], dtype="string") for c in columns}
    data["source"] = pd.array([r["source"] for r in rows], dtype="string")
    data["line"] = pd.array([r["line"] for r in rows], dtype=line_dtype)
    return pd.DataFrame(data)


def parse_usebio(data: bytes | str, source: str = "<string>") -> UsebioFile:
    """Parse USEBIO XML (bytes: the XML declaration's encoding is honoured).

    Returns
    -------
    UsebioFile
        ``results`` (raw text frame, ``line`` = the TRAVELLER_LINE's line), ``boards``,
        ``names``, ``totals`` and ``meta`` (see the class).

    Raises
    ------
    ParseError
        Not well-formed XML, a root other than ``USEBIO``, no ``EVENT``, no boards and no
        participants, a board or participant without its number, a number that is not one.
    """
    notes: list[dict] = []
    return usebio_from_tree(parse_tree(data, source, notes), source, notes)


def usebio_from_tree(root: Node, source: str, notes: list[dict]) -> UsebioFile:
    """:func:`parse_usebio` on a parsed tree (``notes``: the parser's, extended): the file's sessions
    are read one at a time from a tree that holds only one (``io.usebio.sessions``)."""
    if root.tag != "USEBIO":
        raise ParseError(source, root.line, f"the root element is <{root.tag}>, not <USEBIO>; "
                         "this is not a USEBIO results file (export the results as USEBIO XML)")
    events = root.findall("EVENT")
    if not events:
        raise ParseError(source, root.line, "<USEBIO> has no <EVENT>; the file holds no results")
    tree = Tree(root)
    reading = _Reading(tree, source)
    names: list[dict] = []
    totals: list[dict] = []
    hands: dict[int, dict] = {}
    for block in (node for node in tree.nodes if node.tag == "PARTICIPANTS"):
        for wrapped in (n for n in _participants_of(block) if tree.parent.get(id(n)) is not block):
            reading.odd_one(f"wrapper {tree.parent[id(wrapped)].tag} {wrapped.tag}", wrapped)
        _participants(block, tree.place(block).section, source, names, totals)
    boards = [node for node in tree.nodes if node.tag == "BOARD"]
    # boards of the events first, then the HANDSET hand records (the first hand given for a seat stands)
    for board in sorted(boards, key=lambda b: tree.inside(b, "HANDSET")):
        if not tree.inside(board, "EVENT") and not tree.inside(board, "HANDSET"):
            reading.odd_one("outside", board)
        reading.board(board, hands)
    reading.strays()
    if reading.problems:
        raise ValidationError(problems_frame(reading.problems))
    rows = reading.rows
    if not rows and not totals:
        raise ParseError(source, events[0].line, "<EVENT> has no <BOARD> results and no <PARTICIPANTS>; "
                         "export the event with its travellers")
    notes.extend(_odd_notes(reading, source))
    notes.extend(_unknown_note(tree, reading, source))
    notes.extend(unused_score_notes(rows, source))
    notes.extend(passout_notes(rows, source))
    results = _frame(rows, RESULT_COLUMNS, "Int64")
    results = results.drop(columns=[c for c in RESULT_COLUMNS[9:] if results[c].isna().all()])
    name_frame = _frame(names, ["section", "pair", "direction", "names", "ids", "club_ids"], "string")
    total_frame = _frame(totals, ["section", "pair", "direction", "place", "percentage", "total", "masterpoints", "names"], "string")
    return UsebioFile(results, boards_from_hands(hands, source), name_frame, total_frame, event_meta(root, events[0]), source,
                      notes)


def read_usebio(path_or_file: str | os.PathLike | BinaryIO) -> UsebioFile:
    """Read a USEBIO XML file (a path or an open binary file); see :func:`parse_usebio`."""
    data, source = read_source(path_or_file)
    return parse_usebio(data, source)
