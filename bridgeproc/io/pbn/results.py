"""Table rows of every game -> the raw ``results``, ``byes``, ``totals`` and ``matches`` frames.

Rows of all tables with the same header are gathered into one flat list of cells,
then cut into columns by slicing; the frame is built once per layout. Cells stay
text; ``-`` (no value) and empty cells become NA (see ``pbn.py`` for the columns).
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from bridgeproc.core.vocabulary import PASSED_OUT
from bridgeproc.io.pbn.model import ROW_END, Game, Tag

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
#: A Result tag (PBN 2.1 section 3.4.15): tricks, or one or both sides' tricks, maybe after "^".
_RESULT_TAG = re.compile(r"^\^?\s*(?:(\d{1,2})|(NS|EW)\s+(\d{1,2})(?:\s+(NS|EW)\s+(\d{1,2}))?)$", re.I)
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


def collect(games: list[Game], notes: Problems | None = None, problems: Problems | None = None
            ) -> tuple[dict, dict, dict, list[bool]]:
    """Group table rows by kind and layout; returns (results, totals, matches, has_results per game).

    ``notes`` and ``problems`` (``(line, message)`` lists) collect what a game's tags say
    beyond its rows: a Result in a PBN 2.1 form that is not the declarer's tricks, a game
    with a result but no Board tag (not a board of the event: left out, with a note), a
    frequency table (``Multiplicity``: no pairs to score). When the games with results
    belong to several events (``Event`` tags), each event is scored on its own: the event
    is the section of its results (unless a Section tag names one).
    """
    notes = [] if notes is None else notes
    problems = [] if problems is None else problems
    results: dict = {}
    totals: dict = {}
    matches: dict = {}
    has_results = []
    uses_score_tags = any(g.tag("Score") is not None for g in games)
    plan: list[tuple[Game, list[tuple[Tag, dict]], bool]] = []
    repeats: dict[tuple, int] = {}
    for game in games:
        found = False
        tables: list[tuple[Tag, dict]] = []
        for tag in game.table_tags():
            if tag.name not in ("ScoreTable", "TotalScoreTable") or not tag.row_count:
                continue
            if tag.name == "TotalScoreTable":
                tables.append((tag, totals))
            elif is_results_table(tag):
                tables.append((tag, results))
                found = True
            else:
                if "multiplicity" in lower_names(tag.value):
                    notes.append((tag.line, f"ScoreTable of {tag.row_count} distinct scores with their Multiplicity "
                                            "(a frequency table): it names no pairs, so it is not scored"))
                tables.append((tag, matches))
        room = not found and game.tag("ScoreTable") is None and (_contract_given(game) or _auction_given(game))
        line = result_line(game)
        if room and game.tag("Board") is None:
            notes.append((line, "game has a Contract but no Board tag: not a board of the event, so its result is "
                                "not scored (add [Board \"n\"] to score it)"))
            room = False
        if room and not (game.get("Result") or "").strip() and game.tag("Score") is None and _continued(game):
            notes.append((line, "game is to be continued ('+' ends its Auction or Play) and has no Result: not a "
                                "result yet, so it is not scored"))
            room = False
        if room:
            key = _repeat_key(game)
            if key in repeats:
                notes.append((line, f"game repeats the result of line {repeats[key]} (same event, board, players, "
                                    "contract and result): read once"))
                room = False
            else:
                repeats[key] = line
        plan.append((game, tables, room))
        has_results.append(found or room)
    if any(has_results):
        _unplayed_games(plan, has_results, notes)
    events = {_event(game) for (game, _, _), found in zip(plan, has_results) if found}
    for game, tables, room in plan:
        section = game.get("Section", "") or ""
        if len(events) > 1 and not section:
            section = _event(game)
        for tag, target in tables:
            names = lower_names(tag.value)
            group = target.get(names) or target.setdefault(names, _Group(names))
            group.add(tag, tag.row_span or tag.row_lines, game.get("Board"), section)
        if room:
            _room_row(game, results, uses_score_tags, section, problems)
    return results, totals, matches, has_results


def _contract_given(game: Game) -> bool:
    return (game.get("Contract") or "").strip() not in ("", "?")


def _auction_given(game: Game) -> bool:
    """An Auction with calls and a result beside it (a Result, Score or Play, or four passes): the
    contract can be read from it when the Contract tag is empty. An auction alone is a bidding
    problem (the standard's own files hold such quizzes), not a table's result."""
    tag = game.tag("Auction")
    calls = [t for t in tag.tokens or () if t not in ("+", "*", "-")] if tag is not None else []
    if not calls:
        return False
    passed_out = all(t.upper() in ("PASS", "AP") for t in calls)
    return passed_out or bool((game.get("Result") or "").strip()) or any(
        game.tag(name) is not None for name in ("Score", "Play"))


def result_line(game: Game) -> int:
    """The line a one-result game's row is known by: its Contract tag, else its Auction, else its first tag."""
    for name in ("Contract", "Auction"):
        tag = game.tag(name)
        if tag is not None:
            return tag.line
    return game.tags[0].line if game.tags else 0


#: Tags that say a game is a table's result, not a hand record's deal (the players' names count
#: only when written).
_TABLE_TAGS = ("Contract", "Declarer", "Result", "PairNS", "PairEW", "HomeTeam", "VisitTeam")
_PLAYER_TAGS = ("North", "South", "East", "West")


def _names_a_table(game: Game) -> bool:
    return any(game.tag(name) is not None for name in _TABLE_TAGS) or \
        any((game.get(name) or "").strip() not in ("", "?") for name in _PLAYER_TAGS)


def _unplayed_games(plan: list, has_results: list[bool], notes: Problems) -> None:
    """One note for the games of a results file that give a table but neither contract nor result
    (a board not played there?): they are not results, and saying so keeps nothing dropped silently."""
    lines = [result_line(game) for (game, tables, _), found in zip(plan, has_results)
             if not found and not tables and not _contract_given(game) and not _auction_given(game)
             and not (game.get("Result") or "").strip() and game.tag("Board") is not None and _names_a_table(game)]
    if lines:
        shown = ", ".join(map(str, lines[:5])) + (f" and {len(lines) - 5} more" if len(lines) > 5 else "")
        notes.append((lines[0], f"{len(lines)} game(s) have neither a contract nor a result (lines {shown}): "
                                "not results, so not scored (a board not played at that table?)"))


def _continued(game: Game) -> bool:
    """True when the game's Auction or Play section ends in ``+`` (to be continued, PBN 2.1 section 3.5)."""
    return any(tag is not None and tag.tokens and tag.tokens[-1] == "+"
               for tag in (game.tag("Auction"), game.tag("Play")))


#: The tags that make two one-result games the same result.
_SAME_RESULT = ("Event", "Date", "Board", "North", "South", "East", "West", "PairNS", "PairEW", "HomeTeam",
                "VisitTeam", "Room", "Table", "Section", "Contract", "Declarer", "Result", "Score")


def _repeat_key(game: Game) -> tuple:
    return tuple((game.get(name) or "").strip() for name in _SAME_RESULT)


def _event(game: Game) -> str:
    return game.get("Event") or ""


def _room_row(game: Game, results: dict, uses_score_tags: bool, section: str, problems: Problems) -> None:
    names = ("pairid_ns", "pairid_ew", "contract", "declarer", "result", "score_ns",
             *(t.lower() for t in ROOM_TAGS))
    contract = game.get("Contract", "") or ""
    # "^S": an irregular declarer (PBN 2.1 section 3.4.13) is still the declarer
    declarer = (game.get("Declarer") or "").strip().lstrip("^")
    if uses_score_tags and game.tag("Score") is None and game.tag("Auction") is None and contract.upper() == "PASS":
        contract = "NP"  # the file gives every played board a Score tag: this one was not played
    # Team files (RealBridge): HomeTeam is the team sitting North-South at this table.
    ns = game.get("PairNS") or game.get("HomeTeam") or _names(game.get("North"), game.get("South"))
    ew = game.get("PairEW") or game.get("VisitTeam") or _names(game.get("East"), game.get("West"))
    result_tag = game.tag("Result")
    result = ""
    if result_tag is not None:
        result, problem = declarer_tricks(result_tag.value, declarer)
        if problem:
            problems.append((result_tag.line, problem))
    row = [ns or "", ew or "", contract, declarer, result,
           score_from_tag(game.get("Score"), declarer) or "", *(game.get(t) or "" for t in ROOM_TAGS)]
    group = results.get(names) or results.setdefault(names, _Group(names))
    group.add([row], [result_line(game)], game.get("Board"), section)


def declarer_tricks(value: str, declarer: str | None) -> tuple[str, str | None]:
    """Declarer's tricks (as text) of a Result tag in any PBN 2.1 form (section 3.4.15), and a problem.

    ``"9"``, ``"NS 9"``, ``"EW 4"``, ``"NS 9 EW 4"``, ``"EW 4 NS 9"``, each optionally after
    ``^`` (an agreed result that differs from the play: still the result scored). A form
    naming a side needs the declarer to say whose tricks they are; without one, or for a
    value in no form, the text is returned as written (validation reports it).
    """
    text = value.strip()
    m = _RESULT_TAG.match(text)
    if m is None:
        return text, None
    plain, side, tricks, other_side, other = m.groups()
    if plain is not None:
        return (plain, None) if int(plain) <= 13 else (text, None)
    counts = {side.upper(): int(tricks)}
    if other_side is not None:
        if other_side.upper() == side.upper():
            return text, f"Result {value!r} names {side.upper()} twice; write NS n EW m"
        counts[other_side.upper()] = int(other)
        if sum(counts.values()) != 13:
            return text, f"Result {value!r} gives {sum(counts.values())} tricks, not 13; the two sides' tricks add up to 13"
    if max(counts.values()) > 13:
        return text, f"Result {value!r}: a side takes at most 13 tricks"
    seat = (declarer or "").strip().lstrip("^").upper()
    if seat not in ("N", "E", "S", "W"):
        return text, None
    mine = "NS" if seat in "NS" else "EW"
    theirs = "EW" if mine == "NS" else "NS"
    return str(counts[mine] if mine in counts else 13 - counts[theirs]), None


def _names(first: str | None, second: str | None) -> str | None:
    return f"{first} - {second}" if first and second else None


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
      at that table: ``NP``, not a result.

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
    if not (passed.any() or empty.any()):
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
    declarer[passed | empty] = None


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
        columns["score"] = np.where(has_ns, ns, _map(ew, _negate))
        return
    ns_number = _map(ns, _is_number).astype(bool)
    ew_number = _map(ew, _is_number).astype(bool)
    ew_view = _map(ew, _ew_only)
    columns["score"] = np.where(has_ns, ns, np.where(ew_number, _map(ew, _negate), ew_view))
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
