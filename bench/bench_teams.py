"""Benchmark teams scoring: a synthetic Swiss of TEAMS teams, ROUNDS rounds of BOARDS boards.

Usage: python bench/bench_teams.py [TEAMS] [ROUNDS] [BOARDS] [REPEATS]   (default 100 10 8 5)

Results are random but plausible contracts typed as text (``4S``, ``N``, ``-1``), two
rooms per match. Pairings are a real Swiss: round 1 at random, then each round is
scored and ranked and paired with :func:`bridgeproc.teams.swiss_pairings` (not
timed). Prints the median of REPEATS runs for:

  core         raw text frame -> validate + score (Law 77) -> board IMPs -> match VPs -> standings
  whole        process_teams on the traveller CSV: read, all of the above, write .xlsx .csv .pbn
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import TeamsOptions, score_rooms, score_teams, swiss_pairings

STRAINS = ["C", "D", "H", "S", "NT"]


def generate(teams: int, rounds: int, boards: int, seed: int = 11) -> pd.DataFrame:
    """The raw traveller frame (text cells) of a whole Swiss event."""
    rng = np.random.default_rng(seed)
    names = np.array([f"Team {i:03d}" for i in range(1, teams + 1)], dtype=object)
    frames = []
    pairs = names[rng.permutation(teams)].reshape(-1, 2)
    for rnd in range(1, rounds + 1):
        home, away = pairs[:, 0], pairs[:, 1]
        n = len(home) * boards * 2
        match = np.repeat(np.arange(len(home)), boards * 2)
        board = np.tile(np.repeat(np.arange(1, boards + 1), 2), len(home))
        room = np.tile(np.array(["Open", "Closed"], dtype=object), n // 2)
        level = rng.choice(np.arange(1, 8), n, p=[0.1, 0.2, 0.25, 0.3, 0.08, 0.05, 0.02])
        strain = rng.integers(0, 5, n)
        doubled = rng.choice(3, n, p=[0.9, 0.08, 0.02])
        declarer = rng.integers(0, 4, n)
        diff = np.clip(rng.integers(-3, 3, n), -(level + 6), 7 - level)
        contract = np.array([f"{lv}{STRAINS[s]}{['', 'X', 'XX'][d]}" for lv, s, d in zip(level, strain, doubled)], dtype=object)
        frames.append(pd.DataFrame({
            "round": str(rnd), "board": board.astype(str), "room": room,
            "home": home[match], "away": away[match],
            "contract": contract, "declarer": np.array(list("NESW"), dtype=object)[declarer],
            "result": np.array([f"{d:+d}" if d else "=" for d in diff], dtype=object),
        }))
        if rnd < rounds:
            session = score_teams([score_rooms(_raw_frame(pd.concat(frames, ignore_index=True).astype("string")))], [],
                                  TeamsOptions(format="swiss"))
            pairs = swiss_pairings(session.standings, session.matches)[["home", "away"]].to_numpy(dtype=object)
    raw = pd.concat(frames, ignore_index=True).astype("string")
    return raw


def _raw_frame(raw: pd.DataFrame) -> pd.DataFrame:
    from bridgeproc.teams.load import _sides, room_codes

    framed = raw.assign(source=pd.array(["bench.csv"] * len(raw), dtype="string"),
                        line=pd.array(np.arange(2, len(raw) + 2), dtype="Int64"))
    return _sides(framed, framed["home"], framed["away"], room_codes(framed["room"], framed["source"], framed["line"]))


def core(raw: pd.DataFrame) -> pd.DataFrame:
    rooms = score_rooms(_raw_frame(raw))
    return score_teams([rooms], [], TeamsOptions(format="swiss")).standings


def median_time(fn, repeats: int) -> tuple[float, float]:
    """Median wall-clock and CPU (process) seconds; CPU time is the fairer figure on a shared machine."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main(argv: list[str]) -> None:
    teams, rounds, boards, repeats = (int(a) for a in (argv + ["100", "10", "8", "5"][len(argv):]))
    raw = generate(teams, rounds, boards)
    print(f"{teams} teams, {rounds} rounds x {boards} boards: {len(raw)} table results, "
          f"{len(raw) // (2 * boards)} matches; median of {repeats}")
    table = core(raw)
    assert len(table) == teams
    met = raw.drop_duplicates(subset=["round", "home"])
    pairs = pd.Series([tuple(sorted(p)) for p in zip(met["home"], met["away"])])
    print(f"  Swiss check: {len(table)} teams ranked, {int(pairs.duplicated().sum())} rematches")
    wall, cpu = median_time(lambda: core(raw), repeats)
    print(f"  core   (validate, score, IMPs, VPs, standings)              wall {wall:6.3f} s   cpu {cpu:6.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        csv_path = Path(tmp) / "swiss.csv"
        raw.rename(columns=str.title).to_csv(csv_path, index=False)
        outputs = [str(Path(tmp) / f"swiss-scored{ext}") for ext in (".xlsx", ".csv", ".pbn")]
        for label, outs in (("whole  (read CSV, all of the above, write xlsx/csv/pbn)", outputs),
                            ("  of which no outputs (read CSV, score, rank)", [])):
            wall, cpu = median_time(lambda: process_teams([csv_path], outs, TeamsOptions(format="swiss")), repeats)
            print(f"  {label:<56} wall {wall:6.3f} s   cpu {cpu:6.3f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
