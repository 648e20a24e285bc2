"""Whole processes, cold, each figure beside its floor (the same work done by the bare libraries).

Usage: python bench/bench_pipeline.py [REPEATS]

1. Start-up: ``bridgeproc --version`` and ``bridgeproc score --help`` beside starting Python, and the
   import floor ``python -c "import pandas, openpyxl, numpy, click"``.
2. The sample club evening (13 tables, 26 boards, names) with cached double dummy: a first run writes
   results.pbn (deals + DoubleDummy/OptimumResultTable); the timed runs read that PBN as the hand
   record (its old ScoreTables are set aside because travellers are given) and write results.xlsx
   and results.pbn. Floor: the import line above.
3. A synthetic 1,000-table x 24-board event (77 sections of 13 tables, 24,024 results), likewise with
   its double dummy cached: xlsx + pbn, then each output alone (the website too), and archived too. Floor of the
   workbook: openpyxl write-only (with lxml, as bridgeproc uses it) writing as many cells as
   bridgeproc's workbook holds, no styles, in a fresh process.

Each figure is the median wall time of REPEATS fresh processes, with the peak memory (max RSS) of the
largest; the load average is printed at the start and the end.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from event import write_hand_record, write_travellers  # noqa: E402

BRIDGEPROC = [sys.executable, "-m", "bridgeproc"]
IMPORTS = [sys.executable, "-c", "import pandas, openpyxl, numpy, click"]

#: openpyxl alone writing CELLS cells, ten to a row, no styles (argv: path, cells).
OPENPYXL_FLOOR = """
import sys, openpyxl
path, cells = sys.argv[1], int(sys.argv[2])
wb = openpyxl.Workbook(write_only=True)
ws = wb.create_sheet("Sheet")
row = [1, "NS", 7, "4S", "N", 10, 420, 12.5, "text", 100.5]
for _ in range(cells // len(row)):
    ws.append(row)
wb.save(path)
"""


#: Runs one command and prints its wall seconds and the peak RSS (KB) of that child alone.
_MEASURE = ("import resource, subprocess, sys, time\n"
            "start = time.perf_counter()\n"
            "subprocess.run(sys.argv[1:], check=True, capture_output=True)\n"
            "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def timed(command: list[str], env: dict | None = None) -> tuple[float, int]:
    """Wall seconds and the peak RSS (MB) of one fresh process (measured by a parent of its own)."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command], check=True, env=env, capture_output=True,
                          text=True)
    seconds, peak = done.stdout.split()
    return float(seconds), int(peak) // 1024


def median(command: list[str], repeats: int, env: dict | None = None) -> tuple[float, int]:
    runs = [timed(command, env) for _ in range(repeats)]
    return statistics.median(s for s, _ in runs), max(m for _, m in runs)


def line(label: str, figure: tuple[float, int], floor: float | None = None, floor_label: str = "") -> None:
    seconds, peak = figure
    ratio = f"  {seconds / floor:4.2f}x {floor_label} ({floor:.2f} s)" if floor else ""
    print(f"  {label:38s} {seconds:6.2f} s  peak {peak:4d} MB{ratio}")


def _out(work: Path, name: str) -> str:
    """An output's path in ``work``; a folder output keeps its trailing slash (``site/``)."""
    return str(work / name) + ("/" if name.endswith("/") else "")


def workbook_cells(path: Path) -> int:
    """How many cells bridgeproc's workbook holds (``<c `` elements of its sheets)."""
    with zipfile.ZipFile(path) as book:
        return sum(book.read(n).count(b"<c ") for n in book.namelist() if n.startswith("xl/worksheets/sheet"))


def main(repeats: int = 5) -> None:
    print(f"load average at start: {open('/proc/loadavg').read().split()[:3]}")
    sample = ROOT / "sample_data"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        env = dict(os.environ, BRIDGEPROC_ARCHIVE=str(work / "archive.sqlite"))
        python = median([sys.executable, "-c", "pass"], repeats)
        imports = median(IMPORTS, repeats)
        print("start-up:")
        line("python -c pass", python)
        line("import pandas, openpyxl, numpy, click", imports)
        line("bridgeproc --version", median([*BRIDGEPROC, "--version"], repeats, env), python[0], "python")
        line("bridgeproc score --help", median([*BRIDGEPROC, "score", "--help"], repeats, env), python[0], "python")

        names = ["--names", str(sample / "club-evening-names.csv")]
        travellers = [str(sample / "club-evening-travellers.csv"), *names]
        cached = work / "club-cached.pbn"
        solve = timed([*BRIDGEPROC, "score", str(sample / "club-evening.pbn"), *travellers, "-o", str(cached),
                       "--no-archive"], env)
        outputs = ["-o", str(work / "club.xlsx"), "-o", str(work / "club.pbn")]
        print("club night (13 tables, 26 boards), cached double dummy:")
        line("first run, double dummy solved", solve)
        line("xlsx + pbn", median([*BRIDGEPROC, "score", str(cached), *travellers, *outputs, "--no-archive"],
                                  repeats, env), imports[0], "the import floor")
        line("xlsx + pbn, archived", median([*BRIDGEPROC, "score", str(cached), *travellers, *outputs,
                                            "--session-id", "club"], repeats, env), imports[0], "the import floor")

        write_hand_record(work / "big-hands.pbn", 26)
        count = write_travellers(work / "big-travellers.csv", 1000)
        big = [str(work / "big-travellers.csv")]
        cached = work / "big-cached.pbn"
        solve = timed([*BRIDGEPROC, "score", str(work / "big-hands.pbn"), *big, "-o", str(cached), "--no-archive"], env)
        print(f"1,000 tables x 24 boards ({count:,} results), cached double dummy:")
        line("first run, double dummy solved", solve)
        runs = max(1, repeats)
        for label, outs in (("xlsx + pbn", ["big.xlsx", "big.pbn"]), ("xlsx", ["big.xlsx"]), ("pbn", ["big.pbn"]),
                            ("csv", ["big.csv"]), ("website", ["site/"]), ("nothing written (check)", [])):
            command = ([*BRIDGEPROC, "score", str(cached), *big, *[a for o in outs for a in ("-o", _out(work, o))],
                        "--no-archive"] if outs else [*BRIDGEPROC, "-q", "check", str(cached), *big])
            figure = median(command, runs, env)
            if label == "xlsx":
                cells = workbook_cells(work / "big.xlsx")
                floor = median([sys.executable, "-c", OPENPYXL_FLOOR, str(work / "floor.xlsx"), str(cells)], runs)
                line(label, figure, floor[0] + imports[0], f"openpyxl writing {cells:,} plain cells + imports")
            elif label == "website":
                pages = list((work / "site").rglob("*.html"))
                size = sum(p.stat().st_size for p in pages) / 1e6
                line(f"{label} ({len(pages):,} pages, {size:.0f} MB)", figure)
            else:
                line(label, figure)
        line("xlsx + pbn, archived", median([*BRIDGEPROC, "score", str(cached), *big, "-o", str(work / "big.xlsx"),
                                            "-o", str(work / "big.pbn"), "--session-id", "big"], runs, env))
    print(f"load average at end: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main(*[int(a) for a in sys.argv[1:]])
