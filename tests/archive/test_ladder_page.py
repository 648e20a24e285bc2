"""archive ladder -o ladder.html: the season's ladder as a page of its own, read back by an HTML parser
row for row as the ladder's table, a name from a file escaped, the masterpoints beside the percentages."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from bridgeproc.archive.ladder import ladder
from bridgeproc.cli import cli

REAL = Path(__file__).resolve().parents[1] / "data" / "realdata"


class _Rows(HTMLParser):
    """The text of each cell of each body row."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.body = self.cell = False

    def handle_starttag(self, tag, attrs):
        if tag == "tbody":
            self.body = True
        elif self.body and tag == "tr":
            self.rows.append([])
        elif self.body and tag in ("td", "th"):
            self.cell = True
            self.rows[-1].append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.cell = False
        elif tag == "tbody":
            self.body = False

    def handle_data(self, data):
        if self.cell:
            self.rows[-1][-1] += data


@pytest.mark.slow  # the whole pipeline on real files: make test, not make quick
def test_the_ladder_page_reads_back_as_the_ladder(runner, tmp_path):
    url = f"sqlite:///{tmp_path / 'club.sqlite'}"
    source = REAL / "eng-island-bridge-2025-01-06-mp-ebuscore.usebio.xml"
    hostile = tmp_path / "island.usebio.xml"
    hostile.write_text(source.read_text(encoding="utf-8").replace("Sharon Parr", "Sharon &lt;b&gt;Parr"),
                       encoding="utf-8")
    result = runner.invoke(cli, ["score", str(hostile), "--no-dd", "--archive", url, "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 0, result.output
    out = tmp_path / "ladder.html"
    result = runner.invoke(cli, ["archive", "ladder", "--archive", url, "--by", "player", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert "Sharon &lt;b&gt;Parr" in text and "<b>Parr" not in text
    parsed = _Rows()
    parsed.feed(text)
    table = ladder(url, by="player").table
    assert [r[1] for r in parsed.rows] == table["names"].tolist()
    assert [r[0] for r in parsed.rows] == table["rank"].tolist()
    assert [float(r[4]) for r in parsed.rows] == [round(p, 2) for p in table["pct"]]
    assert [float(r[-1]) for r in parsed.rows] == table["masterpoints"].tolist()
