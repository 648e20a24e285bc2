"""The scored PBN written onto the PBN file it was read from, tag by tag.

A club's hand record (BridgeComposer, Dealmaster: commentary, ``%`` options, the double dummy
it gives) or a program's results export (Ruter, Magic Contest, BBO: every game's Auction and
Play) is written back as it was read (``io.pbn.pbn_bytes``), with what scoring adds:

- results read from the file's ScoreTables: each row gets our points columns (``MP_NS`` ...
  ``ButlerDatum``); the columns the file has (``Table``, ``Round``, ``Names`` ...) keep their cells;
- results read from the file's games (one game a table): a ``ScoreMP``/``ScorePercentage`` or
  ``ScoreIMP`` tag in each game (``NS 7.5 EW 2.5``, PBN 2.1 section 3.5);
- a hand record without results, scored from traveller sheets: a ScoreTable in each board's game;
- the TotalScoreTable in the first game (the file's own replaced), and the double-dummy tags the
  game lacks.

Anything else (results from several files, corrections applied, boards the file lacks) is written
as a fresh export (``report.pbn.scored_games``), since a mix would leave results twice or stale.
"""
from __future__ import annotations

import math
from dataclasses import replace
from decimal import Decimal, InvalidOperation

import numpy as np
import pandas as pd

from bridgeproc.core.shown import texts
from bridgeproc.io.pbn.model import Column, Game, PbnFile, Tag
from bridgeproc.rank.methods import METHODS, methods_in

#: ScoreTable columns that are scoring's: always written (replacing the file's own).
SCORE_COLUMNS = frozenset({name for m in METHODS.values() for name in m.pbn_points}
                          | {"Percentage_NS", "Percentage_EW", "ButlerDatum"}
                          | {f"{kind}_{seat}" for kind in ("MP", "IMP", "Percentage")
                             for seat in ("North", "South", "East", "West")})


#: TotalScoreTable columns that identify a pair, and those scoring writes into a published table.
_TOTAL_KEYS = ("Section", "Direction", "PairId", "PlayerId")
#: Our TotalScoreTable columns as an individual event's table names them.
_INDIVIDUAL = {"PairId": "PlayerId", "Names": "Name"}
_TOTAL_SCORES = frozenset({"Rank", "TotalPercentage"} | {m.pbn_total for m in METHODS.values()})


def _merge_totals(given: Tag, columns: list[Column], rows: list[list[str]]) -> bool:
    """Our ranks and totals written into the file's own TotalScoreTable, its other columns (clubs, member
    numbers) kept; False when its pairs are not ours one for one (then it is replaced)."""
    names = given.column_names
    # an individual's table names its players PlayerId and Name (PBN 2.1 section 4.4): ours are those
    ours = [_INDIVIDUAL.get(c.name, c.name) if _INDIVIDUAL.get(c.name) in names and c.name not in names else c.name
            for c in columns]
    keys = [k for k in _TOTAL_KEYS if k in names and k in ours]
    if "PairId" not in keys and "PlayerId" not in keys:
        return False
    def key(row: list[str], header: list[str]) -> tuple[str, ...]:
        return tuple(row[header.index(k)].strip().upper().replace("-", "") for k in keys)
    where = {key(row, names): k for k, row in enumerate(given.rows or ())}
    if len(where) != len(given.rows or ()) or len(rows) != len(where):
        return False
    targets = [where.get(key(row, ours)) for row in rows]
    if any(k is None for k in targets):
        return False
    new = [name for name in ours if name in _TOTAL_SCORES and name not in names]
    keep = [i for i, name in enumerate(names) if name not in _TOTAL_SCORES or name in ours]  # stale totals go
    columns_out = [(given.columns or ())[i] for i in keep] + [Column(name) for name in new]
    table = [[row[i] for i in keep] + ["-"] * len(new) for row in given.rows or ()]
    at = {c.name: i for i, c in enumerate(columns_out)}
    for row, k in zip(rows, targets):
        for name, value in zip(ours, row):
            if name in _TOTAL_SCORES and (name in new or not _agree(table[k][at[name]], value)):  # type: ignore[index]
                table[k][at[name]] = value  # type: ignore[index]
    given.columns, given.rows = tuple(columns_out), table
    given.value = ";".join(c.spec() for c in columns_out)
    return True


def _agree(given: str, ours: str) -> bool:
    """The file's cell says what ours says: the same text, the same rank with or without its tie mark
    (``4`` and ``4=``), or the same number at the file's precision (``56.4`` and ``56.40``, ``1265.6`` and
    ``1265.62``). Then the file's cell is kept, so that only what scoring changed is rewritten."""
    a, b = given.strip(), ours.strip()
    if a == b or (a.rstrip("=") == b.rstrip("=") and a.rstrip("=")):
        return True
    try:
        x, y = Decimal(a), Decimal(b)
    except InvalidOperation:
        return False
    return x == y


def _game_of_line(games: list[Game]):
    """A function file line -> index of the game holding it (-1 before the first)."""
    starts = np.array([g.line for g in games], dtype="int64")
    return lambda lines: np.searchsorted(starts, np.asarray(lines, dtype="int64"), side="right") - 1


def _row_index(games: list[Game]) -> dict[int, tuple[Tag, int]]:
    """File line of each ScoreTable row -> (its tag, row number)."""
    out = {}
    for game in games:
        for tag in game.tags:
            if tag.name == "ScoreTable" and tag.columns is not None:
                for k, line in enumerate(tag.row_lines or ()):
                    out[line] = (tag, k)
    return out


def _update_rows(hits: list[tuple[Tag, int, dict[str, str]]], widths: dict[str, int]) -> None:
    """Write our cells into ScoreTable rows: scoring's columns always, others where the table lacks them."""
    by_tag: dict[int, tuple[Tag, list[tuple[int, dict[str, str]]]]] = {}
    for tag, k, cells in hits:
        by_tag.setdefault(id(tag), (tag, []))[1].append((k, cells))
    for tag, rows_cells in by_tag.values():
        names = tag.column_names
        rows_cells = [(k, _per_seat(cells, names)) for k, cells in rows_cells]
        new = [name for name in rows_cells[0][1] if name not in names  # a column of nothing ("-") is not added
               and (name in SCORE_COLUMNS or any(cells[name] != "-" for _, cells in rows_cells))]
        columns = list(tag.columns or ()) + [Column(name, "", widths.get(name), "R") for name in new]
        rows = [list(row) + ["-"] * len(new) for row in tag.rows or ()]
        at = {c.name: i for i, c in enumerate(columns)}
        for k, cells in rows_cells:
            for name, value in cells.items():
                if name not in at:
                    continue
                if name in new or (name in SCORE_COLUMNS and not _agree(rows[k][at[name]], value)):
                    rows[k][at[name]] = value
        stale = [i for i, c in enumerate(columns) if c.name in SCORE_COLUMNS and c.name not in rows_cells[0][1]]
        if stale:  # another method's points (the file's Butler IMPs on a session scored in MPs): not ours to keep
            columns = [c for i, c in enumerate(columns) if i not in stale]
            rows = [[v for i, v in enumerate(row) if i not in stale] for row in rows]
        tag.columns, tag.rows = tuple(columns), rows
        _widen(tag, SCORE_COLUMNS | set(new))


#: A side's columns as an individual event's ScoreTable has them, one per seat (PBN 2.1 section 4.4).
_SEATS = {"NS": ("North", "South"), "EW": ("East", "West")}


def _per_seat(cells: dict[str, str], names: list[str]) -> dict[str, str]:
    """Our cells for a table with a column per seat (``MP_North`` ... ``Percentage_West``): a side's value
    goes to both its seats' columns, and the side's players (``PairId_NS`` 12+14) are the table's own."""
    if "PlayerId_North" not in names:
        return cells
    out: dict[str, str] = {}
    for name, value in cells.items():
        base, _, side = name.rpartition("_")
        seats = _SEATS.get(side)
        if base == "PairId" and seats:
            continue
        if seats and all(f"{base}_{seat}" in names for seat in seats):
            out.update({f"{base}_{seat}": value for seat in seats})
        else:
            out[name] = value
    return out


def _widen(tag: Tag, written: set[str] | frozenset[str]) -> None:
    """The ``written`` columns keep their width or widen to their widest cell, never narrow (a value keeps
    its digits); the file's other columns stay as it wrote them."""
    rows = tag.rows or []
    columns = list(tag.columns or ())
    for i, column in enumerate(columns):
        if column.width is not None and rows and column.name in written:
            widest = max(len(row[i]) + (2 if " " in row[i] or '"' in row[i] else 0) for row in rows)
            if widest > column.width:
                columns[i] = replace(column, width=widest)
    tag.columns = tuple(columns)
    tag.value = ";".join(c.spec() for c in columns)


def point_texts(values, kind: str) -> list[str]:
    """A column of points cells as every output shows them (core.shown): rounded once, the decimals the
    column needs (``13``, ``8`` or ``13.50``, ``8.25``, never a mix); ``-`` for no value."""
    return [text or "-" for text in texts(values, kind)]


def number_text(value) -> str:
    """A points cell: up to two decimals, trailing zeros dropped; ``-`` for no value."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return "-"
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _side_values(results: pd.DataFrame, points: tuple[str, str]) -> list[str | None]:
    out = []
    for ns, ew in zip(results[points[0]].to_numpy(dtype=object), results[points[1]].to_numpy(dtype=object)):
        a, b = number_text(ns), number_text(ew)
        out.append(None if a == "-" and b == "-" else f"NS {a} EW {b}".replace("NS - ", "").replace(" EW -", ""))
    return out


def _game_score_tags(results: pd.DataFrame) -> dict[str, list[str | None]]:
    """The ScoreMP/ScorePercentage/ScoreIMP values of each result (None: no value)."""
    out: dict[str, list[str | None]] = {}
    for method in methods_in(results):
        name = "ScoreMP" if method.unit == "mp" else "ScoreIMP"
        if name not in out and all(p in results for p in method.points):
            out[name] = _side_values(results, method.points)
        if method.percentages and "pct_ns" in results and "ScorePercentage" not in out:
            out["ScorePercentage"] = _side_values(results, ("pct_ns", "pct_ew"))
    return out


def _set_tag(game: Game, name: str, value: str) -> None:
    tag = game.tag(name)
    if tag is not None:
        tag.value = value
        return
    _append(game, Tag(name, value, 0))


def _append(game: Game, tag: Tag) -> None:
    game.tags.append(tag)
    game._index = game._tables = None  # the game's lookups are built again


def _put_table(game: Game, name: str, columns: list[Column], rows: list[list[str]]) -> None:
    tag = game.tag(name)
    if tag is None:
        tag = Tag(name, "", 0)
        _append(game, tag)
    tag.columns, tag.rows, tag.row_lines = tuple(columns), rows, [0] * len(rows)
    tag.value = ";".join(c.spec() for c in columns)


def _put_dd_tags(game: Game, tags: list[Tag]) -> None:
    """The board's double-dummy tags: added where the game has none; all replaced when the game's own
    table is not the one scored (it could not be the deal's, and was solved again: BridgeWebs' "1 below 7")."""
    ours = {tag.name: tag for tag in tags}
    given = game.tag("DoubleDummyTricks")
    solved_again = given is not None and "DoubleDummyTricks" in ours and \
        given.value.strip().lower() != ours["DoubleDummyTricks"].value.strip().lower()
    for name, tag in ours.items():
        existing = game.tag(name)
        if existing is None:
            _append(game, tag)
        elif solved_again:
            existing.value = tag.value
            if tag.columns is not None:
                existing.columns, existing.rows = tag.columns, tag.rows


def _set_scoring(games: list[Game], scoring: str, same_scoring) -> None:
    """Each scored game's Scoring tag names the session's method: a tag that names another is replaced, a
    game with a score table or score tags and no Scoring tag gets one."""
    for game in games:
        tag = game.tag("Scoring")
        if tag is not None:
            if tag.value.strip() and not (same_scoring is not None and same_scoring(tag.value)):
                tag.value = scoring
            elif not tag.value.strip() and game.tag("ScoreTable") is not None:
                tag.value = scoring
        elif game.tag("ScoreTable") is not None or any(game.tag(n) is not None for n in _GAME_SCORES):
            _append(game, Tag("Scoring", scoring, 0))


#: Per-game score tags (PBN 2.1 section 3.5).
_GAME_SCORES = ("ScoreMP", "ScoreIMP", "ScorePercentage")


def scored_on_source(pbn: PbnFile, boards: pd.DataFrame, results: pd.DataFrame, standings: pd.DataFrame | None,
                     extras: dict[int, list[Tag]], table: tuple[list[Column], list[list[str]]],
                     totals: tuple[list[Column], list[list[str]]] | None, scoring: str | None = None,
                     same_scoring=None, sections_apart: bool = False) -> PbnFile | None:
    """A copy of ``pbn`` with the scores written onto its games, or None when they cannot be (see the
    module docstring). ``table`` is ``report.pbn.score_table(results)``, ``totals`` the TotalScoreTable,
    ``scoring`` the Scoring tag of the session's method: a game's own Scoring tag is replaced when
    ``same_scoring(tag)`` says it names another method (``2S`` scored in IMPs is not read back as MPs).
    ``sections_apart``: sections ranked apart, which only a game per section can say (a fresh export)."""
    games = [game.copy() for game in pbn.games]
    if not games:
        return None
    mine = (results["source"].astype("string") == pbn.source).fillna(False).to_numpy() \
        if "source" in results else np.zeros(len(results), dtype=bool)
    board_games: dict[int, Game] = {}
    for game in games:
        number = (game.get("Board") or "").strip()
        if number.isdigit():
            board_games.setdefault(int(number), game)
    columns, rows = table
    names = [c.name for c in columns]
    widths = {c.name: c.width or 0 for c in columns}
    if mine.all() and len(results):
        lines = results["line"].astype("Int64").to_numpy(dtype="int64", na_value=0)
        index = _row_index(games)
        hits, per_game = [], []
        for i, line in enumerate(lines):
            if int(line) in index:
                tag, k = index[int(line)]
                hits.append((tag, k, dict(zip(names, rows[i]))))
            else:
                per_game.append(i)
        _update_rows(hits, widths)
        if per_game:
            where = _game_of_line(games)(lines[per_game])
            if (where < 0).any():
                return None
            for name, values in _game_score_tags(results.iloc[per_game]).items():
                for g, value in zip(where, values):
                    if value is not None:
                        _set_tag(games[int(g)], name, value)
    elif not mine.any():
        if sections_apart and results["section"].fillna("").nunique() > 1:
            return None  # one ScoreTable per board would be read back across the field
        numbers = results["board"].to_numpy(dtype="int64")
        if not set(numbers.tolist()) <= set(board_games):
            return None  # a board the hand record lacks: a fresh export has a game for it
        by_board: dict[int, list[list[str]]] = {}
        for board, row in zip(numbers, rows):
            by_board.setdefault(int(board), []).append(row)
        for board, board_rows in by_board.items():
            _put_table(board_games[board], "ScoreTable", columns, board_rows)
    else:
        return None
    for board, tags in extras.items():
        target = board_games.get(board)
        if target is not None:
            _put_dd_tags(target, tags)
    if scoring is not None:
        _set_scoring(games, scoring, same_scoring)
    if totals is not None and standings is not None and len(standings):
        given = next((tag for g in games for tag in g.tables("TotalScoreTable")), None)
        if given is None or not _merge_totals(given, *totals):
            _put_table(games[0], "TotalScoreTable", *totals)
    return PbnFile(games=games, boards=pbn.boards, results=pbn.results, totals=pbn.totals, matches=pbn.matches,
                   byes=pbn.byes, meta=pbn.meta, source=pbn.source, version=pbn.version, escapes=pbn.escapes,
                   notes=pbn.notes, original=pbn.original)
