"""pipeline.event on the Finnish championship: two sessions scored apart reproduce the event's
published cumulative TotalScoreTable (session 2's file), number for number."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

from bridgeproc.errors import UsageError, ValidationError
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.model import ArchiveOptions, ConventionChoice, Options, ReadOptions
from bridgeproc.pipeline.event import build_event, session_files, write_event
from bridgeproc.pipeline.run import check_report
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
#: Ruter ranks and takes percentages on the exact matchpoints and shows totals to one decimal
#: (2084.375 is 2084.4, 58.3859 % is 58.39; with board MPs rounded first, 5 of 36 percentages miss).
EXACT = Options(dd=False)
#: Board matchpoints rounded to one decimal: the totals as Ruter shows them, exactly.
ONE_DECIMAL = Options(ranking=ConventionChoice(changes={"mp_decimals": 1}), dd=False)


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


# --------------------------------------------------------------------------- the sample club evening

SAMPLE = REALDATA.parent.parent.parent / "sample_data"
HANDS, TRAVELLERS = SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"
NAMES = SAMPLE / "club-evening-names.csv"


def travellers() -> pd.DataFrame:
    return pd.read_csv(TRAVELLERS, dtype=str, keep_default_na=False)


def written(frame: pd.DataFrame, path) -> str:
    frame.to_csv(path, index=False)
    return str(path)


def session_totals(files, options=EXACT) -> dict[tuple[str, str], float]:
    """(group, pair) -> total of the session scored on its own."""
    from bridgeproc.pipeline.run import build_session

    table = build_session(files, options).standings
    return {(g, p): t for g, p, t in zip(table["group"], table["pair"], table["total"])}


def test_a_pair_that_missed_a_session_without_names_is_noted(tmp_path):
    sheet = travellers()
    second = written(sheet[sheet["NS"] != "5"], tmp_path / "s2.csv")  # NS 5 did not come
    event = build_event([TRAVELLERS, second], EXACT, rule="percent-average")
    assert len(event.ranking.standings) == 25
    dropped = event.notes[event.notes["column"] == "pair"]
    assert dropped[["source", "value"]].values.tolist() == [["s2.csv", "5"]]
    assert dropped["message"].iloc[0] == ("pair 5 (no names) missed session(s) 2: left out of the event ranking "
                                          "(--missing drop)")


def test_a_sectioned_and_an_unsectioned_session_are_refused(tmp_path):
    sheet = travellers()
    both = pd.concat([sheet.assign(Section=s) for s in "AB"], ignore_index=True)
    sectioned = written(both[["Section", *sheet.columns]], tmp_path / "two.csv")
    with pytest.raises(ValidationError) as caught:
        build_event([sectioned, TRAVELLERS], EXACT)
    problems = caught.value.problems
    assert problems[["source", "value"]].values.tolist() == [["two.csv", "0 of 26"],
                                                            ["club-evening-travellers.csv", "0 of 26"]]
    assert problems["message"].str.contains("--match names").all()
    # two sectioned sessions: every pair of each section matched, 52 pairs
    again = written(both[["Section", *sheet.columns]], tmp_path / "two_s2.csv")
    assert len(build_event([sectioned, again], EXACT).ranking.standings) == 52


def names_with_ids(path, order: list[int]) -> str:
    """A names list for the Mitchell: NS n and EW n with member ids, pair n's players those of pair order[n-1]."""
    rows = [{"Pair": n, "Direction": side, "Names": f"{side} player {who} & partner",
             "Member ID 1": 1000 + 2 * who + (100 if side == "EW" else 0),
             "Member ID 2": 1001 + 2 * who + (100 if side == "EW" else 0)}
            for side in ("NS", "EW") for n, who in enumerate(order, start=1)]
    pd.DataFrame(rows).to_csv(path, index=False)
    return str(path)


def test_member_ids_match_a_mitchell_numbered_per_direction(tmp_path):
    first = names_with_ids(tmp_path / "n1.csv", list(range(1, 14)))
    second = names_with_ids(tmp_path / "n2.csv", list(range(13, 0, -1)))  # renumbered: NS 13 is n1's NS 1
    copy = written(travellers(), tmp_path / "s2.csv")
    event = build_event([f"{TRAVELLERS},{first}", f"{copy},{second}"], EXACT, match="ids")
    table = event.ranking.standings.set_index(["group", "pair"])
    assert len(table) == 26
    one = session_totals([str(TRAVELLERS)])
    # NS 1 of session 1 is NS 13 of session 2 (the same ids), and shown by its last number
    assert table.loc[("NS", "13"), "total"] == one[("NS", "1")] + one[("NS", "13")]
    assert table.loc[("EW", "13"), "total"] == one[("EW", "1")] + one[("EW", "13")]
    assert table.loc[("NS", "13"), "names"] == "NS player 1 & partner"


def arrow_switched(path, rounds=("12", "13")) -> str:
    """The sample evening with the EW pairs sitting NS in ``rounds``: pairs swapped, marked Switched."""
    sheet = travellers()
    moved = sheet["Round"].isin(rounds)
    sheet.loc[moved, ["NS", "EW"]] = sheet.loc[moved, ["EW", "NS"]].to_numpy()
    return written(sheet.assign(Switched=moved.map({True: "Y", False: ""})), path)


def test_an_arrow_switched_one_winner_mitchell_keeps_ns_and_ew_apart(tmp_path):
    one, two = arrow_switched(tmp_path / "s1.csv"), arrow_switched(tmp_path / "s2.csv")
    options = Options(read=ReadOptions(names=(str(NAMES),)), ranking=ConventionChoice(changes={"winners": "one"}), dd=False)
    event = build_event([one, two], options)
    table = event.ranking.standings
    assert len(table) == 26 and set(table["group"]) == {"ALL"}
    assert set(table["pair"]) == {f"{side} {n}" for side in ("NS", "EW") for n in range(1, 14)}
    # each pair's event total is twice its session's, credited by the direction of its number
    from bridgeproc.pipeline.run import build_session

    theirs = sorted(build_session([one], options).standings["total"], reverse=True)  # "1" twice: NS 1, EW 1
    assert sorted(table["total"], reverse=True) == [2 * t for t in theirs]
    lines = session_totals([one], Options(dd=False))  # the same session ranked NS and EW apart
    totals = table.set_index("pair")["total"]
    assert all(totals[f"{side} {n}"] == 2 * lines[(side, str(n))] for side in ("NS", "EW") for n in range(1, 14))
    names = pd.read_csv(NAMES, dtype=str).set_index(["Direction", "Pair"])["Names"]
    shown = table.set_index("pair")["names"]
    assert shown["EW 3"] == names[("EW", "3")] and shown["NS 3"] == names[("NS", "3")]


def test_the_event_pbn_of_two_sections_and_of_a_percentage_rule(tmp_path):
    sheet = travellers()
    both = pd.concat([sheet.assign(Section=s) for s in "AB"], ignore_index=True)[["Section", *sheet.columns]]
    one, two = written(both, tmp_path / "a.csv"), written(both, tmp_path / "b.csv")
    hands2 = tmp_path / "hands2.pbn"
    hands2.write_bytes(HANDS.read_bytes())
    event = build_event([f"{HANDS},{one}", f"{hands2},{two}"], EXACT, rule="percent-average")
    write_event(event, [tmp_path / "e.pbn"], archive=False)
    totals = read_pbn(tmp_path / "e.pbn").totals
    assert {"section", "direction", "totalscoremp", "totalpercentage"} <= set(totals.columns)
    first = totals.iloc[0]
    ranked = event.ranking.standings.iloc[0]
    assert (first["section"], first["direction"], first["pairid"]) == ("A", "E-W", "2")
    assert float(first["totalpercentage"]) == pytest.approx(round(ranked["pct"], 2))
    # the matchpoints of both sessions in TotalScoreMP, not the percentage
    session = session_totals([str(HANDS), one])
    assert float(first["totalscoremp"]) == 2 * session[("A EW", "2")]
    assert not totals.duplicated(subset=["section", "direction", "pairid"]).any()


def test_the_event_and_its_sessions_are_archived(tmp_path):
    from bridgeproc.archive import list_sessions
    from bridgeproc.archive.events import event_sessions

    url = tmp_path / "archive.sqlite"
    hands2 = tmp_path / "hands2.pbn"
    hands2.write_bytes(HANDS.read_bytes())
    options = Options(archive=ArchiveOptions(store=True, url=str(url)), dd=False)
    event = build_event([f"{HANDS},{TRAVELLERS}", f"{hands2},{SAMPLE / 'club-evening-travellers.xlsx'}"], options)
    done = write_event(event, [tmp_path / "e.csv"])
    assert (tmp_path / "e.csv").is_file()
    recorded = event_sessions(url, "Tuesday Pairs")
    assert recorded[["session_id", "version", "event", "date"]].values.tolist() == [
        ["2026-11-24_tuesday-pairs-s1", 1, "Tuesday Pairs", "2026-11-24"],
        ["2026-11-24_tuesday-pairs-s2", 1, "Tuesday Pairs", "2026-11-24"]]
    assert recorded["rule"].iloc[0] == "sum; missing=drop; match=number"
    assert done.archived.session_ids == ("2026-11-24_tuesday-pairs-s1", "2026-11-24_tuesday-pairs-s2")
    assert "event 'Tuesday Pairs' archived with its 2 sessions" in str(done.archived)
    # an archived session is recorded as it is, the new one under the event's name
    final = build_event(["archive:2026-11-24_tuesday-pairs-s1", f"{hands2},{TRAVELLERS}"],
                        options.but(headings={"given": {"event": "Club final"}}))
    write_event(final, [tmp_path / "f.csv"])
    assert event_sessions(url, "Club final")["session_id"].tolist() == ["2026-11-24_tuesday-pairs-s1",
                                                                        "2026-11-24_club-final"]
    assert len(list_sessions(url)) == 3
    # --no-archive: nothing stored
    write_event(final, [tmp_path / "g.csv"], archive=False)
    assert len(list_sessions(url)) == 3
