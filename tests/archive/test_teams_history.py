"""Teams sessions in the archive's questions: history finds a player's teams rows beside their pairs
rows, show prints a teams session's standings and matches, list names the kind, the ladder says it
left teams sessions out; and the names index an older archive gets when it is next written."""
import math
import sqlite3

import numpy as np
import pandas as pd
import pytest

from bridgeproc.archive import archive_session, history, list_sessions, show_session
from bridgeproc.archive.db import dispose_all, engine_for
from bridgeproc.archive.ladder import ladder, partnerships
from bridgeproc.archive.teams import archive_teams
from bridgeproc.cli import cli
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.schema import HISTORY_COLUMNS
from tests.archive.test_ladder import club_session
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
SID = "2021-08-23_2021-online-qual-open-r2"
TUESDAY = "2026-11-24_tuesday-pairs"
AUSTRIA_MATES = "Clemens Wanha & Michael Strafner & Simon Weinberger"


@pytest.fixture(scope="module")
def ebl():
    return process_teams([EBL])


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    """The EBL round with Austria v Denmark board 12, open room, 4H by N made (NS 620) instead of
    one down (NS -100): Austria's IMP difference 4 -> 16, VPs 11.50 -> 15.05 (as test_teams_archive.py)."""
    text = EBL.read_text(encoding="utf-8")
    at = text.index('[Result "9"]')
    score = text.index('[Score "NS -100"]', at)
    fixed = (text[:at] + '[Result "10"]' + text[at + len('[Result "9"]'):score] + '[Score "NS 620"]'
             + text[score + len('[Score "NS -100"]'):])
    path = tmp_path_factory.mktemp("corrected") / EBL.name
    path.write_text(fixed, encoding="utf-8")
    return process_teams([path])


def tuesday(names: str = "Markus Knob & Ann Smith", ids: str | None = None):
    """A club pairs night where Markus Knob (Austria's first player, member 39415) plays with Ann Smith."""
    first = (names, 55.0, ids) if ids is not None else (names, 55.0)
    return club_session("2026-11-24", [first, ("Cy Young & Di Lane", 45.0)], event="Tuesday pairs")


@pytest.fixture
def both(archive_url, ebl):
    archive_teams(ebl, archive_url)
    archive_session(tuesday(), archive_url)
    return archive_url


def _rows(got: pd.DataFrame) -> list[list]:
    columns = ["date", "session_id", "method", "group", "pair", "partner", "rank", "boards", "pct", "imps", "total"]
    return [[None if isinstance(v, float) and math.isnan(v) else v for v in row]
            for row in got[columns].astype(object).where(got[columns].notna(), None).values.tolist()]


TEAMS_ROW = ["2021-08-23", SID, "teams-vp", "", "AUSTRIA", AUSTRIA_MATES, "11", 10, None, 4.0, 11.5]
PAIRS_ROW = ["2026-11-24", TUESDAY, "mp", "ALL", "1", "Ann Smith", "1", 24, 55.0, None, 55.0]


@pytest.mark.parametrize("asked", ["Markus Knob", "knob, markus", "  MARKUS   knob ", "39415"])
def test_history_lists_the_teams_round_and_the_club_night(both, asked):
    answer = history(both, asked)
    got = answer.table
    assert got.dtypes.astype(str).to_dict() == {k: str(v) for k, v in HISTORY_COLUMNS.items()}
    assert _rows(got) == [TEAMS_ROW, PAIRS_ROW]  # oldest first; the team in pair, VPs in total
    assert got["names"].tolist() == [f"Markus Knob & {AUSTRIA_MATES}", "Markus Knob & Ann Smith"]


def test_history_of_two_teammates_is_their_team(both):
    answer = history(both, "Simon Weinberger & Markus Knob")
    got = answer.table
    assert _rows(got) == [[*TEAMS_ROW[:5], "Clemens Wanha & Michael Strafner", *TEAMS_ROW[6:]]]
    assert history(both, "Ann Smith & Clemens Wanha").table.empty  # never on one side


def test_history_of_a_teammate_only_on_the_team(both):
    assert _rows(history(both, "Michael Strafner").table) == [
        [*TEAMS_ROW[:5], "Markus Knob & Clemens Wanha & Simon Weinberger", *TEAMS_ROW[6:]]]
    assert _rows(history(both, "184195").table) == [  # Clemens Wanha's member number
        [*TEAMS_ROW[:5], "Markus Knob & Michael Strafner & Simon Weinberger", *TEAMS_ROW[6:]]]


def test_the_club_night_member_id_joins_the_room_games_one(archive_url, ebl):
    archive_teams(ebl, archive_url)
    archive_session(tuesday("Knob, Markus & Ann Smith", "39415 & 5"), archive_url)
    answer = history(archive_url, "39415")
    got = answer.table
    assert _rows(got) == [TEAMS_ROW, PAIRS_ROW]
    assert list(answer.matches) == ["'Markus Knob' and 'Knob, Markus' taken as one player (member id 39415)"]


def test_one_name_with_two_member_ids_is_two_players_and_both_are_listed(archive_url, ebl):
    archive_teams(ebl, archive_url)
    archive_session(tuesday("Markus Knob & Ann Smith", "777 & 5"), archive_url)
    answer = history(archive_url, "Markus Knob")
    got = answer.table
    assert _rows(got) == [TEAMS_ROW, PAIRS_ROW]
    assert list(answer.matches) == ["'Markus Knob' are 2 players by member id (39415, 777)"]
    assert _rows(history(archive_url, "777").table) == [PAIRS_ROW]
    assert _rows(history(archive_url, "39415").table) == [TEAMS_ROW]


def test_history_of_every_teams_version(archive_url, ebl, corrected):
    archive_teams(ebl, archive_url)
    archive_teams(corrected, archive_url, comment="board 12 open room: 4H made")
    latest = history(archive_url, "Markus Knob").table
    assert latest[["version", "pair", "rank", "imps", "total"]].values.tolist() == [[2, "AUSTRIA", "3", 16.0, 15.05]]
    every = history(archive_url, "Markus Knob", all_versions=True).table
    assert every[["version", "rank", "imps", "total"]].values.tolist() == [[1, "11", 4.0, 11.5],
                                                                          [2, "3", 16.0, 15.05]]


def test_show_a_teams_session_prints_its_standings_and_matches(both):
    view = show_session(both, SID)
    assert (view.kind, view.version) == ("teams", 1)
    assert view.heading == [f"session {SID}: 2021 Online Qual: Open R2 2021.08.23",
                            "version 1 of 1; teams, VP scoring, 15 matches, 30 teams"]
    assert list(view.tables) == ["standings", "matches"]
    assert view.standings[["rank", "team", "total"]].head(2).values.tolist() == [["1", "SWEDEN", 18.15],
                                                                                ["2", "HUNGARY", 17.84]]
    matches = view.tables["matches"]
    assert len(matches) == 15
    austria = matches[matches["home"] == "AUSTRIA"].iloc[0]
    assert [austria[c] for c in ("round", "away", "imps_home", "imps_away", "vp_home", "vp_away")] == [
        1, "DENMARK", 20.0, 16.0, 11.5, 8.5]
    text = str(view)
    assert text.startswith(f"session {SID}: 2021 Online Qual: Open R2 2021.08.23\nversion 1 of 1; teams")
    assert "\nstandings:\n" in text and "\nmatches:\n" in text and "SWEDEN" in text
    pairs = show_session(both, TUESDAY)
    assert pairs.kind == "pairs" and list(pairs.tables) == ["standings"]
    assert "method" not in pairs.standings


def test_show_and_list_on_the_command_line(runner, both):
    shown = runner.invoke(cli, ["archive", "show", SID, "--archive", both])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[1] == "version 1 of 1; teams, VP scoring, 15 matches, 30 teams"
    matches = lines[lines.index("matches:") + 1:]
    assert matches[0].split() == ["round", "home", "away", "boards", "played", "imps_home", "imps_away", "vp_home",
                                  "vp_away", "status"]
    assert matches[1].split() == ["1", "AUSTRIA", "DENMARK", "10", "10", "20", "16", "11.50", "8.50", "played"]
    assert len(matches) == 16 and "<NA>" not in shown.output
    as_csv = runner.invoke(cli, ["archive", "show", SID, "--archive", both, "--csv"]).output.splitlines()
    assert as_csv[0].startswith("rank,team,names,matches,boards,total,vp,") and len(as_csv) == 31
    listed = runner.invoke(cli, ["archive", "list", "--archive", both, "--csv"]).output.splitlines()
    assert listed[0].split(",")[:6] == ["session_id", "event", "date", "site", "kind", "versions"]
    assert [line.split(",")[4] for line in listed[1:]] == ["pairs", "teams"]  # newest first
    history_csv = runner.invoke(cli, ["archive", "history", "Markus Knob", "--archive", both, "--csv"])
    assert history_csv.exit_code == 0 and "teams-vp,,AUSTRIA," in history_csv.output


def test_list_sessions_names_the_kind(both):
    listed = list_sessions(both)
    assert listed[["session_id", "kind", "method"]].values.tolist() == [[TUESDAY, "pairs", "mp"],
                                                                       [SID, "teams", "teams-vp"]]
    assert str(listed["kind"].dtype) == "string"


def test_the_ladder_says_it_left_the_teams_session_out(both):
    answer = ladder(both)
    got = answer.table
    assert got["names"].tolist() == ["Ann Smith & Markus Knob", "Cy Young & Di Lane"]
    assert answer.sessions == 1
    assert list(answer.notes) == [f"teams sessions have no pair percentage, left out: {SID}"]
    assert ladder(both, date_from="2026-01-01").notes == ()  # outside the range: not named


@pytest.mark.parametrize("pack", [True, False])
def test_partnerships_code_rows_alike_whichever_way(pack):
    seats = np.array([[0, 1], [2, 3], [0, 1], [1, -1], [2, 3], [1, -1], [3, 2]])
    entry, together = partnerships(seats, pack=pack)
    assert together[entry].tolist() == seats.tolist()
    assert len(together) == 4 and len(set(entry.tolist())) == 4
    assert entry[0] == entry[2] and entry[1] == entry[4] and entry[3] == entry[5] and entry[6] != entry[1]


def _indexes(path) -> set[str]:
    with sqlite3.connect(path) as conn:
        found = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    conn.close()
    return found


def test_an_archive_without_the_names_index_gets_it_when_next_written(tmp_path):
    path = tmp_path / "old.sqlite"
    archive_session(tuesday(), path)
    dispose_all()
    assert "ix_names_names" in _indexes(path)  # a new archive has it
    with sqlite3.connect(path) as conn:
        conn.execute("DROP INDEX ix_names_names")
    conn.close()
    assert history(path, "Markus Knob").table["pair"].tolist() == ["1"]  # read-only: read as it is, unchanged
    dispose_all()
    assert "ix_names_names" not in _indexes(path)
    engine_for(path)  # opened for writing: the index is created
    dispose_all()
    assert "ix_names_names" in _indexes(path)
    assert ladder(path).table["names"].tolist() == ["Ann Smith & Markus Knob", "Cy Young & Di Lane"]
    dispose_all()


def test_show_names_the_version_it_shows_when_a_later_one_is_incomplete(archive_url):
    archive_session(tuesday(), archive_url)
    pending = archive_session(tuesday("Markus Knob & Ann Smyth"), archive_url, complete=False)
    assert (pending.version, pending.complete) == (2, False)
    view = show_session(archive_url, TUESDAY)
    assert view.version == 1 and view.heading[1].startswith("version 1 of 2;")
    assert view.standings["names"].iloc[0] == "Markus Knob & Ann Smith"


def test_pairs_questions_of_a_teams_session_are_refused_with_what_to_do(tmp_path):
    """export and a simultaneous event read from the archive: a teams session is named, no traceback (a diff
    of its versions is the teams diff: tests/archive/test_teams_diff.py)."""
    from bridgeproc.archive import ArchiveError, archive_teams, load_session
    from bridgeproc.pipeline.sim import score_sim_from_archive
    from bridgeproc.pipeline.teams import process_teams
    from tests.conftest import REALDATA

    url = tmp_path / "archive.sqlite"
    teams = process_teams([REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"])
    sid = archive_teams(teams, url, event="EBL qualifier").session_id
    with pytest.raises(ArchiveError, match=r"is a teams session, not a pairs one; load it with .*load_teams"):
        load_session(url, sid)
    with pytest.raises(Exception, match="EBL qualifier") as refused:
        score_sim_from_archive(str(url), "EBL qualifier")
    assert not isinstance(refused.value, KeyError)
