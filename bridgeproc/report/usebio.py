"""Write a scored Session as USEBIO 1.2 XML (for upload to federation and club sites).

Layout (bridge-scoring-reference.md section 10): ``USEBIO Version="1.2"`` >
``EVENT EVENT_TYPE="PAIRS"`` with ``BOARD_SCORING_METHOD``, ``EVENT_DESCRIPTION``,
``DATE`` (DD/MM/YYYY), ``WINNER_TYPE`` (1 one ranking, 2 NS and EW apart), counts,
then ``SESSION SESSION_ID="1"`` > one ``SECTION`` per section (``SECTION_ID`` the
letter, left out for an event without sections) holding ``PARTICIPANTS/PAIR``
(``PAIR_NUMBER``, ``DIRECTION`` in a two-winner ranking, ``PLACE`` as ranked -
``3=`` for a tie -, ``PERCENTAGE`` for matchpoints, ``TOTAL_SCORE``, ``PLAYER`` names)
and ``BOARD`` (``BOARD_NUMBER``, ``VULNERABILITY`` and ``HAND`` when the hand is
known, ``TRAVELLER_LINE`` per result).

Traveller lines: ``CONTRACT`` in bridgeproc's canonical text (``4S``, ``3NTX``,
``PASS``; an artificial score's code such as ``A+/A-`` or ``60/40``), ``PLAYED_BY``
(seat letter), ``LEAD``, ``TRICKS`` (tricks taken), ``SCORE`` (NS's score) and the
method's points: ``NS_MATCH_POINTS``/``EW_MATCH_POINTS`` (matchpoints) or
``NS_IMPS``/``EW_IMPS`` (cross-IMPs, Butler). Numbers are written with at most two
decimals. The method names ``CROSS_IMPS`` and ``BUTLER`` were not checked against
the DTD (which was not available); ``MATCH_POINTS`` is what the readers we know expect.
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd

from bridgeproc.core.notation import contract_text
from bridgeproc.errors import BridgeprocError
from bridgeproc.io.atomic import atomic_path
from bridgeproc.model import Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import records

__all__ = ["usebio_text", "write_usebio"]

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
VULNERABILITY = {"None": "Love", "NS": "North-South", "EW": "East-West", "All": "All"}
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def _number(value: object, decimals: int = 2) -> str | None:
    """``12``, ``10.5``, ``41.67``: at most ``decimals`` decimals, no trailing zeros; None for NA."""
    if value is None or pd.isna(value):
        return None
    text = f"{float(value):.{decimals}f}"  # type: ignore[arg-type]  # NA was excluded above; pandas scalars.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _add(parent: ET.Element, tag: str, text: object) -> None:
    if text is not None and not (isinstance(text, float) and np.isnan(text)) and str(text) != "":
        ET.SubElement(parent, tag).text = str(text)


def _date(text: str | None) -> str | None:
    m = re.fullmatch(r"(\d{4})\.(\d{1,2})\.(\d{1,2})", text or "")
    return f"{int(m.group(3)):02d}/{int(m.group(2)):02d}/{m.group(1)}" if m else None


def _group_parts(group: str) -> tuple[str | None, str]:
    """``"A NS"`` -> ("A", "NS"); ``"EW"`` -> (None, "EW")."""
    head, _, tail = str(group).rpartition(" ")
    return (head or None), tail


def _pair_sections(results: pd.DataFrame) -> dict[tuple[str, str], list[str]]:
    """(pair, direction) -> sections it played in (direction ``NS``/``EW``/``ALL``)."""
    found: dict[tuple[str, str], list[str]] = {}
    for side, direction in (("ns", "NS"), ("ew", "EW")):
        frame = pd.DataFrame({"pair": results[side].astype("string"),
                              "section": results["section"].astype("string").fillna("")}).dropna().drop_duplicates()
        for pair, section in zip(frame["pair"], frame["section"]):
            for key in ((pair, direction), (pair, "ALL")):
                if section not in found.setdefault(key, []):
                    found[key].append(section)
    return found


def _standing_section(row, sections: dict, known: list[str]) -> tuple[str, str]:
    """(section, pair number) of a standings row."""
    section, direction = _group_parts(row.group)
    pair = str(row.pair)
    if section is not None:
        return section, pair
    m = re.fullmatch(r"([A-Za-z]{1,2})(\d+)", pair)
    if m and m.group(1).upper() in known:
        return m.group(1).upper(), m.group(2)
    return (sections.get((pair, direction)) or [known[0]])[0], pair


def _participants(parent: ET.Element, rows: pd.DataFrame, method: str) -> None:
    block = ET.SubElement(parent, "PARTICIPANTS")
    for row in records(rows):
        pair = ET.SubElement(block, "PAIR")
        _add(pair, "PAIR_NUMBER", row.number)
        direction = _group_parts(row.group)[1]
        if direction in ("NS", "EW"):
            _add(pair, "DIRECTION", direction)
        if ranking_method(method).percentages:
            _add(pair, "PERCENTAGE", _number(row.pct))
        _add(pair, "PLACE", row.rank)
        _add(pair, "TOTAL_SCORE", _number(row.total))
        names = "" if pd.isna(row.names) else str(row.names)
        for name in [n.strip() for n in names.split(" & ") if n.strip()]:
            player = ET.SubElement(pair, "PLAYER")
            _add(player, "PLAYER_NAME", name)


def _hands(parent: ET.Element, board: dict) -> None:
    _add(parent, "VULNERABILITY", VULNERABILITY.get(str(board.get("vul")), None))
    deal = board.get("deal")
    if deal is None or pd.isna(deal) or ":" not in str(deal):
        return
    first, _, hands = str(deal).partition(":")
    order = "NESW"[("NESW".index(first.upper())):] + "NESW"[:"NESW".index(first.upper())]
    for seat, hand in zip(order, hands.split()):
        if hand == "-":
            continue
        suits = (hand.split(".") + ["", "", "", ""])[:4]
        node = ET.SubElement(parent, "HAND")
        _add(node, "DIRECTION", SEAT_NAMES[seat])
        for tag, cards in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), suits):
            ET.SubElement(node, tag).text = cards


def _travellers(parent: ET.Element, results: pd.DataFrame, method: str, boards: dict[int, dict]) -> None:
    known = ranking_method(method)
    (ns_col, ew_col), (ns_tag, ew_tag) = known.points, known.usebio_points
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"])
    table = pd.DataFrame({
        "board": results["board"].to_numpy(), "ns": results["ns"].astype("string"), "ew": results["ew"].astype("string"),
        "contract": contract, "declarer": results["declarer"].astype("string"),
        "lead": results["lead"].astype("string"), "tricks": results["tricks"].astype("Int64").astype("string"),
        "score": results["score_ns"].astype("Int64").astype("string"),
        "points_ns": results[ns_col] if ns_col in results else np.nan,
        "points_ew": results[ew_col] if ew_col in results else np.nan,
        "played": (results["level"].fillna(0) > 0).to_numpy(),
    })
    for number, lines in table.groupby("board", sort=True):
        node = ET.SubElement(parent, "BOARD")
        _add(node, "BOARD_NUMBER", int(number))
        if int(number) in boards:
            _hands(node, boards[int(number)])
        for line in records(lines):
            row = ET.SubElement(node, "TRAVELLER_LINE")
            _add(row, "NS_PAIR_NUMBER", None if pd.isna(line.ns) else line.ns)
            _add(row, "EW_PAIR_NUMBER", None if pd.isna(line.ew) else line.ew)
            _add(row, "CONTRACT", None if pd.isna(line.contract) else line.contract)
            if line.played:
                _add(row, "PLAYED_BY", None if pd.isna(line.declarer) else line.declarer)
                _add(row, "LEAD", None if pd.isna(line.lead) else line.lead)
                _add(row, "TRICKS", None if pd.isna(line.tricks) else line.tricks)
            _add(row, "SCORE", None if pd.isna(line.score) else line.score)
            _add(row, ns_tag, _number(line.points_ns))
            _add(row, ew_tag, _number(line.points_ew))


def usebio_text(session: Session) -> str:
    """The USEBIO 1.2 document of a scored session, as text (UTF-8 declared)."""
    results, standings = session.results, session.standings
    method = session.conventions.method
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    sections = sorted(set(results["section"].astype("string").fillna("")))
    root = ET.Element("USEBIO", {"Version": "1.2"})
    club = meta.get("club") or meta.get("site")
    if club:
        _add(ET.SubElement(root, "CLUB"), "CLUB_NAME", club)
    event = ET.SubElement(root, "EVENT", {"EVENT_TYPE": "PAIRS"})
    _add(event, "BOARD_SCORING_METHOD", ranking_method(method).usebio)
    _add(event, "EVENT_DESCRIPTION", meta.get("event"))
    _add(event, "DATE", _date(meta.get("date")))
    _add(event, "SESSION_COUNT", 1)
    _add(event, "SECTION_COUNT", len(sections))
    _add(event, "PAIRS", len(standings))
    _add(event, "BOARDS_PLAYED", results["board"].nunique())
    one = standings["group"].astype("string").str.endswith("ALL").all() if len(standings) else True
    _add(event, "WINNER_TYPE", 1 if one else 2)
    session_node = ET.SubElement(event, "SESSION", {"SESSION_ID": "1"})

    found = _pair_sections(results)
    placed = [_standing_section(row, found, sections) for row in records(standings)]
    table = standings.assign(section=[p[0] for p in placed], number=[p[1] for p in placed])
    boards = {}
    if session.boards is not None and len(session.boards):
        boards = {int(b["board"]): b for b in session.boards.to_dict("records")}
    for section in sections:
        node = ET.SubElement(session_node, "SECTION", {"SECTION_ID": section} if section else {})
        _participants(node, table[table["section"] == section], method)
        _travellers(node, results[results["section"].astype("string").fillna("") == section], method, boards)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{DOCTYPE}\n{body}\n'


def write_usebio(session: Session, path: str | os.PathLike) -> None:
    """Write ``session`` as a USEBIO 1.2 XML file at ``path`` (atomically; see :func:`usebio_text`).

    Reads ``session.results`` (``section board ns ew level strain doubled declarer tricks
    lead adjusted score_ns`` and the method's points), ``session.standings``
    (``group rank pair names total pct``), ``session.boards`` (``deal vul``) and
    ``session.meta`` (``event date club``/``site``).

    Raises BridgeprocError for an individual event: its players are not pairs, and the
    USEBIO written here would not read back (write .pbn or .xlsx instead).
    """
    if is_individual(session.results):
        raise BridgeprocError("USEBIO (.xml) output of an individual event is not supported; write .pbn or .xlsx "
                              "instead")
    text = usebio_text(session)
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8", newline="\n")
