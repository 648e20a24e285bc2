"""Benchmark re-scoring the archive under other conventions: 1M, 3M and 10M archived results.

Target (issue 17): re-scoring 10 million archived results in <= 60 s. Each size is measured in
a process of its own (so that its peak RSS is its own): the median of ``--repeat`` runs of
:func:`bridgeproc.archive.rescore.rescore_archive` under cross-IMPs (the costliest scorer) and
under matchpoints on the 1/half scale, split into reading, scoring, standings and the rest, and
then the growth per million results from the three sizes.

The archives (13-table, 26-board club nights, 338 results each; every 50th session corrected,
so it has an older version, and every 200th with an incomplete version after its latest) are
built once by a bulk loader into bench/.cache/rescore-<n>.sqlite (gitignored) and reused: the
rows archive_session writes (``prepare`` of a few synthetic sessions, then every session's rows
executemany'd in one transaction); archiving 30,000 sessions one by one would take most of an
hour. The smallest archive is checked with ``check_archive(deep=True)``.

    python bench/bench_rescore.py                     # 1M, 3M, 10M
    python bench/bench_rescore.py --sizes 1000000 --repeat 1
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bridgeproc._version import __version__
from bridgeproc.archive import check_archive
from bridgeproc.archive.codec import content_hash
from bridgeproc.archive.db import dispose_all, engine_for, writing
from bridgeproc.archive.players import player_key, split_names
from bridgeproc.archive.rescore import rescore_archive
from bridgeproc.archive.store import insert_tuples, prepare
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.tables import FRAME_TABLES, frames, players, sessions, versions
from bridgeproc.rank import Conventions

CACHE = Path(__file__).resolve().parent / ".cache"
TABLES, BOARDS = 13, 26
TEMPLATES = 8
#: Every CORRECTED-th session has a version 1 it replaced; every INCOMPLETE-th one an incomplete version after it.
CORRECTED, INCOMPLETE = 50, 200
#: Sessions per batch of rows handed to the driver.
BATCH = 200
CASES = {"cross-imp": Conventions(method="cross-imp"), "mp 1/half": Conventions(mp_scale=1, factoring="average")}


@dataclasses.dataclass
class Template:
    """One synthetic session encoded once: its rows with version_id 0, for any number of sessions."""

    prepared: object
    columns: dict
    rows: dict[str, list[tuple]]
    sql_columns: dict[str, list[str]]
    specs: list[tuple[str, int, str]]
    players: list[tuple]


def template(seed: int) -> Template:
    session = synthetic_session(TABLES, BOARDS, seed=seed, event="Club pairs", date="2026-01-01")
    prepared = prepare(session, session_id="template")
    conventions = prepared.header["conventions"]
    columns = {"method": conventions.get("method"), "conventions": json.dumps(conventions, sort_keys=True, default=str),
               "numbering": session.numbering, "movement": session.movement,
               "options": json.dumps(dataclasses.asdict(session.options), sort_keys=True, default=str)}
    rows = {e.frame: e.rows(0) for e in prepared.encoded}
    people = [(0, pos, seat, player_key(p), p) for pos, text in enumerate(session.standings["names"].tolist())
              if isinstance(text, str) for seat, p in enumerate(split_names(text))]
    return Template(prepared, columns, rows, {e.frame: e.sql_columns() for e in prepared.encoded},
                    [(e.frame, e.n_rows, json.dumps(e.spec)) for e in prepared.encoded], people)


def build(path: Path, results: int) -> tuple[int, float]:
    """Bulk-load an archive of at least ``results`` latest results into ``path``: (sessions, seconds)."""
    start = time.perf_counter()
    count = math.ceil(results / (TABLES * BOARDS))
    shapes = [template(seed) for seed in range(TEMPLATES)]
    tmp = path.with_suffix(".building")
    for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        leftover.unlink(missing_ok=True)
    engine = engine_for(tmp)
    now = "2026-12-01T00:00:00+00:00"
    version_id = 0
    with writing(engine) as conn:
        for first in range(0, count, BATCH):
            session_rows, version_rows, frame_rows, people = [], [], [], []
            data: dict[str, list[tuple]] = {name: [] for name in FRAME_TABLES}
            for i in range(first, min(first + BATCH, count)):
                day = f"{2000 + i // 1500:04d}-{1 + i // 125 % 12:02d}-{1 + i % 28:02d}"
                sid, event = f"{day}_club-pairs-{i:05d}", f"Club pairs {i % 7}"
                meta = {"event": event, "date": day, "site": "Synthetic club"}
                kept = [(i + 1) % TEMPLATES] if i % CORRECTED == 0 else []
                kept.append(i % TEMPLATES)
                pending = [(i + 2) % TEMPLATES] if i % INCOMPLETE == 0 else []
                for number, shape_at in enumerate(kept + pending, start=1):
                    shape = shapes[shape_at]
                    version_id += 1
                    header = {**shape.prepared.header, "session_id": sid, "event": event, "date": day,  # type: ignore[attr-defined]
                              "meta": meta}
                    digest = content_hash(shape.prepared.encoded, header)  # type: ignore[attr-defined]
                    complete = number <= len(kept)
                    version_rows.append((version_id, sid, number, now, digest, json.dumps(meta, sort_keys=True),
                                         None, __version__, complete, *shape.columns.values()))
                    frame_rows += [(version_id, name, n_rows, spec) for name, n_rows, spec in shape.specs]
                    for name, rows in shape.rows.items():
                        data[name] += [(version_id, *row[1:]) for row in rows]
                    people += [(version_id, *row[1:]) for row in shape.players]
                    if complete:
                        latest = (number, version_id)
                session_rows.append((sid, event, day, "Synthetic club", *latest, now, now, "pairs"))
            insert_tuples(conn, sessions, ["session_id", "event", "date", "site", "latest_version",
                                           "latest_version_id", "created_at", "updated_at", "kind"], session_rows)
            insert_tuples(conn, versions, ["version_id", "session_id", "version", "created_at", "content_hash", "meta",
                                           "comment", "bridgeproc_version", "complete", *shapes[0].columns],
                          version_rows)
            insert_tuples(conn, frames, ["version_id", "frame", "n_rows", "columns"], frame_rows)
            for name, rows in data.items():
                if rows:
                    insert_tuples(conn, FRAME_TABLES[name], shapes[0].sql_columns[name], rows)
            insert_tuples(conn, players, ["version_id", "pos", "seat", "player_key", "player"], people)
    engine.dispose()
    dispose_all()
    tmp.rename(path)
    return count, time.perf_counter() - start


def measure(path: Path, repeat: int) -> dict:
    """Median seconds per stage of each case, and this process's peak RSS (run in a process of its own)."""
    out: dict = {"cases": {}}
    for name, conventions in CASES.items():
        runs = []
        for _ in range(repeat):
            stages: dict[str, float] = {}
            start = time.perf_counter()
            table = rescore_archive(path, conventions,
                                    stages=lambda stage, s: stages.__setitem__(stage, stages.get(stage, 0.0) + s))
            stages["total"] = time.perf_counter() - start
            runs.append(stages)
        out["cases"][name] = {k: statistics.median(r.get(k, 0.0) for r in runs) for k in runs[0]}
        out["rows"] = len(table)
        out["sessions"] = int(table["session_id"].nunique())
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 3_000_000, 10_000_000])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (median); 1 above --big results")
    parser.add_argument("--big", type=int, default=5_000_000)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # a child process: one archive, JSON out
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.repeat)))
        return
    CACHE.mkdir(exist_ok=True)
    figures = {}
    for size in sorted(args.sizes):
        path = CACHE / f"rescore-{size}.sqlite"
        if not path.exists():
            print(f"building {path.name} ...", flush=True)
            count, seconds = build(path, size)
            print(f"  {count:,} sessions bulk-loaded in {seconds:.0f} s (once; reused from then on)", flush=True)
            if size == min(args.sizes):
                start = time.perf_counter()
                problems = check_archive(path, deep=True)
                print(f"  check_archive(deep=True): {problems[:5] or 'sound'} ({time.perf_counter() - start:.0f} s)")
                if problems:
                    sys.exit(1)
        repeat = args.repeat if size <= args.big else 1
        child = subprocess.run([sys.executable, __file__, "--measure", str(path), "--repeat", str(repeat)],
                               capture_output=True, text=True, check=True)
        figures[size] = result = json.loads(child.stdout.strip().splitlines()[-1])
        for name, stage in result["cases"].items():
            parts = ", ".join(f"{k} {v:.1f}" for k, v in stage.items() if k != "total")
            print(f"{size / 1e6:5.1f}M results, {name:9s}: median {stage['total']:6.1f} s over {repeat} "
                  f"({parts}); {result['sessions']:,} sessions, {result['rows']:,} standings rows", flush=True)
        print(f"{'':5s}  peak RSS {result['rss_mb']:,.0f} MB", flush=True)
    sizes = sorted(figures)
    if len(sizes) >= 2:
        for name in CASES:
            slope = [(figures[b]["cases"][name]["total"] - figures[a]["cases"][name]["total"]) / ((b - a) / 1e6)
                     for a, b in zip(sizes, sizes[1:])]
            per = [figures[s]["cases"][name]["total"] / (s / 1e6) for s in sizes]
            print(f"growth, {name:9s}: {', '.join(f'{p:.2f}' for p in per)} s per million results at "
                  f"{', '.join(f'{s / 1e6:g}M' for s in sizes)}; marginal {', '.join(f'{x:.2f}' for x in slope)} s "
                  "per extra million (equal figures: linear)")
        rss = [(figures[b]["rss_mb"] - figures[a]["rss_mb"]) / ((b - a) / 1e6) for a, b in zip(sizes, sizes[1:])]
        print(f"peak RSS grows by {', '.join(f'{x:,.0f}' for x in rss)} MB per extra million results")
    largest = max(sizes)
    worst = max(c["total"] for c in figures[largest]["cases"].values())
    target = 60.0 * largest / 10_000_000
    print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"largest ({largest / 1e6:g}M): {worst:.1f} s (target <= {target:.0f} s): {'OK' if worst <= target else 'SLOW'}")


if __name__ == "__main__":
    main()
