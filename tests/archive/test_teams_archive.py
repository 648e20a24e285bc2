"""Teams sessions in the archive (schema 4): the EBL round stored and read back as the very frames,
a correction as version 2, the teams' players for history, and an archive of schema 3 upgraded."""
import dataclasses
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal
from sqlalchemy import select

from bridgeproc.archive import (
    ArchiveError,
    ArchiveLossError,
    archive_session,
    check_archive,
    list_sessions,
    load_session,
    session_versions,
)
from bridgeproc.archive.db import dispose_all, engine_for, reading
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.tables import SCHEMA_VERSION, archive_info, players, sessions
from bridgeproc.archive.teams import NOT_STORED, STORED_FIELDS, TEAM_FRAMES, archive_teams, load_teams, team_players
from bridgeproc.cli import cli
from bridgeproc.io.pbn.writer import game_lines
from bridgeproc.model import TeamsSession
from bridgeproc.pipeline.teams import process_teams
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
SID = "2021-08-23_2021-online-qual-open-r2"
SCHEMA3 = Path(__file__).with_name("schema3_archive.sql")


@pytest.fixture(scope="module")
def ebl():
    return process_teams([EBL])


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    """The EBL round with one result corrected: Austria v Denmark board 12, open room, 4H by N
    made (10 tricks, NS 620) instead of one down (NS -100)."""
    text = EBL.read_text(encoding="utf-8")
    at = text.index('[Result "9"]')
    score = text.index('[Score "NS -100"]', at)
    fixed = (text[:at] + '[Result "10"]' + text[at + len('[Result "9"]'):score] + '[Score "NS 620"]'
             + text[score + len('[Score "NS -100"]'):])
    path = tmp_path_factory.mktemp("corrected") / EBL.name
    path.write_text(fixed, encoding="utf-8")
    return process_teams([path])


def assert_same_teams(a: TeamsSession, b: TeamsSession) -> None:
    for field in TEAM_FRAMES:
        left, right = getattr(a, field), getattr(b, field)
        if left is None:
            assert right is None, field
            continue
        if field == "results" and "game" in left:  # PBN games: the same tags, written the same
            assert [game_lines(g) for g in left["game"]] == [game_lines(g) for g in right["game"]]
            left, right = left.drop(columns="game"), right.drop(columns="game")
        assert_frame_equal(left, right, check_exact=True, obj=field)
    assert (a.options, a.meta, a.tie_breaks, a.names, a.members, a.notes, a.origin) == (
        b.options, b.meta, b.tie_breaks, b.names, b.members, b.notes, b.origin)


def test_every_field_of_a_teams_session_is_stored():
    assert {f.name for f in dataclasses.fields(TeamsSession)} == STORED_FIELDS | NOT_STORED == STORED_FIELDS | {"archived"}


def test_the_ebl_round_reads_back_as_the_same_frames(archive_url, ebl):
    result = archive_teams(ebl, archive_url)
    assert (result.session_id, result.version, result.created) == (SID, 1, True)
    back = load_teams(archive_url, SID)
    assert_same_teams(ebl, back)
    assert (len(back.results), len(back.boards), len(back.matches), len(back.standings)) == (299, 150, 15, 30)
    assert len(back.deals) == 10 and back.deals["dd_N_NT"].notna().all()
    assert back.standings["team"].head(3).tolist() == ["SWEDEN", "HUNGARY", "PORTUGAL"]
    assert back.standings["total"].head(3).tolist() == [18.15, 17.84, 14.80]
    again = archive_teams(ebl, archive_url)
    assert (again.version, again.created) == (1, False)
    listed = list_sessions(archive_url)
    assert listed[["session_id", "event", "date", "versions", "method"]].values.tolist() == [
        [SID, "2021 Online Qual: Open R2", "2021-08-23", 1, "teams-vp"]]
    assert check_archive(archive_url) == []


def test_a_correction_is_version_2_and_version_1_is_intact(archive_url, ebl, corrected):
    archive_teams(ebl, archive_url)
    second = archive_teams(corrected, archive_url, comment="board 12 open room: 4H made")
    assert (second.version, second.created, second.losses) == (2, True, ())
    versions = session_versions(archive_url, SID)
    assert versions[["version", "method", "comment"]].fillna("-").values.tolist() == [
        [1, "teams-vp", "-"], [2, "teams-vp", "board 12 open room: 4H made"]]
    assert_same_teams(load_teams(archive_url, SID, 1), ebl)
    latest = load_teams(archive_url, SID)
    assert_same_teams(latest, corrected)
    room = latest.results[(latest.results["match"] == "R1 AUSTRIA v DENMARK") & (latest.results["board"] == 12)]
    assert room[["room", "tricks", "score_ns", "imp_ns"]].values.tolist() == [["open", 10, 620, 0.0],
                                                                               ["closed", 10, 620, 0.0]]  # both rooms 620 for NS: no swing
    assert latest.standings[["team", "total"]].head(3).values.tolist() == [
        ["SWEDEN", 18.15], ["HUNGARY", 17.84], ["AUSTRIA", 15.05]]
    assert check_archive(archive_url) == []


def test_the_teams_players_are_in_the_players_table(archive_url, ebl):
    archive_teams(ebl, archive_url)
    assert team_players(ebl)["AUSTRIA"] == [("Markus Knob", "39415"), ("Clemens Wanha", "184195"),
                                            ("Michael Strafner", "29864"), ("Simon Weinberger", "49606")]
    austria = ebl.standings["team"].tolist().index("AUSTRIA")
    with reading(engine_for(archive_url, readonly=True)) as conn:
        rows = conn.execute(select(players.c.pos, players.c.seat, players.c.player_key, players.c.player,
                                   players.c.member_id).order_by(players.c.pos, players.c.seat)).all()
    assert [tuple(r) for r in rows if r[0] == austria] == [
        (austria, 0, "markus knob", "Markus Knob", "39415"), (austria, 1, "clemens wanha", "Clemens Wanha", "184195"),
        (austria, 2, "michael strafner", "Michael Strafner", "29864"),
        (austria, 3, "simon weinberger", "Simon Weinberger", "49606")]
    assert len({r[0] for r in rows}) == 30 and len(rows) == sum(len(p) for p in team_players(ebl).values())


def test_fewer_table_results_are_refused_unless_replace(archive_url, ebl):
    archive_teams(ebl, archive_url)
    fewer = dataclasses.replace(ebl, results=ebl.results.iloc[:200].reset_index(drop=True))
    with pytest.raises(ArchiveLossError) as caught:
        archive_teams(fewer, archive_url)
    assert str(caught.value) == (f"{SID} version 1 has 299 table results, this run has 200: give every room's file "
                                 "again, or store this run as version 2 anyway with --replace")
    assert archive_teams(fewer, archive_url, replace=True).losses == ("299 table results -> 200",)


def test_a_pairs_session_and_a_teams_session_never_share_an_id(archive_url, ebl):
    pairs = synthetic_session(tables=3, boards=4, seed=1, event="2021 Online Qual: Open R2", date="2021-08-23")
    archive_session(pairs, archive_url)
    with pytest.raises(ArchiveError, match=f"^{SID} is a pairs session in the archive .*; a teams session cannot be a "
                                           "version of it: give another --event or --date$"):
        archive_teams(ebl, archive_url)
    with pytest.raises(ArchiveError, match=f"^{SID} is a pairs session, not a teams session$"):
        load_teams(archive_url, SID)
    assert session_versions(archive_url, SID)["version"].tolist() == [1]


def test_teams_command_archives_with_event_and_date(runner, tmp_path):
    url = tmp_path / "club.sqlite"
    out = tmp_path / "teams.csv"
    result = runner.invoke(cli, ["teams", str(EBL), "-o", str(out), "--archive", str(url), "--event", "EBL qualifier",
                                 "--date", "2021-08-23"])
    assert result.exit_code == 0, result.output
    assert f"archived as 2021-08-23_ebl-qualifier version 1 in {url}" in result.output
    assert out.exists()
    back = load_teams(url, "2021-08-23_ebl-qualifier")
    assert back.standings["team"].iloc[0] == "SWEDEN"
    again = runner.invoke(cli, ["teams", str(EBL), "-o", str(out), "--archive", str(url), "--event", "EBL qualifier",
                                "--date", "2021-08-23"])
    assert f"unchanged since 2021-08-23_ebl-qualifier version 1 in {url}" in again.output
    dispose_all()


def _schema3_archive(path: Path) -> None:
    """The archive bridgeproc wrote before schema 4 (tests/archive/schema3_archive.sql, sqlite3's dump)."""
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA3.read_text(encoding="utf-8"))
    conn.close()


def _monday():
    """What schema3_archive.sql holds: version 1, and version 2 with the first result's lead SA."""
    first = synthetic_session(tables=3, boards=4, seed=5, event="Monday pairs", date="2026-11-30")
    results = first.results.copy()
    results.loc[0, "lead"] = "SA"
    return first, dataclasses.replace(first, results=results)


def test_an_archive_of_schema_3_is_read_as_it_is_then_upgraded(tmp_path, ebl):
    path = tmp_path / "old.sqlite"
    _schema3_archive(path)
    first, second = _monday()
    # read-only: nothing changes, the new columns read as their defaults
    assert list_sessions(path)[["session_id", "versions"]].values.tolist() == [["2026-11-30_monday-pairs", 2]]
    assert_frame_equal(load_session(path, "2026-11-30_monday-pairs", 1).results, first.results, check_exact=True)
    with pytest.raises(ArchiveError, match="is a pairs session, not a teams session"):
        load_teams(path, "2026-11-30_monday-pairs")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM archive_info WHERE key = 'schema_version'").fetchone() == ("3",)
    conn.close()
    dispose_all()
    # written to: upgraded to schema 4, the old versions as they were
    assert archive_session(second, path).created is False  # equal to version 2: recognised after the upgrade
    assert archive_teams(ebl, path).version == 1
    with reading(engine_for(path, readonly=True)) as conn:
        assert conn.execute(select(archive_info.c.value)).scalar() == str(SCHEMA_VERSION) == "5"
        kinds = conn.execute(select(sessions.c.session_id, sessions.c.kind).order_by(sessions.c.session_id)).all()
        old_players = conn.execute(select(players.c.member_id).where(players.c.version_id <= 2)).scalars().all()
    assert [tuple(k) for k in kinds] == [(SID, "teams"), ("2026-11-30_monday-pairs", "pairs")]
    assert len(old_players) == 2 * 12 and set(old_players) == {None}
    for number, session in ((1, first), (2, second)):
        back = load_session(path, "2026-11-30_monday-pairs", number)
        for name in ("results", "boards", "standings", "names"):
            assert_frame_equal(getattr(back, name), getattr(session, name), check_exact=True, obj=name)
    assert_same_teams(load_teams(path, SID), ebl)
    assert check_archive(path) == []
    dispose_all()


def test_an_upgraded_archive_is_sound_deep(tmp_path):
    path = tmp_path / "old.sqlite"
    _schema3_archive(path)
    _, second = _monday()
    results = second.results.copy()
    results.loc[1, "lead"] = "HK"
    assert archive_session(dataclasses.replace(second, results=results), path).version == 3
    assert session_versions(path, "2026-11-30_monday-pairs")["version"].tolist() == [1, 2, 3]
    assert check_archive(path, deep=True) == []
    dispose_all()


def test_the_schema_3_dump_is_what_bridgeproc_wrote():
    text = SCHEMA3.read_text(encoding="utf-8")
    assert "INSERT INTO \"archive_info\" VALUES('schema_version','3');" in text
    assert "kind" not in text.split("CREATE TABLE sessions", 1)[1].split(");", 1)[0]
    assert pd.Series(["team_results", "events", "member_id"]).map(lambda word: word in text).tolist() == [False] * 3


def test_the_member_numbers_of_a_teams_usebio_are_archived(archive_url):
    session = process_teams([REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"])
    result = archive_teams(session, archive_url)
    back = load_teams(archive_url, result.session_id)
    assert back.members == session.members and ("Dexter Jones", "800001", "132") in back.members["1"]
