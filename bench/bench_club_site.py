"""Benchmark ``archive site`` (issue 32): a season of club nights (12 tables, 24 boards) written as the club's
site, first into an empty folder, then again after one more evening; beside the floor, each evening's own
site written by the bare writer ``score -o results/`` uses (``report.web.write_site``), which the club site
does once per new evening. Without the double-dummy profile (``--no-profile``: the synthetic deals are
random, and solving them is the dd benchmark's business). Medians of 3 runs, with the machine's load.

    python bench/bench_club_site.py [--sessions 40]
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from bridgeproc.archive import archive_session, load_session
from bridgeproc.archive.db import dispose_all
from bridgeproc.archive.synthetic import player_pool, synthetic_session
from bridgeproc.pipeline.season import process_club_site
from bridgeproc.report.web import write_site


def _archive(path: Path, count: int) -> None:
    pool = player_pool(120)
    for n in range(count):
        session = synthetic_session(12, 24, seed=n, event="Club night", date=f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}",
                                    players=pool)
        archive_session(dataclasses.replace(session, meta={**session.meta, "event": "Club night",
                                                           "date": f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}"}), path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    full, more, floor = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        archive = root / "season.sqlite"
        _archive(archive, args.sessions)
        ids = [f"2026-{1 + n // 28:02d}-{1 + n % 28:02d}_club-night" for n in range(args.sessions)]
        for _ in range(args.runs):
            base = root / "base.sqlite"
            shutil.copy(archive, base)
            for suffix in ("-wal", "-shm"):
                if Path(f"{archive}{suffix}").exists():
                    shutil.copy(f"{archive}{suffix}", f"{base}{suffix}")
            site = root / "site"
            shutil.rmtree(site, ignore_errors=True)
            start = time.perf_counter()
            written = process_club_site(base, [f"{site}/"], with_profile=False)
            full.append(time.perf_counter() - start)
            pages = len(written.rewritten)
            extra = synthetic_session(12, 24, seed=999, event="Club night", date="2026-12-31", players=player_pool(120))
            archive_session(dataclasses.replace(extra, meta={**extra.meta, "event": "Club night", "date": "2026-12-31"}), base)
            start = time.perf_counter()
            again = process_club_site(base, [f"{site}/"], with_profile=False)
            more.append(time.perf_counter() - start)
            start = time.perf_counter()
            for sid in ids:
                write_site(load_session(base, sid), root / "floor" / sid)
            floor.append(time.perf_counter() - start)
            shutil.rmtree(root / "floor")
            dispose_all()
    f, m, b = statistics.median(full), statistics.median(more), statistics.median(floor)
    print(f"{args.sessions} evenings: the whole site {f:.2f} s ({pages} pages), its evenings alone by write_site "
          f"(the floor) {b:.2f} s: {f / b:.2f}x")
    print(f"one more evening: {m:.2f} s, {len(again.rewritten)} pages rewritten, {again.kept} kept "
          f"({m / f:.2f} of the whole site)")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
