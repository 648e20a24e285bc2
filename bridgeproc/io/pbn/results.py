"""Table rows of every game -> the raw ``results``, ``byes``, ``totals`` and ``matches`` frames.

Rows of all tables with the same header are gathered into one flat list of cells,
then cut into columns by slicing; the frame is built once per layout. Cells stay
text; ``-`` (no value) and empty cells become NA (see ``pbn.py`` for the columns).

Which rows each game gives (its tables, or a one-result game's own tags) is ``pbn.game_rows``'.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from bridgeproc.core.vocabulary import PASSED_OUT
from bridgeproc.io.pbn.model import ROW_END, Tag

Problems = list[tuple[int, str]]

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


class RowGroup:
    """Rows of every table with one header, in file order: flat cells as in ``Tag.cells``."""

    __slots__ = ("names", "cells", "lines", "boards", "sections", "counts")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.cells: list = []
        self.lines: list[tuple[int, int] | list[int]] = []  # per table: Tag.row_span or the lines
        self.boards: list[str | None] = []
        self.sections: list[str] = []
        self.counts: list[int] = []

    def add(self, tag_or_rows, lines, board=None, section="") -> None:
        if isinstance(tag_or_rows, Tag) and tag_or_rows.cells is not None:
            self.cells.extend(tag_or_rows.cells)
        else:  # rows as text (read by the regex, or made from tags): "-" and "" stand for no value
            rows = tag_or_rows.rows if isinstance(tag_or_rows, Tag) else tag_or_rows
            assert rows is not None  # a table tag: callers skip tags without rows
            for row in rows:
                self.cells.extend([None if cell in ("-", "") else cell for cell in row])
                self.cells.append(ROW_END)
        self.lines.append(lines)
        self.boards.append(board)
        self.sections.append(section)
        self.counts.append(lines[1] if isinstance(lines, tuple) else len(lines))

    def columns(self) -> dict[str, np.ndarray]:
        """One object array per column (views into one block): text, or a missing value (None or NaN).

        ``-`` and empty cells are already None and ``pbn_model.EMPTY`` (a NaN) in ``Tag.cells``:
        ``pandas.isna`` and the string arrays take both as missing, so no pass over the cells here.
        """
        width = len(self.names)
        cells = np.fromiter(self.cells, dtype=object, count=len(self.cells)).reshape(-1, width + 1)[:, :width]
        return {name: cells[:, i] for i, name in enumerate(self.names)}

    def line_numbers(self) -> np.ndarray:
        """The file line of every row."""
        counts = np.array(self.counts, dtype=np.int64)
        if all(isinstance(part, tuple) for part in self.lines):  # consecutive lines: no list per table
            firsts = np.array([first for first, _ in self.lines], dtype=np.int64)  # type: ignore[misc]
            return np.repeat(firsts - (np.cumsum(counts) - counts), counts) + np.arange(counts.sum())
        return np.concatenate([np.arange(part[0], part[0] + part[1]) if isinstance(part, tuple)
                               else np.array(part, dtype=np.int64) for part in self.lines])

    def per_row(self, values: list) -> np.ndarray:
        """A value per table (board, section) repeated for each of its rows."""
        return np.repeat(_objects(values), self.counts)


def _merge(groups: dict) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
    """Columns of every group, one object array per column name (None where a layout lacks it)."""
    parts = [(group, group.columns()) for group in groups.values()]
    names = dict.fromkeys(name for group, _ in parts for name in group.names)
    columns = {name: _concat([cols[name] if name in cols else _nones(sum(group.counts))
                              for group, cols in parts]) for name in names}
    lines = np.concatenate([group.line_numbers() for group, _ in parts] or [np.empty(0, dtype=np.int64)])
    boards = _concat([group.per_row(group.boards) for group, _ in parts])
    sections = _concat([group.per_row(group.sections) for group, _ in parts])
    return columns, lines, boards, sections


def _concat(arrays: list[np.ndarray]) -> np.ndarray:
    if len(arrays) == 1:
        return arrays[0]
    return np.concatenate(arrays) if arrays else np.empty(0, dtype=object)


def _nones(n: int) -> np.ndarray:
    return np.empty(n, dtype=object)  # an object array starts out all None


def _objects(values: list) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


def _map(values: np.ndarray, func) -> np.ndarray:
    """``func`` of each value (None included), called once per distinct value."""
    codes, uniques = pd.factorize(values)  # None gets code -1: the last entry below
    return _objects([func(u) for u in uniques] + [func(None)]).take(codes)


def _frame(columns: dict[str, np.ndarray], lines: np.ndarray, source: str, order: list[str]) -> pd.DataFrame:
    data = {name: pd.array(columns[name], dtype="string") for name in order}
    data["source"] = pd.array(np.full(len(lines), source, dtype=object), dtype="string")
    data["line"] = pd.array(lines, dtype="Int64")
    frame = pd.DataFrame(data, copy=False)  # the arrays are new: no need for another copy
    if not frame["line"].is_monotonic_increasing:
        frame = frame.sort_values("line", kind="stable").reset_index(drop=True)
    return frame


def table_frame(groups: dict, source: str) -> pd.DataFrame:
    """TotalScoreTable or match rows: lower-cased columns as text, then ``source line``."""
    columns, lines, _, _ = _merge(groups)
    return _frame(columns, lines, source, list(columns))


def results_frames(groups: dict, source: str, notes: Problems | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The raw results frame and the sit-out (``Bye``) rows (producers' quirks read as meant, see
    :func:`machine_rows`, each with a note in ``notes``)."""
    columns, lines, boards, sections = _merge(groups)
    n = len(lines)
    for old, new in RESULT_RENAMES.items():
        if old in columns:
            columns[new] = columns.pop(old)
    table_board = columns.get("board")
    columns["board"] = boards if table_board is None else np.where(pd.isna(table_board), boards, table_board)
    table_section = columns.get("section")
    columns["section"] = sections if table_section is None else \
        np.where(pd.isna(table_section), sections, table_section)
    if "playerid_north" in columns and "ns" not in columns:
        columns["ns"] = _pair(columns["playerid_north"], columns["playerid_south"])
        columns["ew"] = _pair(columns["playerid_east"], columns["playerid_west"])
    for name in RESULT_FIRST:
        if name not in columns:
            columns[name] = _nones(n)
    for name in ROOM_TAGS:  # room games: keep only the tags some game has
        values = columns.get(name.lower())
        if values is not None and pd.isna(values).all():
            del columns[name.lower()]
    _scores(columns, n)
    machine_rows(columns, lines, [] if notes is None else notes)
    rest = [c for c in columns if c not in RESULT_FIRST]
    frame = _frame(columns, lines, source, RESULT_FIRST + rest)
    if not any(isinstance(v, str) and v.upper() == "BYE" for v in pd.unique(columns["score"])):
        return frame, frame.iloc[:0]
    bye = (frame["score"].str.upper() == "BYE").fillna(False).to_numpy()
    return frame[~bye].reset_index(drop=True), frame[bye].reset_index(drop=True)


#: Passed-out spellings of a contract cell (upper case, no spaces).
_PASS_CELLS = frozenset(PASSED_OUT - {"0"})


def machine_rows(columns: dict[str, np.ndarray], lines: np.ndarray, notes: Problems) -> None:
    """Rows a scoring program writes its own way, read as it means them (BridgeWebs ScoreTables).

    * ``PASS  N  -``: a passed-out board written with a declarer: passed out, the seat dropped;
    * ``-  N  -`` (no contract, no result, no score, only a seat): the board was not played
      at that table: ``NP``, not a result; scored ``NP`` (as the scored PBN writes it back), the same.

    A sheet the director typed is validated strictly (a declarer on a pass-out is a problem
    there); these are the program's cells, which the director cannot clear. One note per row.
    """
    contract, declarer, result = columns["contract"], columns["declarer"], columns["result"]
    with_seat = ~pd.isna(declarer)
    if not with_seat.any():
        return
    written = _map(contract, lambda c: c is not None and isinstance(c, str)
                   and c.replace(" ", "").upper() in _PASS_CELLS).astype(bool)
    passed = written & with_seat & pd.isna(result)
    empty = pd.isna(contract) & with_seat & pd.isna(result) & pd.isna(columns["score"]) & pd.isna(columns["lead"])
    # the same row scored NP (the scored PBN of such a file writes it back so): the seat is the program's
    scored_np = _map(contract, _is_np).astype(bool) & with_seat & pd.isna(result) & pd.isna(columns["lead"])
    if not (passed.any() or empty.any() or scored_np.any()):
        return
    columns["declarer"] = declarer = declarer.copy()
    for row in np.flatnonzero(passed):
        notes.append((int(lines[row]), f"passed out, written with declarer {declarer[row]} (as BridgeWebs writes "
                                       "a pass-out): read as passed out"))
    if empty.any():
        columns["contract"] = contract = contract.copy()
        for row in np.flatnonzero(empty):
            notes.append((int(lines[row]), f"no contract and no result, only declarer {declarer[row]} (as BridgeWebs "
                                           "writes a board not played at a table): read as not played (NP)"))
        contract[empty] = "NP"
    for row in np.flatnonzero(scored_np):
        notes.append((int(lines[row]), f"not played (NP), written with declarer {declarer[row]} (as BridgeWebs "
                                       "writes a board not played at a table): the seat is dropped"))
    declarer[passed | empty | scored_np] = None


def _pair(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """``<first>+<second>`` player ids of an individual event (a missing id is written None, as always)."""
    return np.where(pd.isna(first), "None", first) + "+" + np.where(pd.isna(second), "None", second)


def _scores(columns: dict[str, np.ndarray], n: int) -> None:
    """Set ``score`` (NS view) from Score_NS/Score_EW; artificial scores fill an empty contract."""
    if "score_ns" not in columns and "score_ew" not in columns and "score" in columns:
        return  # a table with a single Score column: kept as written
    nothing = _nones(n)
    ns, ew = columns.pop("score_ns", nothing), columns.pop("score_ew", nothing)
    has_ns = ~pd.isna(ns)
    distinct = [v for v in pd.unique(np.concatenate([ns, ew])) if isinstance(v, str)]
    if not "\x00".join(distinct).translate(_NUMBER_CHARS):
        columns["score"] = np.where(has_ns, ns, _map(ew, negate_score))
        return
    ns_number = _map(ns, _is_number).astype(bool)
    ew_number = _map(ew, _is_number).astype(bool)
    ew_view = _map(ew, _ew_only)
    columns["score"] = np.where(has_ns, ns, np.where(ew_number, _map(ew, negate_score), ew_view))
    written = np.where(has_ns, ns, ew)
    contract = columns["contract"] = columns["contract"].copy()
    artificial = ~ns_number & ~ew_number & ~pd.isna(written) & pd.isna(contract) & \
        (_map(written, lambda v: v is None or v.upper() != "BYE")).astype(bool)
    both = artificial & has_ns & ~pd.isna(ew)
    contract[both] = ns[both] + "/" + ew[both]
    not_played = both & _map(ns, _is_np).astype(bool) & _map(ew, _is_np).astype(bool)
    contract[not_played] = "NP"  # "not played" on both sides is one NP, not a split score
    one = artificial & ~both
    contract[one] = np.where(has_ns, ns, ew_view)[one]


def _is_np(text: str | None) -> bool:
    return text is not None and text.strip().upper() == "NP"


def _is_number(text: str | None) -> bool:
    return text is not None and _NUMBER.match(text) is not None


def negate_score(text: str | None) -> str | None:
    """``-`` of a number written as text (``50`` -> ``-50``); None for anything else."""
    if text is None or not _NUMBER.match(text):
        return None
    if text[0] == "-":
        return text[1:]
    return "-" + (text[1:] if text[0] == "+" else text)


def _ew_only(text: str | None) -> str | None:
    """NS's view of an artificial score written for EW only."""
    return None if text is None else {"A+": "A-", "A-": "A+"}.get(text.upper(), text)
