"""pipeline.event on the Finnish championship: two sessions scored apart reproduce the event's
published cumulative TotalScoreTable (session 2's file), number for number."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

from bridgeproc.errors import UsageError, ValidationError
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.model import Options
from bridgeproc.pipeline.event import build_event, session_files, write_event
from bridgeproc.pipeline.run import check_report
from tests.conftest import REALDATA

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
#: Ruter ranks and takes percentages on the exact matchpoints and shows totals to one decimal
#: (2084.375 is 2084.4, 58.3859 % is 58.39; with board MPs rounded first, 5 of 36 percentages miss).
EXACT = Options(dd=False)
#: Board matchpoints rounded to one decimal: the totals as Ruter shows them, exactly.
ONE_DECIMAL = Options(dd=False, overrides={"mp_decimals": 1})


@lru_cache(maxsize=None)
def finnish(one_decimal: bool = False):
    return build_event([S1, S2], ONE_DECIMAL if one_decimal else EXACT)


def published() -> pd.DataFrame:
    """Session 2's TotalScoreTable as the file writes it (the event's cumulative ranking)."""
    totals = read_pbn(S2).totals
    return pd.DataFrame({"pair": totals["pairid"].astype("string"), "rank": totals["rank"].astype("string"),
                         "total": totals["totalscoremp"].astype(float), "pct": totals["totalpercentage"].astype(float),
                         "boards": totals["nrboards"].astype(int), "session_boards": totals["nrboardssession"].astype(int),
                         "session_total": totals["sessionscoremp"].astype(float),
                         "session_pct": totals["sessionpercentage"].astype(float),
                         "session_rank": totals["sessionrank"].astype("string")})


def test_the_two_sessions_as_one_score_run_clash_on_every_table_and_round():
    """Why ``event`` scores them apart: round numbers start again, so each of session 2's 702 results
    sits at a table and round where session 1 had other pairs."""
    report = check_report([S1, S2], Options(dd=False))
    assert len(report.errors) == 702 == 18 * 39
    assert set(report.errors["source"]) == {S2.name}
    assert report.errors["message"].str.contains(r"table \d+ round \d+ has NS", regex=True).all()


def test_every_published_cumulative_number_is_reproduced():
    ours = finnish().ranking.standings
    theirs = published()
    both = theirs.merge(ours, on="pair", suffixes=("_pub", ""), validate="1:1")
    assert len(both) == len(ours) == len(theirs) == 36
    np.testing.assert_allclose(both["total"], both["total_pub"], atol=0.0501, rtol=0)  # 1279.4 + 805.0 = 2084.4
    np.testing.assert_allclose(both["pct"], both["pct_pub"], atol=0.005, rtol=0)  # 2084.4 / (105 x 34) = 58.39 %
    np.testing.assert_allclose(both["session_total"], both["session_total_pub"], atol=1e-6, rtol=0)
    np.testing.assert_allclose(both["session_pct"], both["session_pct_pub"], atol=0.005, rtol=0)
    assert both["rank"].tolist() == both["rank_pub"].tolist()
    assert both["session_rank"].str.rstrip("=").tolist() == both["session_rank_pub"].tolist()  # 10= is Ruter's 10
    assert (both["boards"] == both["boards_pub"]).all() and (both["session_boards"] == both["session_boards_pub"]).all()
    first = ours.iloc[0]
    assert (first["pair"], first["rank"], round(first["total"], 1), round(first["pct"], 2)) == ("2", "1", 2084.4, 58.39)
    exact_totals = finnish(one_decimal=True).ranking.standings.merge(theirs, on="pair", suffixes=("", "_pub"))
    np.testing.assert_allclose(exact_totals["total"], exact_totals["total_pub"], atol=1e-9, rtol=0)


def test_the_sessions_published_differences_are_replaced_by_the_events():
    notes = finnish().notes
    # the session's own note ("36 of 36 published totals differ": the session against the event's
    # numbers) is replaced by the comparison with SessionScoreMP and the event's with TotalScoreMP
    assert not notes["column"].isin(["total", "percentage", "place"]).any()
    assert finnish().ranking.standings["rank"].tolist() == published()["rank"].tolist()


def test_the_event_is_named_without_its_session_number():
    event = finnish()
    assert event.meta["event"] == "SM-parikilpailu" and event.labels == (S1.name, S2.name)


def test_the_event_pbn_carries_the_cumulative_table(tmp_path):
    out = tmp_path / "event.pbn"
    write_event(finnish(), [out])
    back = read_pbn(out)
    totals = back.totals
    theirs = read_pbn(S2).totals
    for column in ("rank", "pairid", "nrboards", "nrboardssession", "sessionrank"):
        assert totals[column].str.rstrip("=").tolist() == theirs[column].tolist(), column
    for column in ("totalscoremp", "totalpercentage", "sessionscoremp", "sessionpercentage"):
        np.testing.assert_allclose(totals[column].astype(float), theirs[column].astype(float), atol=0.0501)
    assert back.meta["Event"] == "SM-parikilpailu"
    assert sorted({int(b) for b in back.results["board"]}) == list(range(67, 106))  # the last session's boards


def test_the_csv_and_workbook(tmp_path):
    import openpyxl

    write_event(finnish(one_decimal=True), [tmp_path / "e.csv", tmp_path / "e.xlsx"])
    table = pd.read_csv(tmp_path / "e.csv", dtype={"pair": str})
    assert table.columns[:8].tolist() == ["rank", "pair", "names", "sessions", "boards", "total", "pct",
                                          "session_boards"]
    assert table.loc[0, ["pair", "total", "s1_total", "s2_total", "s1_rank", "s2_rank"]].tolist() == [
        "2", 2084.4, 1279.4, 805.0, "3", "3"]
    wb = openpyxl.load_workbook(tmp_path / "e.xlsx")
    assert wb.sheetnames[:3] == ["Event ranking", "Session 1", "Session 2"]
    rows = list(wb["Event ranking"].iter_rows(values_only=True))
    header = next(i for i, r in enumerate(rows) if r and r[0] == "Rank")
    assert rows[header][:7] == ("Rank", "Pair", "Names", "Boards", "Total", "%", "S1 total")
    assert rows[header + 1][:5] == (1, 2, "Jukka Pesonen - Sakari Stubb", 105, 2084.4)


def test_every_sessions_problems_are_listed_together(tmp_path):
    bad = "Board,Round,Table,NS,EW,Contract,Declarer,Result\n1,1,1,1,2,4S,N,=\n1,2,1,3,4,4Q,N,=\n"
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    one.write_text(bad, encoding="utf-8")
    two.write_text(bad.replace("4Q", "9S"), encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        build_event([one, two], Options(dd=False))
    sources = set(caught.value.problems["source"])
    assert {"one.csv", "two.csv"} <= sources


def test_a_file_given_twice_is_a_usage_error():
    with pytest.raises(UsageError, match="given twice"):
        build_event([S1, f"{S2},{S1}"], Options(dd=False))


@pytest.mark.parametrize("spec, files", [
    ("a.pbn", ["a.pbn"]), ("hands.pbn,travellers.csv", ["hands.pbn", "travellers.csv"]),
    ("archive:club-2026-11-24", ["archive:club-2026-11-24"]), (["x.pbn", "y.csv"], ["x.pbn", "y.csv"]),
])
def test_how_a_session_is_given(spec, files):
    assert session_files(spec) == files
