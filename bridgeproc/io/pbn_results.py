"""Table rows of every game -> the raw ``results``, ``byes``, ``totals`` and ``matches`` frames.

Rows of all tables with the same header are gathered into one flat list of cells,
then cut into columns by slicing; the frame is built once per layout. Cells stay
text; ``-`` (no value) and empty cells become NA (see ``pbn.py`` for the columns).
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain

import numpy as np
import pandas as pd

from .pbn_model import Game, Tag

#: ScoreTable column (lower case) -> raw results column.
RESULT_RENAMES = {"pairid_ns": "ns", "pairid_ew": "ew"}
RESULT_FIRST = ["section", "board", "ns", "ew", "contract", "declarer", "result", "lead", "score"]
_RESULT_MARKERS = ("contract", "pairid_ns", "playerid_north")
#: Tags of a one-result game (no ScoreTable) kept as extra results columns, lower-cased.
ROOM_TAGS = ("Table", "Room", "HomeTeam", "VisitTeam", "Round", "ScoreIMP", "ScoreMP", "ScorePercentage",
             "North", "South", "East", "West")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
#: Deletes the characters of numbers: score cells are plain numbers when nothing else is left.
_NUMBER_CHARS = str.maketrans("", "", "0123456789+-.\x00")
_SCORE_TAG = re.compile(r"^(?:(NS|EW)\s+)?([+-]?\d+)(?:\s+(?:NS|EW)\s+[+-]?\d+)?$", re.I)


@lru_cache(maxsize=1024)
def lower_names(header: str) -> tuple[str, ...]:
    """Lower-cased column names of a table header value; a repeated name gets ``_2``."""
    seen: dict[str, int] = {}
    out = []
    for spec in header.split(";"):
        key = spec.strip().lstrip("+-").split("\\")[0].lower()
        if key in ("source", "line"):  # those name where a row came from
            key += "_"
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}_{seen[key]}")
    return tuple(out)


def is_results_table(table: Tag) -> bool:
    """A ScoreTable with one row per table result (not a team match table)."""
    return any(m in lower_names(table.value) for m in _RESULT_MARKERS)


class _Group:
    """Rows of every table with one header: text blocks (fast path) or row lists, in file order."""

    __slots__ = ("names", "parts", "lines", "boards", "sections")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.parts: list[str | list[list[str]]] = []
        self.lines: list[int] = []
        self.boards: list[str | None] = []
        self.sections: list[str] = []

    def add(self, tag_or_rows, lines, board=None, section="") -> None:
        if isinstance(tag_or_rows, Tag):
            part = tag_or_rows.text if tag_or_rows.text is not None else tag_or_rows.rows
        else:
            part = tag_or_rows
        self.parts.append(part)  # type: ignore[arg-type]
        self.lines.extend(lines)
        self.boards.extend([board] * len(lines))
        self.sections.extend([section] * len(lines))

    def columns(self) -> dict[str, list]:
        if all(isinstance(p, str) for p in self.parts):
            # one split over every block: the cells are made in one go, side by side in memory
            flat = "\n".join(self.parts).split()  # type: ignore[arg-type]
        else:
            flat = []
            for part in self.parts:
                flat.extend(part.split() if isinstance(part, str) else chain.from_iterable(part))
        # Factorize once: every later pass then visits a few distinct string objects
        # (cache friendly) instead of a million scattered ones; "-" and "" become None.
        codes, uniques = pd.factorize(np.array(flat, dtype=object))
        uniques = np.asarray(uniques, dtype=object)
        if len(uniques):
            uniques[(uniques == "-") | (uniques == "")] = None
        cells = uniques.take(codes)
        width = len(self.names)
        return {name: cells[i::width].tolist() for i, name in enumerate(self.names)}


def collect(games: list[Game]) -> tuple[dict, dict, dict, list[bool]]:
    """Group table rows by kind and layout; returns (results, totals, matches, has_results per game)."""
    results: dict = {}
    totals: dict = {}
    matches: dict = {}
    has_results = []
    uses_score_tags = any(g.tag("Score") is not None for g in games)
    for game in games:
        found = False
        for tag in game.tags:
            if tag.name not in ("ScoreTable", "TotalScoreTable") or not tag.row_lines:
                continue
            names = lower_names(tag.value)
            if tag.name == "TotalScoreTable":
                target = totals
            elif is_results_table(tag):
                target, found = results, True
            else:
                target = matches
            group = target.get(names) or target.setdefault(names, _Group(names))
            group.add(tag, tag.row_lines, game.get("Board"), game.get("Section", "") or "")
        if not found and game.tag("ScoreTable") is None and (game.get("Contract") or "").strip() not in ("", "?"):
            found = True
            _room_row(game, results, uses_score_tags)
        has_results.append(found)
    return results, totals, matches, has_results


def _room_row(game: Game, results: dict, uses_score_tags: bool) -> None:
    names = ("pairid_ns", "pairid_ew", "contract", "declarer", "result", "score_ns",
             *(t.lower() for t in ROOM_TAGS))
    contract = game.get("Contract", "") or ""
    declarer = game.get("Declarer") or ""
    if uses_score_tags and game.tag("Score") is None and game.tag("Auction") is None and contract.upper() == "PASS":
        contract = "NP"  # the file gives every played board a Score tag: this one was not played
    # Team files (RealBridge): HomeTeam is the team sitting North-South at this table.
    ns = game.get("PairNS") or game.get("HomeTeam") or _names(game.get("North"), game.get("South"))
    ew = game.get("PairEW") or game.get("VisitTeam") or _names(game.get("East"), game.get("West"))
    row = [ns or "", ew or "", contract, declarer, game.get("Result") or "",
           score_from_tag(game.get("Score"), declarer) or "", *(game.get(t) or "" for t in ROOM_TAGS)]
    group = results.get(names) or results.setdefault(names, _Group(names))
    group.add([row], [game.tag("Contract").line], game.get("Board"), game.get("Section", "") or "")  # type: ignore[union-attr]


def _names(first: str | None, second: str | None) -> str | None:
    return f"{first} - {second}" if first and second else None


def _text_array(values: list) -> pd.arrays.StringArray:
    """Text cells (``-``/empty already None, see ``_Group.columns``) as a string array."""
    return pd.array(values, dtype="string")


def _merge(groups: dict) -> tuple[dict[str, list], list[int], list, list]:
    """Columns of every group, one list per column name (None where a layout lacks it)."""
    columns: dict[str, list] = {}
    lines: list[int] = []
    boards: list = []
    sections: list = []
    for group in groups.values():
        done = len(lines)
        for name, values in group.columns().items():
            columns.setdefault(name, [None] * done).extend(values)
        lines.extend(group.lines)
        boards.extend(group.boards)
        sections.extend(group.sections)
        for values in columns.values():
            values.extend([None] * (len(lines) - len(values)))
    return columns, lines, boards, sections


def _frame(columns: dict[str, list], lines: list[int], source: str, order: list[str]) -> pd.DataFrame:
    data = {name: _text_array(columns[name]) for name in order}
    data["source"] = pd.array([source] * len(lines), dtype="string")
    data["line"] = pd.array(lines, dtype="Int64")
    frame = pd.DataFrame(data)
    if not frame["line"].is_monotonic_increasing:
        frame = frame.sort_values("line", kind="stable").reset_index(drop=True)
    return frame


def table_frame(groups: dict, source: str) -> pd.DataFrame:
    """TotalScoreTable or match rows: lower-cased columns as text, then ``source line``."""
    columns, lines, _, _ = _merge(groups)
    return _frame(columns, lines, source, list(columns))


def results_frames(groups: dict, source: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The raw results frame and the sit-out (``Bye``) rows."""
    columns, lines, boards, sections = _merge(groups)
    n = len(lines)
    for old, new in RESULT_RENAMES.items():
        if old in columns:
            columns[new] = columns.pop(old)
    table_board = columns.get("board")
    columns["board"] = boards if table_board is None else [
        b if v in (None, "-", "") else v for v, b in zip(table_board, boards)]
    table_section = columns.get("section")
    columns["section"] = sections if table_section is None else [
        s if v in (None, "-") else v for v, s in zip(table_section, sections)]
    if "playerid_north" in columns and "ns" not in columns:
        columns["ns"] = [f"{a}+{b}" for a, b in zip(columns["playerid_north"], columns["playerid_south"])]
        columns["ew"] = [f"{a}+{b}" for a, b in zip(columns["playerid_east"], columns["playerid_west"])]
    for name in RESULT_FIRST:
        columns.setdefault(name, [None] * n)
    for name in ROOM_TAGS:  # room games: keep only the tags some game has
        values = columns.get(name.lower())
        if values is not None and not any(values):
            del columns[name.lower()]
    _scores(columns, n)
    rest = [c for c in columns if c not in RESULT_FIRST]
    frame = _frame(columns, lines, source, RESULT_FIRST + rest)
    if not any(v is not None and v.upper() == "BYE" for v in set(columns["score"])):
        return frame, frame.iloc[:0]
    bye = (frame["score"].str.upper() == "BYE").fillna(False).to_numpy()
    return frame[~bye].reset_index(drop=True), frame[bye].reset_index(drop=True)


def _scores(columns: dict[str, list], n: int) -> None:
    """Set ``score`` (NS view) from Score_NS/Score_EW; artificial scores fill an empty contract."""
    if "score_ns" not in columns and "score_ew" not in columns and "score" in columns:
        return  # a table with a single Score column: kept as written
    ns = [None if v == "-" or not v else v for v in columns.pop("score_ns", None) or [None] * n]
    ew = [None if v == "-" or not v else v for v in columns.pop("score_ew", None) or [None] * n]
    if not "\x00".join([v for v in ns if v] + [v for v in ew if v]).translate(_NUMBER_CHARS):
        negated = {v: _negate(v) for v in set(ew)}
        columns["score"] = [a if a is not None else negated[b] for a, b in zip(ns, ew)]
        return
    score, contract = [], columns["contract"]
    for i, (a, b) in enumerate(zip(ns, ew)):
        a_num = a is not None and _NUMBER.match(a) is not None
        b_num = b is not None and _NUMBER.match(b) is not None
        score.append(a if a is not None else (_negate(b) if b_num else _ew_only(b)))
        if not a_num and not b_num and (a or b) and contract[i] in (None, "-", "") and (a or b).upper() != "BYE":
            contract[i] = f"{a}/{b}" if a and b else (a or _ew_only(b))
    columns["score"] = score


def _negate(text: str | None) -> str | None:
    """``-`` of a number written as text (``50`` -> ``-50``); None for anything else."""
    if text is None or not _NUMBER.match(text):
        return None
    if text[0] == "-":
        return text[1:]
    return "-" + (text[1:] if text[0] == "+" else text)


def _ew_only(text: str | None) -> str | None:
    """NS's view of an artificial score written for EW only."""
    return None if text is None else {"A+": "A-", "A-": "A+"}.get(text.upper(), text)


def score_from_tag(value: str | None, declarer: str | None) -> str | None:
    """NS score from a ``Score`` tag (``NS 420``, ``EW 50``, ``NS 420 EW -420`` or declarer's ``420``)."""
    if not value:
        return None
    m = _SCORE_TAG.match(value.strip())
    if m is None:
        return None
    side, points = (m.group(1) or "").upper(), m.group(2)
    if not side:
        side = "EW" if (declarer or "").upper() in ("E", "W") else "NS"
    return _negate(points) if side == "EW" else points.lstrip("+")
