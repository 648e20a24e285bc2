"""An event of several sessions as one USEBIO 1.2 file: ``EVENT`` with a ``SESSION`` per session.

Layout: ``USEBIO Version="1.2"`` > ``CLUB`` > ``EVENT`` with the head the session writer gives
(``report.usebio.event_head``: description, program, then ``WINNER_TYPE``, ``DATE``, ``SESSION_COUNT`` =
the number of sessions, ``SECTION_COUNT``, ``SCORING_METHOD``, ``BOARD_SCORING_METHOD``), then the event's
cumulative standings in ``EVENT/PARTICIPANTS/PAIR`` (``TOTAL_SCORE`` by the event's rule, ``PERCENTAGE``,
``PLACE``; inside ``EVENT/SECTION SECTION_ID`` when the event ranks sections apart), then
``SESSION SESSION_ID="n"`` per session in playing order holding what ``report.usebio`` writes for that
session alone (``PARTICIPANTS`` and ``BOARD``, or its ``SECTION`` elements). The hand records of every
session are one ``HANDSET`` when no board number is dealt differently in two sessions; else each
session's hands go into its own ``BOARD`` elements (``BOARD/HAND``), so no deal is left out.

``bridgeproc event FILE.xml`` reads this file back as its sessions (``io.usebio.sessions``; ``FILE.xml#N``
names one) and compares the event's standings with the ones it computes; ``bridgeproc score`` refuses a
file of several sessions with that fix.
"""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd

from bridgeproc.errors import BridgeprocError
from bridgeproc.model import Event, Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.event import EventRanking
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.usebio import (
    EVENT_TYPES,
    add_element,
    document,
    event_head,
    number_texts,
    usebio_date,
    usebio_text,
)
from bridgeproc.schema import records

__all__ = ["event_usebio_text", "write_event_usebio"]


def _session_tree(session: Session) -> ET.Element:
    """The session's own USEBIO document (``report.usebio.usebio_text``) as a tree."""
    return ET.fromstring(usebio_text(session))


def _session_content(tree: ET.Element) -> list[ET.Element]:
    """The results of one session's document: its ``PARTICIPANTS`` and ``BOARD`` elements, or its sections."""
    event = tree.find("EVENT")
    assert event is not None  # usebio_text always writes one
    wrapped = event.find("SESSION")
    if wrapped is not None:
        return list(wrapped)
    return [child for child in event if child.tag in ("PARTICIPANTS", "BOARD")]


def _hands_by_number(tree: ET.Element) -> dict[int, ET.Element]:
    return {int(board.findtext("BOARD_NUMBER") or 0): board for board in tree.iterfind("HANDSET/BOARD")}


def _dealt_apart(hands: list[dict[int, ET.Element]]) -> bool:
    """Whether some board number is dealt differently in two sessions (one HANDSET cannot hold both)."""
    seen: dict[int, list] = {}
    for session in hands:
        for number, board in session.items():
            cards = [(node.tag, (node.text or "").strip()) for node in board.iter()]
            if seen.setdefault(number, cards) != cards:
                return True
    return False


def _hands_into_boards(content: list[ET.Element], hands: dict[int, ET.Element], into: ET.Element) -> None:
    """Each hand-record board's ``VULNERABILITY`` and ``HAND`` elements into the session's first ``BOARD`` of
    that number; a board with no results gets a ``BOARD`` of its own in the session (``into``)."""
    boards: dict[int, ET.Element] = {}
    for node in content:
        for board in ([node] if node.tag == "BOARD" else list(node.iterfind("BOARD"))):
            boards.setdefault(int(board.findtext("BOARD_NUMBER") or 0), board)
    for number, record in hands.items():
        found = boards.get(number)
        if found is None:
            found = ET.SubElement(into, "BOARD")
            add_element(found, "BOARD_NUMBER", number)
        board = found
        at = 1
        for child in record:
            if child.tag != "BOARD_NUMBER":
                board.insert(at, child)
                at += 1


def _event_participants(parent: ET.Element, ranking: EventRanking, method: str) -> None:
    """The event's standings (``PAIR`` per pair: number, direction, total by the rule, percentage, place,
    players with the member ids of the pair's last session), one block per section when ranked apart."""
    table = ranking.standings
    long = ranking.sessions[~ranking.sessions["imputed"]].sort_values("session", kind="stable")
    last = long.groupby("key", sort=False).last()
    group = last["group"].reindex(table["key"]).astype("string").fillna("ALL").to_numpy()
    ids = last["ids"].reindex(table["key"]).to_numpy()
    rows = table.assign(_section=[str(g).rpartition(" ")[0] for g in group],
                        _line=[str(g).rpartition(" ")[2] for g in group], _ids=ids,
                        # each column as every output shows it (core.shown)
                        _total=number_texts(table["total"], ranking.unit, len(table)),
                        _pct=number_texts(table["pct"], "pct", len(table)))
    percentages = ranking_method(method).percentages or ranking.rule in ("percent-sum", "percent-average")
    sections = list(dict.fromkeys(rows["_section"]))
    for section in sections:
        holder = parent if sections == [""] else ET.SubElement(parent, "SECTION", {"SECTION_ID": section})
        block = ET.SubElement(holder, "PARTICIPANTS", {"EVENT_TYPE": EVENT_TYPES[method]})
        for row in records(rows[rows["_section"] == section]):
            pair = ET.SubElement(block, "PAIR")
            add_element(pair, "PAIR_NUMBER", row.pair)
            ET.SubElement(pair, "DIRECTION").text = row._line if row._line in ("NS", "EW") else ""
            add_element(pair, "TOTAL_SCORE", row._total)
            if percentages:
                add_element(pair, "PERCENTAGE", row._pct)
            add_element(pair, "PLACE", row.rank)
            names = "" if pd.isna(row.names) else str(row.names)
            numbers = [] if pd.isna(row._ids) else [i.strip() for i in str(row._ids).split("&")]
            for index, name in enumerate(n.strip() for n in names.split(" & ") if n.strip()):
                player = ET.SubElement(pair, "PLAYER")
                add_element(player, "PLAYER_NAME", name)
                ET.SubElement(player, "NATIONAL_ID_NUMBER").text = numbers[index] if index < len(numbers) else ""
                ET.SubElement(player, "CLUB_ID_NUMBER").text = ""


def event_usebio_text(event: Event) -> str:
    """The USEBIO 1.2 document of an event of several sessions, as text (see the module)."""
    sessions = list(event.sessions)
    method = sessions[-1].conventions.method
    meta = {str(k).lower(): v for k, v in (event.meta or {}).items()}
    trees = [_session_tree(s) for s in sessions]
    sections = sorted({str(s) for session in sessions for s in session.results["section"].astype("string").fillna("")})
    root = ET.Element("USEBIO", {"Version": "1.2"})
    node = event_head(root, meta, EVENT_TYPES[method])
    groups = event.ranking.standings["group"].astype("string")
    add_element(node, "WINNER_TYPE", 1 if groups.str.endswith("ALL").all() else 2)
    add_element(node, "DATE", usebio_date(str(meta.get("date") or "")))
    add_element(node, "SESSION_COUNT", len(sessions))
    add_element(node, "SECTION_COUNT", len(sections))
    if ranking_method(method).unit == "imp":
        add_element(node, "SCORING_METHOD", "IMPS")
    add_element(node, "BOARD_SCORING_METHOD", ranking_method(method).usebio)
    _event_participants(node, event.ranking, method)
    hands = [_hands_by_number(tree) for tree in trees]
    apart = _dealt_apart(hands)
    for number, (tree, dealt) in enumerate(zip(trees, hands), start=1):
        holder = ET.SubElement(node, "SESSION", {"SESSION_ID": str(number)})
        content = _session_content(tree)
        holder.extend(content)
        if apart:
            _hands_into_boards(content, dealt, holder)
    merged: dict[int, ET.Element] = {} if apart else {n: b for dealt in hands for n, b in dealt.items()}
    if merged:
        ET.SubElement(root, "HANDSET").extend(merged[n] for n in sorted(merged))
    return document(root)


def write_event_usebio(event: Event, path: str | os.PathLike) -> None:
    """Write ``event`` as one USEBIO 1.2 file at ``path`` (see :func:`event_usebio_text`).

    Raises BridgeprocError when a session is an individual (its players are not pairs; as ``score``'s
    USEBIO writer)."""
    if any(is_individual(s.results) for s in event.sessions):
        raise BridgeprocError("USEBIO (.xml) output of an individual event is not supported; write .pbn or .xlsx "
                              "instead")
    text = event_usebio_text(event)
    Path(path).write_text(text, encoding="utf-8", newline="\n")
