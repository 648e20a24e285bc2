"""``archive diff`` of a teams session: the EBL round archived, one board corrected (or one room's game
taken away) and archived again; the diff names the table result, its board's IMPs, its match's IMPs
and VPs and the teams that moved, in the pairs diff's words."""
import dataclasses

import numpy as np
import pandas as pd
import pytest

from bridgeproc.archive import ArchiveError, archive_teams, diff
from bridgeproc.archive.teams_diff import TeamsDiff, diff_team_results
from bridgeproc.cli import cli
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.schema import (
    RESULTS_COLUMNS,
    TEAMS_DIFF_BOARD_COLUMNS,
    TEAMS_DIFF_MATCH_COLUMNS,
    TEAMS_DIFF_RESULT_COLUMNS,
    TEAMS_DIFF_STANDING_COLUMNS,
)
from tests.conftest import REALDATA

pytestmark = pytest.mark.slow  # scores and archives the European teams file in every test: left out of make quick

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
SID = "2021-08-23_2021-online-qual-open-r2"
MATCH = "R1 AUSTRIA v DENMARK"
HEADLINE = (f"board 12 corrected in {MATCH}: team AUSTRIA rises from 11 to 3; team PORTUGAL falls from 3 to 4; "
            "team POLAND falls from 4 to 5; ...")
#: Every team that moved when Austria v Denmark board 12 (open room) is 4H made instead of one down:
#: Austria 11.50 -> 15.05 VPs jumps to 3rd, Denmark 8.50 -> 4.95 drops to 26th, the teams between shift by one.
MOVED = [["AUSTRIA", "11", "3", 11.50, 15.05], ["PORTUGAL", "3", "4", 14.80, 14.80],
         ["POLAND", "4", "5", 14.28, 14.28], ["SWITZERLAND", "5", "6", 14.28, 14.28],
         ["FRANCE", "6", "7", 13.72, 13.72], ["BULGARIA", "7", "8", 13.72, 13.72],
         ["ENGLAND", "8", "9", 13.14, 13.14], ["SLOVENIA", "9", "10", 12.18, 12.18],
         ["GERMANY", "10", "11", 11.85, 11.85], ["LATVIA", "19", "18", 8.15, 8.15],
         ["NORWAY", "20", "19", 7.82, 7.82], ["SCOTLAND", "21", "20", 6.86, 6.86],
         ["IRELAND", "22", "21", 6.28, 6.28], ["LITHUANIA", "23", "22", 6.28, 6.28],
         ["TURKEY", "24", "23", 5.72, 5.72], ["UKRAINE", "25", "24", 5.72, 5.72],
         ["NETHERLANDS", "26", "25", 5.20, 5.20], ["DENMARK", "18", "26", 8.50, 4.95]]


def _board_12_open(text: str) -> tuple[int, int]:
    """Where Austria v Denmark board 12's open-room game is in the EBL file: (its result tag, the game's start)."""
    at = text.index('[Result "9"]')
    return at, text.rindex("[Event", 0, at)


@pytest.fixture(scope="module")
def ebl():
    return process_teams([EBL])


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    """Board 12 open room: 4H by N made (10 tricks, NS 620) instead of one down (NS -100)."""
    text = EBL.read_text(encoding="utf-8")
    at, _ = _board_12_open(text)
    score = text.index('[Score "NS -100"]', at)
    fixed = (text[:at] + '[Result "10"]' + text[at + len('[Result "9"]'):score] + '[Score "NS 620"]'
             + text[score + len('[Score "NS -100"]'):])
    path = tmp_path_factory.mktemp("corrected") / EBL.name
    path.write_text(fixed, encoding="utf-8")
    return process_teams([path])


@pytest.fixture(scope="module")
def without_open_room(tmp_path_factory):
    """Board 12's open-room game taken out of the file (the director withdrew it)."""
    text = EBL.read_text(encoding="utf-8")
    at, start = _board_12_open(text)
    path = tmp_path_factory.mktemp("withdrawn") / EBL.name
    path.write_text(text[:start] + text[text.index("[Event", at):], encoding="utf-8")
    return process_teams([path])


def _standings(change: TeamsDiff) -> list[list]:
    return change.standings[["team", "rank_before", "rank_after", "total_before", "total_after"]].values.tolist()


def test_a_corrected_board_lists_its_result_imps_match_and_the_teams_that_moved(archive_url, ebl, corrected):
    archive_teams(ebl, archive_url)
    archive_teams(corrected, archive_url, comment="board 12 open room: 4H made")
    change = diff(archive_url, SID, 1, 2)
    assert isinstance(change, TeamsDiff) and (change.session_id, change.v1, change.v2, change.changed) == (
        SID, 1, 2, True)
    assert change.results.values.tolist() == [
        [1, MATCH, "open", 12, "corrected", "4H N -1 -100 lead C9", "4H N = +620 lead C9"]]
    assert change.boards.values.tolist() == [[1, MATCH, 12, "AUSTRIA", "DENMARK", -12.0, 12.0, 0.0, 0.0,
                                              "played", "played"]]
    assert change.matches.values.tolist() == [[1, MATCH, "AUSTRIA", "DENMARK", 20.0, 16.0, 20.0, 4.0,
                                               11.50, 8.50, 15.05, 4.95]]
    assert _standings(change) == MOVED
    assert change.standings[["vp_before", "vp_after"]].values.tolist() == [[b, a] for *_, b, a in MOVED]
    assert change.other == []
    assert change.headline == HEADLINE
    assert change.summary[1:4] == [
        f"{MATCH}, board 12, open room: corrected (4H N -1 -100 lead C9 -> 4H N = +620 lead C9)",
        f"{MATCH}, board 12: IMPs 0-12 -> 0-0",
        f"{MATCH}: IMPs 20-16 -> 20-4, VPs 11.5-8.5 -> 15.05-4.95"]
    assert change.summary[4:6] == ["team AUSTRIA rises from 11 to 3", "team PORTUGAL falls from 3 to 4"]
    assert change.summary[-2:] == ["team AUSTRIA: 11.5 VPs -> 15.05 VPs", "team DENMARK: 8.5 VPs -> 4.95 VPs"]
    assert len(change.summary) == 1 + 3 + len(MOVED) + 2
    for frame, columns in ((change.results, TEAMS_DIFF_RESULT_COLUMNS), (change.boards, TEAMS_DIFF_BOARD_COLUMNS),
                           (change.matches, TEAMS_DIFF_MATCH_COLUMNS),
                           (change.standings, TEAMS_DIFF_STANDING_COLUMNS)):
        assert frame.dtypes.to_dict() == {c: pd.api.types.pandas_dtype(d) for c, d in columns.items()}
    # the default is the previous version and the latest; backwards reads the other way round
    assert diff(archive_url, SID).summary == change.summary
    back = diff(archive_url, SID, 2, 1)
    assert back.results.values.tolist() == [
        [1, MATCH, "open", 12, "corrected", "4H N = +620 lead C9", "4H N -1 -100 lead C9"]]
    assert [row for row in _standings(back) if row[0] in ("AUSTRIA", "DENMARK", "NETHERLANDS")] == [
        ["AUSTRIA", "3", "11", 15.05, 11.50], ["DENMARK", "26", "18", 4.95, 8.50],
        ["NETHERLANDS", "25", "26", 5.20, 5.20]]  # best placed now first


def test_a_withdrawn_room_is_removed_and_its_board_scored_in_one_room(tmp_path, ebl, without_open_room):
    url = tmp_path / "archive.sqlite"
    archive_teams(ebl, url)
    assert archive_teams(without_open_room, url, replace=True).losses == ("299 table results -> 298",)
    change = diff(url, SID)
    assert change.results.values.tolist() == [[1, MATCH, "open", 12, "removed", "4H N -1 -100 lead C9", ""]]
    assert change.boards.values.tolist() == [[1, MATCH, 12, "AUSTRIA", "DENMARK", -12.0, 12.0, 0.0, 0.0,
                                              "played", "one room"]]
    assert change.summary[1:3] == [f"{MATCH}, board 12, open room: removed (4H N -1 -100 lead C9 -> -)",
                                   f"{MATCH}, board 12: IMPs 0-12 -> 0-0 (played -> one room)"]
    assert _standings(change) == MOVED  # the board counts 0 IMPs, as a made 4H in both rooms did
    # the games after it moved up the file: said, not listed one by one
    assert change.other == ["line of 268 table results changed", "notes of reading changed (1 -> 1 rows)"]
    again = diff(url, SID, 2, 1)
    assert again.results[["change", "before", "after"]].values.tolist() == [["added", "", "4H N -1 -100 lead C9"]]


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: dataclasses.replace(s, meta={**s.meta, "site": "BBO"}), ["header site: 'RealBridge' -> 'BBO'"]),
    (lambda s: dataclasses.replace(s, names={"AUSTRIA": "Austria Open"}),
     ["team name AUSTRIA: None -> 'Austria Open'"]),
    (lambda s: dataclasses.replace(s, tie_breaks=("imp-difference",)),
     ["tie-breaks applied: imp-quotient, imp-difference -> imp-difference"]),
    (lambda s: dataclasses.replace(s, options=dataclasses.replace(s.options, ave_plus_imps=2.0)),
     ["option ave_plus_imps: 3.0 -> 2.0"]),
])
def test_a_version_that_changes_no_result_says_what_it_changed(tmp_path, ebl, change, expected):
    url = tmp_path / "archive.sqlite"
    archive_teams(ebl, url)
    assert archive_teams(change(ebl), url, session_id=SID).version == 2
    got = diff(url, SID)
    assert (got.other, got.headline, got.summary) == (expected, expected[0], expected * 2)
    assert (len(got.results), len(got.boards), len(got.matches), len(got.standings)) == (0, 0, 0, 0)


def test_the_same_version_has_no_differences(tmp_path, ebl):
    url = tmp_path / "archive.sqlite"
    archive_teams(ebl, url)
    same = diff(url, SID, 1, 1)
    assert (same.changed, same.headline, same.summary, same.other) == (
        False, "versions 1 and 1 are the same", ["versions 1 and 1 are the same"], [])
    assert diff(url, SID).headline == "versions 1 and 1 are the same"  # one version: it against itself
    assert list(same.results) == list(TEAMS_DIFF_RESULT_COLUMNS) and list(same.standings) == list(
        TEAMS_DIFF_STANDING_COLUMNS)


def test_a_version_that_does_not_exist_is_refused(tmp_path, ebl, corrected):
    url = tmp_path / "archive.sqlite"
    archive_teams(ebl, url)
    archive_teams(corrected, url)
    for v1, v2 in ((1, 3), (7, 2)):
        missing = v2 if v2 == 3 else v1
        with pytest.raises(ArchiveError) as refused:
            diff(url, SID, v1, v2)
        assert str(refused.value) == f"session '{SID}' has no version {missing}; versions are 1 to 2"


def test_the_diff_command_prints_a_teams_diff(runner, tmp_path, ebl, corrected):
    url = tmp_path / "club.sqlite"
    archive_teams(ebl, url)
    archive_teams(corrected, url)
    expected = diff(url, SID, 1, 2).summary
    for args in ([], ["1", "2"], ["--from", "1", "--to", "2"], ["--to", "2"], ["1", "--to", "2"]):
        result = runner.invoke(cli, ["archive", "diff", SID, "--archive", str(url), *args])
        assert (result.exit_code, result.output.splitlines()) == (0, expected), args
    assert result.output.splitlines()[:4] == [
        HEADLINE, f"{MATCH}, board 12, open room: corrected (4H N -1 -100 lead C9 -> 4H N = +620 lead C9)",
        f"{MATCH}, board 12: IMPs 0-12 -> 0-0", f"{MATCH}: IMPs 20-16 -> 20-4, VPs 11.5-8.5 -> 15.05-4.95"]
    same = runner.invoke(cli, ["archive", "diff", SID, "--archive", str(url), "--from", "2", "--to", "2"])
    assert (same.exit_code, same.output) == (0, "versions 2 and 2 are the same\n")
    missing = runner.invoke(cli, ["archive", "diff", SID, "--archive", str(url), "--from", "1", "--to", "5"])
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    assert missing.output == f"Error: session '{SID}' has no version 5; versions are 1 to 2\n"
    twice = runner.invoke(cli, ["archive", "diff", SID, "--archive", str(url), "1", "--from", "2"])
    assert twice.exit_code == 2 and "version 1 and --from 2: give the version once" in twice.output


def _results(rows: list[dict]) -> pd.DataFrame:
    """A teams results frame of ``rows`` (the other columns NA)."""
    columns = {**RESULTS_COLUMNS, "round": "Int64", "match": "string", "room": "string"}
    frame = pd.DataFrame({c: [r.get(c) for r in rows] for c in columns})
    return frame.astype(columns)


FOUR_HEARTS = {"round": 1, "match": "R1 A v B", "room": "open", "board": 3, "level": 4, "strain": "H", "doubled": 0,
               "declarer": "N", "tricks": 10, "lead": "SA", "score_ns": 420}


@pytest.mark.parametrize(("before", "after", "expected"), [
    ({}, {"lead": "HK"}, ["corrected", "4H N = +420 lead SA", "4H N = +420 lead HK"]),
    ({}, {"doubled": 1, "score_ns": 590}, ["corrected", "4H N = +420 lead SA", "4HX N = +590 lead SA"]),
    ({}, {"tricks": 8, "score_ns": -100}, ["corrected", "4H N = +420 lead SA", "4H N -2 -100 lead SA"]),
    ({}, {"level": 0, "strain": None, "declarer": None, "tricks": None, "lead": None, "score_ns": 0},
     ["corrected", "4H N = +420 lead SA", "PASS +0"]),
    ({}, {"level": None, "strain": None, "declarer": None, "tricks": None, "lead": None, "score_ns": None,
          "adjusted": "A60"}, ["corrected", "4H N = +420 lead SA", "A60"]),
    ({}, {"room": "closed"}, None),  # the open room's result gone, the closed room's new
])
def test_a_table_result_in_words(before, after, expected):
    got = diff_team_results(_results([{**FOUR_HEARTS, **before}]), _results([{**FOUR_HEARTS, **after}]))
    if expected is None:
        assert got[["room", "change", "before", "after"]].values.tolist() == [
            ["closed", "added", "", "4H N = +420 lead SA"], ["open", "removed", "4H N = +420 lead SA", ""]]
        return
    assert got.values.tolist() == [[1, "R1 A v B", "open", 3, *expected]]


def test_equal_results_and_no_results_are_no_rows():
    same = _results([FOUR_HEARTS, {**FOUR_HEARTS, "room": "closed", "score_ns": np.int64(420)}])
    assert len(diff_team_results(same, same.copy())) == 0
    empty = diff_team_results(_results([]), _results([]))
    assert (len(empty), list(empty)) == (0, list(TEAMS_DIFF_RESULT_COLUMNS))
