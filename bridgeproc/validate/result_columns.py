"""Tricks taken, from whichever result columns a traveller has.

``Result`` (``=``, ``+1``, ``-2``, or a bare number read by ``result_style``),
``Tricks`` (tricks taken; ``=``/``+1`` also accepted), ``Made`` (a bare number is the
level made, ``5`` = eleven tricks) and ``Down`` (a bare number is the undertricks); a
result written after the contract (``4SN=``) counts too. When several are filled they
must agree. Each distinct spelling is parsed once (``notation.parse_unique``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.core.notation import ResultStyle, parse_result, parse_unique
from bridgeproc.core.problems import Problems

#: Tricks of a row with no result.
NONE = -99
#: The result columns, in the order they are preferred when several are filled.
RESULT_COLUMNS = ("result", "tricks", "made", "down")
_DASHES = ("-", "–", "—", "")


def parse_made(text: str) -> dict:
    """A Made cell: a bare number is the level made (``4`` = ten tricks), else a result."""
    if text.isdigit():
        n = int(text)
        return {"tricks": n + 6} if 1 <= n <= 7 else {"error": f"{text!r} is not a level made (1-7); "
                                                      "write the level made, e.g. 4 for ten tricks"}
    return parse_result(text, "auto")


def parse_down(text: str) -> dict:
    """A Down cell: a bare number is the undertricks, else a result."""
    if text.isdigit():
        n = int(text)
        return {"relative": -n} if n <= 13 else {"error": f"{text!r} is not a number of undertricks (0-13)"}
    return parse_result(text, "auto")


def read_tricks(columns: dict[str, pd.Series], embedded: pd.Series, contract: pd.Series, level: np.ndarray,
                played: np.ndarray, style: ResultStyle, problems: Problems, may_infer: np.ndarray) -> np.ndarray:
    """Tricks taken per row from whichever result columns are filled (``NONE`` where none).

    ``columns`` maps the sheet's result columns (``RESULT_COLUMNS``) to their stripped
    text; ``embedded`` is the result written in the contract cell and ``contract`` that
    cell's text (for messages). Problems go to the cell they are about. A missing result
    is not reported on ``may_infer`` rows (the written score decides, see written_scores).
    """
    parsers = {
        "result": lambda t: parse_result(t, style),
        "tricks": lambda t: parse_result(t, "auto"),
        "made": parse_made,
        "down": parse_down,
    }
    n = len(level)
    sources: list[tuple[str, np.ndarray, np.ndarray, pd.Series]] = []
    if embedded.notna().any():
        sources.append(("contract", *_parse_tricks(embedded, lambda t: parse_result(t, "auto"), level), embedded))
    for column, parser in parsers.items():
        if column in columns:
            text = columns[column]
            text = text.mask(text.isin(_DASHES)) if column in ("made", "down") else text
            tricks, errors = _parse_tricks(text, parser, level)
            problems.add((errors != None) & played, column, lambda at, e=errors: list(e[at]))  # noqa: E711
            sources.append((column, tricks, errors, text))
    chosen = np.full(n, NONE, dtype=np.int64)
    chosen_from = np.full(n, "", dtype=object)
    conflict = np.zeros(n, dtype=bool)
    any_error = np.zeros(n, dtype=bool)
    for column, tricks, errors, _ in sources:
        filled = tricks != NONE
        conflict |= filled & (chosen != NONE) & (tricks != chosen)
        take = filled & (chosen == NONE)
        chosen_from[take] = column
        chosen = np.where(take, tricks, chosen)
        any_error |= errors != None  # noqa: E711 - elementwise test for None
    problems.add(conflict & played, "result", "the result columns disagree (e.g. Made and Down both filled); keep one")
    problems.add(played & (chosen == NONE) & ~any_error & ~may_infer, "result",
                 "no result for a played contract; write =, +1, -2 or the tricks taken")
    impossible = played & (chosen != NONE) & ((chosen < 0) | (chosen > 13))
    for column, _, _, values in sources:
        problems.add(impossible & (chosen_from == column), column, lambda at, v=values: [
            f"{c} with result {r} means {t} tricks, which is impossible (0-13); correct the contract or the result"
            for c, r, t in zip(contract.iloc[at], v.iloc[at], chosen[at])], values=values)
    return np.where(impossible | conflict, NONE, chosen)


def _parse_tricks(text: pd.Series, parser, level: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    parsed = parse_unique(text, parser)
    relative = parsed.ints("relative", NONE)
    tricks = parsed.ints("tricks", NONE)
    return np.where(relative != NONE, level + 6 + relative, tricks), parsed.texts("error")
