"""Benchmark dd_tables against endplay's own calc_all_tables on the same fresh deals.

Usage: python bench/bench_dd.py [DEALS] [REPEATS] [SEED]   (defaults 36 5 2026)

DEALS random deals come from a seeded shuffle. Each repeat times, in alternating
order (the CPU may be shared):

  endplay     calc_all_tables on ready-made endplay Deal objects (the floor)
  dd_tables   bridgeproc.dd.dd_tables on a boards frame of PBN deal strings, with
              an empty cache (parsing, normalizing, Deal building, batching and
              frame building included)

and prints the medians (wall clock, and process CPU time summed over DDS's threads,
which varies less when the machine is shared) and the overhead of dd_tables over
endplay (target <= 10 %), and the time dd_tables spends outside calc_all_tables
(measured inside each run by wrapping calc_all_tables, so it does not suffer from
the solver's run-to-run noise);
then the time of par() on the result and of a second, fully cached dd_tables call.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

import pandas as pd

from bridgeproc.analysis.dd import PROGRESS_BATCH, dd_tables
from bridgeproc.analysis.par import par

RANKS = "AKQJT98765432"


def random_deals(count: int, seed: int) -> list[str]:
    """PBN deal strings (first seat rotating N E S W like dealers) from a seeded shuffle."""
    rng = random.Random(seed)
    cards = [(suit, rank) for suit in range(4) for rank in range(13)]
    deals = []
    for i in range(count):
        rng.shuffle(cards)
        hands = [sorted(cards[13 * h:13 * h + 13]) for h in range(4)]
        text = [".".join("".join(RANKS[r] for s, r in hand if s == suit) for suit in range(4)) for hand in hands]
        deals.append("NESW"[i % 4] + ":" + " ".join(text))
    return deals


def boards_frame(deals: list[str]) -> pd.DataFrame:
    board = pd.Series(range(1, len(deals) + 1), dtype="int64")
    return pd.DataFrame({
        "board": board,
        "dealer": pd.Series(["NESW"[(b - 1) % 4] for b in board], dtype="string"),
        "vul": pd.Series([("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS",
                           "All", "None", "NS", "EW")[(b - 1) % 16] for b in board], dtype="string"),
        "deal": pd.Series(deals, dtype="string"),
    })


def main(count: int = 36, repeats: int = 5, seed: int = 2026) -> None:
    import endplay.dds
    from endplay.dds import calc_all_tables
    from endplay.types import Deal

    deals = random_deals(count, seed)
    boards = boards_frame(deals)
    endplay_deals = [Deal(d) for d in deals]

    def run_endplay() -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        tables = calc_all_tables(endplay_deals)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert len(tables) == count
        return wall, cpu

    inside: list[float] = []  # wall time spent in calc_all_tables during one dd_tables run

    def timed_calc_all_tables(*args, **kwargs):
        start = time.perf_counter()
        try:
            return calc_all_tables(*args, **kwargs)
        finally:
            inside.append(time.perf_counter() - start)

    def run_ours(progress=None) -> tuple[float, float]:
        inside.clear()
        endplay.dds.calc_all_tables = timed_calc_all_tables
        try:
            wall, cpu = time.perf_counter(), time.process_time()
            out = dd_tables(boards, progress, cache={})
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        finally:
            endplay.dds.calc_all_tables = calc_all_tables
        assert out["dd_N_NT"].notna().all()
        if progress is None:
            outside.append(wall - sum(inside))
        return wall, cpu

    def run_followed() -> tuple[float, float]:
        """dd_tables as the command line calls it: a progress callback, batches of PROGRESS_BATCH."""
        return run_ours(lambda done, total: None)

    theirs: list[tuple[float, float]] = []
    ours: list[tuple[float, float]] = []
    followed: list[tuple[float, float]] = []
    outside: list[float] = []
    runs_of = {run_endplay: theirs, run_ours: ours, run_followed: followed}
    order = [run_endplay, run_ours, run_followed]
    for i in range(repeats):
        for run in order[i % 3:] + order[:i % 3]:
            runs_of[run].append(run())
    print(f"{count} deals, {repeats} repeats, seed {seed}; medians, wall clock and process CPU (all DDS threads)")
    for label, runs in (("endplay calc_all_tables", theirs), ("bridgeproc dd_tables", ours),
                        (f"  with progress ({PROGRESS_BATCH}/call)", followed)):
        walls = ", ".join(f"{r[0]:.2f}" for r in runs)
        print(f"{label:<24}: {statistics.median(r[0] for r in runs):8.3f} s wall, "
              f"{statistics.median(r[1] for r in runs):8.3f} s CPU  (wall runs: {walls})")
    for k, what in ((0, "wall"), (1, "CPU")):
        base, mine = statistics.median(r[k] for r in theirs), statistics.median(r[k] for r in ours)
        print(f"{'overhead, ' + what:<24}: {100 * (mine - base) / base:+7.1f} %  (target <= 10 %)")
        small = statistics.median(r[k] for r in followed)
        print(f"{'  with progress, ' + what:<24}: {100 * (small - base) / base:+7.1f} %")
    t_outside, t_endplay = statistics.median(outside), statistics.median(r[0] for r in theirs)
    print(f"dd_tables outside DDS   : {1000 * t_outside:8.1f} ms median = {100 * t_outside / t_endplay:.2f} % of "
          "calc_all_tables wall (measured inside each run: immune to the solver's run-to-run noise)")

    solved = dd_tables(boards)  # fills the process cache
    start = time.perf_counter()
    dd_tables(boards)
    print(f"cached dd_tables        : {1000 * (time.perf_counter() - start):8.1f} ms")
    start = time.perf_counter()
    par(solved)
    print(f"{f'par on {count} boards':<24}: {1000 * (time.perf_counter() - start):8.1f} ms")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:4]))
