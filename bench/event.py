"""Synthetic events for the benchmarks: random deals and Mitchell-style travellers.

Sections of 13 tables play 12 rounds of 2 boards (boards 1-26; every pair plays 24),
so "1,000 tables x 24 boards" is 77 sections, 24,024 results. Contracts follow no
deal (speed does not depend on it) but have the usual mix of part-scores, games,
slams, doubles and passed-out boards.
"""
from __future__ import annotations

import csv
import random
from pathlib import Path

SEATS = "NESW"
STRAINS = ["C", "D", "H", "S", "NT"]
VUL = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"]
SECTION_TABLES, ROUNDS, PER_ROUND = 13, 12, 2


def random_deal(rng: random.Random, dealer: str) -> str:
    cards = list(range(52))
    rng.shuffle(cards)
    hands = []
    for h in range(4):
        mine = cards[h * 13:(h + 1) * 13]
        hands.append(".".join("".join("AKQJT98765432"[r] for r in sorted(c % 13 for c in mine if c // 13 == s)) for s in range(4)))
    return f"{dealer}:" + " ".join(hands)


def write_hand_record(path: Path, boards: int, seed: int = 1) -> None:
    """A dealing-machine style PBN: one game per board with Dealer, Vulnerable and Deal."""
    rng = random.Random(seed)
    lines = ["% PBN 2.1", "% EXPORT", ""]
    for board in range(1, boards + 1):
        dealer = SEATS[(board - 1) % 4]
        lines += ['[Event "Benchmark"]', '[Site "bench"]', '[Date "2026.11.30"]', f'[Board "{board}"]',
                  f'[Dealer "{dealer}"]', f'[Vulnerable "{VUL[(board - 1) % 16]}"]',
                  f'[Deal "{random_deal(rng, dealer)}"]', '[Scoring "MatchPoints;MP1"]', ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def _contract(rng: random.Random) -> tuple[str, str, str]:
    if rng.random() < 0.02:
        return "PASS", "", ""
    level = rng.choices(range(1, 8), [12, 20, 25, 28, 8, 5, 2])[0]
    strain = rng.choice(STRAINS)
    doubled = rng.choices(["", "X", "XX"], [90, 9, 1])[0]
    diff = max(-(level + 6), min(13 - (level + 6), rng.choice([-2, -1, -1, 0, 0, 0, 0, 1, 1, 2])))
    return f"{level}{strain}{doubled}", rng.choice(SEATS), "=" if diff == 0 else f"{diff:+d}"


def write_travellers(path: Path, tables: int, seed: int = 2) -> int:
    """A traveller CSV for ``tables`` tables in sections of 13; returns the number of results."""
    rng = random.Random(seed)
    sections = max(1, round(tables / SECTION_TABLES))
    rows = []
    for s in range(sections):
        section = f"S{s + 1}"
        for rnd in range(ROUNDS):
            for t in range(SECTION_TABLES):
                ns, ew = t + 1, (t - rnd) % SECTION_TABLES + 1
                board_set = (t + rnd) % SECTION_TABLES
                for b in range(board_set * PER_ROUND + 1, board_set * PER_ROUND + PER_ROUND + 1):
                    contract, declarer, result = _contract(rng)
                    rows.append([section, b, ns, ew, contract, declarer, result, ""])
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["Section", "Board", "NS", "EW", "Contract", "Declarer", "Result", "Lead"])
        writer.writerows(rows)
    return len(rows)
