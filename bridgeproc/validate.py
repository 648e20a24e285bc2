"""Raw text cells -> the typed results frame, collecting every problem before failing.

Each check is a whole-column mask; messages are built only for the rows that fail.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .errors import ValidationError
from .notation import (
    ResultStyle, contract_text, int_codes, map_unique, parse_contract, parse_result, parse_seat,
    seat_categorical, strain_categorical,
)
from .movement import PairNumbering, pair_numbering, repeated_pairs
from .schema import RESULTS_COLUMNS, problems_frame
from .scoring import score


class _Problems:
    """Accumulates problems as rows of the problems frame."""

    def __init__(self, raw: pd.DataFrame) -> None:
        self.raw = raw
        self.rows: list[dict] = []

    def add(self, mask: np.ndarray, column: str, messages) -> None:
        """Add one problem per True in ``mask``.

        ``messages`` is one text for all, a per-row sequence, or a callable that takes
        the failing positions and returns their texts (so messages cost nothing when
        every row is fine).
        """
        positions = np.flatnonzero(mask)
        if not len(positions):
            return
        values = self.raw[column].iloc[positions] if column in self.raw else pd.Series([""] * len(positions))
        sources = self.raw["source"].iloc[positions]
        lines = self.raw["line"].iloc[positions]
        if isinstance(messages, str):
            messages = [messages] * len(positions)
        elif callable(messages):
            messages = messages(positions)
        else:
            messages = list(np.asarray(messages, dtype=object)[positions])
        for source, line, value, message in zip(sources, lines, values, messages):
            self.rows.append({"source": source, "line": str(line), "column": column,
                              "value": "" if pd.isna(value) else str(value), "message": message})

    def frame(self) -> pd.DataFrame:
        frame = problems_frame(self.rows)
        order = pd.to_numeric(frame["line"], errors="coerce")
        return frame.assign(_order=order).sort_values(["source", "_order"], kind="stable").drop(columns="_order").reset_index(drop=True)


def _text(raw: pd.DataFrame, column: str) -> pd.Series:
    if column in raw:
        return raw[column].astype("string")
    return pd.Series(pd.array([pd.NA] * len(raw), dtype="string"), index=raw.index)


def build_results(
    raw: pd.DataFrame,
    result_style: ResultStyle = "auto",
    check_scores: bool = True,
    pair_numbering_option: PairNumbering = "auto",
) -> pd.DataFrame:
    """Parse and check a raw results frame; return the typed, scored ``results`` frame.

    Parameters
    ----------
    raw : DataFrame
        Text columns ``board ns ew contract`` and optionally ``section declarer result
        lead score``, plus ``source`` and ``line`` (see io.travellers).
    result_style : {"auto", "tricks", "relative"}
        How a bare number in the result column is read (auto: as the trick count).
    check_scores : bool
        Compare a written ``score`` column with the computed NS score.
    pair_numbering_option : {"auto", "shared", "per-direction"}
        How pair numbers identify pairs (see movement.pair_numbering).

    Raises
    ------
    ValidationError
        With every problem found, when any.
    """
    raw = raw.reset_index(drop=True)
    problems = _Problems(raw)
    n = len(raw)

    board_text = _text(raw, "board").str.strip()
    board_num = pd.to_numeric(board_text, errors="coerce")
    bad_board = board_num.isna() | (board_num < 1) | (board_num % 1 != 0)
    problems.add(bad_board.to_numpy(), "board",
                 lambda at: [f"{v!r} is not a board number; write a whole number from 1 up" for v in board_text.iloc[at]])
    board = board_num.where(~bad_board, 0).astype("int64")

    pairs = {}
    for side in ("ns", "ew"):
        text = _text(raw, side).str.strip()
        missing = text.isna() | (text == "")
        problems.add(missing.to_numpy(), side, f"no {side.upper()} pair number; every result needs both pairs")
        pairs[side] = text

    contract = map_unique(_text(raw, "contract"), parse_contract, ["level", "strain", "doubled", "declarer", "result", "adjusted"])
    problems.add(contract["error"].notna().to_numpy(), "contract", contract["error"])
    no_contract = contract["empty"].astype(bool).to_numpy()
    problems.add(no_contract, "contract", "no contract; write the contract, PASS for a passed-out board, or an artificial score such as AVE+")
    level = int_codes(contract["level"].to_numpy())
    played = level > 0

    seat = map_unique(_text(raw, "declarer"), parse_seat, ["seat"])
    seat_code = int_codes(seat["seat"].to_numpy())
    embedded_seat = int_codes(contract["declarer"].to_numpy())
    conflict = (seat_code >= 0) & (embedded_seat >= 0) & (seat_code != embedded_seat)
    problems.add(conflict, "declarer", "the declarer differs from the one written with the contract; keep one")
    declarer = np.where(seat_code >= 0, seat_code, embedded_seat)
    problems.add(seat["error"].notna().to_numpy() & played, "declarer", seat["error"])
    problems.add(played & (declarer < 0) & seat["error"].isna().to_numpy(), "declarer",
                 "no declarer for a played contract; write N, E, S or W")

    result_text = _text(raw, "result").fillna(pd.Series(contract["result"], dtype="string"))
    result = map_unique(result_text, lambda t: parse_result(t, result_style), ["relative", "tricks"])
    relative = int_codes(result["relative"].to_numpy(), default=-99)
    tricks = int_codes(result["tricks"].to_numpy(), default=-99)
    tricks = np.where(relative != -99, level + 6 + relative, tricks)
    problems.add(result["error"].notna().to_numpy() & played, "result", result["error"])
    no_result = played & result["empty"].astype(bool).to_numpy()
    problems.add(no_result, "result", "no result for a played contract; write =, +1, -2 or the tricks taken")
    impossible = played & (tricks != -99) & ((tricks < 0) | (tricks > 13))
    problems.add(impossible, "result", lambda at: [
        f"{c} with result {r} means {t} tricks, which is impossible (0-13)"
        for c, r, t in zip(_text(raw, "contract").iloc[at], result_text.iloc[at], tricks[at])])
    ok_tricks = played & (tricks >= 0) & (tricks <= 13)

    adjusted = pd.Series(contract["adjusted"], dtype="string")
    results = pd.DataFrame({
        "section": _text(raw, "section").str.strip().fillna(""),
        "board": board,
        "ns": pairs["ns"],
        "ew": pairs["ew"],
        "level": pd.array(np.where(level >= 0, level, 0), dtype="Int8"),
        "strain": strain_categorical(np.where(played, int_codes(contract["strain"].to_numpy()), -1)),
        "doubled": pd.array(np.where(played, int_codes(contract["doubled"].to_numpy(), 0), 0), dtype="Int8"),
        "declarer": seat_categorical(np.where(played & (declarer >= 0), declarer, -1)),
        "tricks": pd.array(np.where(ok_tricks, tricks, 0), dtype="Int8"),
        "lead": _text(raw, "lead").str.strip(),
        "adjusted": adjusted,
        "source": raw["source"].astype("string"),
        "line": raw["line"].astype("Int64"),
    })
    results["level"] = results["level"].mask(level < 0)
    results["tricks"] = results["tricks"].mask(~ok_tricks)

    numbering = pair_numbering(results, pair_numbering_option)
    if numbering == "shared":
        same = (results["ns"] == results["ew"]).fillna(False).to_numpy()
        problems.add(same, "ew", lambda at: [
            f"pair {v} plays against itself; correct the NS or EW pair number" for v in results["ew"].iloc[at]])
    else:
        same = np.zeros(len(results), dtype=bool)
    duplicates, dup_pair = repeated_pairs(results, numbering)
    duplicates &= ~same
    problems.add(duplicates, "board", lambda at: [
        f"pair {p} has a second result on board {b}; remove the duplicate or correct the pair number"
        for b, p in zip(results["board"].iloc[at], dup_pair[at])])
    if problems.rows:
        raise ValidationError(problems.frame())
    scored = score(results.astype({c: RESULTS_COLUMNS[c] for c in results.columns}))
    if check_scores and "score" in raw:
        _check_written_scores(raw, scored, problems)
        if problems.rows:
            raise ValidationError(problems.frame())
    return scored


def _check_written_scores(raw: pd.DataFrame, scored: pd.DataFrame, problems: _Problems) -> None:
    text = raw["score"].astype("string").str.strip().str.replace("−", "-", regex=False).str.replace("+", "", regex=False)
    written = pd.to_numeric(text, errors="coerce")
    given = text.notna() & (text != "")
    not_number = (given & written.isna() & scored["adjusted"].isna()).to_numpy()
    problems.add(not_number, "score", lambda at: [f"{v!r} is not a score; write the NS score as a number" for v in raw["score"].iloc[at]])
    computed = scored["score_ns"]
    differ = (given & written.notna() & computed.notna() & (written != computed)).fillna(False).to_numpy()

    def messages(at: np.ndarray) -> list[str]:
        rows = scored.iloc[at]
        text = contract_text(rows["level"], rows["strain"], rows["doubled"])
        return [
            f"written score {w:g} disagrees with {c} by {d} taking {t} tricks: it should be {s}; "
            "correct the score or the contract/result"
            for w, c, d, t, s in zip(written.iloc[at], text, rows["declarer"], rows["tricks"], rows["score_ns"])
        ]

    problems.add(differ, "score", messages)
