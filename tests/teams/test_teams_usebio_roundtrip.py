"""A teams event written as USEBIO 1.2 and read back by bridgeproc scores to the same event (issue 16).

The EBL qualifier (both rooms of 15 matches, one not played, a board played in one room only)
is scored from its PBN, written with the teams USEBIO writer, read with the teams USEBIO reader
and scored again: every room result, every board's IMPs, every match's IMPs and VPs and the
standings are the same, and the file's published match VPs are ours.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import compare_published, score_rooms, score_teams
from bridgeproc.teams.load import from_usebio, read_team_usebio, usebio_names, usebio_published
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    path = tmp_path_factory.mktemp("usebio_roundtrip") / "ebl.xml"
    first = process_teams([EBL], [path])
    usebio = read_team_usebio(path)
    deals = usebio.boards if len(usebio.boards) and usebio.boards["deal"].notna().any() else None
    again = score_teams([score_rooms(from_usebio(usebio), deals)], [usebio_published(usebio)], first.options,
                        meta=usebio.meta, names=usebio_names(usebio))
    return first, again, usebio


def _rooms(results: pd.DataFrame) -> pd.DataFrame:
    cols = ["round", "match", "home", "away", "room", "board", "ns_team", "ew_team", "level", "strain", "doubled",
            "declarer", "tricks", "lead", "adjusted", "score_ns", "imp_ns", "imp_ew"]
    return results[cols].sort_values(["match", "board", "room"]).reset_index(drop=True).astype("string")


def test_every_room_result_is_the_same(both):
    first, again, usebio = both
    assert len(usebio.results) == len(again.results) == len(first.results) == 299
    pd.testing.assert_frame_equal(_rooms(again.results), _rooms(first.results))


def test_every_board_scores_the_same_imps(both):
    first, again, _ = both
    cols = ["match", "board", "score_open", "score_closed", "swing", "imps_home", "imps_away", "status"]
    key = ["match", "board"]
    pd.testing.assert_frame_equal(again.boards[cols].sort_values(key).reset_index(drop=True),
                                  first.boards[cols].sort_values(key).reset_index(drop=True))
    assert (first.boards["status"].value_counts().to_dict()) == {"played": 139, "not played": 10, "one room": 1}


def test_published_board_imps_in_the_file_are_ours(both):
    first, _, usebio = both
    written = usebio.results.drop_duplicates(["home", "away", "board"])
    got = {(r.home, r.away, int(r.board)): float(r.imps) for r in written.itertuples()}
    want = {(b.home, b.away, int(b.board)): float(b.imps_home) for b in first.boards.itertuples()
            if (b.home, b.away, int(b.board)) in got}
    assert got == want and len(got) == 150  # every board of every match, the one not played too


def test_every_match_has_the_same_imps_and_vps(both):
    first, again, _ = both
    cols = ["round", "home", "away", "boards", "played", "imps_home", "imps_away", "vp_home", "vp_away", "status"]
    pd.testing.assert_frame_equal(again.matches.set_index("match")[cols].sort_index(),
                                  first.matches.set_index("match")[cols].sort_index())
    austria = again.matches.set_index("match").loc["R1 AUSTRIA v DENMARK"]
    assert (austria["imps_home"], austria["imps_away"], austria["vp_home"], austria["vp_away"]) == (20, 16, 11.5, 8.5)
    wales = again.matches.set_index("match").loc["R1 WALES v ITALY"]
    assert wales["status"] == "not played" and np.isnan(wales["vp_home"])


def test_the_standings_are_the_same(both):
    first, again, _ = both
    cols = ["rank", "team", "matches", "boards", "total", "vp", "imps_for", "imps_against", "imp_quotient",
            "decided_by"]
    pd.testing.assert_frame_equal(again.standings[cols].reset_index(drop=True),
                                  first.standings[cols].reset_index(drop=True))
    assert again.standings[["rank", "team", "vp"]].head(3).values.tolist() == [
        ["1", "SWEDEN", 18.15], ["2", "HUNGARY", 17.84], ["3", "PORTUGAL", 14.80]]


def test_the_files_match_vps_are_the_rescored_ones(both):
    _, again, _ = both
    compared = compare_published(again.published, again.matches)
    assert len(compared) == 14 and compared["match_equal"].all()  # every played match; Wales - Italy has no VPs


def test_event_and_hand_record_read_back(both):
    first, again, usebio = both
    assert (usebio.meta["event"], usebio.meta["date"], usebio.meta["event_type"]) == (
        "2021 Online Qual: Open R2", "2021.08.23", "TEAMS")
    assert usebio.boards["board"].tolist() == list(range(11, 21))
    assert usebio.boards["deal"].tolist() == first.deals["deal"].tolist()
