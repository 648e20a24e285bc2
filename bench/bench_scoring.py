"""Benchmark the scorer: text columns -> score_ns, against a per-row loop and a bare gather.

Usage: python bench/bench_scoring.py [ROWS] [REPEATS]

Prints the median of REPEATS runs for:
  text path   parse contract/declarer/result strings (factorize + parse distinct) and score
  core        score_ns_codes on int32 code arrays (contract, declarer, board phase, tricks)
  floor       a bare numpy gather from the same lookup table with a precomputed index
  loop        a per-row Python loop doing the text path (on min(ROWS, 100k) rows, scaled)
"""
from __future__ import annotations

import statistics
import sys
import time

import numpy as np

from bridgeproc.core.boards import declarer_vulnerable, vul_codes
from bridgeproc.core.notation import parse_contract, parse_result, parse_seat
from bridgeproc.scoring.law77 import (
    DECLARER_SCORE,
    SCORE_NS,
    board_phase,
    declarer_score_codes,
    score_ns_codes,
    score_text,
)

STRAINS = ["C", "D", "H", "S", "NT"]


def generate(rows: int, seed: int = 7):
    """Random but plausible results as text, the way a traveller file holds them."""
    rng = np.random.default_rng(seed)
    board = rng.integers(1, 37, rows)
    level = rng.choice(np.arange(1, 8), rows, p=[0.12, 0.2, 0.25, 0.28, 0.08, 0.05, 0.02])
    strain = rng.integers(0, 5, rows)
    doubled = rng.choice(3, rows, p=[0.9, 0.08, 0.02])
    declarer = rng.integers(0, 4, rows)
    tricks = np.clip(level + 6 + rng.integers(-3, 3, rows), 0, 13)
    contract_words = np.array([f"{lv}{STRAINS[s]}{['', 'X', 'XX'][d]}" for lv in range(8) for s in range(5) for d in range(3)], dtype=object)
    contract = contract_words[level * 15 + strain * 3 + doubled]
    seat = np.array(list("NESW"), dtype=object)[declarer]
    diff = tricks - (level + 6)
    result_words = np.array([f"{d:+d}" if d else "=" for d in range(-13, 14)], dtype=object)
    result = result_words[diff + 13]
    codes = dict(board=board, level=level, strain=strain, doubled=doubled, declarer=declarer, tricks=tricks,
                 contract=(level * 15 + strain * 3 + doubled).astype(np.int32), phase=board_phase(board),
                 declarer32=declarer.astype(np.int32), tricks32=tricks.astype(np.int32))
    return board, contract, seat, result, codes


def loop(board, contract, seat, result) -> list[int]:
    out = []
    for b, c, s, r in zip(board, contract, seat, result):
        k = parse_contract(c)
        d = parse_seat(s)["seat"]
        res = parse_result(r)
        tricks = k["level"] + 6 + res["relative"] if "relative" in res else res["tricks"]
        vul = int(vul_codes(np.array([b]))[0])
        decl_vul = vul == 3 or (vul == 1 and d % 2 == 0) or (vul == 2 and d % 2 == 1)
        index = ((((k["level"] * 5 + k["strain"]) * 3 + k["doubled"]) * 2 + decl_vul) * 14) + tricks
        value = int(DECLARER_SCORE[index])
        out.append(value if d % 2 == 0 else -value)
    return out


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(rows: int = 1_000_000, repeats: int = 7) -> None:
    board, contract, seat, result, c = generate(rows)
    decl_vul = declarer_vulnerable(vul_codes(c["board"]), c["declarer"]).astype(np.int8)
    by_declarer = declarer_score_codes(c["level"], c["strain"], c["doubled"], decl_vul, c["tricks"])
    expected = np.where(c["declarer"] % 2 == 0, by_declarer, -by_declarer)
    core_args = (c["contract"], c["declarer32"], c["phase"], c["tricks32"])
    index = ((c["contract"] * 4 + c["declarer32"]) * 16 + c["phase"]) * 14 + c["tricks32"]
    assert np.array_equal(score_ns_codes(*core_args), expected)
    assert np.array_equal(score_text(board, contract, seat, result), expected)
    n_loop = min(rows, 100_000)
    assert loop(board[:n_loop], contract[:n_loop], seat[:n_loop], result[:n_loop]) == expected[:n_loop].tolist()

    text = median_time(lambda: score_text(board, contract, seat, result), repeats)
    core = median_time(lambda: score_ns_codes(*core_args), repeats)
    floor = median_time(lambda: SCORE_NS.take(index), repeats)
    per_row = median_time(lambda: loop(board[:n_loop], contract[:n_loop], seat[:n_loop], result[:n_loop]), 3) * rows / n_loop
    _ = declarer_score_codes  # the same gather, exposed for callers with codes

    print(f"rows: {rows:,}  (median of {repeats} runs; loop on {n_loop:,} rows, scaled)")
    for name, seconds in [("text path", text), ("core (codes)", core), ("floor (gather)", floor), ("per-row loop", per_row)]:
        print(f"  {name:15s} {seconds * 1000:9.1f} ms  {rows / seconds / 1e6:8.2f} M rows/s")
    print(f"  core / floor      {core / floor:6.2f}x")
    print(f"  loop / text path  {per_row / text:6.1f}x")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*args)
