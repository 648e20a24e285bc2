"""USEBIO result lines: a board's ``TRAVELLER_LINE`` elements -> raw results rows (text as written).

Finds a board's result lines (also misspelt or inside a wrapper), reads each as a row of the raw
results frame (pair numbers, or a ``MATCH``'s teams; the contract cell, or an artificial ``SCORE``;
published points), and says in one note each what was read other than written: a pass-out with a
declarer's seat (Compscore, ScoreBridge), a contract beside an artificial score. Shared by the pairs
reader (``io.usebio.reader``) and the team-event reader (``io.usebio.teams``).
"""
from __future__ import annotations

import re

from bridgeproc.core.notation import parse_adjusted
from bridgeproc.core.vocabulary import PASSED_OUT
from bridgeproc.errors import ParseError
from bridgeproc.io.usebio.layout import KNOWN_ELEMENTS, NUMBER_TEXT, POINTS_ELEMENTS, directed_pair, number_text
from bridgeproc.io.usebio.xml_tree import Node

__all__ = ["board_number", "line_like", "line_row", "lines_of", "match_info", "passout_notes", "unused_score_notes"]

#: Children that make an unknown element a result line (a misspelt ``TRAVELER_LINE``).
_LINE_KEYS = ("NS_PAIR_NUMBER", "EW_PAIR_NUMBER", "CONTRACT")


def line_like(node: Node) -> bool:
    """An element bridgeproc does not know that holds a result (a misspelt ``TRAVELER_LINE``)."""
    return node.tag not in KNOWN_ELEMENTS and any(node.find(tag) is not None for tag in _LINE_KEYS)


def lines_of(board: Node) -> list[Node]:
    """The result lines of a board: its ``TRAVELLER_LINE`` elements, and elements that hold a
    result under another name or inside a wrapper (not those of a board nested in it)."""
    out: list[Node] = []
    stack = list(reversed(board.children))
    while stack:
        node = stack.pop()
        if node.tag == "TRAVELLER_LINE" or line_like(node):
            out.append(node)
        elif node.tag != "BOARD" and node.tag not in KNOWN_ELEMENTS:
            stack.extend(reversed(node.children))
    return out


def _score(line: Node) -> tuple[str | None, str | None]:
    """(NS score text, artificial-score text) of a traveller line."""
    score = line.value("SCORE")
    if score is None:
        ns, ew = line.value("NS_SCORE"), line.value("EW_SCORE")
        if ns is not None:
            score = ns
        elif ew is not None and NUMBER_TEXT.match(ew):
            score = ew[1:] if ew.startswith("-") else "-" + ew.lstrip("+")
        else:
            score = ew
    if score is not None and not NUMBER_TEXT.match(score) and parse_adjusted(score) is not None:
        return None, score
    return score, None  # a score that is neither a number nor an artificial score (-48O) is checked as written


def line_row(line: Node, board: str, section: str, session: str, source: str, match: dict) -> dict:
    """One result line as a raw results row (text as written; a ``MATCH``'s teams when it has no pair numbers)."""
    ns, ew = line.value("NS_PAIR_NUMBER"), line.value("EW_PAIR_NUMBER")
    if ns is None and ew is None and match:
        sat = (line.value("DIRECTION") or "NS").upper().replace("-", "").replace("/", "")
        team, other = match.get("team"), match.get("opposing_team")
        ns, ew = (other, team) if sat in ("EW", "E", "W") else (team, other)
    if ns is None and ew is None:
        raise ParseError(source, line.line, "<TRAVELLER_LINE> without <NS_PAIR_NUMBER> and <EW_PAIR_NUMBER>; "
                         "write both pair numbers")
    score, artificial = _score(line)
    contract = line.value("CONTRACT")
    unused = None
    if artificial is not None and (contract is None or contract in ("-", "--")):
        contract = artificial
    elif artificial is not None:
        unused = artificial  # a contract and an artificial score: the contract is read, the score named in a note
    tricks = line.value("TRICKS") or line.value("RESULT")
    declarer = line.value("PLAYED_BY") or line.value("DECLARER")
    passed_seat = None
    if contract is not None and re.sub(r"[\s_\-]", "", contract.upper()) in PASSED_OUT and contract != "0":
        # Compscore and ScoreBridge write a pass-out with the seat of the table's North and
        # TRICKS 0 or empty: a director cannot edit the export, so the seat is noted, not refused
        if declarer is not None and tricks in (None, "0", "-"):
            passed_seat, declarer, tricks = declarer, None, None
    points = {column: next((v for v in (number_text(line, tag, source) for tag in tags) if v is not None), None)
              for column, tags in POINTS_ELEMENTS.items()}
    return {"section": section, "board": board, "ns": directed_pair(ns)[0], "ew": directed_pair(ew)[0], "contract": contract,
            "declarer": declarer, "result": tricks, "lead": line.value("LEAD"), "score": score,
            **points, "imp_ns": points["imp_ns"] or match.get("imps"), "butlerdatum": match.get("datum"),
            "round": match.get("round"), "team": match.get("team"), "opposing_team": match.get("opposing_team"),
            "session": session or None, "source": source, "line": line.line, "passed_seat": passed_seat,
            "unused_score": unused}


def board_number(board: Node, source: str) -> str:
    """A board's ``BOARD_NUMBER`` (1 or more, written without leading zeros); ParseError when it has none."""
    number = number_text(board, "BOARD_NUMBER", source, int)
    if number is None or int(number) < 1:
        raise ParseError(source, board.line, "<BOARD> without a <BOARD_NUMBER> of 1 or more; number every board")
    return str(int(number))


def match_info(match: Node | None) -> dict:
    """The teams of a ``MATCH`` (``TEAM`` sat where each line's ``DIRECTION`` says) and its round."""
    if match is None:
        return {}
    return {"round": match.value("ROUND_NUMBER"),
            "team": match.value("TEAM") or match.value("TEAM_ID") or match.value("NS_PAIR_NUMBER"),
            "opposing_team": match.value("OPPOSING_TEAM") or match.value("OPPOSING_TEAM_ID")
            or match.value("EW_PAIR_NUMBER")}


def unused_score_notes(rows: list[dict], source: str) -> list[dict]:
    """One note for lines with both a contract and an artificial ``SCORE`` (the contract is read)."""
    both = [(row, unused) for row in rows if (unused := row.pop("unused_score", None)) is not None]
    if not both:
        return []
    first, score = both[0]
    return [{"source": source, "line": str(first["line"]), "column": "score", "value": score,
             "message": f"{len(both)} line(s) give both a contract and an artificial <SCORE> (line {first['line']}: "
                        f"{first['contract']!r} and {score!r}): the contract is read, the artificial score is not; "
                        "if the director adjusted the result, correct the export"}]


def passout_notes(rows: list[dict], source: str) -> list[dict]:
    """One note for the pass-outs written with a declarer's seat (read as passed out)."""
    seated = [r for r in rows if r.pop("passed_seat", None) is not None]
    if not seated:
        return []
    first = seated[0]
    return [{"source": source, "line": str(first["line"]), "column": "declarer", "value": first["contract"],
             "message": f"{len(seated)} passed-out line(s) carry a PLAYED_BY seat and no tricks, as Compscore and "
                        "ScoreBridge write a pass-out: read as passed out, the seat ignored"}]
