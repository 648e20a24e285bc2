"""Write a scored Session as USEBIO 1.2 XML, laid out element by element as Compscore 3 writes it.

Layout (the real Compscore files in tests/data/realdata/ are the model; tests/report/
test_usebio_export.py compares the element paths): ``USEBIO Version="1.2"`` > ``CLUB`` (``CLUB_NAME``,
``CLUB_ID_NUMBER`` the meta's ``club_id``: ``--club-id``, the input USEBIO's, else empty) > ``EVENT EVENT_TYPE="MP_PAIRS"``
(``CROSS_IMP``, ``BUTLER_PAIRS``) with ``EVENT_DESCRIPTION``, ``PROGRAM_NAME``
(``bridgeproc``) and ``PROGRAM_VERSION``, ``WINNER_TYPE`` (1 one ranking, 2 NS and EW
apart), ``DATE`` (DD/MM/YYYY), ``SESSION_COUNT``, ``SECTION_COUNT``, ``SCORING_METHOD``
(``IMPS`` for an IMP method), then ``PARTICIPANTS/PAIR`` and ``BOARD/TRAVELLER_LINE``
directly in ``EVENT``; the hands in ``HANDSET/BOARD/HAND`` at the end.

``PAIR``: ``PAIR_NUMBER``, ``DIRECTION`` (empty in a one-winner ranking), ``TOTAL_SCORE``,
``PERCENTAGE`` (matchpoints), ``PLACE`` (``3=`` for a tie), ``PLAYER`` with ``PLAYER_NAME``,
``NATIONAL_ID_NUMBER`` and ``CLUB_ID_NUMBER`` (the names frame's ``ids`` and ``club_ids``: a
USEBIO input's, or a names list's Member ID / Club ID columns; empty where none is given). Traveller lines: ``NS_PAIR_NUMBER``,
``EW_PAIR_NUMBER``, ``CONTRACT`` in bridgeproc's canonical text (``4S``, ``3NTX``, ``PASS``; an artificial score's code such as
``A+/A-``), ``PLAYED_BY``, ``LEAD``, ``TRICKS`` (taken), ``SCORE`` (NS's) and the method's
points (rank.methods ``usebio_points``); a Butler board carries its datum as ``BOARD_AVERAGE``.
Numbers have at most two decimals.

Where bridgeproc writes more than Compscore (``DIFFERENCES``): ``BOARD_SCORING_METHOD``, so
that the file names the method exactly when read back (Compscore's ``EVENT_TYPE`` alone does
not say how cross-IMPs are totalled); ``VULNERABILITY`` of a hand-record board whose
vulnerability is not the one its number gives; and, for an event with sections (Compscore's
files have one), ``SESSION SESSION_ID="1"`` > ``SECTION SECTION_ID="A"`` around each
section's ``PARTICIPANTS`` and ``BOARD`` elements.
"""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.core.boards import vul_of
from bridgeproc.core.notation import contract_text
from bridgeproc.core.shown import shown_frame, texts
from bridgeproc.errors import BridgeprocError
from bridgeproc.model import Session
from bridgeproc.rank import is_individual
from bridgeproc.rank.methods import ranking_method
from bridgeproc.report.xml_text import REPLACEMENT, UNWRITABLE
from bridgeproc.schema import records

__all__ = ["usebio_text", "write_usebio", "DIFFERENCES", "PROGRAM_NAME", "EVENT_TYPES", "add_element", "document",
           "event_head", "handset", "number_text", "number_texts", "usebio_date"]

DOCTYPE = '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">'
PROGRAM_NAME = "bridgeproc"
VULNERABILITY = {"None": "Love", "NS": "North-South", "EW": "East-West", "All": "All"}
SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
#: Method -> Compscore's EVENT_TYPE (attribute of EVENT, PARTICIPANTS and BOARD).
EVENT_TYPES = {"mp": "MP_PAIRS", "cross-imp": "CROSS_IMP", "butler": "BUTLER_PAIRS"}
#: The masterpoint colours whose producer (Compscore, for the ABF) writes an award on the pair itself.
FLAT_AWARDS = ("GREEN", "RED", "GOLD")
#: Element paths bridgeproc writes that Compscore's files do not have (see the module text).
DIFFERENCES = frozenset({
    "USEBIO/EVENT/BOARD_SCORING_METHOD", "USEBIO/HANDSET/BOARD/VULNERABILITY",
    "USEBIO/EVENT/SESSION", "USEBIO/EVENT/SESSION/SECTION",
    *(f"USEBIO/EVENT/SESSION/SECTION/{tail}" for tail in (
        "PARTICIPANTS", "PARTICIPANTS/PAIR", "PARTICIPANTS/PAIR/PAIR_NUMBER", "PARTICIPANTS/PAIR/DIRECTION",
        "PARTICIPANTS/PAIR/TOTAL_SCORE", "PARTICIPANTS/PAIR/PERCENTAGE", "PARTICIPANTS/PAIR/PLACE",
        "PARTICIPANTS/PAIR/MASTER_POINTS", "PARTICIPANTS/PAIR/MASTER_POINTS/MASTER_POINTS_AWARDED",
        "PARTICIPANTS/PAIR/MASTER_POINTS/MASTER_POINT_TYPE", "PARTICIPANTS/PAIR/MASTER_POINTS_AWARDED",
        "PARTICIPANTS/PAIR/MASTER_POINT_TYPE",
        "PARTICIPANTS/PAIR/PLAYER", "PARTICIPANTS/PAIR/PLAYER/PLAYER_NAME",
        "PARTICIPANTS/PAIR/PLAYER/NATIONAL_ID_NUMBER", "PARTICIPANTS/PAIR/PLAYER/CLUB_ID_NUMBER",
        "BOARD", "BOARD/BOARD_NUMBER", "BOARD/BOARD_AVERAGE", "BOARD/TRAVELLER_LINE",
        *(f"BOARD/TRAVELLER_LINE/{tag}" for tag in (
            "NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT", "PLAYED_BY", "LEAD", "TRICKS", "SCORE",
            "NS_MATCH_POINTS", "EW_MATCH_POINTS", "NS_CROSS_IMP_POINTS", "EW_CROSS_IMP_POINTS",
            "NS_BUTLER_POINTS", "EW_BUTLER_POINTS")))),
})


def number_text(value: object, decimals: int = 2) -> str | None:
    """``12``, ``10.5``, ``41.67``: at most ``decimals`` decimals, no trailing zeros; None for NA."""
    if value is None or pd.isna(value):
        return None
    text = f"{float(value):.{decimals}f}".rstrip("0").rstrip(".")  # type: ignore[arg-type]  # NA excluded above
    return "0" if text in ("-0", "") else text


def number_texts(values, kind: str, size: int) -> np.ndarray:
    """A column of ``size`` numbers as every output shows them (core.shown.texts), None where there is none."""
    column = texts(np.broadcast_to(np.asarray(values, dtype=object), (size,)), kind)
    return np.array([text or None for text in column], dtype=object)


def add_element(parent: ET.Element, tag: str, text: object) -> None:
    """``<tag>text</tag>`` under ``parent``; nothing for None, NaN or empty text (escaped on writing)."""
    if text is not None and text is not pd.NA and not (isinstance(text, float) and np.isnan(text)) and str(text) != "":
        ET.SubElement(parent, tag).text = str(text)


def usebio_date(text: str | None) -> str | None:
    """PBN ``2026.11.24`` -> USEBIO ``24/11/2026``; None when not a PBN date."""
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


#: A pair labelled with the direction of its number (a one-winner ranking numbered per direction: ``NS 1``).
_LABELLED = re.compile(r"(NS|EW) (.+)")


def labelled_pair(pair: str) -> tuple[str | None, str]:
    """``NS 1`` -> (``NS``, ``1``); a plain pair number -> (None, it)."""
    m = _LABELLED.fullmatch(pair)
    return (m.group(1), m.group(2)) if m else (None, pair)


def _standing_section(row, sections: dict, known: list[str]) -> tuple[str, str]:
    """(section, pair number) of a standings row (a direction label taken off: USEBIO has DIRECTION)."""
    section, direction = _group_parts(row.group)
    labelled, pair = labelled_pair(str(row.pair))
    direction = direction if direction in ("NS", "EW") else (labelled or direction)
    if section is not None:
        return section, pair
    m = re.fullmatch(r"([A-Za-z]{1,2})(\d+)", pair)
    if m and m.group(1).upper() in known:
        return m.group(1).upper(), m.group(2)
    return (sections.get((pair, direction)) or [known[0]])[0], pair


def _member_ids(names: pd.DataFrame | None, column: str = "ids") -> dict[tuple[str, str, str], list[str]]:
    """(section, pair, direction or "") -> the players' national ids (``column="ids"``) or their clubs'
    numbers (``"club_ids"``), from a names frame (``964263 & 1066307``, as the USEBIO reader and the names
    list give them); empty when there is none."""
    if names is None or column not in names or not len(names):
        return {}
    frame = pd.DataFrame({"section": names["section"].astype("string").fillna("") if "section" in names else "",
                          "pair": names["pair"].astype("string"),
                          "direction": names["direction"].astype("string").fillna("") if "direction" in names else "",
                          "ids": names[column].astype("string").fillna("")})
    return {(row.section, row.pair, row.direction): [i.strip() for i in str(row.ids).split("&")]
            for row in records(frame) if str(row.ids).strip()}


def _participants(parent: ET.Element, rows: pd.DataFrame, method: str,
                  ids: dict[tuple[str, str, str], list[str]],
                  clubs: dict[tuple[str, str, str], list[str]] | None = None, point_type: str = "") -> None:
    block = ET.SubElement(parent, "PARTICIPANTS", {"EVENT_TYPE": EVENT_TYPES[method]})
    unit = ranking_method(method).unit
    rows = rows.assign(total=number_texts(rows["total"], unit, len(rows)), pct=number_texts(rows["pct"], "pct", len(rows)))
    for row in records(rows):
        pair = ET.SubElement(block, "PAIR")
        add_element(pair, "PAIR_NUMBER", row.number)
        direction = _group_parts(row.group)[1]
        if direction not in ("NS", "EW"):  # one ranking of pairs numbered per direction: NS 1 and EW 1 apart
            direction = labelled_pair(str(row.pair))[0] or direction
        ET.SubElement(pair, "DIRECTION").text = direction if direction in ("NS", "EW") else ""
        add_element(pair, "TOTAL_SCORE", row.total)
        if ranking_method(method).percentages:
            add_element(pair, "PERCENTAGE", row.pct)
        add_element(pair, "PLACE", row.rank)
        awarded = getattr(row, "masterpoints", None)
        if awarded is not None and not pd.isna(awarded) and (awarded > 0 or point_type in FLAT_AWARDS):
            # as the federation's producers write it: Compscore (the ABF's colours) on the pair, every pair;
            # EBUScore and the USEBIO layout in MASTER_POINTS, for the pairs awarded
            points = pair if point_type in FLAT_AWARDS else ET.SubElement(pair, "MASTER_POINTS")
            add_element(points, "MASTER_POINTS_AWARDED", f"{float(awarded):g}")
            add_element(points, "MASTER_POINT_TYPE", point_type or None)
        names = "" if pd.isna(row.names) else str(row.names)
        key = (str(row.section), str(row.number), direction if direction in ("NS", "EW") else "")
        numbers = ids.get(key) or ids.get((key[0], key[1], "")) or []
        home = (clubs or {}).get(key) or (clubs or {}).get((key[0], key[1], "")) or []
        for index, name in enumerate(n.strip() for n in names.split(" & ") if n.strip()):
            player = ET.SubElement(pair, "PLAYER")
            add_element(player, "PLAYER_NAME", name)
            ET.SubElement(player, "NATIONAL_ID_NUMBER").text = numbers[index] if index < len(numbers) else ""
            ET.SubElement(player, "CLUB_ID_NUMBER").text = home[index] if index < len(home) else ""


def handset(root: ET.Element, boards: dict[int, dict]) -> None:
    """``HANDSET/BOARD`` per board with a hand record (``HAND`` per known seat, suits clubs first as
    Compscore writes them); ``VULNERABILITY`` only where the board number would give another one."""
    known = {number: board for number, board in sorted(boards.items())
             if ":" in str(board.get("deal") or "") or str(board.get("vul")) in VULNERABILITY}
    if not known:
        return
    usual = dict(zip(known, vul_of(np.array(list(known), dtype=np.int64)).astype(str)))
    hand_records = ET.SubElement(root, "HANDSET")
    for number, board in known.items():
        node = ET.SubElement(hand_records, "BOARD")
        add_element(node, "BOARD_NUMBER", number)
        if str(board.get("vul")) in VULNERABILITY and str(board.get("vul")) != usual[number]:
            add_element(node, "VULNERABILITY", VULNERABILITY[str(board.get("vul"))])
        deal = board.get("deal")
        if deal is None or pd.isna(deal) or ":" not in str(deal):
            continue
        first, _, hands = str(deal).partition(":")
        start = "NESW".index(first.upper())
        for seat, hand in zip("NESW"[start:] + "NESW"[:start], hands.split()):
            if hand == "-":
                continue
            spades, hearts, diamonds, clubs = (hand.split(".") + ["", "", "", ""])[:4]
            hand_node = ET.SubElement(node, "HAND")
            add_element(hand_node, "DIRECTION", SEAT_NAMES[seat])
            for tag, cards in (("CLUBS", clubs), ("DIAMONDS", diamonds), ("HEARTS", hearts), ("SPADES", spades)):
                ET.SubElement(hand_node, tag).text = cards


def _travellers(parent: ET.Element, results: pd.DataFrame, method: str) -> None:
    known = ranking_method(method)
    (ns_col, ew_col), (ns_tag, ew_tag) = known.points, known.usebio_points
    results = shown_frame(results)  # the numbers as every output shows them: NS + EW still the top
    contract = contract_text(results["level"], results["strain"], results["doubled"], results["adjusted"])
    table = pd.DataFrame({
        "board": results["board"].to_numpy(), "ns": results["ns"].astype("string"), "ew": results["ew"].astype("string"),
        "contract": contract, "declarer": results["declarer"].astype("string"),
        "lead": results["lead"].astype("string"), "tricks": results["tricks"].astype("Int64").astype("string"),
        "score": results["score_ns"].astype("Int64").astype("string"),
        # each column as every output shows it (core.shown): the decimals the column needs, never a mix
        "points_ns": number_texts(results[ns_col] if ns_col in results else np.nan, known.unit, len(results)),
        "points_ew": number_texts(results[ew_col] if ew_col in results else np.nan, known.unit, len(results)),
        "datum": number_texts(results["datum"] if method == "butler" and "datum" in results else np.nan, "imp",
                              len(results)),
        "played": (results["level"].fillna(0) > 0).to_numpy(),
    })
    for number, lines in table.groupby("board", sort=True):
        node = ET.SubElement(parent, "BOARD", {"EVENT_TYPE": EVENT_TYPES[method]})
        add_element(node, "BOARD_NUMBER", int(number))
        datum = lines["datum"].dropna()
        if len(datum):
            add_element(node, "BOARD_AVERAGE", datum.iloc[0])
        for line in records(lines):
            row = ET.SubElement(node, "TRAVELLER_LINE")
            add_element(row, "NS_PAIR_NUMBER", None if pd.isna(line.ns) else line.ns)
            add_element(row, "EW_PAIR_NUMBER", None if pd.isna(line.ew) else line.ew)
            add_element(row, "CONTRACT", None if pd.isna(line.contract) else line.contract)
            if line.played:
                add_element(row, "PLAYED_BY", None if pd.isna(line.declarer) else line.declarer)
                add_element(row, "LEAD", None if pd.isna(line.lead) else line.lead)
                add_element(row, "TRICKS", None if pd.isna(line.tricks) else line.tricks)
            add_element(row, "SCORE", None if pd.isna(line.score) else line.score)
            add_element(row, ns_tag, line.points_ns)
            add_element(row, ew_tag, line.points_ew)


def document(root: ET.Element) -> str:
    """The XML text of a USEBIO tree: declaration, the 1.2 DOCTYPE, indented elements (text escaped). A
    character XML cannot hold (a control character typed in a lead or a name) is shown as U+FFFD, the
    replacement character, as the workbook shows it: the file stays readable."""
    ET.indent(root, space="  ")
    body = UNWRITABLE.sub(REPLACEMENT, ET.tostring(root, encoding="unicode"))
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{DOCTYPE}\n{body}\n'


def event_head(root: ET.Element, meta: dict, event_type: str) -> ET.Element:
    """``CLUB`` and the ``EVENT`` element with its description, program, date (shared with the teams writer)."""
    club = meta.get("club") or meta.get("site")
    if club:
        club_node = ET.SubElement(root, "CLUB")
        add_element(club_node, "CLUB_NAME", club)
        # the federation's club number: from the meta when given, else written empty as for players
        ET.SubElement(club_node, "CLUB_ID_NUMBER").text = str(meta.get("club_id") or "")
    event = ET.SubElement(root, "EVENT", {"EVENT_TYPE": event_type})
    add_element(event, "EVENT_DESCRIPTION", meta.get("event"))
    add_element(event, "PROGRAM_NAME", PROGRAM_NAME)
    add_element(event, "PROGRAM_VERSION", __version__)
    return event


def usebio_text(session: Session) -> str:
    """The USEBIO 1.2 document of a scored session, as text (UTF-8 declared)."""
    results, standings = session.results, session.standings
    method = session.conventions.method
    meta = {str(k).lower(): v for k, v in (session.meta or {}).items()}
    sections = sorted(set(results["section"].astype("string").fillna("")))
    root = ET.Element("USEBIO", {"Version": "1.2"})
    event = event_head(root, meta, EVENT_TYPES[method])
    one = standings["group"].astype("string").str.endswith("ALL").all() if len(standings) else True
    add_element(event, "WINNER_TYPE", 1 if one else 2)
    add_element(event, "DATE", usebio_date(meta.get("date")))
    add_element(event, "SESSION_COUNT", 1)
    add_element(event, "SECTION_COUNT", len(sections))
    if ranking_method(method).unit == "imp":
        add_element(event, "SCORING_METHOD", "IMPS")
    add_element(event, "BOARD_SCORING_METHOD", ranking_method(method).usebio)
    awarded = "masterpoints" in standings and bool((standings["masterpoints"] > 0).any())
    if awarded:
        add_element(event, "MASTER_POINT_SCALE", meta.get("masterpoint_scale") or "Club")
        add_element(event, "MPS_AWARDED_FLAG", "Y")

    found = _pair_sections(results)
    placed = [_standing_section(row, found, sections) for row in records(standings)]
    table = standings.assign(section=[p[0] for p in placed], number=[p[1] for p in placed])
    boards = {}
    if session.boards is not None and len(session.boards):
        boards = {int(b["board"]): b for b in session.boards.to_dict("records")}
    ids, clubs = _member_ids(session.names), _member_ids(session.names, "club_ids")
    flat = sections == [""]
    session_node = event if flat else ET.SubElement(event, "SESSION", {"SESSION_ID": "1"})
    for section in sections:
        node = event if flat else ET.SubElement(session_node, "SECTION", {"SECTION_ID": section})
        _participants(node, table[table["section"] == section], method, ids, clubs,
                      str(meta.get("masterpoint_type") or "") if awarded else "")
        _travellers(node, results[results["section"].astype("string").fillna("") == section], method)
    handset(root, boards)
    return document(root)


def write_usebio(session: Session, path: str | os.PathLike) -> None:
    """Write ``session`` as a USEBIO 1.2 XML file at ``path`` (see :func:`usebio_text`).

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
    Path(path).write_text(text, encoding="utf-8", newline="\n")
