"""Benchmark the season ladder: best 10 by pair and by player over archives of 500, 1,000 and 2,000 sessions.

Target (issue 17): a ladder over 2,000 sessions in <= 1 s. Prints the median of each size, so the
growth shows. The archives (12-table, 24-board club nights, names from a pool of 300 players, a
third of them with member ids) are built once, with the real archive_session, into
bench/.cache/ladder-<n>.sqlite (gitignored) and reused; delete the folder to rebuild (an archive
holding fewer sessions than its name says is rebuilt: the ones built before the engine was closed
ahead of the rename lost their last commits in the old name's -wal file). Medians of wall and CPU time,
and for the largest archive where the time goes: in the queries (the database and the driver's fetch)
and in the rest (conversion, numpy and pandas), medians of CPU time.

    python bench/bench_ladder.py
"""
from __future__ import annotations

import argparse
import dataclasses
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.archive import archive_session
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.ladder import ladder
from bridgeproc.archive.synthetic import player_pool, synthetic_session

CACHE = Path(__file__).resolve().parent / ".cache"


def build(path: Path, count: int, players: int = 300) -> float:
    """Archive ``count`` club nights into ``path``; seconds taken."""
    start = time.perf_counter()
    template = synthetic_session(12, 24, seed=1, event="Club night", date="2026-01-01")
    pool = player_pool(players)
    member = {name: str(100000 + i) for i, name in enumerate(pool) if i % 3 == 0}
    rng = np.random.default_rng(17)
    tmp = path.with_suffix(".building")
    for stale in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        stale.unlink(missing_ok=True)
    for n in range(count):
        chosen = rng.choice(len(pool), size=2 * len(template.names), replace=False)
        pairs = [(pool[chosen[2 * i]], pool[chosen[2 * i + 1]]) for i in range(len(template.names))]
        names = template.names.assign(
            names=pd.array([f"{a} & {b}" for a, b in pairs], dtype="string"),
            ids=pd.array([f"{member[a]} & {member[b]}" if a in member and b in member else None for a, b in pairs],
                         dtype="string"))
        lookup = dict(zip(names["pair"], names["names"]))
        standings = template.standings.assign(names=template.standings["pair"].map(lookup).astype("string"),
                                              pct=rng.uniform(30, 70, len(template.standings)))
        day = (pd.Timestamp("2020-01-01") + pd.Timedelta(days=n)).strftime("%Y-%m-%d")
        session = dataclasses.replace(template, names=names, standings=standings,
                                      meta={**template.meta, "event": "Club night", "date": day})
        archive_session(session, tmp)
    # Close the archive before renaming it: SQLite keeps the last commits in ``<file>-wal`` until its
    # last connection closes, and a file renamed while its engine is open leaves them behind in
    # ``ladder-<n>.building-wal`` (which is why the archives once held 490 of 500 sessions).
    dispose_all()
    stored = count_sessions(tmp)
    if stored != count:
        raise SystemExit(f"{tmp.name}: {stored} sessions stored of {count} written")
    tmp.rename(path)
    return time.perf_counter() - start


def count_sessions(path: Path) -> int:
    """The sessions in the archive at ``path``, read by sqlite3 itself (no engine left open)."""
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])


def stages(path: Path, by: str, repeat: int) -> tuple[float, float]:
    """Median CPU seconds of one ladder in its queries (every query goes through the ladder module's
    ``_execute`` or ``fetch_frame``: the database's work and the driver's fetch) and in the rest."""
    module = sys.modules[ladder.__module__]  # bridgeproc.archive re-exports the function under the module's name
    spent = [0.0]

    def timed(call: Callable) -> Callable:
        def run(*args, **kwargs):
            used = time.process_time()
            try:
                return call(*args, **kwargs)
            finally:
                spent[0] += time.process_time() - used
        return run

    originals = {name: getattr(module, name) for name in ("fetch_rows", "fetch_frame")}
    queries, rest = [], []
    try:
        for name, call in originals.items():
            setattr(module, name, timed(call))
        for _ in range(repeat):
            spent[0], used = 0.0, time.process_time()
            ladder(path, best=10, min_sessions=5, by=by)  # type: ignore[arg-type]
            queries.append(spent[0])
            rest.append(time.process_time() - used - spent[0])
    finally:
        for name, call in originals.items():
            setattr(module, name, call)
    return statistics.median(queries), statistics.median(rest)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    CACHE.mkdir(exist_ok=True)
    worst = 0.0
    for size in args.sizes:
        path = CACHE / f"ladder-{size}.sqlite"
        if path.exists() and count_sessions(path) != size:  # built before the rename was fixed
            print(f"{path.name} holds {count_sessions(path)} sessions, not {size}: rebuilding")
            path.unlink()
        if not path.exists():
            print(f"building {path.name} ({size} sessions) ...", flush=True)
            print(f"  built in {build(path, size):.0f} s (once; reused from then on)")
        for by in ("pair", "player"):
            times, cpu = [], []
            for _ in range(args.repeat):
                start, used = time.perf_counter(), time.process_time()
                table = ladder(path, best=10, min_sessions=5, by=by)  # type: ignore[arg-type]
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - used)
            median = statistics.median(times)
            worst = max(worst, median) if size == max(args.sizes) else worst
            # CPU time too: on a shared machine the wall time shows the others' load as well
            print(f"{size:5d} sessions, by {by:6s}: median {median:.3f} s (CPU {statistics.median(cpu):.3f} s; "
                  f"{len(table)} rows, {table.attrs['rule']})")
    largest = CACHE / f"ladder-{max(args.sizes)}.sqlite"
    for by in ("pair", "player"):
        queries, rest = stages(largest, by, args.repeat)
        print(f"{max(args.sizes):5d} sessions, by {by:6s}: CPU in the queries {queries:.3f} s, in the rest {rest:.3f} s")
    target = 1.0
    # a figure, not a verdict: `make bench` runs every benchmark whatever one of them measures
    print(f"largest: {worst:.3f} s (target <= {target} s): {'OK' if worst <= target else 'SLOW'}; "
          f"load average {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
