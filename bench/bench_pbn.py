"""Benchmark the PBN reader on a synthetic results file (Ruter/Magic Contest layout).

Usage: ``python bench/bench_pbn.py [MEGABYTES] [RUNS]`` (default 10 MB, 5 runs).
Prints the file size, the median parse time and MB/s (wall clock and CPU time), and the
load average at the end (other processes share the machine: compare runs at a similar
load). The file has one game per board with a ScoreTable of 22 rows (quoted scores, as
Ruter writes them) and an OptimumResultTable, and a TotalScoreTable in the first game.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bridgeproc.io.pbn.reader import parse_pbn  # noqa: E402

SEATS = "NESW"
VULS = ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW")
SCORE_HEADER = ("Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R;Lead\\3L;"
                "Score_NS\\6R;Score_EW\\6R;MP_NS\\4R;MP_EW\\4R;Percentage_NS\\3R;Percentage_EW\\3R")


def _deal(rng: random.Random) -> str:
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        hand = cards[h * 13:(h + 1) * 13]
        hand.sort(key=lambda c: "AKQJT98765432".index(c[1]))
        hands.append(".".join("".join(c[1] for c in hand if c[0] == s) for s in "SHDC"))
    return "N:" + " ".join(hands)


def _game(board: int, rng: random.Random, tables: int, first: bool) -> str:
    lines = [
        '[Event "Synthetic pairs"]', '[Site "Benchmark club"]', '[Date "2026.11.30"]', f'[Board "{board}"]',
        '[West ""]', '[North ""]', '[East ""]', '[South ""]', f'[Dealer "{SEATS[(board - 1) % 4]}"]',
        f'[Vulnerable "{VULS[(board - 1) % 16]}"]', f'[Deal "{_deal(rng)}"]', '[Scoring "MatchPoints;MP1"]',
        '[Declarer ""]', '[Contract ""]', '[Result ""]', '[Competition "Pairs"]',
    ]
    if first:
        lines.append('[TotalScoreTable "Rank\\2R;PairId\\2R;TotalScoreMP\\6R;TotalPercentage\\5R;Names\\40L"]')
        for rank in range(1, 2 * tables + 1):
            lines.append(f'{rank:2d} {rank:2d} {700 - rank:6.1f} {60 - rank / 3:5.2f} "Player {rank}a - Player {rank}b"')
    lines.append(f'[ScoreTable "{SCORE_HEADER}"]')
    for table in range(1, tables + 1):
        level = rng.randint(1, 7)
        strain = rng.choice(["C", "D", "H", "S", "N"])
        tricks = rng.randint(5, 13)
        score = rng.choice([50, 100, 110, 140, 420, 620, 1430])
        ns, ew = (f'"{score}"', "-") if rng.random() < 0.5 else ("-", f'"{score}"')
        mp = rng.randint(0, 2 * tables - 2)
        lines.append(f"{table:2d} {board % 30 + 1:2d} {table:2d} {table + tables:2d} {level}{strain:<3} "
                     f"{rng.choice(SEATS)} {tricks:2d} {rng.choice('SHDC')}{rng.choice('AKQJT98765432')}  "
                     f"{ns:>6} {ew:>6} {mp:4.1f} {2 * tables - 2 - mp:4.1f} {mp * 100 // (2 * tables - 2):3d} "
                     f"{100 - mp * 100 // (2 * tables - 2):3d}")
    lines.append('[OptimumScore "NS 420"]')
    lines.append('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
    for seat in SEATS:
        for strain in ("NT", "S", "H", "D", "C"):
            lines.append(f"{seat} {strain:>2} {rng.randint(0, 13):2d}")
    return "\n".join(lines) + "\n"


def synthetic_pbn(megabytes: float, seed: int = 1, tables: int = 22) -> str:
    """A PBN text of about ``megabytes`` MB (boards numbered 1, 2, ... as needed)."""
    rng = random.Random(seed)
    parts = ["% PBN 2.1\n% EXPORT\n"]
    size, board = 0, 1
    while size < megabytes * 1_000_000:
        game = _game(board, rng, tables, board == 1)
        parts.append(game + "\n")
        size += len(game) + 1
        board += 1
    return "".join(parts)


def main() -> None:
    megabytes = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    text = synthetic_pbn(megabytes)
    size = len(text.encode()) / 1_000_000
    wall, cpu = [], []
    pbn = None
    for _ in range(runs):
        # free the previous result before the clock starts: rebinding ``pbn`` after the call would
        # time the teardown of the last run's millions of objects too (about 5% of a run)
        del pbn
        start, start_cpu = time.perf_counter(), time.process_time()
        pbn = parse_pbn(text, "synthetic.pbn")
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    median, median_cpu = statistics.median(wall), statistics.median(cpu)
    # CPU time is printed too: on a shared machine the wall clock also counts other people's work.
    print(f"{size:.1f} MB, {len(pbn.games)} games, {len(pbn.results)} results rows: "
          f"median {median:.3f} s wall over {runs} runs = {size / median:.1f} MB/s "
          f"({median_cpu:.3f} s CPU = {size / median_cpu:.1f} MB/s); load average {_load()}")


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
