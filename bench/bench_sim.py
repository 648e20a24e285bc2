"""A simultaneous event: 1,000 club files x 12 tables x 24 boards (288,000 results).

Usage: python bench/bench_sim.py [CLUBS] [REPEATS] [SAMPLE]

The club files (traveller CSVs, one section of 12 tables: NS t meets EW t - round, every table
plays round r's two boards; the same 24 boards for every club) and the hand record are written
once into bench/.cache/sim-<CLUBS>/. Then, each the median of REPEATS:

1. read + check + score across the field and per club + standings both ways (``score_sim``,
   2 worker processes), with the peak resident memory of this process and of the workers;
2. the per-club outputs (CSV and page per club, the field's ranking; ``write_sim``, 2 processes);
3. the same work club by club, ``bridgeproc score`` in one process per club (hand record +
   the club's file -> its CSV and page), on SAMPLE clubs, extrapolated to CLUBS (it says so),
   and the ratio;
4. the stages in this process, less noisy on a shared machine than the wall clock: reading and
   checking one chunk of clubs (``read_clubs``, per club), the field scored (``score_field``, no
   pool), and the CPU seconds the pooled step 1 took in all its processes.
"""
from __future__ import annotations

import csv
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from event import _contract, write_hand_record  # noqa: E402

from bridgeproc.model import ArchiveOptions, Options  # noqa: E402
from bridgeproc.pipeline.run import session_conventions  # noqa: E402
from bridgeproc.pipeline.sim import CHUNK_CLUBS, _gather, score_field, score_sim  # noqa: E402
from bridgeproc.pipeline.sim_read import read_clubs, read_hand_record  # noqa: E402
from bridgeproc.pipeline.sim_write import write_sim  # noqa: E402

TABLES, ROUNDS, PER_ROUND = 12, 12, 2


def write_club(path: Path, seed: int) -> int:
    """One club's traveller CSV: 12 tables, 24 boards, 288 results."""
    rng = random.Random(seed)
    rows = []
    for rnd in range(ROUNDS):
        for t in range(TABLES):
            ns, ew = t + 1, (t - rnd) % TABLES + 1
            for b in range(rnd * PER_ROUND + 1, rnd * PER_ROUND + PER_ROUND + 1):
                contract, declarer, result = _contract(rng)
                rows.append(["A", b, ns, ew, contract, declarer, result, ""])
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["Section", "Board", "NS", "EW", "Contract", "Declarer", "Result", "Lead"])
        writer.writerows(rows)
    return len(rows)


def cache(clubs: int) -> tuple[Path, list[Path]]:
    folder = HERE / ".cache" / f"sim-{clubs}"
    folder.mkdir(parents=True, exist_ok=True)
    hands = folder / "hands.pbn"
    if not hands.exists():
        write_hand_record(hands, ROUNDS * PER_ROUND)
    files = [folder / f"club{i:04d}.csv" for i in range(clubs)]
    for i, path in enumerate(files):
        if not path.exists():
            write_club(path, 1000 + i)
    return hands, files


def peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its children that ended (the pool's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def stages(inputs: dict[str, list[Path]], hands: Path, repeats: int) -> None:
    """The stages of step 1 in this process, each the best of ``repeats``."""
    options = Options(archive=ArchiveOptions(store=False), dd=False)
    hand, meta = read_hand_record(hands, options)
    items = list(inputs.items())
    chunk = items[:CHUNK_CLUBS]
    timed = []
    for _ in range(repeats):
        start = time.process_time()
        read_clubs(chunk, options, hand)
        timed.append(time.process_time() - start)
    print(f"  in this process: read + check a chunk of {len(chunk)} clubs (read_clubs): "
          f"{min(timed) / len(chunk) * 1000:.1f} ms CPU a club (best of {repeats})")
    parts = [read_clubs(items[i:i + CHUNK_CLUBS], options, hand) for i in range(0, len(items), CHUNK_CLUBS)]
    whole = _gather(parts, hand)
    results = pd.concat(whole.results, ignore_index=True)
    conventions = session_conventions(options, meta)
    timed = []
    for _ in range(repeats):
        start = time.process_time()
        score_field(results, whole.numbering, conventions, boards=hand, meta=meta, clubs=tuple(inputs))
        timed.append(time.process_time() - start)
    print(f"  in this process: the field scored and ranked both ways (score_field, {len(results):,} results): "
          f"{min(timed):.2f} s CPU (best of {repeats})")


def main(clubs: int = 1000, repeats: int = 3, sample: int = 50) -> None:
    print(f"load average at start: {open('/proc/loadavg').read().split()[:3]}")
    hands, files = cache(clubs)
    inputs = {f.stem: [f] for f in files}
    scored, written = [], []
    with tempfile.TemporaryDirectory() as tmp:
        cpu = []
        for _ in range(repeats):
            start, start_cpu = time.perf_counter(), cpu_seconds()
            sim = score_sim(inputs, hands)
            scored.append(time.perf_counter() - start)
            cpu.append(cpu_seconds() - start_cpu)
            start = time.perf_counter()
            write_sim(sim, Path(tmp) / "out")
            written.append(time.perf_counter() - start)
        print(f"{clubs} clubs, {len(sim.results):,} results, {len(sim.field_standings):,} pairs in the field")
        print(f"  read + check + score (field and clubs) + standings: {statistics.median(scored):6.2f} s "
              f"(median of {repeats}; target 10 s); {statistics.median(cpu):.2f} s CPU in all processes")
        print(f"  per-club outputs (CSV + page per club, field):      {statistics.median(written):6.2f} s "
              f"(target 30 s)")
        print(f"  peak RSS: this process {peak_mb(resource.RUSAGE_SELF):.0f} MB, "
              f"largest worker {peak_mb(resource.RUSAGE_CHILDREN):.0f} MB (target 2 GB)")
        one_by_one = []
        for f in files[:sample]:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "bridgeproc", "score", str(hands), str(f), "--no-dd", "--no-archive",
                            "-o", str(Path(tmp) / f"{f.stem}.csv"), "-o", str(Path(tmp) / f"{f.stem}.html")],
                           check=True, capture_output=True)
            one_by_one.append(time.perf_counter() - start)
        per_club = statistics.mean(one_by_one)
        total = per_club * clubs
        ours = statistics.median(scored) + statistics.median(written)
        print(f"  club by club, one process per club: {per_club:.2f} s a club on {sample} clubs, "
              f"extrapolated to {clubs}: {total:.0f} s (one core; no field scoring at all)")
        print(f"  ratio club-by-club / sim: {total / ours:.1f}x")
    stages(inputs, hands, repeats)
    print(f"load average at end: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
