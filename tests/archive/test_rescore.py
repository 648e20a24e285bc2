"""Rescoring the archive under other conventions (archive.rescore): every session folded into one
pass must rank exactly as that session scored alone, from its latest complete version."""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from bridgeproc.archive import ArchiveError, archive_session, load_session
from bridgeproc.archive.rescore import rescore_archive
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.core.pairs import as_numbered
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.schema import RESCORE_COLUMNS

pytestmark = pytest.mark.slow  # archives and rescores several real sessions: left out of make quick

SHOWN = ["group", "rank", "pair", "names", "boards", "total", "pct"]


def alone(session, conventions: Conventions) -> pd.DataFrame:
    """The standings of one archived session scored alone, as build_session ranks (its own numbering)."""
    conv = conventions.replace(pair_numbering=session.numbering,
                               across_field=conventions.across_field or session.conventions.across_field)
    names = session.names if len(session.names) else None
    return standings(as_numbered(rank_results(session.results, conv)), conv, names)[SHOWN]


def per_direction(session):
    """``session`` renumbered as a Mitchell numbered per direction (NS 1..n and EW 1..n)."""
    tables = int(session.results["ns"].astype(int).max())
    ew = (session.results["ew"].astype(int) - tables).astype(str)
    names = pd.DataFrame({"section": pd.array([""] * (2 * tables), dtype="string"),
                          "pair": pd.array([str(p) for p in range(1, tables + 1)] * 2, dtype="string"),
                          "direction": pd.array(["NS"] * tables + ["EW"] * tables, dtype="string"),
                          "names": session.names["names"].astype("string").to_numpy()})
    return dataclasses.replace(session, results=session.results.assign(ew=pd.array(ew, dtype="string")),
                               names=names, numbering="per-direction",
                               conventions=session.conventions.replace(pair_numbering="per-direction"))


def artificial(session):
    """``session`` with artificial scores: A+/A-, 60/40, A/A and a not-played board (score NA)."""
    results = session.results.copy()
    codes = {0: "A+/A-", 5: "60/40", 9: "A/A", 14: "NP", 20: "A-/A-"}
    for row, code in codes.items():
        results.loc[row, "adjusted"] = code
        results.loc[row, "score_ns"] = pd.NA
    return dataclasses.replace(session, results=results, meta={**session.meta, "event": "Artificial"})


def two_sections(event: str = "Two sections"):
    """Sections A and B of 6 tables x 10 boards, pairs numbered 1-12 in each, a names list by section."""
    a, b = synthetic_session(6, 10, seed=7), synthetic_session(6, 10, seed=8)
    results = pd.concat([a.results.assign(section=pd.array(["A"] * len(a.results), dtype="string")),
                         b.results.assign(section=pd.array(["B"] * len(b.results), dtype="string"))],
                        ignore_index=True)
    names = pd.concat([a.names.assign(section=pd.array(["A"] * len(a.names), dtype="string")),
                       b.names.assign(section=pd.array(["B"] * len(b.names), dtype="string"))], ignore_index=True)
    return dataclasses.replace(a, results=results, names=names, meta={**a.meta, "event": event})


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    """An archive of five pairs sessions of different shapes, one corrected, one left incomplete."""
    url = tmp_path_factory.mktemp("rescore") / "archive.sqlite"
    sessions = [synthetic_session(13, 26, seed=1, event="Big"), synthetic_session(5, 12, seed=2, event="Small"),
                per_direction(synthetic_session(8, 20, seed=3, event="Mitchell")),
                artificial(synthetic_session(7, 14, seed=4)), two_sections()]
    ids = [archive_session(s, url).session_id for s in sessions]
    first = synthetic_session(9, 18, seed=5, event="Corrected")
    archive_session(first, url)
    fixed = first.results.copy()
    fixed.loc[fixed["board"] == 1, "score_ns"] = -fixed.loc[fixed["board"] == 1, "score_ns"]
    corrected = archive_session(dataclasses.replace(first, results=fixed), url).session_id  # version 2
    pending = first.results.copy()
    pending["score_ns"] = pending["score_ns"] * 0 + 100  # version 3: its run never completed
    archive_session(dataclasses.replace(first, results=pending), url, complete=False)
    incomplete = archive_session(synthetic_session(4, 8, seed=6, event="Never completed"), url, complete=False)
    return url, ids + [corrected], incomplete.session_id


CONVENTIONS = [
    Conventions(),
    Conventions(mp_scale=1, factoring="average"),
    Conventions(factoring="none", ave_plus=65.0, ave_minus=35.0),
    Conventions(adjusted_mode="session", centred=True, mp_decimals=1),
    Conventions(mp_top="board", sitout="most"),
    Conventions(winners="one"),
    Conventions(method="cross-imp"),
    Conventions(method="cross-imp", cross_imp="average", imp_ave_plus=2.0),
    Conventions(method="cross-imp", cross_imp="board-average"),
    Conventions(method="butler", datum_drop=0, sitout="scale"),
    Conventions(method="butler", datum_drop_share=0.1, imp_per_board=True),
    Conventions(across_field=True),
    Conventions(method="cross-imp", across_field=True),
    Conventions(winners="one", across_field=True),  # a per-direction session labels NS 1 / EW 1 in one ranking
]


@pytest.mark.parametrize("conventions", CONVENTIONS, ids=lambda c: ",".join(
    f"{k}={v}" for k, v in c.describe().items() if v != getattr(Conventions(), k)) or "default")
def test_one_pass_ranks_every_session_as_it_ranks_alone(archive, conventions):
    url, ids, _ = archive
    rescored = rescore_archive(url, conventions)
    table = rescored.table
    assert sorted(table["session_id"].unique()) == sorted(ids)
    for sid in ids:
        mine = table[table["session_id"] == sid][SHOWN].reset_index(drop=True)
        expected = alone(load_session(url, sid), conventions).reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, expected.astype({c: RESCORE_COLUMNS[c] for c in SHOWN}), check_exact=True)


def test_the_archived_conventions_give_the_archived_standings_again(archive):
    url, ids, _ = archive
    rescored = rescore_archive(url, Conventions(pair_numbering="auto"), sessions=[ids[0], ids[1]])
    table = rescored.table
    assert list(table.columns) == list(RESCORE_COLUMNS)
    assert table["session_id"].unique().tolist() == sorted([ids[0], ids[1]])
    assert len(table) == 26 + 10
    assert (table["rank"] == table["was_rank"]).all()
    np.testing.assert_array_equal(table["total"], table["was_total"])
    np.testing.assert_array_equal(table["pct"], table["was_pct"])


def test_changed_conventions_show_the_archived_figures_beside_the_new(archive):
    url, ids, _ = archive
    rescored = rescore_archive(url, Conventions(mp_scale=1), sessions=[ids[0]])
    table = rescored.table
    np.testing.assert_array_equal(table["total"] * 2, table["was_total"])  # 1/half: half the 2/1 matchpoints
    np.testing.assert_array_equal(table["pct"], table["was_pct"])
    imps = rescore_archive(url, Conventions(method="butler"), sessions=[ids[0]]).table
    assert imps["pct"].isna().all() and imps["was_pct"].notna().all()


def test_two_sections_are_ranked_apart_or_across_the_field(archive):
    url, ids, _ = archive
    sid = ids[4]
    apart = rescore_archive(url, Conventions(), sessions=[sid]).table
    assert sorted(apart["group"].unique()) == ["A EW", "A NS", "B EW", "B NS"]
    assert sorted(apart["pair"].unique(), key=int) == [str(p) for p in range(1, 13)]
    across = rescore_archive(url, Conventions(across_field=True), sessions=[sid]).table
    assert sorted(across["group"].unique()) == ["EW", "NS"]
    assert sorted(across["pair"].unique()) == sorted([f"{s}{p}" for s in "AB" for p in range(1, 13)])  # 1 twice: A1, B1


def test_the_latest_complete_version_is_rescored(archive):
    url, ids, _ = archive
    sid = ids[-1]
    rescored = rescore_archive(url, Conventions(), sessions=[sid])
    table = rescored.table
    assert table["version"].unique().tolist() == [2]
    latest = alone(load_session(url, sid, version=2), Conventions()).reset_index(drop=True)
    first = alone(load_session(url, sid, version=1), Conventions()).reset_index(drop=True)
    np.testing.assert_array_equal(table["pct"], latest["pct"])
    assert not np.array_equal(table["pct"].to_numpy(), first["pct"].to_numpy())


def test_artificial_scores_count_as_scored_alone(archive):
    url, ids, _ = archive
    rescored = rescore_archive(url, Conventions(ave_plus=70.0, ave_minus=30.0), sessions=[ids[3]])
    table = rescored.table
    moved = table[table["total"] != table["was_total"]]
    assert len(moved) > 0  # A+ / A- at 70/30 instead of 60/40 changes those pairs
    assert table["boards"].max() == 14


def test_sessions_left_out_are_listed_and_named_ones_refused(archive, tmp_path):
    url, ids, incomplete = archive
    rescored = rescore_archive(url, Conventions())
    assert rescored.skipped == {incomplete: "no complete version yet (the run that archived it did not "
                                                  "write every output)"}
    with pytest.raises(ArchiveError) as error:
        rescore_archive(url, Conventions(), sessions=[ids[0], "no-such-session", incomplete]).table
    assert str(error.value) == (f"cannot rescore: no session 'no-such-session' in the archive; session {incomplete!r}: "
                                "no complete version yet (the run that archived it did not write every output); "
                                "`bridgeproc archive list` shows the sessions")
    missing = tmp_path / "none.sqlite"
    with pytest.raises(ArchiveError, match="no archive at"):
        rescore_archive(missing, Conventions()).table
    assert not missing.exists()  # a question creates no archive


@pytest.mark.parametrize("chunk", [1, 400, 10**9])
def test_chunks_of_sessions_give_the_same_standings(archive, chunk):
    url, _, _ = archive
    conventions = Conventions(method="cross-imp", adjusted_mode="session")
    pd.testing.assert_frame_equal(rescore_archive(url, conventions, chunk_results=chunk).table,
                                  rescore_archive(url, conventions).table, check_exact=True)


def test_an_empty_archive_gives_an_empty_frame(tmp_path):
    url = tmp_path / "empty.sqlite"
    archive_session(synthetic_session(3, 4, seed=1), url, complete=False)
    rescored = rescore_archive(url, Conventions())
    table = rescored.table
    assert len(table) == 0 and list(table.columns) == list(RESCORE_COLUMNS)
    assert dict(table.dtypes.astype(str)) == {c: str(pd.Series([], dtype=t).dtype) for c, t in RESCORE_COLUMNS.items()}
