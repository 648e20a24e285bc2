"""bridgeproc's own workbook read back: its Ranking sheets are its published standings (io.sheets.own)."""
from __future__ import annotations

import openpyxl
import pytest

from bridgeproc.io.sheets.own import _group, own_totals
from bridgeproc.io.sheets.xlsx import load_workbooks
from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TWO_WINNER = "eng-usebio-sample-2015-12-14-mp-2sections-pairsscorer.usebio.xml"


@pytest.mark.parametrize(("title", "group"), [
    ("North-South", ("", "NS")),
    ("East-West", ("", "EW")),
    ("All pairs", ("", "")),
    ("All players", ("", "")),
    ("A NS", ("A", "NS")),
    ("Red, upstairs EW", ("Red, upstairs", "EW")),
    ("B ALL", ("B", "")),
    ("Matchpoints", None),
])
def test_group_titles(title, group):
    assert _group(title) == group


def test_ranking_sheets_are_the_published_standings(tmp_path):
    session = build_session([str(REALDATA / TWO_WINNER)], Options(dd=False))
    out = tmp_path / "scored.xlsx"
    write_outputs(session, [out])
    totals = own_totals(load_workbooks(out)[0], out.name)
    assert totals is not None and len(totals) == 32
    # the file's winner of the NS field, as PairsScorer published it (66.91 %, 365.31 MPs)
    first = totals.iloc[0].to_dict()
    assert {k: first[k] for k in ("pair", "direction", "place", "percentage", "total", "source", "line")} == {
        "pair": "5", "direction": "NS", "place": "1", "percentage": "66.91", "total": "365.31",
        "source": "scored.xlsx!Ranking NS", "line": "7"}
    assert first["names"] == "David O'Kins & Zebedee Purvis"
    assert totals["direction"].value_counts().to_dict() == {"NS": 16, "EW": 16}
    again = build_session([str(out)], Options(dd=False))
    assert "places 32/32" in again.origin and "percentages 32/32" in again.origin


def test_another_programs_workbook_has_no_published_standings(tmp_path):
    wb = openpyxl.Workbook()
    wb.properties.creator = "Microsoft Excel"
    ws = wb.active
    ws.title = "Ranking"
    ws.append(["Club night — Matchpoints, All pairs"])
    ws.append(["Rank", "Pair", "Names", "Boards", "Total", "%"])
    ws.append([1, 3, "A & B", 24, 150.5, 62.7])
    wb.save(tmp_path / "theirs.xlsx")
    assert own_totals(load_workbooks(tmp_path / "theirs.xlsx")[0], "theirs.xlsx") is None
    wb.properties.creator = "bridgeproc 0.1"
    ws.title = "Notes"  # not a ranking sheet
    wb.save(tmp_path / "notes.xlsx")
    assert own_totals(load_workbooks(tmp_path / "notes.xlsx")[0], "notes.xlsx") is None
