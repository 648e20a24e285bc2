"""Handicapped and stratified rankings on the sample evening, beside the scratch one: the figures against an
independent count from the names list, both conventions (the EBU's percentage, Norway's score), and the
outputs showing both rankings side by side with the handicap's sign said once."""
from __future__ import annotations

import csv
from contextlib import closing
from pathlib import Path

import pytest
from openpyxl import load_workbook

from bridgeproc.cli import cli

pytestmark = pytest.mark.slow  # each test scores the sample evening end to end: make test, not make quick

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
INPUTS = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv"), "--names",
          str(SAMPLE / "club-evening-names.csv"), "--no-dd", "--no-archive"]


def _players() -> dict[str, list[str]]:
    """NS pair -> its two players, read from the sample's names list (a Mitchell: the first ranking sheet is the
    NS pairs')."""
    with open(SAMPLE / "club-evening-names.csv", newline="", encoding="utf-8") as handle:
        return {row["Pair"]: [n.strip() for n in row["Names"].split("&")] for row in csv.DictReader(handle)
                if row["Direction"] == "NS"}


def _everyone() -> list[str]:
    with open(SAMPLE / "club-evening-names.csv", newline="", encoding="utf-8") as handle:
        return sorted({n.strip() for row in csv.DictReader(handle) for n in row["Names"].split("&")})


def _write(path: Path, column: str, values: dict[str, float]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        out = csv.writer(handle)
        out.writerow(["name", column])
        out.writerows([name, value] for name, value in values.items())
    return path


def _scored(runner, tmp_path, *more: str) -> list[dict[str, str]]:
    """The sample evening's first ranking sheet as rows (header -> cell)."""
    out = tmp_path / "r.xlsx"
    result = runner.invoke(cli, ["score", *INPUTS, "-o", str(out), *more])
    assert result.exit_code == 0, result.output
    with closing(load_workbook(out, read_only=True)) as book:
        rows = list(book.worksheets[0].iter_rows(values_only=True))
    at = next(i for i, r in enumerate(rows) if r and r[0] == "Rank")
    head = rows[at]
    return [dict(zip(head, r)) for r in rows[at + 1:] if r and r[0] is not None and r[1] is not None], rows[:at]


def _competition_ranks(values: dict[str, float]) -> dict[str, str]:
    """The slow way: each pair's rank is one more than the pairs above it, ``=`` when tied."""
    out = {}
    for pair, value in values.items():
        above = sum(1 for v in values.values() if round(v, 6) > round(value, 6))
        tied = sum(1 for v in values.values() if round(v, 6) == round(value, 6)) > 1
        out[pair] = f"{above + 1}{'=' if tied else ''}"
    return out


@pytest.mark.parametrize(("style", "base"), [("percentage", "%"), ("score", "Total")])
def test_a_handicapped_ranking_beside_the_scratch_one(runner, tmp_path, style, base):
    players = _players()
    everyone = _everyone()
    handicaps = {name: round((i % 7 - 3) * 0.75, 2) for i, name in enumerate(everyone)}  # -2.25 .. +2.25
    path = _write(tmp_path / "handicaps.csv", "handicap", handicaps)
    rows, heading = _scored(runner, tmp_path, "--handicaps", str(path), "--handicap-style", style)
    assert any("a + handicap helps, and the scratch ranking is kept" in str(r[0]) for r in heading if r)
    expected = {}
    for row in rows:
        pair = str(row["Pair"])
        handicap = sum(handicaps[p] for p in players[pair])
        assert row["Handicap"] == pytest.approx(handicap)
        assert row["Handicapped"] == pytest.approx(row[base] + handicap, abs=0.006)
        expected[pair] = row["Handicapped"]
    ranks = _competition_ranks(expected)
    assert {str(r["Pair"]): r["Handicapped rank"] for r in rows} == ranks
    assert [r["Rank"] for r in rows] == sorted(r["Rank"] for r in rows)  # scratch order kept
    assert {str(r["Pair"]): r["Handicapped rank"] for r in rows} != {str(r["Pair"]): str(r["Rank"]) for r in rows}


def test_a_pair_listed_by_its_names_takes_its_own_handicap(runner, tmp_path):
    players = _players()
    path = _write(tmp_path / "h.csv", "handicap", {" & ".join(players["1"]): 7.5, players["1"][0]: 1.0})
    rows, _ = _scored(runner, tmp_path, "--handicaps", str(path))
    handicap = {str(r["Pair"]): r["Handicap"] for r in rows}
    assert handicap["1"] == 7.5 and set(v for k, v in handicap.items() if k != "1") == {0}


def test_a_ranking_per_stratum_beside_the_overall_one(runner, tmp_path):
    players = _players()
    everyone = _everyone()
    holdings = {name: [1200, 650, 420, 180, 90, 30, 5][i % 7] for i, name in enumerate(everyone)}
    path = _write(tmp_path / "holdings.csv", "masterpoints", holdings)
    rows, heading = _scored(runner, tmp_path, "--holdings", str(path), "--strata", "500,100")
    assert any("Strata by masterpoint holdings" in str(r[0]) and "B under 500, C under 100" in str(r[0])
               for r in heading if r)
    average = {str(r["Pair"]): sum(holdings[p] for p in players[str(r["Pair"])]) / 2 for r in rows}
    stratum = {pair: "A" if h >= 500 else "B" if h >= 100 else "C" for pair, h in average.items()}
    assert {str(r["Pair"]): r["Stratum"] for r in rows} == stratum
    score = {str(r["Pair"]): r["%"] for r in rows}
    for letter, allowed in (("A", "ABC"), ("B", "BC"), ("C", "C")):
        field = {pair: pct for pair, pct in score.items() if stratum[pair] in allowed}
        ranks = _competition_ranks(field)
        for row in rows:
            pair = str(row["Pair"])
            parts = dict(p.split(" ") for p in row["Rank in strata"].split(", "))
            assert parts.get(letter) == ranks.get(pair), (letter, pair)


def test_the_website_shows_both_rankings(runner, tmp_path):
    players = _players()
    path = _write(tmp_path / "h.csv", "handicap", {players["3"][0]: 3.0, players["3"][1]: 2.0})
    site = tmp_path / "site"
    result = runner.invoke(cli, ["score", *INPUTS, "-o", f"{site}/", "--handicaps", str(path)])
    assert result.exit_code == 0, result.output
    page = (site / "index.html").read_text(encoding="utf-8")
    assert "<th scope=\"col\">Handicapped rank</th>" in page and "<td>5</td>" in page
    assert "a + handicap helps" in page
    assert "no handicap listed for 50 player(s), counted 0" in result.output


@pytest.mark.parametrize(("text", "words"), [
    ("who,handicap\nAnna,1\n", "the header must name the player"),
    ("name,handicap\nAnna Berg,lots\nBjørn Lie,=1+1\n", "lines 2, 3"),
])
def test_a_players_list_that_is_not_one_is_refused_with_its_line(runner, tmp_path, text, words):
    path = tmp_path / "h.csv"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv"), "--handicaps", str(path)])
    assert result.exit_code == 1 and words in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r.csv").exists()


def test_strata_limits_that_are_not_limits_are_a_usage_error(runner, tmp_path):
    path = _write(tmp_path / "m.csv", "masterpoints", {"Anna Berg": 10})
    result = runner.invoke(cli, ["score", *INPUTS, "-o", str(tmp_path / "r.csv"), "--holdings", str(path),
                                 "--strata", "100,500"])
    assert result.exit_code == 2 and "highest first" in result.output
