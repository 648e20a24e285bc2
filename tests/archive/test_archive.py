"""The archive: round trips, versions, identity, history and diff, on SQLite and PostgreSQL."""
import dataclasses
from datetime import date

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import bridgeproc
from bridgeproc.archive import (
    ArchiveError,
    archive_session,
    check_archive,
    default_url,
    diff,
    history,
    list_sessions,
    load_session,
    session_versions,
    show_session,
    split_names,
)
from bridgeproc.archive.db import dispose_all, normalise_url
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.pipeline import export_session
from bridgeproc.rank import rank_results, standings
from tests.conftest import REALDATA, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

FRAMES = ["results", "boards", "standings", "names", "notes"]


def assert_same_session(a, b):
    for name in FRAMES:
        left, right = getattr(a, name), getattr(b, name)
        if left is None:
            assert right is None
            continue
        assert_frame_equal(left, right, check_exact=True, obj=name)
    assert a.conventions == b.conventions
    assert a.meta == b.meta
    assert (a.numbering, a.movement) == (b.numbering, b.movement)


def rerank(session, results):
    """The session with ``results`` re-ranked (what a re-score after a correction gives)."""
    results = rank_results(results[[c for c in bridgeproc.schema.RESULTS_COLUMNS]], session.conventions)
    table = standings(results, session.conventions, session.names if len(session.names) else None)
    table.insert(0, "method", session.conventions.method)
    return dataclasses.replace(session, results=results, standings=table)


@pytest.fixture(scope="module")
def club():
    return bridgeproc.process_session([SAMPLE / "club-evening-travellers.csv"])


@pytest.fixture(scope="module")
def pbn():
    """Hand records, travellers and names of the sample club evening (no double dummy: it takes seconds)."""
    options = bridgeproc.Options(read=bridgeproc.ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False)
    return bridgeproc.process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"],
                                      options=options)


REAL_PBN = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn"


@pytest.fixture(scope="module")
def real_pbn():
    return bridgeproc.process_session([REAL_PBN])


@pytest.fixture(scope="module")
def small():
    return synthetic_session(tables=6, boards=8, seed=3, event="Tuesday pairs", date="2026-03-03")


def test_round_trip_csv_session(archive_url, club):
    result = archive_session(club, archive_url)
    assert (result.version, result.created) == (1, True)
    assert_same_session(club, load_session(archive_url, result.session_id))


def test_round_trip_pbn_session_with_names_and_headers(archive_url, pbn):
    result = archive_session(pbn, archive_url)
    assert result.session_id == "2026-11-24_tuesday-pairs" and result.dated
    back = load_session(archive_url, result.session_id)
    assert_same_session(pbn, back)
    assert back.standings["names"].notna().all() and back.meta["site"] == "Sample Bridge Club"


def test_round_trip_real_pbn_with_double_dummy_tags(archive_url, real_pbn):
    result = archive_session(real_pbn, archive_url)
    assert result.session_id == "2014-10-05_sm-parikilpailu-session-1"
    back = load_session(archive_url, result.session_id)
    assert_same_session(real_pbn, back)
    assert [c for c in back.boards if c.startswith("dd_")] == [c for c in real_pbn.boards if c.startswith("dd_")]


def test_round_trip_synthetic_and_unusual_columns(archive_url, small):
    odd = small.results.assign(
        comment=pd.Series(["late", None] * (len(small.results) // 2), dtype=object),
        flag=np.arange(len(small.results)) % 3 == 0,
        text=pd.Series(["x", None] * (len(small.results) // 2), dtype="str"),
        ratio=pd.Series([0.1, np.nan] * (len(small.results) // 2), dtype="Float64"),
        mixed=pd.Series(["a", 1, None, 2.5] * (len(small.results) // 4), dtype=object),
        when=pd.Series(pd.to_datetime(["2026-03-03 19:30", None] * (len(small.results) // 2))),
    )
    names = small.names.assign(direction=pd.Series([np.nan] * len(small.names), dtype=object))
    session = dataclasses.replace(small, results=odd, names=names,
                                  standings=small.standings.set_index(["group", "pair"]))
    result = archive_session(session, archive_url)
    assert_same_session(session, load_session(archive_url, result.session_id))


def test_identical_data_adds_no_version(archive_url, small):
    first = archive_session(small, archive_url)
    again = archive_session(dataclasses.replace(small, results=small.results.copy()), archive_url)
    assert (again.session_id, again.version, again.created) == (first.session_id, 1, False)
    assert session_versions(archive_url, first.session_id)["version"].tolist() == [1]


def _correct(session, row=5, tricks_delta=-1):
    results = session.results.copy()
    results.loc[row, "tricks"] = results.loc[row, "tricks"] + tricks_delta
    results = bridgeproc.score(results.drop(columns="score_ns"))
    return rerank(session, results)


def test_correction_is_version_2_and_version_1_is_intact(archive_url, small):
    archive_session(small, archive_url)
    corrected = _correct(small)
    second = archive_session(corrected, archive_url, comment="board 1 corrected")
    assert (second.version, second.created) == (2, True)
    assert_same_session(small, load_session(archive_url, second.session_id, 1))
    assert_same_session(corrected, load_session(archive_url, second.session_id))
    versions = session_versions(archive_url, second.session_id)
    assert versions["version"].tolist() == [1, 2]
    assert versions["comment"].tolist()[1] == "board 1 corrected"
    assert versions["content_hash"].nunique() == 2
    assert check_archive(archive_url, deep=True) == []
    # Going back to the first data is a new version too: nothing is ever rewritten.
    assert archive_session(small, archive_url).version == 3
    assert_same_session(small, load_session(archive_url, second.session_id, 1))


def _swap_correction(session):
    """A one-result correction after which exactly two pairs swap places (searched deterministically)."""
    before = session.standings.set_index(["group", "pair"])["rank"]
    for row in range(len(session.results)):
        for delta in (-1, 1, -2, 2):
            tricks = session.results.loc[row, "tricks"] + delta
            if not 0 <= tricks <= 13:
                continue
            candidate = _correct(session, row, delta)
            after = candidate.standings.set_index(["group", "pair"])["rank"]
            moved = after[after != before.reindex(after.index)]
            if len(moved) == 2 and "=" not in "".join(moved) and "=" not in "".join(before[moved.index]):
                (g1, p1), (g2, p2) = moved.index
                if g1 == g2 and before[(g1, p1)] == after[(g2, p2)]:
                    return row, candidate, g1, (p1, p2), (before[(g1, p1)], before[(g2, p2)])
    raise AssertionError("no single correction swaps two pairs")


@pytest.fixture(scope="module")
def swap():
    # Four tables: a swapping correction is found within the first few candidates.
    session = synthetic_session(tables=4, boards=6, seed=3, event="Tuesday pairs", date="2026-03-03")
    return session, _swap_correction(session)


def test_diff_describes_the_change(archive_url, swap):
    small, (row, corrected, group, pairs, ranks) = swap
    archive_session(small, archive_url)
    sid = archive_session(corrected, archive_url).session_id
    change = diff(archive_url, sid, 1, 2)
    board = int(small.results.loc[row, "board"])
    first, second = sorted(pairs, key=lambda p: int(ranks[pairs.index(p)]))
    r1, r2 = sorted(ranks, key=int)
    assert change.headline == (f"board {board} corrected: {group} pairs {first} and {second} swap places "
                               f"(were {r1} and {r2})")
    assert change.results[["board", "ns", "ew", "change"]].values.tolist() == [
        [board, small.results.loc[row, "ns"], small.results.loc[row, "ew"], "corrected"]]
    assert set(change.standings["pair"]) >= set(pairs)
    assert any("->" in line for line in change.summary[1:])
    assert diff(archive_url, sid).v1 == 1  # default: previous and latest
    assert diff(archive_url, sid, 1, 1).headline == "versions 1 and 1 are the same"


def test_history_returns_the_right_rows(archive_url):
    pool = ["Ann Smith", "Bob Jones", "Cy Young", "Di Lane"] + [f"Player {i}" for i in range(40)]
    sessions = [synthetic_session(5, 4, seed=s, event=f"Club night {s}", date=f"2026-0{s}-01", players=pool)
                for s in (3, 1, 2)]
    for session in sessions:
        archive_session(session, archive_url)
    got = history(archive_url, "ann SMITH").table
    expected = []
    for session in sorted(sessions, key=lambda s: s.meta["date"]):
        table = session.standings
        hit = table[table["names"].str.contains("Ann Smith", regex=False)]
        for _, r in hit.iterrows():
            partner = [p for p in split_names(r["names"]) if p != "Ann Smith"][0]
            expected.append([session.meta["date"], session.meta["event"], r["pair"], partner, r["rank"], r["pct"]])
    assert got[["date", "event", "pair", "partner", "rank", "pct"]].values.tolist() == expected
    assert list(got.dtypes.astype(str))[:4] == ["string", "string", "string", "int64"]
    assert len(got) > 0
    pair = got["names"].iloc[0]
    a, b = split_names(pair)
    both = history(archive_url, f"{b} & {a}").table  # a partnership, named in the other order
    assert len(both) >= 1 and pair in set(both["names"])
    assert history(archive_url, "Nobody Here").table.empty


def test_history_shows_latest_version_unless_asked(archive_url, small):
    archive_session(small, archive_url)
    corrected = _correct(small)
    archive_session(corrected, archive_url)
    player = split_names(small.standings["names"].iloc[0])[0]
    assert history(archive_url, player).table["version"].unique().tolist() == [2]
    assert sorted(history(archive_url, player, all_versions=True).table["version"].unique()) == [1, 2]


def test_list_sessions_and_identity(archive_url, small, club):
    archive_session(small, archive_url)
    named = archive_session(small, archive_url, session_id="tuesday-2026-03-03-rerun")
    plain = archive_session(club, archive_url)
    assert plain.session_id == f"{date.today().isoformat()}_club-evening-travellers"
    assert not plain.dated and f"give the session id {plain.session_id}" in str(plain)
    assert named.dated and str(named).startswith("archived as tuesday-2026-03-03-rerun version 1 in ")
    listed = list_sessions(archive_url)
    assert set(listed["session_id"]) == {"2026-03-03_tuesday-pairs", named.session_id, plain.session_id}
    assert listed.set_index("session_id").loc["2026-03-03_tuesday-pairs", "event"] == "Tuesday pairs"
    assert listed["versions"].tolist() == [1, 1, 1]


def test_unknown_session_and_version_say_what_to_do(archive_url, small):
    archive_session(small, archive_url)
    with pytest.raises(ArchiveError, match="no session 'nope'.*archive list"):
        load_session(archive_url, "nope")
    with pytest.raises(ArchiveError, match="has no version 7; versions are 1 to 1"):
        load_session(archive_url, "2026-03-03_tuesday-pairs", 7)


def test_export_rewrites_outputs_without_the_input_files(archive_url, club, tmp_path):
    sid = archive_session(club, archive_url).session_id
    from bridgeproc.pipeline.write import writer

    writer("direct.csv")(club, tmp_path / "direct.csv")
    export_session(archive_url, sid, [tmp_path / "again.csv", tmp_path / "again.xlsx"])
    assert (tmp_path / "again.csv").read_text() == (tmp_path / "direct.csv").read_text()
    assert (tmp_path / "again.xlsx").stat().st_size > 0


def test_export_pbn_with_deals_equals_a_direct_write(archive_url, pbn, tmp_path):
    from bridgeproc.pipeline.write import writer

    sid = archive_session(pbn, archive_url).session_id
    # the archive keeps the frames, not the PBN file read: its export is the one written from the frames
    # (a direct write is on the file itself: report.pbn_source)
    writer("direct.pbn")(dataclasses.replace(pbn, sources=()), tmp_path / "direct.pbn")
    export_session(archive_url, sid, [tmp_path / "again.pbn"])
    assert (tmp_path / "again.pbn").read_text() == (tmp_path / "direct.pbn").read_text()


def test_default_url_follows_xdg_and_env(monkeypatch, tmp_path):
    monkeypatch.delenv("BRIDGEPROC_ARCHIVE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/bridgeproc/archive.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path}/.local/share/bridgeproc/archive.sqlite"
    monkeypatch.setenv("BRIDGEPROC_ARCHIVE", "postgresql://club@db.example/archive")
    assert default_url() == "postgresql+psycopg://club@db.example/archive"
    assert normalise_url("sqlite:////x/y.sqlite") == "sqlite:////x/y.sqlite"


def test_sqlite_archive_is_in_wal_mode(tmp_path, small):
    import sqlite3

    path = tmp_path / "a.sqlite"
    archive_session(small, path)
    dispose_all()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT count(*) FROM results").fetchone()[0] == len(small.results)
        # The pipeline's usual columns all have SQL columns of their own.
        for table in ("results", "boards", "standings", "names"):
            assert conn.execute(f"SELECT count(*) FROM {table} WHERE extra IS NOT NULL").fetchone()[0] == 0, table


def test_unreachable_archive_is_an_archive_error(small):
    with pytest.raises(ArchiveError, match=r"archive postgresql\+psycopg://nobody:\*\*\*@127.0.0.1:1/x: "):
        archive_session(small, "postgresql://nobody:secret@127.0.0.1:1/x")


def test_docs_describe_every_table_and_column():
    from bridgeproc.archive.tables import metadata
    from tests.conftest import ROOT

    text = (ROOT / "docs" / "archive.md").read_text()
    for table in metadata.sorted_tables:
        assert f"### {table.name}" in text, table.name
        for column in table.columns:
            if not column.name.startswith("dd_"):
                assert f"`{column.name}`" in text or f"`{column.name}," in text or f", {column.name}`" in text, \
                    f"{table.name}.{column.name}"


def test_show_prints_versions_and_standings(archive_url, small):
    archive_session(small, archive_url)
    archive_session(_correct(small), archive_url, comment="board 1 corrected")
    view = show_session(archive_url, "2026-03-03_tuesday-pairs", 1)
    assert view.version == 1 and view.versions["version"].tolist() == [1, 2]
    text = str(view)
    assert text.startswith("session 2026-03-03_tuesday-pairs: Tuesday pairs 2026-03-03\nversion 1 of 2")
    assert "board 1 corrected" in text and small.standings["names"].iloc[0] in text


def test_history_and_diff_of_an_imp_session(archive_url):
    butler = synthetic_session(5, 6, seed=4, event="Butler night", date="2026-04-04", method="butler")
    archive_session(butler, archive_url)
    corrected = _correct(butler, row=0, tricks_delta=-2)
    archive_session(corrected, archive_url)
    player = split_names(butler.standings["names"].iloc[0])[0]
    got = history(archive_url, player).table
    row = corrected.standings[corrected.standings["names"].str.contains(player, regex=False)].iloc[0]
    assert got[["method", "rank", "imps", "total"]].values.tolist() == [["butler", row["rank"], row["total"],
                                                                         row["total"]]]
    assert got["pct"].isna().all()
    change = diff(archive_url, "2026-04-04_butler-night")
    assert change.headline.startswith("board 1 corrected")
    assert any(line.endswith(" IMPs") for line in change.summary) or not len(change.standings)


def test_newer_archive_schema_is_refused(tmp_path, small):
    import sqlite3

    path = tmp_path / "a.sqlite"
    archive_session(small, path)
    dispose_all()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE archive_info SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(ArchiveError, match="archive schema 99 is newer than this bridgeproc understands"):
        list_sessions(path)
    dispose_all()


def test_a_postgresql_archive_without_its_driver_names_the_extra(monkeypatch, small):
    """A setup problem (exit 2 on the command line), not bad data."""
    import sys

    from bridgeproc.errors import SetupError

    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(SetupError) as info:
        archive_session(small, "postgresql://club@127.0.0.1:1/nodriver")
    assert str(info.value) == ("a PostgreSQL archive needs the package psycopg, which is not installed; "
                               "install it with: pip install 'bridgeproc[postgres]'")
