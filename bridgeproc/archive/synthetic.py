"""Synthetic scored sessions of any size, for the archive's benchmark and tests.

The results are random but scored and ranked by the real pipeline functions, so
the frames have exactly the columns and dtypes :func:`bridgeproc.process_session`
produces (plus double-dummy columns and random deals on the boards frame).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from bridgeproc.archive.tables import DD_COLUMNS
from bridgeproc.core.boards import dealer_of, vul_of
from bridgeproc.model import Session
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.conventions import Method
from bridgeproc.schema import RESULTS_COLUMNS, SEAT, STRAIN
from bridgeproc.scoring.law77 import score

FIRST = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ian", "Jo", "Kim", "Lu", "Mo", "Ned", "Ola", "Pat"]
LAST = ["Smith", "Jones", "Young", "Lane", "Wood", "Grey", "Hart", "Ray", "Ko", "Lee", "Ng", "Oz", "Pe", "Qu"]


def player_pool(size: int) -> list[str]:
    """``size`` distinct player names (``Ann Smith``, ``Bob Smith``, ... ``Ann Smith 2``)."""
    names = [f"{f} {last}" for last in LAST for f in FIRST]
    return [names[i % len(names)] + (f" {i // len(names) + 1}" if i >= len(names) else "") for i in range(size)]


def _deals(rng: np.random.Generator, n: int) -> list[str]:
    ranks = np.array(list("AKQJT98765432"))
    out = []
    for _ in range(n):
        cards = rng.permutation(52).reshape(4, 13)
        hands = []
        for hand in cards:
            suits = [ranks[np.sort(hand[(hand // 13) == s] % 13)] for s in range(4)]
            hands.append(".".join("".join(s) for s in suits))
        out.append("N:" + " ".join(hands))
    return out


def synthetic_session(tables: int = 10, boards: int = 24, seed: int = 0, event: str = "Synthetic pairs",
                      date: str = "2026-01-01", players: list[str] | None = None, method: Method = "mp"):
    """A scored :class:`bridgeproc.session.Session`: ``tables`` x ``boards`` results.

    NS pairs are numbered 1..tables and EW pairs tables+1..2 x tables (shared
    numbering, two winners); each NS pair plays every board, against a rotating EW
    pair. Players are drawn from ``players`` (default: a pool of 4 x tables names).
    """
    rng = np.random.default_rng(seed)
    n = tables * boards
    board = np.repeat(np.arange(1, boards + 1), tables)
    table = np.tile(np.arange(tables), boards)
    ns = table + 1
    ew = (table + board - 1) % tables + tables + 1
    level = rng.choice(np.arange(1, 8), size=n, p=[.08, .22, .25, .3, .08, .05, .02])
    tricks = np.clip(level + 6 + rng.integers(-2, 3, size=n), 0, 13)
    raw = pd.DataFrame({
        "section": pd.array([""] * n, dtype="string"),
        "board": board.astype("int64"),
        "ns": pd.array(ns.astype(str), dtype="string"),
        "ew": pd.array(ew.astype(str), dtype="string"),
        "level": pd.array(level, dtype="Int8"),
        "strain": pd.Categorical.from_codes(rng.integers(0, 5, size=n), dtype=STRAIN),
        "doubled": pd.array(rng.choice([0, 1, 2], size=n, p=[.9, .08, .02]), dtype="Int8"),
        "declarer": pd.Categorical.from_codes(rng.integers(0, 4, size=n), dtype=SEAT),
        "tricks": pd.array(tricks, dtype="Int8"),
        "lead": pd.array(np.array(["SA", "H2", "DK", "C7", None], dtype=object)[rng.integers(0, 5, size=n)],
                         dtype="string"),
        "adjusted": pd.array([None] * n, dtype="string"),
        "source": pd.array(["synthetic.csv"] * n, dtype="string"),
        "line": pd.array(np.arange(2, n + 2), dtype="Int64"),
    })
    raw = score(raw).astype({k: v for k, v in RESULTS_COLUMNS.items() if k != "score_ns"})
    pool = players if players is not None else player_pool(4 * tables)
    chosen = rng.choice(len(pool), size=min(len(pool), 4 * tables), replace=False)
    pair_ids = [str(p) for p in range(1, 2 * tables + 1)]
    names = pd.DataFrame({
        "section": pd.array([""] * len(pair_ids), dtype="string"),
        "pair": pd.array(pair_ids, dtype="string"),
        "names": pd.array([f"{pool[chosen[(2 * i) % len(chosen)]]} & {pool[chosen[(2 * i + 1) % len(chosen)]]}"
                           for i in range(len(pair_ids))], dtype="string"),
    })
    conventions = Conventions(method=method, pair_numbering="shared")
    results = rank_results(raw, conventions)
    table_frame = standings(results, conventions, names)
    table_frame.insert(0, "method", conventions.method)
    numbers = np.arange(1, boards + 1)
    boards_frame = pd.DataFrame({
        "board": numbers.astype("int64"), "dealer": dealer_of(numbers), "vul": vul_of(numbers),
        "deal": pd.array(_deals(rng, boards), dtype="string"),
        "source": pd.array(["synthetic.pbn"] * boards, dtype="string"),
        "line": pd.array(np.arange(1, boards + 1) * 20, dtype="Int64"),
    })
    for column in DD_COLUMNS:
        boards_frame[column] = pd.array(rng.integers(0, 14, size=boards), dtype="Int8")
    boards_frame["par_score"] = pd.array(rng.integers(-1000, 1000, size=boards) // 10 * 10, dtype="Int64")
    boards_frame["par_contracts"] = pd.array(["NS 4SN=" if i % 2 else "EW 3NTE+1" for i in range(boards)],
                                             dtype="string")
    return Session(results=results, boards=boards_frame, standings=table_frame, names=names,
                   meta={"event": event, "date": date, "site": "Synthetic club"}, conventions=conventions,
                   numbering="shared", movement=f"Movement: {tables} tables, {boards} boards (synthetic)")
