"""Whole process, cold: `bridgeproc score` in a fresh interpreter, hand record to workbook and PBN.

Usage: python bench/bench_pipeline.py [REPEATS]

1. The sample club evening (13 tables, 26 boards, names) with cached double dummy:
   a first run writes results.pbn (deals + DoubleDummy/OptimumResultTable); the timed
   runs read that PBN as the hand record (its old ScoreTables are set aside because
   travellers are given) and write results.xlsx and results.pbn.
2. A synthetic 1,000-table x 24-board event (77 sections of 13 tables, 24,024 results),
   likewise with its double dummy cached by a first run.

Each figure is the median wall time of REPEATS fresh processes, with and without the
archive step (SQLite in a temporary folder). The double-dummy solve of the first run
is reported on its own.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from event import write_hand_record, write_travellers  # noqa: E402

BRIDGEPROC = [sys.executable, "-m", "bridgeproc"]


def run(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([*BRIDGEPROC, *args], check=True, env=env, capture_output=True)
    return time.perf_counter() - start


def bench(name: str, hand_record: Path, results: list[str], work: Path, repeats: int) -> None:
    env = dict(os.environ, BRIDGEPROC_ARCHIVE=str(work / "archive.sqlite"))
    cached = work / f"{name}-cached.pbn"
    solve = run(["score", str(hand_record), *results, "-o", str(cached), "--no-archive"], env)
    outputs = ["-o", str(work / f"{name}.xlsx"), "-o", str(work / f"{name}.pbn")]
    plain = [run(["score", str(cached), *results, *outputs, "--no-archive"], env) for _ in range(repeats)]
    archived = [run(["score", str(cached), *results, *outputs, "--session-id", name], env) for _ in range(repeats)]
    print(f"{name}:")
    print(f"  first run, double dummy solved:      {solve:6.2f} s")
    print(f"  cold, cached DD, xlsx + pbn:         {statistics.median(plain):6.2f} s  (median of {repeats})")
    print(f"  the same, archived as well:          {statistics.median(archived):6.2f} s")


def main(repeats: int = 5) -> None:
    print(f"load average at start: {open('/proc/loadavg').read().split()[:3]}")
    sample = ROOT / "sample_data"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bench("club-evening", sample / "club-evening.pbn",
              [str(sample / "club-evening-travellers.csv"), "--names", str(sample / "club-evening-names.csv")],
              work, repeats)
        write_hand_record(work / "big-hands.pbn", 26)
        count = write_travellers(work / "big-travellers.csv", 1000)
        print(f"(synthetic event: {count:,} results)")
        bench("big-event", work / "big-hands.pbn", [str(work / "big-travellers.csv")], work, max(1, repeats // 2))
    print(f"load average at end: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
