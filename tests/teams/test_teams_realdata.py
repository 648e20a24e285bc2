"""Teams against published real events (realdata/README.md)."""
import numpy as np
import pandas as pd
import pytest

from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import TeamsOptions, compare_published
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
#: Each Ruter file's match length, found by fitting (the only N for which the WBF 2013
#: continuous scale gives every published VP; the files do not say it).
VP_FILES = {
    "fin-salo-joukkue-2013-09-15-teams-vp.pbn": 8,        # one 8-board segment per match
    "fin-lounaisliiga-div2-2013-teams-vp.pbn": 32,        # two segments of 16
    "nor-ostfold-follo-2022-km-a-teams-vp.pbn": 28,       # two segments of 14
}

@pytest.fixture(scope="module")
def ebl():
    return process_teams([EBL])


def _published_ns(text: pd.Series) -> pd.Series:
    return text.str.extract(r"NS\s+(-?\d+)")[0].astype("float64")


def test_ebl_origin_counts_the_rooms_of_boards_played_twice(ebl):
    assert ebl.origin == ("Conventions: bridgeproc's defaults (WBF 2013 continuous 20-VP scale), reproducing board "
                          "IMPs 278/278")


def test_ebl_every_published_score_imp_reproduced(ebl):
    r = ebl.results
    published = _published_ns(r["scoreimp"])
    counted = (r["match"] != "R1 WALES v ITALY") & ebl.results.set_index(["match", "board"]).index.isin(
        ebl.boards.loc[ebl.boards["status"] == "played"].set_index(["match", "board"]).index)
    assert counted.sum() == 278
    assert (r.loc[counted, "imp_ns"] == published[counted]).all()
    assert (r.loc[counted, "imp_ew"] == -published[counted]).all()


def test_ebl_score_imp_is_own_room_minus_other_room(ebl):
    b = ebl.boards[ebl.boards["status"] == "played"]
    from bridgeproc.rank import to_imps
    assert (to_imps(b["score_open"] - b["score_closed"]) == b["imps_home"]).all()


def test_ebl_unplayed_match_reported_not_counted(ebl):
    wales = ebl.matches[ebl.matches["match"] == "R1 WALES v ITALY"].iloc[0]
    assert wales["status"] == "not played" and np.isnan(wales["vp_home"]) and wales["played"] == 0
    s = ebl.standings.set_index("team")
    assert s.loc["WALES", "matches"] == 0 and s.loc["ITALY", "total"] == 0
    assert "R1 WALES v ITALY: not played; not counted" in ebl.notices
    assert (ebl.boards.loc[ebl.boards["match"] == "R1 WALES v ITALY", "status"] == "not played").all()


def test_ebl_board_missing_in_one_room(ebl):
    # Board 20 of Turkey - Switzerland is in the file for one table only (ScoreIMP -1 there
    # cannot be recomputed): it scores 0 IMPs by convention and is listed.
    row = ebl.boards[(ebl.boards["match"] == "R1 TURKEY v SWITZERLAND") & (ebl.boards["board"] == 20)].iloc[0]
    assert row["status"] == "one room" and row["imps_home"] == 0 and pd.isna(row["swing"])
    assert "R1 TURKEY v SWITZERLAND board 20: result in one room only: 0 IMPs" in ebl.notices
    match = ebl.matches.set_index("match").loc["R1 TURKEY v SWITZERLAND"]
    assert match["boards"] == 10 and match["played"] == 9


def test_ebl_match_totals_and_standings(ebl):
    m = ebl.matches[ebl.matches["status"] == "played"]
    assert len(ebl.matches) == 15 and len(m) == 14
    assert np.allclose(m["vp_home"] + m["vp_away"], 20.0)
    austria = ebl.matches.set_index("match").loc["R1 AUSTRIA v DENMARK"]
    assert (austria["imps_home"], austria["imps_away"], austria["vp_home"]) == (20.0, 16.0, 11.5)
    s = ebl.standings
    assert len(s) == 30 and s["rank"].iloc[0] == "1" and s["team"].iloc[0] == "SWEDEN"
    assert s.loc[s["team"] == "POLAND", "decided_by"].item() == "imp-quotient"


@pytest.mark.parametrize("name, boards", sorted(VP_FILES.items()))
def test_published_vps_reproduced(name, boards):
    """With no options: the match length is the one the published VPs fix."""
    path = REALDATA / name
    session = process_teams([path])
    assert (session.options.boards_per_match, session.options.found) == (boards, ("boards_per_match",))
    teams, vps, maker = {8: (10, 60, "Ruter"), 32: (6, 6, "Ruter"), 28: (8, 32, "Ruter i Norge")}[boards]
    assert session.origin == (f"Conventions: {maker}'s (WBF 2013 continuous 20-VP scale; {boards}-board matches, found "
                              f"from the file's VPs; ties broken), reproducing VPs {vps}/{vps}, totals {teams}/{teams}, "
                              f"places {teams}/{teams}")
    compared = compare_published(session.published, session.matches)
    assert len(compared) == {8: 30, 32: 3, 28: 16}[boards]
    assert (compared["vp_home"] == compared["published_home"]).all()
    assert (compared["vp_away"] == compared["published_away"]).all()
    # and the published totals (TotalScoreTable)
    totals = read_pbn(path).totals
    published = dict(zip(totals["teamid"], totals["totalscorevp"].astype(float)))
    ours = dict(zip(session.standings["team"], session.standings["total"]))
    assert all(ours[t] == pytest.approx(v, abs=1e-9) for t, v in published.items())


@pytest.mark.parametrize("name, boards", sorted(VP_FILES.items()))
def test_only_one_match_length_fits(name, boards):
    session = process_teams([REALDATA / name], options=TeamsOptions(boards_per_match=boards))
    pub = compare_published(session.published, session.matches)
    from bridgeproc.teams import WBF2013
    margin = pub.merge(process_teams([REALDATA / name], options=TeamsOptions(boards_per_match=boards)).matches,
                       on=["round", "home", "away"])["margin_home"].to_numpy()
    fits = [n for n in range(1, 65) if np.allclose(WBF2013.convert(margin, n), pub["published_home"])]
    assert fits == [boards]
