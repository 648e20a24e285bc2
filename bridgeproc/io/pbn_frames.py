"""Games -> the boards, raw results, totals and matches frames of a PBN file.

Cells stay text (``string``) in ``results``/``totals``/``matches`` so that
``validate.build_results`` reports bad cells as problems; ``-`` (no value) becomes
NA. Columns are built once from lists per table layout, not row by row.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd

from ..deal import check_deal
from ..schema import BOARDS_COLUMNS, SEATS, STRAINS
from .pbn_model import Game, Tag

#: Vulnerable tag values (any case) -> schema.VULS (PBN 2.1 section 3.4.10).
VULNERABLE = {"none": "None", "love": "None", "-": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
_VUL_CYCLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW")
#: Double-dummy trick columns ``dd_<seat>_<strain>`` (from OptimumResultTable), seats N E S W, strains C D H S NT.
DD_COLUMNS = [f"dd_{seat}_{strain}" for seat in SEATS for strain in STRAINS]
#: Tags copied to the boards frame as text columns.
BOARD_TEXT_TAGS = {"DoubleDummyTricks": "double_dummy_tricks", "OptimumScore": "optimum_score",
                   "OptimumContract": "optimum_contract"}
#: ScoreTable column (lower case) -> raw results column.
RESULT_RENAMES = {"pairid_ns": "ns", "pairid_ew": "ew"}
_RESULT_MARKERS = ("contract", "pairid_ns", "playerid_north")
#: Tags of a one-result game (no ScoreTable) kept as extra results columns.
ROOM_TAGS = ("Table", "Room", "HomeTeam", "VisitTeam", "Round", "ScoreIMP", "ScoreMP", "ScorePercentage",
             "North", "South", "East", "West")
#: Tags that describe one board or one table, not the event (left out of ``meta``).
BOARD_TAGS = frozenset({
    "Board", "West", "North", "East", "South", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract",
    "Result", "Auction", "Play", "Note", "Score", "ScoreIMP", "ScoreMP", "ScorePercentage", "Table",
    "Room", "HomeTeam", "VisitTeam", "DoubleDummyTricks", "OptimumScore", "OptimumContract", "BCFlags",
})
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")
_NUMBERS = re.compile(r"[+-]?\d+(?:\.\d+)?(?:\x00[+-]?\d+(?:\.\d+)?)*")
_SCORE_TAG = re.compile(r"^(?:(NS|EW)\s+)?([+-]?\d+)(?:\s+(NS|EW)\s+([+-]?\d+))?$", re.I)
_DENOMS = {"NT": "NT", "N": "NT", "S": "S", "H": "H", "D": "D", "C": "C"}

Problems = list[tuple[int, str]]


@lru_cache(maxsize=4096)
def _deal_problem(deal: str) -> str | None:
    return check_deal(deal)


def _text_array(values, missing=("-", "")) -> pd.arrays.StringArray:
    arr = np.array(values, dtype=object)
    if len(arr):
        arr[np.isin(arr, list(missing))] = None
    return pd.array(arr, dtype="string")


def _board_number(game: Game, problems: Problems) -> int | None:
    tag = game.tag("Board")
    if tag is None:
        problems.append((game.line, "game has no Board tag; add [Board \"n\"]"))
        return None
    value = tag.value.strip()
    if not value.isdigit() or int(value) < 1:
        problems.append((tag.line, f"Board {tag.value!r} is not a board number; write a whole number from 1 up"))
        return None
    return int(value)


def _dealer_vul(game: Game, board: int, problems: Problems) -> tuple[str, str]:
    tag = game.tag("Dealer")
    dealer = tag.value.strip().upper() if tag is not None else ""
    if dealer in ("", "?"):
        dealer = "NESW"[(board - 1) % 4]
    elif dealer not in SEATS:
        problems.append((tag.line, f"bad Dealer value {tag.value!r}; write N, E, S or W"))  # type: ignore[union-attr]
        dealer = "NESW"[(board - 1) % 4]
    tag = game.tag("Vulnerable")
    text = tag.value.strip() if tag is not None else ""
    if text in ("", "?"):
        return dealer, _VUL_CYCLE[(board - 1) % 16]
    vul = VULNERABLE.get(text.lower())
    if vul is None:
        problems.append((tag.line, f"bad Vulnerable value {tag.value!r}; write None, NS, EW or All "  # type: ignore[union-attr]
                                   "(also accepted: Love, -, Both)"))
        return dealer, _VUL_CYCLE[(board - 1) % 16]
    return dealer, vul


def _dd_tricks(table: Tag, problems: Problems) -> dict[str, int]:
    names = [n.lower() for n in table.column_names]
    try:
        seat_at, denom_at, tricks_at = names.index("declarer"), names.index("denomination"), names.index("result")
    except ValueError:
        problems.append((table.line, "OptimumResultTable needs the columns Declarer, Denomination and Result"))
        return {}
    out: dict[str, int] = {}
    for row, line in zip(table.rows or (), table.row_lines or ()):
        seat, denom, tricks = row[seat_at].upper(), _DENOMS.get(row[denom_at].upper()), row[tricks_at]
        if seat not in SEATS or denom is None or not tricks.isdigit() or int(tricks) > 13:
            problems.append((line, f"bad OptimumResultTable row {' '.join(row)!r}; write seat, denomination "
                                   "and tricks, e.g. N NT 9"))
            continue
        out[f"dd_{seat}_{denom}"] = int(tricks)
    return out


def board_rows(games: list[Game], has_results: list[bool], problems: Problems) -> list[dict]:
    """One dict per board (first game with the board number wins; a later Deal may fill a blank one)."""
    boards: dict[int, dict] = {}
    for game, results in zip(games, has_results):
        deal_tag = game.tag("Deal")
        deal = deal_tag.value.strip() if deal_tag is not None else ""
        if not deal and not results:
            continue
        board = _board_number(game, problems)
        if board is None:
            continue
        if deal:
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
        for column in DD_COLUMNS:
            data[column] = pd.array([r.get(column) for r in rows], dtype="Int8")
    frame = pd.DataFrame({k: (v.to_numpy() if isinstance(v, pd.Series) else v) for k, v in data.items()})
    return frame.astype({k: v for k, v in BOARDS_COLUMNS.items()})


def is_results_table(table: Tag) -> bool:
    """A ScoreTable with one row per table result (not a team match table)."""
    names = {n.lower() for n in table.column_names}
    return any(m in names for m in _RESULT_MARKERS)


def _negate(text: str | None) -> str | None:
    """``-`` of a number written as text (``50`` -> ``-50``); None for anything else."""
    if text is None or not _NUMBER.match(text):
        return None
    if text[0] == "-":
        return text[1:]
    return "-" + (text[1:] if text[0] == "+" else text)


def table_frame(groups: dict[tuple[str, ...], dict], source: str) -> pd.DataFrame:
    """Concatenate table rows grouped by header; columns lower-cased, text, ``-`` -> NA."""
    frames = []
    for names, group in groups.items():
        columns = list(zip(*group["rows"])) if group["rows"] else [()] * len(names)
        data = {name: _text_array(col) for name, col in zip(names, columns)}
        for extra, values in group.get("extra", {}).items():
            data[extra] = pd.array(values, dtype="string")
        data["source"] = pd.array([source] * len(group["lines"]), dtype="string")
        data["line"] = pd.array(group["lines"], dtype="Int64")
        frames.append(pd.DataFrame(data))
    if not frames:
        return pd.DataFrame({"source": pd.array([], dtype="string"), "line": pd.array([], dtype="Int64")})
    if len(frames) == 1:
        return frames[0]
    return pd.concat(frames, ignore_index=True).sort_values("line", kind="stable").reset_index(drop=True)


def lower_names(table: Tag) -> tuple[str, ...]:
    """Lower-cased column names of a table; a repeated name gets a ``_2`` suffix."""
    seen: dict[str, int] = {}
    out = []
    for name in table.column_names:
        key = name.lower()
        seen[key] = seen.get(key, 0) + 1
        out.append(key if seen[key] == 1 else f"{key}_{seen[key]}")
    return tuple(out)


def finish_results(frame: pd.DataFrame) -> pd.DataFrame:
    """Add the canonical raw results columns (board, section, ns, ew, score, contract ...)."""
    frame = frame.rename(columns=RESULT_RENAMES)
    n = len(frame)
    na = pd.array([None] * n, dtype="string")
    if "board" not in frame:
        frame["board"] = frame.pop("_board")
    else:
        frame["board"] = frame["board"].fillna(frame.pop("_board"))
    section = frame.pop("_section")
    frame["section"] = frame["section"].fillna(section) if "section" in frame else section
    if "playerid_north" in frame and "ns" not in frame:
        frame["ns"] = frame["playerid_north"] + "+" + frame["playerid_south"]
        frame["ew"] = frame["playerid_east"] + "+" + frame["playerid_west"]
    for name in ("ns", "ew", "contract", "declarer", "result", "lead"):
        if name not in frame:
            frame[name] = na
    ns = _values(frame.pop("score_ns")) if "score_ns" in frame else [None] * n
    ew = _values(frame.pop("score_ew")) if "score_ew" in frame else [None] * n
    if _all_numbers(ns) and _all_numbers(ew):
        score = [a if a is not None else _negate(b) for a, b in zip(ns, ew)]
    else:
        score, codes = [], []
        for a, b in zip(ns, ew):
            a_num = a is not None and _NUMBER.match(a) is not None
            b_num = b is not None and _NUMBER.match(b) is not None
            score.append(a if a is not None else (_negate(b) if b_num else _ew_only(b)))
            if a_num or b_num or (a is None and b is None):
                codes.append(None)
            else:
                codes.append(f"{a}/{b}" if a is not None and b is not None else (a or _ew_only(b)))
        contract = _values(frame["contract"])
        frame["contract"] = pd.array([c if code is None or c not in (None, "") else code
                                      for c, code in zip(contract, codes)], dtype="string")
    frame["score"] = pd.array(score, dtype="string")
    first = ["section", "board", "ns", "ew", "contract", "declarer", "result", "lead", "score"]
    rest = [c for c in frame.columns if c not in first and c not in ("source", "line")]
    return frame[first + rest + ["source", "line"]]


def _values(column: pd.Series) -> list:
    return column.astype(object).where(column.notna(), None).tolist()


def _all_numbers(values: list) -> bool:
    present = [v for v in values if v is not None]
    return _NUMBERS.fullmatch("\x00".join(present)) is not None if present else True


def _ew_only(text: str | None) -> str | None:
    swap = {"A+": "A-", "A-": "A+", "A": "A"}
    if text is None:
        return None
    return swap.get(text.upper(), text)


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
    if side == "EW":
        return _negate(points)
    return points.lstrip("+")
