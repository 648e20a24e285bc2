"""Every board page shows how often each score was made, counted from the scored results independently
(the scored CSV read back), with the field's points for it."""
from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

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
