"""Benchmark the search for a file's conventions (issue 25: "a club session's search should cost
well under a second").

For each real file with published numbers: the search's wall time (median of 5), the rankings it
ran, the standings it compared, and its floor, one ranking plus one standings of the same
session done by the bare library (what a run with no search costs for the ranking); the ratio
is search / floor. The machine's load is printed first.

    python bench/bench_reproduce.py
"""
from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

from bridgeproc.model import Options
from bridgeproc.pipeline.read import read_inputs
from bridgeproc.pipeline.run import other_methods, session_conventions, validate_inputs
from bridgeproc.rank import rank_results, standings
from bridgeproc.rank.reproduce import reproduce

REALDATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "realdata"
FILES = [
    "eng-island-bridge-2025-01-06-mp-ebuscore.usebio.xml",
    "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml",
    "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml",
    "fin-sbl-h6-turku-2013-08-20-butler.pbn",
    "fin-lounaisliiga-2013-09-25-cross2-imp.pbn",
    "nor-ostfold-follo-2022-05-08-km-par.pbn",
    "nor-ostfold-follo-2022-09-14-kmlag-butler.pbn",
    "ffb-dn1-open2-s1-2022.pbn",
    "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn",
]
RUNS = 5


def _median(work) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; medians of {RUNS} runs")
    print(f"{'file':<58} {'results':>7} {'search':>8} {'rankings':>8} {'compared':>8} {'floor':>7} {'ratio':>6}")
    for name in FILES:
        options = Options(dd=False)
        read = read_inputs([REALDATA / name], options)
        raw, _, names = read.frames()
        start = session_conventions(options, read.meta, read.across_field)
        checked = validate_inputs(read, options, start.pair_numbering, strict_rules=False)
        totals = pd.concat(read.published_totals, ignore_index=True) if read.published_totals else None
        named = names if len(names) else None

        def search():
            return reproduce(checked.results, raw, start, checked.numbering, totals, named,
                             methods=other_methods(start.method))

        def floor():
            decided = start.replace(pair_numbering=checked.numbering)
            standings(rank_results(checked.results, decided), decided, named)

        found = search()
        took, bare = _median(search), _median(floor)
        print(f"{name:<58} {len(checked.results):>7} {took:>7.3f}s {found.rankings:>8} {len(found.tried):>8} "
              f"{bare:>6.3f}s {took / bare:>5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
