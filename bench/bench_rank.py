"""Benchmark: matchpoints (Neuberg) + cross-IMPs + Butler on 1,000,000 results.

Generates 10,000 boards of about 100 results each (101 per board, then 10,000 removed
at random so that Neuberg has boards to factor, plus a few artificial scores), then
times the three ranking functions together and a bare
``groupby("board")["score_ns"].rank()`` on the same frame, and prints the medians
and their ratio. Target: <= 2 s for the three together on a 2-core machine.

Then standings (issue 17) on the same number of results twice: the one big field above, and
club nights as the archive re-scores them (13-table, 26-board Mitchells numbered per direction,
every fourth night's last round arrow-switched, the night in the section, so every night is its
own NS and EW ranking), under matchpoints and cross-IMPs; the one-winner ranking of the nights
too. Scored once beforehand; only ``standings`` is timed.

Run: ``.venv/bin/python bench/bench_rank.py [--results N] [--boards B] [--repeat R]``
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pandas as pd

from bridgeproc.rank import Conventions, butler, cross_imps, matchpoints, rank_results, standings

#: The club nights of the standings benchmark: tables (pairs per direction) and boards.
NIGHT_TABLES, NIGHT_BOARDS = 13, 26

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


def make_nights(n_results: int, seed: int = 2) -> pd.DataFrame:
    """Club nights of NIGHT_TABLES x NIGHT_BOARDS results (at least ``n_results`` in all), the night
    in the section (``17\\x1e``): a Mitchell numbered per direction (NS t meets EW t + board), written
    by seat, every fourth night's last round (the last two boards) arrow-switched and marked."""
    rng = np.random.default_rng(seed)
    per_night = NIGHT_TABLES * NIGHT_BOARDS
    nights = -(-n_results // per_night)
    night = np.repeat(np.arange(nights), per_night)
    board = np.tile(np.repeat(np.arange(1, NIGHT_BOARDS + 1), NIGHT_TABLES), nights)
    table = np.tile(np.arange(NIGHT_TABLES), NIGHT_BOARDS * nights)
    ns = table + 1
    ew = (table + (board - 1) // 2) % NIGHT_TABLES + 1
    switched = (night % 4 == 0) & (board > NIGHT_BOARDS - 2)
    likely = rng.integers(0, len(SCORES), size=(nights * NIGHT_BOARDS, 6))
    score = SCORES[likely[night * NIGHT_BOARDS + board - 1, rng.integers(0, 6, len(board))]]
    return pd.DataFrame({
        "section": pd.Series(night.astype(str), dtype="string") + "\x1e",
        "board": board.astype("int64"),
        "ns": pd.Series(np.where(switched, ew, ns).astype(str), dtype="string"),
        "ew": pd.Series(np.where(switched, ns, ew).astype(str), dtype="string"),
        "adjusted": pd.Series([None] * len(board), dtype="string"),
        "score_ns": pd.array(score, dtype="Int64"),
        "switched": pd.array(switched, dtype="boolean"),
    })


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

    nights = make_nights(args.results)
    cases = {
        "one field, mp": (results, conv),
        "one field, cross-IMP": (results, conv.replace(method="cross-imp")),
        "club nights, mp": (nights, Conventions(pair_numbering="per-direction")),
        "club nights, cross-IMP": (nights, Conventions(method="cross-imp", pair_numbering="per-direction")),
        "club nights, mp, one winner": (nights, Conventions(pair_numbering="per-direction", winners="one")),
    }
    print(f"standings, median of {args.repeat} runs ({len(nights):,} results in "
          f"{len(nights) // (NIGHT_TABLES * NIGHT_BOARDS):,} club nights)")
    for name, (frame, conventions) in cases.items():
        scored = rank_results(frame, conventions)
        seconds = _median_time(lambda: standings(scored, conventions), args.repeat)  # noqa: B023
        print(f"  {name:<32} {seconds:7.3f} s")


if __name__ == "__main__":
    main()
