"""The scored PBN written onto the PBN file read: every line of the file kept but what scoring adds."""
from __future__ import annotations

import pytest

from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.report.pbn import write_scored_pbn
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

SAMPLE = REALDATA.parents[2] / "sample_data"


def scored(tmp_path, *inputs, method=None, **options):
    overrides = {"method": method} if method else {}  # as --method gives it
    session = build_session([str(p) for p in inputs], Options(ranking=ConventionChoice(changes=overrides), dd=False, **options))
    out = tmp_path / "scored.pbn"
    write_scored_pbn(session, out)
    return session, out


def diff(before: bytes, after: bytes) -> tuple[list[str], list[str]]:
    """(lines of ``before`` missing from ``after``, lines ``after`` adds), matched in order (linear)."""
    old, new = before.decode("latin-1").splitlines(), after.decode("latin-1").splitlines()
    added, i = [], 0
    for line in new:
        if i < len(old) and line == old[i]:
            i += 1
        else:
            added.append(line)
    return old[i:], added


def test_ruter_file_comes_back_byte_for_byte(tmp_path):
    """Every published score of the Ruter file is ours: scoring it changes nothing in it."""
    path = REALDATA / "ruter7-klubbkveld-butler-2012.pbn"
    _, out = scored(tmp_path, path)
    assert out.read_bytes() == path.read_bytes()


def test_hand_record_gets_a_score_table_per_board_and_keeps_every_line(tmp_path):
    hand = SAMPLE / "club-evening.pbn"
    session, out = scored(tmp_path, hand, SAMPLE / "club-evening-travellers.csv")
    removed, added = diff(hand.read_bytes(), out.read_bytes())
    assert removed == []
    assert sum(line.startswith("[ScoreTable ") for line in added) == session.boards["board"].nunique()
    assert sum(line.startswith("[TotalScoreTable ") for line in added) == 1
    again = read_pbn(out)
    assert len(again.results) == len(session.results) == 338
    table = [t for g in again.games for t in g.tables("ScoreTable")]
    mp = [float(r[t.column_names.index("MP_NS")]) for t in table for r in t.rows]
    assert sorted(mp) == sorted(session.results["mp_ns"].astype(float).tolist())


def test_bbo_games_keep_auction_and_play_and_get_their_scores(tmp_path):
    path = REALDATA / "bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn"
    session, out = scored(tmp_path, path)
    before, after = read_pbn(path), read_pbn(out)
    assert len(after.games) == len(before.games) == 576  # 573 results, 3 games with none
    for name in ("Auction", "Play", "North", "Contract", "Result"):
        assert [g.get(name) for g in after.games] == [g.get(name) for g in before.games]
    assert [t.tokens for g in after.games for t in g.tags if t.name == "Play"] == \
        [t.tokens for g in before.games for t in g.tags if t.name == "Play"]
    removed, added = diff(path.read_bytes(), out.read_bytes())
    assert removed == []
    assert sum(line.startswith("[ScorePercentage ") for line in added) == 573
    first = after.games[0]
    row = session.results[session.results["line"] == before.games[0].tag("Contract").line].iloc[0]
    assert first.get("ScorePercentage") == f"NS {row['pct_ns']:.2f} EW {row['pct_ew']:.2f}".replace(".00", "")


TABLE_ROUND = """[Event "Club"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]
 1  1  1  2 "4S"   N 10
 2  1  3  4 "3NT"  S  9

[Event "Club"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[ScoreTable "Table\\2R;Round\\2R;PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]
 1  1  1  2 "2H"   E  8
 2  1  3  4 "2H"   E  9
"""


def test_table_and_round_columns_and_quoting_are_kept(tmp_path):
    path = tmp_path / "club.pbn"
    path.write_text(TABLE_ROUND, encoding="utf-8")
    _, out = scored(tmp_path, path)
    again = read_pbn(out)
    table = again.games[0].tag("ScoreTable")
    assert table.column_names[:7] == ["Table", "Round", "PairId_NS", "PairId_EW", "Contract", "Declarer", "Result"]
    assert "MP_NS" in table.column_names
    assert [r[:2] for r in table.rows] == [["1", "1"], ["2", "1"]]
    text = out.read_text(encoding="utf-8")
    assert ' "4S" ' in text and ' "3NT" ' in text  # the file quoted its contracts: so are they written


@pytest.mark.parametrize("name", ["fin-sm-parikilpailu-2014-s1.pbn", "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn"])
def test_published_totals_keep_their_other_columns(tmp_path, name):
    path = REALDATA / name
    _, out = scored(tmp_path, path)
    before = next(t for g in read_pbn(path).games for t in g.tables("TotalScoreTable"))
    after = next(t for g in read_pbn(out).games for t in g.tables("TotalScoreTable"))
    assert after.column_names[:len(before.column_names)] == before.column_names
    keep = [i for i, n in enumerate(before.column_names) if n not in ("Rank", "TotalScoreMP", "TotalScoreIMP",
                                                                       "TotalPercentage")]
    assert [[r[i] for i in keep] for r in after.rows] == [[r[i] for i in keep] for r in before.rows]


def rescored(tmp_path, out):
    """The written file scored again on its own: its published numbers against ours (no difference note)."""
    again = build_session([str(out)], Options(dd=False))
    differ = [] if again.notes is None else [m for m in again.notes["message"] if "differ" in m]
    return again, differ


def test_another_method_rewrites_the_scoring_tag(tmp_path):
    """Winchester's file says MP; scored in Butler IMPs, its Scoring tag says so, and reading back agrees."""
    path = REALDATA / "winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn"
    session, out = scored(tmp_path, path, method="butler")
    games = read_pbn(out).games
    assert {g.get("Scoring") for g in games if g.tag("ScoreTable") is not None} == {"IMP;Butler-2;Mean"}
    again, differ = rescored(tmp_path, out)
    assert again.conventions.method == "butler" and differ == []
    assert again.standings["total"].round(2).tolist() == session.standings["total"].round(2).tolist()


def test_stale_points_of_another_method_are_dropped(tmp_path):
    """A Butler file scored in matchpoints: its IMP and datum columns go, ours come, the Scoring tag follows."""
    path = REALDATA / "fin-sbl-h6-turku-2013-08-20-butler.pbn"
    assert "IMP_NS" in next(t for g in read_pbn(path).games for t in g.tables("ScoreTable")).column_names
    _, out = scored(tmp_path, path, method="mp")
    tables = [t for g in read_pbn(out).games for t in g.tables("ScoreTable")]
    assert all("MP_NS" in t.column_names and "IMP_NS" not in t.column_names and "ButlerDatum" not in t.column_names
               for t in tables)
    totals = next(t for g in read_pbn(out).games for t in g.tables("TotalScoreTable"))
    assert "TotalScoreMP" in totals.column_names and "TotalScoreIMP" not in totals.column_names
    again, differ = rescored(tmp_path, out)
    assert again.conventions.method == "mp" and differ == []


def test_sections_ranked_apart_are_written_afresh(tmp_path):
    """Two sections on one hand record: one ScoreTable per board would be read back across the field, so
    the export gives each section its own game, and reading it back gives our matchpoints."""
    travellers = (SAMPLE / "club-evening-travellers.csv").read_text(encoding="utf-8").splitlines()
    rows = [travellers[0].replace("Board,", "Section,Board,", 1)]  # the evening played twice, as A and B
    rows += [f"{section},{line}" for section in "AB" for line in travellers[1:]]
    two = tmp_path / "two.csv"
    two.write_text("\n".join(rows) + "\n", encoding="utf-8")
    session, out = scored(tmp_path, SAMPLE / "club-evening.pbn", two)
    sections = {g.get("Section") for g in read_pbn(out).games}
    assert sections == {"A", "B"}
    _, differ = rescored(tmp_path, out)
    assert differ == []


@pytest.mark.slow
@pytest.mark.parametrize("name", ["nor-nesodden-bk-2022-10-04-hostsingel-individual.pbn",
                                  "swe-bridgefestival-orebro-2010-stormastartraffen-individual.pbn"])
def test_an_individual_keeps_every_column_of_its_tables(tmp_path, name):
    """PlayerId, Table, Direction, Club, MemberID, Sex stay; the seats' points columns get our values and no
    PairId_NS / MP_NS columns are added beside them (issue 26: nothing the source had is dropped)."""
    path = REALDATA / name
    _, out = scored(tmp_path, path)
    before, after = read_pbn(path), read_pbn(out)
    for table in ("TotalScoreTable", "ScoreTable"):
        given = [t.column_names for g in before.games for t in g.tables(table)]
        written = [t.column_names for g in after.games for t in g.tables(table)]
        assert written == given, table
    totals = [t for g in after.games for t in g.tables("TotalScoreTable")][0]
    assert {"PlayerId", "Table", "Direction", "MemberID"} <= set(totals.column_names)
    assert [r[totals.column_names.index("MemberID")] for r in totals.rows] == \
        [r[totals.column_names.index("MemberID")] for t in before.games for t2 in t.tables("TotalScoreTable")
         for r in t2.rows]


@pytest.mark.slow
def test_digits_are_kept_and_ns_plus_ew_is_still_the_top(tmp_path):
    """Scored without Magic Contest's one-decimal rounding (--mp-decimals exact), board 17's 41.952 is
    written 41.95 beside 0.05, never 42.0 beside 0.05; the column widens (issue 26)."""
    path = REALDATA / "ffb-dn1-open2-s5-2022.pbn"
    session = build_session([str(path)], Options(ranking=ConventionChoice(changes={"mp_decimals": "exact"}), dd=False))  # as the option does
    out = tmp_path / "scored.pbn"
    write_scored_pbn(session, out)
    tables = [t for g in read_pbn(out).games for t in g.tables("ScoreTable")]
    sums = []
    for table in tables:
        at = {name: table.column_names.index(name) for name in ("MP_NS", "MP_EW", "Percentage_NS", "Percentage_EW")}
        for row in table.rows:
            if row[at["MP_NS"]] not in ("-", "") and row[at["MP_EW"]] not in ("-", ""):
                sums.append((round(float(row[at["MP_NS"]]) + float(row[at["MP_EW"]]), 9),
                             round(float(row[at["Percentage_NS"]]) + float(row[at["Percentage_EW"]]), 9)))
    real = [s for s in sums if s[0] == 42.0]
    assert len(real) >= 0.9 * len(sums) and {p for _, p in real} == {100.0}
    board17 = next(t for g in read_pbn(out).games if g.get("Board") == "17" for t in g.tables("ScoreTable"))
    first = board17.rows[0]
    names = board17.column_names
    assert (first[names.index("MP_NS")], first[names.index("MP_EW")]) == ("41.95", "0.05")
    assert (first[names.index("Percentage_NS")], first[names.index("Percentage_EW")]) == ("99.89", "0.11")
    assert "MP_NS\\5R" in board17.value
