"""Re-scores that would lose results, hand-record deals or names are refused unless replace=True.

On SQLite and PostgreSQL (the ``archive_url`` fixture), like the other archive tests.
"""
import dataclasses

import pandas as pd
import pytest

import bridgeproc
from bridgeproc.archive import (
    ArchiveError,
    ArchiveLossError,
    archive_session,
    check_archive,
    engine_for,
    history,
    load_session,
    session_versions,
)
from bridgeproc.archive.losses import session_counts, stored_counts
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.tables import sessions
from bridgeproc.rank import rank_results, standings
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

PBN, TRAVELLERS, NAMES = (SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv",
                          SAMPLE / "club-evening-names.csv")
SID = "2026-11-24_tuesday-pairs"


def _run(*inputs, names=True):
    options = bridgeproc.Options(read=bridgeproc.ReadOptions(names=(str(NAMES),) if names else ()), dd=False)
    return bridgeproc.process_session(list(inputs), options=options)


@pytest.fixture(scope="module")
def full():
    """The sample club evening: hand record, travellers and the names list (26 pairs, 26 deals)."""
    return _run(PBN, TRAVELLERS)


@pytest.fixture(scope="module")
def no_names():
    """The same evening re-run without --names."""
    return _run(PBN, TRAVELLERS, names=False)


@pytest.fixture(scope="module")
def no_hand_record():
    """The same evening re-run from the travellers only (no deals, and no date: the id is given)."""
    return _run(TRAVELLERS, names=False)


@pytest.fixture(scope="module")
def small():
    return synthetic_session(tables=6, boards=8, seed=3, event="Tuesday pairs", date="2026-03-03")


def rerank(session, results):
    """``session`` re-scored from ``results`` (what a re-run with other travellers gives)."""
    results = rank_results(results[list(bridgeproc.schema.RESULTS_COLUMNS)].reset_index(drop=True),
                           session.conventions)
    table = standings(results, session.conventions, session.names if len(session.names) else None)
    table.insert(0, "method", session.conventions.method)
    return dataclasses.replace(session, results=results, standings=table)


def without_names(session):
    return dataclasses.replace(session, standings=session.standings.assign(
        names=pd.array([pd.NA] * len(session.standings), dtype="string")))


def test_the_sample_counts_are_what_the_messages_say(full, no_names, no_hand_record):
    frames = lambda s: {"results": s.results, "boards": s.boards, "standings": s.standings}  # noqa: E731
    # these sessions are scored without double dummy (dd=False)
    assert session_counts(frames(full)) == {"results": 338, "deals": 26, "double dummy": 0, "names": 26}
    assert session_counts(frames(no_names)) == {"results": 338, "deals": 26, "double dummy": 0, "names": 0}
    assert session_counts(frames(no_hand_record)) == {"results": 338, "deals": 0, "double dummy": 0, "names": 0}
    assert session_counts({}) == {"results": 0, "deals": 0, "double dummy": 0, "names": 0}


def test_rescore_without_names_is_refused_and_nothing_is_written(archive_url, full, no_names):
    archive_session(full, archive_url)
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(no_names, archive_url)
    assert str(refused.value) == (
        "2026-11-24_tuesday-pairs version 1 has names for 26 pairs, this run has none: give the names list again "
        "(--names club-evening-names.csv), or store this run as version 2 anyway with --replace")
    assert refused.value.losses == ("names for 26 pairs -> 0",)
    assert isinstance(refused.value, ArchiveError)
    assert session_versions(archive_url, SID)["version"].tolist() == [1]
    with engine_for(archive_url).connect() as conn:
        assert conn.execute(sessions.select()).mappings().one()["latest_version"] == 1
    assert len(history(archive_url, "Anna Strand").table) == 1
    assert check_archive(archive_url, deep=True) == []


def test_replace_stores_version_2_and_says_what_it_lost(archive_url, full, no_names):
    archive_session(full, archive_url)
    result = archive_session(no_names, archive_url, replace=True)
    assert (result.version, result.created, result.losses) == (2, True, ("names for 26 pairs -> 0",))
    assert str(result).startswith("archived as 2026-11-24_tuesday-pairs version 2 in ")
    assert str(result).endswith(" (replacing version 1: names for 26 pairs -> 0)")
    assert load_session(archive_url, SID).standings["names"].isna().all()
    assert load_session(archive_url, SID, 1).standings["names"].notna().sum() == 26
    assert history(archive_url, "Anna Strand").table.empty  # what --replace was told to accept
    assert len(history(archive_url, "Anna Strand", all_versions=True).table) == 1


def test_fewer_results_are_refused(archive_url, small):
    archive_session(small, archive_url)
    fewer = rerank(small, small.results[small.results["board"] != 8])
    assert (len(small.results), len(fewer.results)) == (48, 42)
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(fewer, archive_url)
    assert str(refused.value) == (
        "2026-03-03_tuesday-pairs version 1 has 48 results, this run has 42: give every traveller file again, "
        "or store this run as version 2 anyway with --replace")
    assert session_versions(archive_url, "2026-03-03_tuesday-pairs")["version"].tolist() == [1]
    assert archive_session(fewer, archive_url, replace=True).losses == ("48 results -> 42",)


def test_boards_losing_their_deals_are_refused(archive_url, full, no_hand_record):
    archive_session(full, archive_url)
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(dataclasses.replace(no_hand_record, standings=full.standings), archive_url, session_id=SID)
    assert str(refused.value) == (
        "2026-11-24_tuesday-pairs version 1 has deals for 26 boards, this run has none: give the hand record again, "
        "or store this run as version 2 anyway with --replace")


def test_blank_deals_count_as_missing_on_both_sides(archive_url, small):
    deals = small.boards["deal"].copy()
    deals.iloc[0], deals.iloc[1] = "", "  "
    blank = dataclasses.replace(small, boards=small.boards.assign(deal=deals))
    archive_session(blank, archive_url)
    # A result corrected, the same boards: the stored 6 deals equal this run's 6, not a loss.
    results = blank.results.copy()
    results.loc[5, "tricks"] = results.loc[5, "tricks"] - 1
    corrected = rerank(blank, bridgeproc.score(results.drop(columns="score_ns")))
    assert archive_session(corrected, archive_url).version == 2
    deals.iloc[2] = None
    with pytest.raises(ArchiveLossError, match=r"^2026-03-03_tuesday-pairs version 2 has deals for 6 boards, "
                                               r"this run has 5: give the hand record again, or store"):
        archive_session(dataclasses.replace(corrected, boards=corrected.boards.assign(deal=deals)), archive_url)


def test_every_loss_is_named_on_its_own_line(archive_url, full, no_hand_record):
    archive_session(full, archive_url)
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(no_hand_record, archive_url, session_id=SID)
    assert str(refused.value).splitlines() == [
        "2026-11-24_tuesday-pairs version 1 has deals for 26 boards, this run has none: give the hand record again",
        "2026-11-24_tuesday-pairs version 1 has names for 26 pairs, this run has none: give the names list again "
        "(--names club-evening-names.csv)",
        "or store this run as version 2 anyway with --replace",
    ]
    assert refused.value.losses == ("deals for 26 boards -> 0", "names for 26 pairs -> 0")
    assert session_versions(archive_url, SID)["version"].tolist() == [1]


def test_the_names_hint_names_every_names_file_or_says_where_they_came_from(archive_url, small):
    listed = dataclasses.replace(small, options=bridgeproc.Options(read=bridgeproc.ReadOptions(names=("/club/lists/ns names.csv",
                                                                           "C:\\club\\ew.xlsx"))))
    archive_session(listed, archive_url)
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(without_names(small), archive_url)
    assert str(refused.value) == (
        "2026-03-03_tuesday-pairs version 1 has names for 12 pairs, this run has none: give the names list again "
        "(--names 'ns names.csv' --names ew.xlsx), or store this run as version 2 anyway with --replace")
    # Names read from the input itself (no names list was given): no --names to suggest.
    archive_session(small, archive_url, session_id="from-input")
    with pytest.raises(ArchiveLossError) as refused:
        archive_session(without_names(small), archive_url, session_id="from-input")
    assert str(refused.value) == (
        "from-input version 1 has names for 12 pairs, this run has none: give the files with the names again "
        "(version 1 read them from its input, not a names list), or store this run as version 2 anyway with --replace")


def test_adding_names_or_results_is_not_a_loss(archive_url, full, no_names, small):
    archive_session(no_names, archive_url)
    named = archive_session(full, archive_url)
    assert (named.version, named.created, named.losses) == (2, True, ())
    assert "replacing" not in str(named)
    fewer = rerank(small, small.results[small.results["board"] != 8])
    archive_session(fewer, archive_url)
    grown = archive_session(small, archive_url)
    assert (grown.version, grown.losses) == (2, ())


def test_identical_rerun_is_unchanged_even_after_a_refusal(archive_url, full, no_names):
    archive_session(full, archive_url)
    with pytest.raises(ArchiveLossError):
        archive_session(no_names, archive_url)
    for replace in (False, True):
        again = archive_session(full, archive_url, replace=replace)
        assert (again.version, again.created, again.losses) == (1, False, ())
        assert str(again).startswith("unchanged since 2026-11-24_tuesday-pairs version 1 in ")


def test_stored_counts_equal_the_counts_of_what_went_in(archive_url, full, small):
    for session in (full, small):
        sid = archive_session(session, archive_url).session_id
        with engine_for(archive_url).connect() as conn:
            version_id = conn.execute(sessions.select().where(sessions.c.session_id == sid)).mappings().one()[
                "latest_version_id"]
            stored = stored_counts(conn, version_id)
        assert stored == session_counts({"results": session.results, "boards": session.boards,
                                         "standings": session.standings})


def test_score_without_names_stops_before_writing_anything(runner, tmp_path):
    from bridgeproc.cli import cli

    inputs = [str(PBN), str(TRAVELLERS), "--no-dd"]
    first = runner.invoke(cli, ["score", *inputs, "--names", str(NAMES), "-o", str(tmp_path / "first.csv")])
    assert first.exit_code == 0, first.output
    again = runner.invoke(cli, ["score", *inputs, "-o", str(tmp_path / "again.csv")])
    assert again.exit_code == 1 and "Traceback" not in again.output
    assert ("version 1 has names for 26 pairs, this run has none: give the names list again "
            "(--names club-evening-names.csv), or store this run as version 2 anyway with --replace") in again.output
    assert not (tmp_path / "again.csv").exists()
    assert "Bjørn Sæther" in runner.invoke(cli, ["archive", "history", "Anna Strand"]).output
    loose = runner.invoke(cli, ["score", *inputs, "-o", str(tmp_path / "loose.csv"), "--no-archive"])
    assert loose.exit_code == 0 and (tmp_path / "loose.csv").exists()


def test_a_rescore_without_double_dummy_is_refused_then_stored_with_replace(archive_url):
    """--no-dd on a re-run would drop the hand records' analysis from the latest version."""
    from bridgeproc.analysis.par import par
    from bridgeproc.archive.synthetic import synthetic_session
    from bridgeproc.schema import DD_COLUMNS

    first = synthetic_session(tables=4, boards=6, seed=11, event="DD club", date="2026-05-05")
    archive_session(first, archive_url)
    assert par(first.boards)["par_score"].notna().all()
    without = dataclasses.replace(first, boards=first.boards.drop(columns=[*DD_COLUMNS, "par_score", "par_contracts"]))
    with pytest.raises(ArchiveLossError) as info:
        archive_session(without, archive_url)
    assert str(info.value) == (
        "2026-05-05_dd-club version 1 has double-dummy tables for 6 boards, this run has none: score without "
        "--no-dd (double dummy needs endplay, a dependency of bridgeproc), or store this run as version 2 anyway "
        "with --replace")
    stored = archive_session(without, archive_url, replace=True)
    assert stored.version == 2 and stored.losses == ("double dummy for 6 boards -> 0",)
