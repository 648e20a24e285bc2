"""One number, one text (issue 26): the workbook, the website and the scored CSV show a value alike."""
from __future__ import annotations

import csv
import re

import openpyxl
import pytest

from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.pipeline.write import write_outputs
from bridgeproc.report.web.site import build_site
from tests.conftest import REALDATA

pytestmark = pytest.mark.slow  # scores three real files to every output: left out of make quick

FILES = ["fin-lounaisliiga-2013-09-25-cross2-imp.pbn", "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml",
         "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"]


def _decimals(text: str) -> int:
    return len(text.partition(".")[2])


@pytest.mark.parametrize("name", FILES)
def test_a_ranking_column_has_one_number_of_decimals_and_the_workbook_shows_the_same(tmp_path, name):
    session = build_session([str(REALDATA / name)], Options(dd=False))
    site = build_site(session)
    out = tmp_path / "results.xlsx"
    write_outputs(session, [out, tmp_path / "results.csv"])
    book = openpyxl.load_workbook(out)
    for ranking in site.rankings:
        totals = [row.total for row in ranking.rows]
        assert len({_decimals(t) for t in totals}) == 1, (ranking.title, totals)  # never 162.6 beside 132.09
    shown = {row.pair: row.total for ranking in site.rankings for row in ranking.rows}
    for ws in (s for s in book.worksheets if s.title.startswith("Ranking")):
        rows = list(ws.iter_rows())
        header = next(i for i, r in enumerate(rows) if r[0].value == "Rank")
        for r in rows[header + 1:]:
            if r[0].value is None or r[4].value is None:
                continue
            places = _decimals(r[4].number_format) if "." in r[4].number_format else 0
            assert f"{r[4].value:.{places}f}" == shown[str(r[1].value)], (ws.title, r[1].value)
    with open(tmp_path / "results.csv", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            for column in ("mp_ns", "mp_ew", "pct_ns", "pct_ew", "ximp_ns", "ximp_ew"):
                if row.get(column):
                    assert _decimals(row[column]) <= 2, (column, row[column])


def test_the_teams_csv_holds_no_float_noise(tmp_path):
    """The teams results CSV goes through the same rounding (core.shown): no 0.19999999999999996."""
    out = tmp_path / "teams.csv"
    process_teams([REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"], [out])
    text = out.read_text(encoding="utf-8")
    assert len(text.splitlines()) > 100
    assert re.findall(r"(?<![\w.])-?\d+\.\d{3,}(?![\w.])", text) == []
    assert re.findall(r"(?<![\w.])-0(?:\.0+)?(?![\w.])", text) == []


#: The columns of numbers the scored PBN and USEBIO write from bridgeproc's values.
PBN_COLUMNS = {"MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW", "IMP_NS", "IMP_EW", "TotalScoreMP",
               "TotalScoreIMP", "TotalPercentage"}
USEBIO_ELEMENTS = ("NS_MATCH_POINTS", "EW_MATCH_POINTS", "NS_CROSS_IMPS", "EW_CROSS_IMPS", "TOTAL_SCORE", "PERCENTAGE")


@pytest.mark.parametrize("name", FILES[1:])  # USEBIO sources: every PBN cell is bridgeproc's own text
def test_a_pbn_and_usebio_column_has_one_number_of_decimals(tmp_path, name):
    """Never ``42`` beside ``0.05`` in one column: each column the decimals it needs (core.shown)."""
    import xml.etree.ElementTree as ET

    from bridgeproc.io.pbn.reader import read_pbn

    session = build_session([str(REALDATA / name)], Options(dd=False))
    write_outputs(session, [tmp_path / "scored.pbn", tmp_path / "scored.xml"])
    columns: dict[str, set[int]] = {}
    for game in read_pbn(tmp_path / "scored.pbn").games:
        for tag in game.tags:
            for i, column in enumerate(tag.columns or ()):
                if column.name in PBN_COLUMNS:
                    columns.setdefault(column.name, set()).update(
                        _decimals(row[i]) for row in tag.rows or [] if row[i] not in ("-", ""))
    assert {"MP_NS", "MP_EW", "TotalScoreMP"} <= set(columns)
    assert all(len(found) == 1 for found in columns.values()), columns
    root = ET.parse(tmp_path / "scored.xml").getroot()
    elements = {tag: {_decimals(e.text or "") for e in root.iter(tag)} for tag in USEBIO_ELEMENTS}
    assert elements["TOTAL_SCORE"] and elements["PERCENTAGE"] == {2}
    assert all(len(found) <= 1 for found in elements.values()), elements
