"""Benchmark the archive: write a 1,000-table x 24-board event, read it back, query a player's history.

Targets (issue 7): archiving 24,000 results in <= 3 s on SQLite; one player's
history from an archive of 2,000 sessions in <= 0.2 s. Prints medians.

    python bench/bench_archive.py                 # SQLite file in a temporary directory
    python bench/bench_archive.py --url postgresql://user@host/db   # an empty database
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.archive import archive_session, engine_for, history, list_sessions, load_session
from bridgeproc.archive.synthetic import player_pool, synthetic_session


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for i in range(repeat):
        start = time.perf_counter()
        result = fn(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def with_players(template, rng: np.random.Generator, pool: list[str], event: str, day: str):
    """``template`` renamed: another event and date, pairs drawn afresh from ``pool``."""
    pairs = len(template.names)
    chosen = rng.choice(len(pool), size=2 * pairs, replace=False)
    names = template.names.assign(names=pd.array([f"{pool[chosen[2 * i]]} & {pool[chosen[2 * i + 1]]}"
                                                  for i in range(pairs)], dtype="string"))
    lookup = dict(zip(names["pair"], names["names"]))
    standings = template.standings.assign(names=template.standings["pair"].map(lookup).astype("string"))
    return dataclasses.replace(template, names=names, standings=standings,
                               meta={**template.meta, "event": event, "date": day})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="archive URL (default: a new SQLite file in a temporary directory)")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--players", type=int, default=800)
    args = parser.parse_args(argv)
    tmp = tempfile.TemporaryDirectory()
    url = args.url or str(Path(tmp.name) / "bench.sqlite")
    engine_for(url)

    big = synthetic_session(args.tables, args.boards, seed=1, event="Big congress", date="2026-06-01")
    n = len(big.results)
    write, _ = timed(lambda i: archive_session(
        dataclasses.replace(big, meta={**big.meta, "event": f"Big congress {i}"}), url), args.repeat)
    print(f"archive {args.tables} tables x {args.boards} boards ({n:,} results): median {write:.3f} s "
          f"over {args.repeat} (target <= 3 s)")
    sid = archive_session(big, url).session_id
    read, _ = timed(lambda i: load_session(url, sid), args.repeat)
    print(f"load_session of it:                                    median {read:.3f} s")
    results = big.results.copy()
    results.loc[0, "lead"] = "HQ"
    correction, _ = timed(lambda i: archive_session(dataclasses.replace(
        big, results=results.assign(lead=results["lead"].where(results.index != 1, f"S{i}"))), url), args.repeat)
    print(f"archive a correction of it (new version):              median {correction:.3f} s")

    pool = player_pool(args.players)
    rng = np.random.default_rng(5)
    templates = [synthetic_session(12, 24, seed=s, players=pool) for s in range(10)]
    start = time.perf_counter()
    for i in range(args.sessions):
        day = (pd.Timestamp("2018-01-01") + pd.Timedelta(days=i)).strftime("%Y-%m-%d")
        archive_session(with_players(templates[i % len(templates)], rng, pool, f"Club pairs {i % 7}", day), url)
    built = time.perf_counter() - start
    count = len(list_sessions(url))
    print(f"built an archive of {count:,} sessions of {len(templates[0].results)} results in {built:.1f} s "
          f"({built / args.sessions * 1000:.1f} ms per session)")
    history(url, pool[0])  # warm the engine and the page cache
    players = [pool[int(i)] for i in rng.choice(len(pool), size=20, replace=False)]
    query, frame = timed(lambda i: history(url, players[i % len(players)]), 20)
    print(f"history of one player ({len(frame)} rows):                 median {query * 1000:.1f} ms over 20 players "
          f"(target <= 200 ms)")
    pair = frame["names"].iloc[0] if len(frame) else pool[0]
    query, frame = timed(lambda i: history(url, pair), 10)
    print(f"history of one partnership ({len(frame)} rows):            median {query * 1000:.1f} ms")
    tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
