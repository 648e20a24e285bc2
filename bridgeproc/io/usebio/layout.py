"""The USEBIO layout as read: the elements known, where an element sits, and cells read as numbers.

Shared by the pairs reader (``io.usebio.reader``), its result lines (``io.usebio.travellers``) and the
team-event reader (``io.usebio.teams``): :data:`KNOWN_ELEMENTS` (any other element is named in a
note), the parsed tree with each element's parent (``Tree``: an element's section, session and
match are read from its ancestors wherever the producer nested it), number cells checked
(``number_text``) and pair numbers that carry their direction (``directed_pair``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from bridgeproc.errors import ParseError
from bridgeproc.io.usebio.xml_tree import Node

__all__ = ["KNOWN_ELEMENTS", "NUMBER_TEXT", "POINTS_ELEMENTS", "Place", "Tree", "directed_pair", "number_text"]

#: Per-line published points, by the elements each exporter writes (the first present wins):
#: ``NS_IMPS`` (the standard), ``NS_BUTLER_POINTS``/``NS_CROSS_IMP_POINTS`` (Compscore).
POINTS_ELEMENTS = {"mp_ns": ("NS_MATCH_POINTS",), "mp_ew": ("EW_MATCH_POINTS",),
           "imp_ns": ("NS_IMPS", "NS_BUTLER_POINTS", "NS_CROSS_IMP_POINTS"),
           "imp_ew": ("EW_IMPS", "EW_BUTLER_POINTS", "EW_CROSS_IMP_POINTS")}
#: Pair numbers of two-winner Compscore files: ``1NS``, ``1EW`` (the direction written into the number).
_DIRECTED = re.compile(r"^(?P<pair>[A-Za-z]?\d+)\s*-?\s*(?P<direction>NS|EW|N-S|E-W)$", re.IGNORECASE)
#: A number cell as the producers write it (``55.25``, ``55,25``, ``-3``).
NUMBER_TEXT = re.compile(r"^[+\-]?\d+(?:[.,]\d*)?$")
#: Elements of USEBIO 1.0-1.3 as the producers write them: the ones read, and those known to hold
#: nothing the results need (contact details, master points). Any other is named in one note.
KNOWN_ELEMENTS = frozenset({
    "USEBIO", "VERSION", "PROGRAM_NAME", "PROGRAM_VERSION", "CLUB", "CLUB_NAME", "CLUB_ID_NUMBER", "CONTACT",
    "FULL_NAME", "EMAIL", "TELEPHONE", "SCORER", "TITLE", "VENUE", "EVENT", "EVENT_IDENTIFIER", "EVENT_DESCRIPTION",
    "EVENT_NAME", "EVENT_TYPE", "DATE", "BOARD_SCORING_METHOD", "SCORING_METHOD", "WINNER_TYPE", "MASTER_POINT_TYPE",
    "MASTER_POINT_SCALE", "MPS_AWARDED_FLAG", "MASTER_POINTS", "MASTER_POINTS_AWARDED", "SESSION_COUNT", "SECTION_COUNT", "SESSION",
    "SESSION_NUMBER", "SESSION_ID", "SECTION", "SECTION_ID", "SECTION_LETTER", "SECTION_NAME", "PARTICIPANTS", "PAIR",
    "TEAM", "PLAYER", "PLAYER_NAME", "NAME", "NATIONAL_ID_NUMBER", "PLAYER_ID", "PAIR_NUMBER", "TEAM_ID", "TEAM_NUMBER",
    "TEAM_NAME", "DIRECTION", "PLACE", "PERCENTAGE", "TOTAL_SCORE", "SCORE", "BOARD", "BOARD_NUMBER", "VULNERABILITY",
    "BOARD_AVERAGE", "IMPS", "HAND", "SPADES", "HEARTS", "DIAMONDS", "CLUBS", "HANDSET", "TRAVELLER_LINE",
    "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "DECLARER", "LEAD", "TRICKS", "RESULT", "NS_SCORE",
    "EW_SCORE", *(tag for tags in POINTS_ELEMENTS.values() for tag in tags), "MATCH", "ROUND_NUMBER", "OPPOSING_TEAM",
    "OPPOSING_TEAM_ID", "P2P_CHARGE_RATE",
})


def number_text(node: Node, tag: str, source: str, kind: type = float) -> str | None:
    """The text of ``tag`` when it is a number (checked), else None when absent."""
    text = node.value(tag)
    if text is None or text in ("-", "--"):
        return None
    if not NUMBER_TEXT.match(text) or (kind is int and not re.fullmatch(r"[+\-]?\d+", text)):
        child = node.find(tag)
        what = "a whole number" if kind is int else "a number"
        raise ParseError(source, child.line if child is not None else node.line,
                         f"<{tag}> is {text!r}, not {what}; correct it (e.g. {'7' if kind is int else '55.25'})")
    return text.replace(",", ".")


@dataclass
class Place:
    """Where an element sits: its section and session, its match, and the unknown elements around it."""

    section: str = ""
    session: str = ""
    match: Node | None = None
    wrappers: list[Node] = field(default_factory=list)
    handset: bool = False


class Tree:
    """The parsed file with each element's parent, so that an element's place is read from its
    ancestors wherever the producer nested it (a ``BOARD`` inside an unknown wrapper included)."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.parent: dict[int, Node] = {}
        self.nodes: list[Node] = []
        stack = [root]
        while stack:
            node = stack.pop()
            self.nodes.append(node)
            for child in node.children:
                self.parent[id(child)] = node
            stack.extend(reversed(node.children))

    def ancestors(self, node: Node) -> Iterator[Node]:
        while id(node) in self.parent:
            node = self.parent[id(node)]
            yield node

    def place(self, node: Node) -> Place:
        place = Place()
        seen: set[str] = set()
        for up in self.ancestors(node):
            if up.tag in seen:
                continue
            if up.tag == "SECTION":
                letter = up.value("SECTION_ID") or up.value("SECTION_LETTER") or up.value("SECTION_NAME") or ""
                place.section = letter.upper() if len(letter) <= 2 else letter
            elif up.tag == "SESSION":
                place.session = up.value("SESSION_NUMBER") or up.value("SESSION_ID") or ""
            elif up.tag == "MATCH":
                place.match = up
            elif up.tag == "HANDSET":
                place.handset = True
            elif up.tag not in KNOWN_ELEMENTS:
                place.wrappers.append(up)
            seen.add(up.tag)
        return place

    def inside(self, node: Node, tag: str) -> bool:
        return any(up.tag == tag for up in self.ancestors(node))


def directed_pair(pair: str | None) -> tuple[str | None, str | None]:
    """(number, direction) of a pair number that carries its direction (``1NS`` -> ``1``, ``NS``)."""
    m = _DIRECTED.match(pair or "")
    if m is None:
        return pair, None
    return m.group("pair"), m.group("direction").upper().replace("-", "")
