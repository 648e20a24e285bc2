"""Every board page shows how often each score was made, counted from the scored results independently
(the scored CSV read back), with the field's points for it."""
from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from bridgeproc.cli import cli

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


def test_every_board_page_has_the_frequencies_of_its_scores(runner, tmp_path):
    site, scored = tmp_path / "site", tmp_path / "scored.csv"
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv"),
                                 "--no-dd", "--no-archive", "-o", f"{site}/", "-o", str(scored)])
    assert result.exit_code == 0, result.output
    with open(scored, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    boards = sorted({int(r["board"]) for r in rows})
    assert len(boards) == 26
    for board in boards:
        mine = [r for r in rows if int(r["board"]) == board]
        counted = Counter(int(r["score_ns"]) for r in mine if r["score_ns"])
        mps = {int(r["score_ns"]): r["mp_ns"] for r in mine if r["score_ns"]}
        page = (site / "boards" / f"{board}.html").read_text(encoding="utf-8")
        table = page[page.index('class="frequencies"'):]
        table = table[:table.index("</table>")]
        lines = re.findall(r'<tr><td class="num">(-?\d+)</td><td class="num">(\d+)</td><td class="num">([\d.]+)</td>',
                           table)
        assert {int(s): int(n) for s, n, _ in lines} == dict(counted), board
        assert [int(s) for s, _, _ in lines] == sorted(counted, reverse=True)  # best for NS first
        for score, _, points in lines:
            assert float(points) == float(mps[int(score)]), (board, score)


@pytest.mark.slow  # the whole pipeline on real files: make test, not make quick
def test_a_score_card_has_each_boards_percentage_the_boards_not_played_and_why_its_total_differs(runner, tmp_path):
    """A result taken off the sample evening: pair 1 NS's card lists board 1 as not played, in board order;
    every board it played has its percentage (points over the board's top); and a Compscore card, whose total
    is scaled, says why its boards do not add up to it."""
    travellers = tmp_path / "t.csv"
    lines = (SAMPLE / "club-evening-travellers.csv").read_text(encoding="utf-8").splitlines()
    travellers.write_text("\n".join(line for line in lines if not line.startswith("1,1,")) + "\n", encoding="utf-8")
    site = tmp_path / "site"
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(travellers), "--no-dd", "--no-archive",
                                 "-o", f"{site}/"])
    assert result.exit_code == 0, result.output
    page = (site / "cards" / "ns-1.html").read_text(encoding="utf-8")
    body = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page[page.index('<section class="scorecard"'):]))
    assert body.index("1 not played: no result for this pair") < body.index(" 2 1 4♠ W")
    assert "13.00 54.17 13.00" in body  # board 2: 13 of 24, 54.17 %, the running total
    compscore = Path(__file__).resolve().parents[1] / "data" / "realdata" / \
        "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
    other = tmp_path / "cs"
    result = runner.invoke(cli, ["score", str(compscore), "--no-dd", "--no-archive", "-o", f"{other}/"])
    assert result.exit_code == 0, result.output
    assert ("The boards add up to 124; the ranking&#39;s total is 128.77: each board scored on its own top, the "
            "total scaled to the most boards played") in (other / "cards" / "1.html").read_text(encoding="utf-8")
