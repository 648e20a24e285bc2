"""Games -> the boards frame of a PBN file (deal checks, dealer/vulnerability, double dummy)."""
from __future__ import annotations

import re
from functools import lru_cache
from operator import itemgetter

import numpy as np
import pandas as pd

from bridgeproc.core.boards import board_dealer, board_vul, vul_from_text
from bridgeproc.core.deal import check_deal
from bridgeproc.io.pbn.model import Column, Game, Tag
from bridgeproc.schema import BOARDS_COLUMNS, DD_COLUMNS, SEATS

#: Vulnerable tag values (any case) -> schema.VULS (PBN 2.1 section 3.4.10).
#: Double-dummy trick columns ``dd_<seat>_<strain>`` (from OptimumResultTable), seats N E S W, strains C D H S NT.
#: Tags copied to the boards frame as text columns.
BOARD_TEXT_TAGS = {"DoubleDummyTricks": "double_dummy_tricks", "OptimumScore": "optimum_score",
                   "OptimumContract": "optimum_contract"}
#: Tags that describe one board or one table, not the event (left out of ``meta``).
BOARD_TAGS = frozenset({
    "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
    "Result", "Auction", "Play", "Note", "Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "Table",
    "Room", "HomeTeam", "VisitTeam", "DoubleDummyTricks", "OptimumScore", "OptimumContract", "BCFlags",
})
_DD_VALUES = itemgetter(*DD_COLUMNS)
#: (seat, denomination) as written in OptimumResultTable -> dd column.
_DD_KEYS = {(seat, denom): f"dd_{seat}_{strain}" for seat in SEATS
            for denom, strain in (("NT", "NT"), ("N", "NT"), ("S", "S"), ("H", "H"), ("D", "D"), ("C", "C"))}
_TRICKS = {str(n): n for n in range(14)} | {f"0{n}": n for n in range(10)}
_HAND = r"[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*\.[AKQJT2-9]*"
#: A deal of four hands written in full (its length then says 52 cards).
_FULL_DEAL = re.compile(rf"[NESW]:{_HAND} {_HAND} {_HAND} {_HAND}")
#: Byte -> bit of its rank (A is bit 12 ... 2 is bit 0); 0 for anything else.
_RANK_BITS = np.zeros(256, dtype=np.int64)
_RANK_BITS[list(b"23456789TJQKA")] = 1 << np.arange(13)

Problems = list[tuple[int, str]]


@lru_cache(maxsize=4096)
def _deal_problem(deal: str) -> str | None:
    return check_deal(deal)


def _complete_deals(deals: list[str]) -> set[str]:
    """The deals that hold 52 distinct cards, 13 a hand, checked all at once (the rest go to check_deal)."""
    full = [d for d in deals if len(d) == 69 and _FULL_DEAL.fullmatch(d)]
    if not full:
        return set()
    chars = np.frombuffer("".join(full).encode("ascii"), dtype=np.uint8).reshape(len(full), 69)[:, 2:]
    # suit of each card: dots seen so far in its hand (hands are 3 dots and a space apart)
    suit = np.cumsum(chars == ord("."), axis=1) - 3 * np.cumsum(chars == ord(" "), axis=1)
    owner = np.arange(len(full))[:, None] * 4 + suit
    per_suit = np.bincount(owner.ravel(), weights=_RANK_BITS[chars].ravel(), minlength=4 * len(full))
    # 52 cards whose rank bits add up to all 13 bits in every suit: no card twice
    valid = (per_suit.reshape(-1, 4) == (1 << 13) - 1).all(axis=1)
    return {deal for deal, ok in zip(full, valid) if ok}


def _board_number(game: Game, problems: Problems) -> int | None:
    tag = game.tag("Board")
    if tag is None:
        problems.append((game.line, "game has no Board tag; add [Board \"n\"]"))
        return None
    value = tag.value.strip()
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        problems.append((tag.line, f"Board {tag.value!r} is not a board number; write a whole number from 1 up"))
        return None
    if int(value) > 9999:
        problems.append((tag.line, f"Board {tag.value!r} is too large for a board number; write a whole number from 1 to 9999"))
        return None
    return int(value)


def _dealer_vul(game: Game, board: int, problems: Problems) -> tuple[str, str]:
    tag = game.tag("Dealer")
    dealer = tag.value.strip().upper() if tag is not None else ""
    if dealer in ("", "?"):
        dealer = board_dealer(board)
    elif dealer not in SEATS:
        problems.append((tag.line, f"bad Dealer value {tag.value!r}; write N, E, S or W"))  # type: ignore[union-attr]
        dealer = board_dealer(board)
    tag = game.tag("Vulnerable")
    text = tag.value.strip() if tag is not None else ""
    if text in ("", "?"):
        return dealer, board_vul(board)
    vul = vul_from_text(text)
    if vul is None:
        problems.append((tag.line, f"bad Vulnerable value {tag.value!r}; write None, NS, EW or All "  # type: ignore[union-attr]
                                   "(also accepted: Love, -, Both)"))
        return dealer, board_vul(board)
    return dealer, vul


@lru_cache(maxsize=256)
def _dd_layout(columns: tuple[Column, ...]) -> tuple[int, int, int, int] | None:
    """Where Declarer, Denomination and Result are in an OptimumResultTable, and its width."""
    names = [c.name.lower() for c in columns]
    try:
        return names.index("declarer"), names.index("denomination"), names.index("result"), len(names)
    except ValueError:
        return None


@lru_cache(maxsize=256)
def _dd_columns(seats: tuple[str, ...], denominations: tuple[str, ...]) -> tuple[str, ...] | None:
    """The dd columns of an OptimumResultTable's rows; None unless each is a known, distinct one."""
    columns: list[str] = []
    for key in zip(seats, denominations):
        column = _DD_KEYS.get(key)
        if column is None:
            return None
        columns.append(column)
    return tuple(columns) if len(set(columns)) == len(columns) else None


def _dd_tricks(table: Tag, problems: Problems) -> dict[str, int]:
    layout = _dd_layout(table.columns or ())
    if layout is None:
        problems.append((table.line, "OptimumResultTable needs the columns Declarer, Denomination and Result"))
        return {}
    seat_at, denom_at, tricks_at, width = layout
    if table.cells is not None:
        # rows still flat (see Tag.cells): every game lists the same seats and strains, looked up once
        cells, step = table.cells, width + 1
        columns = _dd_columns(tuple(cells[seat_at::step]), tuple(cells[denom_at::step]))
        all_tricks = list(map(_TRICKS.get, cells[tricks_at::step]))
        if columns is not None and None not in all_tricks:
            return dict(zip(columns, all_tricks))  # type: ignore[arg-type]
    rows = table.rows or []
    out: dict[str, int] = {}
    for row, line in zip(rows, table.row_lines or ()):
        key = _DD_KEYS.get((row[seat_at], row[denom_at])) or _DD_KEYS.get((row[seat_at].upper(), row[denom_at].upper()))
        tricks = _TRICKS.get(row[tricks_at])
        if key is None or tricks is None:
            problems.append((line, f"bad OptimumResultTable row {' '.join(row)!r}; write seat, denomination "
                                   "and tricks (0-13), e.g. N NT 9"))
            continue
        out[key] = tricks
    return out


def board_rows(games: list[Game], has_results: list[bool], problems: Problems) -> list[dict]:
    """One dict per board (first game with the board number wins; a later Deal may fill a blank one)."""
    boards: dict[int, dict] = {}
    deal_tags = [game.tag("Deal") for game in games]
    deals = [tag.value.strip() if tag is not None else "" for tag in deal_tags]
    complete = _complete_deals(deals)
    for game, results, deal_tag, deal in zip(games, has_results, deal_tags, deals):
        if not deal and not results:
            continue
        board = _board_number(game, problems)
        if board is None:
            continue
        if deal and deal not in complete:
            problem = _deal_problem(deal)
            if problem:
                problems.append((deal_tag.line, f"bad Deal: {problem}"))  # type: ignore[union-attr]
        seen = boards.get(board)
        if seen is not None:
            if deal and seen["deal"] and deal != seen["deal"]:
                problems.append((deal_tag.line, f"board {board} has a different Deal than at line {seen['line']}; "  # type: ignore[union-attr]
                                                "give each board its own number"))
            if seen["deal"] or not deal:
                continue
        dealer, vul = _dealer_vul(game, board, problems)
        row = {"board": board, "dealer": dealer, "vul": vul, "deal": deal or None,
               "line": deal_tag.line if deal_tag is not None else game.line}
        for tag_name, column in BOARD_TEXT_TAGS.items():
            value = game.get(tag_name)
            if value:
                row[column] = value
        for table in game.tables("OptimumResultTable"):
            row.update(_dd_tricks(table, problems))
        boards[board] = row
    return list(boards.values())


def boards_frame(rows: list[dict], source: str) -> pd.DataFrame:
    """The boards frame: BOARDS_COLUMNS plus the text and ``dd_*`` columns that occur."""
    data: dict[str, object] = {}
    for name, dtype in BOARDS_COLUMNS.items():
        if name == "source":
            data[name] = pd.array([source] * len(rows), dtype="string")
        else:
            data[name] = pd.Series([r.get(name) for r in rows], dtype=dtype if name != "line" else "Int64")
    for column in BOARD_TEXT_TAGS.values():
        if any(column in r for r in rows):
            data[column] = pd.array([r.get(column) for r in rows], dtype="string")
    if any("dd_N_NT" in r or "dd_S_NT" in r for r in rows):
        try:  # the usual case, every board with all 20 values: one block, read row by row in C
            tricks = np.array(list(map(_DD_VALUES, rows)), dtype=np.int8)
            data.update({column: pd.array(tricks[:, i], dtype="Int8") for i, column in enumerate(DD_COLUMNS)})
        except KeyError:
            for column in DD_COLUMNS:
                data[column] = pd.array([r.get(column) for r in rows], dtype="Int8")
    frame = pd.DataFrame({k: (v.to_numpy() if isinstance(v, pd.Series) else v) for k, v in data.items()})
    return frame.astype({k: v for k, v in BOARDS_COLUMNS.items()})
