"""Games -> the boards frame of a PBN file (deal checks, dealer/vulnerability, double dummy)."""
from __future__ import annotations

import re
from functools import lru_cache
from operator import itemgetter

import numpy as np
import pandas as pd

from bridgeproc.core.boards import board_dealer, board_vul, vul_from_text
from bridgeproc.core.deal import DealError, check_deal, parse_deal
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


def _dealer_vul(game: Game, board: int) -> tuple[str, str]:
    """Dealer and vulnerability from the tags, else from the board number (``tags.check_tags``
    reports a value in neither form)."""
    dealer = (game.get("Dealer") or "").strip().upper()
    if dealer not in SEATS:
        dealer = board_dealer(board)
    text = (game.get("Vulnerable") or "").strip()
    vul = vul_from_text(text) if text not in ("", "?") else None
    return dealer, vul if vul is not None else board_vul(board)


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


def _hands(deal: str) -> dict[str, str] | None:
    """The known hands of a deal by seat, each suit's ranks in one order; None if the deal is unreadable."""
    try:
        hands = parse_deal(deal)
    except DealError:
        return None
    return {seat: ".".join("".join(sorted(suit)) for suit in hand.split("."))
            for seat, hand in hands.items() if hand is not None}


def same_deal(first: str, second: str) -> bool:
    """True when two deals can be one: rotated (``E:...`` equals ``N:...``) or partial, every hand
    both know is the same. An unreadable deal is the same only as the same text."""
    if first == second:
        return True
    a, b = _hands(first), _hands(second)
    if a is None or b is None:
        return False
    return all(a[seat] == b[seat] for seat in a.keys() & b.keys())


def event_of(game: Game) -> tuple[str, str]:
    """What names a game's event for its board number: its Event and Date tags."""
    return game.get("Event") or "", game.get("Date") or ""


def end_position(deal: str) -> int:
    """Cards a hand when a deal is an end position (PBN 2.1 section 3.4.11: all four hands hold
    the same number of cards, fewer than 13, each card once); 0 for anything else."""
    hands = deal.strip().partition(":")[2].split()
    known = [hand for hand in hands if hand != "-"]
    if len(hands) != 4 or len(known) != 4 or any(hand.count(".") != 3 for hand in known):
        return 0
    cards = [suit + rank for hand in known for suit, ranks in zip("SHDC", hand.split(".")) for rank in ranks]
    size = len(cards) // len(known)
    if not 0 < size < 13 or any(len(hand) - 3 != size for hand in known) or len(set(cards)) != len(cards) \
            or any(card[1] not in "AKQJT98765432" for card in cards):
        return 0
    return size


def known_hands(deal: str) -> int:
    """How many hands a deal gives (0 for an unreadable one)."""
    hands = _hands(deal)
    return 0 if hands is None else len(hands)


def board_rows(games: list[Game], has_results: list[bool], problems: Problems,
               notes: Problems | None = None) -> list[dict]:
    """One dict per board number (the first game with a deal wins; a later one that agrees and
    gives more hands fills it in). A game with its own Board tag and no Deal tag is a board without
    its cards (``deal`` None), so that its results are scored without them, as the note at it says.

    A board is identified by its event (``Event`` and ``Date``) and number: one number dealt
    differently within one event is a problem; in another event it is another board, and the boards frame keeps
    the first event's (a note says so when that event has results). A game with a Deal but no
    Board tag is no board of the event (PBN's import format makes no tag mandatory): left
    out, with a note.
    """
    notes = [] if notes is None else notes
    boards: dict[int, dict] = {}
    events: dict[tuple[tuple[str, str], int], dict] = {}
    deal_tags = [game.tag("Deal") for game in games]
    deals = [tag.value.strip() if tag is not None else "" for tag in deal_tags]
    complete = _complete_deals(deals)
    for game, results, deal_tag, deal in zip(games, has_results, deal_tags, deals):
        own_board = game.tag("Board") is not None and not game.tag("Board").inherited  # type: ignore[union-attr]
        if not deal and not results and not (own_board and deal_tag is None):
            continue  # a game of its own board with no Deal tag is still a board: its results have no cards
        if deal and deal not in complete:
            problem = _deal_problem(deal)
            if problem and end_position(deal):
                notes.append((deal_tag.line, f"the Deal is an end position ({end_position(deal)} cards a hand): "  # type: ignore[union-attr]
                                             "not a board's hand record"))
                deal = ""
            elif problem:
                problems.append((deal_tag.line, f"bad Deal: {problem}"))  # type: ignore[union-attr]
            if not deal and not results:
                continue
        if game.tag("Board") is None and not results:
            if (game.get("Contract") or "").strip() in ("", "?"):  # (one with a Contract is noted by collect)
                notes.append((deal_tag.line, "game has a Deal but no Board tag: not a board of the event, "  # type: ignore[union-attr]
                                             "left out (add [Board \"n\"] to use it)"))
            continue
        board = _board_number(game, problems)
        if board is None:
            continue
        event = event_of(game)
        seen = events.get((event, board))
        if seen is not None:
            if deal and seen["deal"] and not same_deal(deal, seen["deal"]):
                problems.append((deal_tag.line, f"board {board} has a different Deal than at line {seen['line']}; "  # type: ignore[union-attr]
                                                "give each board its own number"))
                continue
            if not deal or (seen["deal"] and known_hands(deal) <= known_hands(seen["deal"])):
                continue
        dealer, vul = _dealer_vul(game, board)
        row = {"board": board, "dealer": dealer, "vul": vul, "deal": deal or None,
               "line": deal_tag.line if deal_tag is not None else game.line}
        for tag_name, column in BOARD_TEXT_TAGS.items():
            value = game.get(tag_name)
            if value:
                row[column] = value
        for table in game.tables("OptimumResultTable"):
            row.update(_dd_tricks(table, problems))
        events[(event, board)] = row
        kept = boards.get(board)
        if kept is None or kept is seen or (deal and not kept["deal"]):
            boards[board] = row
        elif results and deal and kept["deal"] and not same_deal(deal, kept["deal"]):
            notes.append((deal_tag.line, f"board {board} of event {event[0]!r} is another deal than board {board} at "  # type: ignore[union-attr]
                                         f"line {kept['line']} (another event): the hand record keeps the first"))
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
            tricks = np.ascontiguousarray(np.array(list(map(_DD_VALUES, rows)), dtype=np.int8).T)
            known = np.zeros(len(rows), dtype=bool)  # Int8 arrays made straight from their values and mask
            data.update({column: pd.arrays.IntegerArray(tricks[i], known) for i, column in enumerate(DD_COLUMNS)})
        except KeyError:
            for column in DD_COLUMNS:
                data[column] = pd.array([r.get(column) for r in rows], dtype="Int8")
    frame = pd.DataFrame(data)  # every column made at its declared dtype, on the same RangeIndex
    return frame.astype({k: v for k, v in BOARDS_COLUMNS.items() if frame[k].dtype != pd.api.types.pandas_dtype(v)})
