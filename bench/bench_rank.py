"""Benchmark: matchpoints (Neuberg) + cross-IMPs + Butler on 1,000,000 results.

Generates 10,000 boards of about 100 results each (101 per board, then 10,000 removed
at random so that Neuberg has boards to factor, plus a few artificial scores), then
times the three ranking functions together and a bare
``groupby("board")["score_ns"].rank()`` on the same frame, and prints the medians
and their ratio. Target: <= 2 s for the three together on a 2-core machine.

Run: ``.venv/bin/python bench/bench_rank.py [--results N] [--boards B] [--repeat R]``
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd

from bridgeproc.rank import Conventions, butler, cross_imps, matchpoints

#: Typical NS scores (part scores, games, slams, penalties) to draw each board's field from.
SCORES = np.array([-1430, -1100, -800, -650, -620, -500, -450, -420, -300, -200, -170, -140, -130,
                   -110, -100, -90, -50, 0, 50, 90, 100, 110, 120, 130, 140, 150, 170, 200, 300,
                   420, 430, 450, 460, 500, 620, 630, 650, 660, 800, 980, 1430, 1440, 2210])


def make_results(n_results: int, n_boards: int, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    # one result more per board than needed, then exactly the surplus removed at random:
    # boards end up with different counts (Neuberg has work) and the total is n_results
    per_board = n_results // n_boards + 1
    board = np.repeat(np.arange(1, n_boards + 1), per_board)
    # each board has ~8 likely scores and a tail of the rest (ties are common, as at the table)
    likely = rng.integers(0, len(SCORES), size=(n_boards, 8))
    pick_likely = rng.random(len(board)) < 0.9
    score = np.where(pick_likely, SCORES[likely[board - 1, rng.integers(0, 8, len(board))]],
                     SCORES[rng.integers(0, len(SCORES), len(board))])
    table = np.tile(np.arange(1, per_board + 1), n_boards)
    keep = np.ones(len(board), dtype=bool)
    keep[rng.choice(len(board), size=len(board) - n_results, replace=False)] = False
    adjusted = np.full(len(board), None, dtype=object)
    adjusted[rng.random(len(board)) < 0.001] = "A+/A-"
    frame = pd.DataFrame({
        "section": pd.Series(["A"] * len(board), dtype="string"),
        "board": board.astype("int64"),
        "ns": pd.Series(table.astype(str), dtype="string"),
        "ew": pd.Series((table + 1000).astype(str), dtype="string"),
        "adjusted": pd.Series(adjusted, dtype="string"),
        "score_ns": pd.array(np.where(pd.isna(adjusted), score, 0), dtype="Int64"),
    })
    frame.loc[frame["adjusted"].notna(), "score_ns"] = pd.NA
    return frame[keep].reset_index(drop=True)


def _median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--boards", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    results = make_results(args.results, args.boards)
    conv = Conventions(factoring="neuberg")
    timings = {
        "matchpoints": lambda: matchpoints(results, conv),
        "cross_imps": lambda: cross_imps(results, conv),
        "butler": lambda: butler(results, conv),
    }

    def all_three() -> None:
        for fn in timings.values():
            fn()

    def bare_rank() -> None:
        results.groupby("board")["score_ns"].rank()

    print(f"{len(results):,} results on {results['board'].nunique():,} boards, median of {args.repeat} runs")
    for name, fn in timings.items():
        print(f"  {name:<32} {_median_time(fn, args.repeat):7.3f} s")
    together = _median_time(all_three, args.repeat)
    bare = _median_time(bare_rank, args.repeat)
    print(f"  {'mp + cross-IMP + Butler':<32} {together:7.3f} s")
    print(f"  {'groupby(board).rank() (bare)':<32} {bare:7.3f} s")
    print(f"  ratio {together / bare:.1f}x the bare rank")


if __name__ == "__main__":
    main()
