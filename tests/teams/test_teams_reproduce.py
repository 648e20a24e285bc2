"""A teams file's published numbers reproduced with no options: TeamsScorer's USEBIO (realdata README),
the EBU 20-VP scale recognised from its VPs, shared places kept; the director's scale wins."""
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.io.usebio.teams import parse_usebio_teams
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import options_from_text
from bridgeproc.teams.vp_scales import EBU20, vp_scale
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TEAMSSCORER = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"

#: The EBU 20-VP scale for 3-board matches as the realdata README lists it (winner's VPs by margin).
EBU20_3 = {0: 10, 1: 11, 2: 12, 3: 13, 4: 13, 5: 14, 6: 14, 7: 15, 8: 15, 9: 16, 10: 16, 11: 17, 12: 17, 13: 17,
           14: 18, 15: 18, 16: 18, 17: 19, 18: 19, 19: 19, 20: 19, 21: 20, 30: 20, 80: 20}


@pytest.fixture(scope="module")
def teamsscorer():
    return process_teams([TEAMSSCORER])


@pytest.mark.parametrize("margin,winner", sorted(EBU20_3.items()))
def test_ebu20_three_boards(margin, winner):
    assert EBU20.convert(margin, 3)[0] == winner
    assert EBU20.convert(-margin, 3)[0] == 20 - winner


def test_ebu20_by_name_and_unknown_length():
    assert vp_scale("ebu20") is EBU20
    with pytest.raises(Exception, match="no rows for 4-board matches"):
        EBU20.convert(5, 4)


def test_teamsscorer_every_published_number(teamsscorer):
    assert teamsscorer.origin == (
        "Conventions: TeamsScorer's (EBU 20-VP (whole VPs) scale (ebu20); ties shared), reproducing board IMPs "
        "120/120, VPs 80/80, totals 10/10, places 10/10, cross-IMPs 480/480, pair IMPs 19/19, masterpoint awards 10/10")


def test_teamsscorer_found_from_the_numbers_without_its_name(tmp_path):
    """The same file with its PROGRAM_NAME removed: the scale and the shared places are found from the
    published numbers, not from the producer's profile."""
    text = TEAMSSCORER.read_text(encoding="utf-8").replace("<PROGRAM_NAME>TeamsScorer</PROGRAM_NAME>", "")
    assert "TeamsScorer" not in text
    path = tmp_path / "anonymous.usebio.xml"
    path.write_text(text, encoding="utf-8")
    session = process_teams([path])
    assert session.origin == (
        "Conventions: bridgeproc's defaults (EBU 20-VP (whole VPs) scale (ebu20), found from the file's VPs; ties "
        "shared, as published), reproducing board IMPs 120/120, VPs 80/80, totals 10/10, places 10/10, cross-IMPs "
        "480/480, pair IMPs 19/19, masterpoint awards 10/10")
    assert set(session.options.found) == {"scale", "tie_breaks"}


def test_teamsscorer_pairwise_written_out(teamsscorer):
    """Board 1, 1-1-2 v 3-3-4 (-460): against the other 7 results of the board, 1.57 per comparison to EW;
    pair 1-1-2's total is the sum of its 24 rounded board values (-20.99, the exact sum is -21.00)."""
    r = teamsscorer.results.set_index(["board", "ns_pair"])
    assert round(r.loc[(1, "1-1-2"), "ximp_ns"], 2) == -1.57
    assert round(r.loc[(2, "3-1-2"), "ximp_ew"], 2) == 7.86
    pairs = teamsscorer.pairs.set_index("pair")
    assert len(pairs) == 20 and set(pairs["boards"]) == {24}
    assert (pairs.loc["1-1-2", "imps"], pairs.loc["1-3-4", "imps"], pairs.loc["1-1-2", "team"]) == (-20.99, -58.15, "1")


def test_teamsscorer_standings_written_out(teamsscorer):
    table = teamsscorer.standings
    assert list(zip(table["rank"], table["team"], table["total"])) == [
        ("1", "10", 119.0), ("2", "5", 93.0), ("3", "7", 88.0), ("4", "2", 79.0), ("5", "8", 78.0),
        ("6", "3", 75.0), ("7=", "6", 73.0), ("7=", "9", 73.0), ("9", "4", 67.0), ("10", "1", 55.0)]


def test_teamsscorer_rooms_from_direction(teamsscorer):
    """``1-1-2`` v ``3-3-4`` at one table, ``3-1-2`` v ``1-3-4`` at the other: two rooms of one match."""
    r = teamsscorer.results
    first = r[(r["match"] == "R1 1 v 3") & (r["board"] == 2)].sort_values("room")
    assert list(first["room"]) == ["closed", "open"]
    assert list(first["ns_team"]) == ["3", "1"]
    assert list(first["score_ns"]) == [-500, -140]
    assert list(first["imp_ns"]) == [-8.0, 8.0]
    m = teamsscorer.matches.set_index("match")
    assert (m.loc["R1 1 v 3", "vp_home"], m.loc["R1 1 v 3", "vp_away"]) == (12.0, 8.0)  # 8-6 IMPs
    assert len(teamsscorer.matches) == 40 and int(teamsscorer.matches["boards"].sum()) == 120


def test_director_scale_wins(tmp_path):
    session = process_teams([TEAMSSCORER], options=options_from_text(vp_scale_spec="wbf2013"))
    assert session.origin.startswith("Conventions: TeamsScorer's (WBF 2013 continuous 20-VP scale")
    assert "as given" in session.origin and "the closest found" in session.origin
    assert "VPs 80/80" not in session.origin
    m = session.matches.set_index("match")
    assert m.loc["R1 1 v 3", "vp_home"] == 11.38  # WBF 2013, 3 boards, margin 2


def _teams_file(direction: str, ns: str, ew: str) -> str:
    line = (f"<TRAVELLER_LINE><DIRECTION>{direction}</DIRECTION><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER>"
            f"<EW_PAIR_NUMBER>{ew}</EW_PAIR_NUMBER><CONTRACT>3NT</CONTRACT><PLAYED_BY>N</PLAYED_BY>"
            "<TRICKS>9</TRICKS><SCORE>400</SCORE></TRAVELLER_LINE>")
    return ("<USEBIO Version=\"1.2\"><EVENT EVENT_TYPE=\"TEAMS\"><PARTICIPANTS>"
            "<TEAM><TEAM_ID>1</TEAM_ID></TEAM><TEAM><TEAM_ID>3</TEAM_ID></TEAM></PARTICIPANTS>"
            "<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>1</TEAM><OPPOSING_TEAM>3</OPPOSING_TEAM>"
            f"<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><IMPS>0</IMPS>{line}</BOARD></MATCH></EVENT></USEBIO>")


@pytest.mark.parametrize("direction,ns,ew,teams", [
    ("NS", "1-1-2", "3-3-4", ("1", "3")),
    ("EW", "3-1-2", "1-3-4", ("3", "1")),
    ("NS", "1", "3", ("1", "3")),  # bridgeproc's own files: the pair numbers are the teams
])
def test_team_seat_seat_lines(direction, ns, ew, teams):
    parsed = parse_usebio_teams(_teams_file(direction, ns, ew), "t.xml")
    assert tuple(parsed.results[["ns_team", "ew_team"]].iloc[0]) == teams
    assert tuple(parsed.results[["ns", "ew"]].iloc[0]) == (ns, ew)


@pytest.mark.parametrize("direction,ns,ew,message", [
    ("NS", "3-1-2", "1-3-4", "pair 3-1-2 is team 3's, but DIRECTION NS puts team 1 there"),
    ("EW", "1-1-2", "3-3-4", "pair 1-1-2 is team 1's, but DIRECTION EW puts team 3 there"),
    ("NS", "7", "3", "pair 7 is neither team of the match (1, 3)"),
])
def test_team_seat_seat_contradicting_direction(direction, ns, ew, message):
    with pytest.raises(ValidationError) as caught:
        parse_usebio_teams(_teams_file(direction, ns, ew), "t.xml")
    problems = caught.value.problems
    assert any(message in m for m in problems["message"])
    assert set(problems["line"]) == {"1"}


def test_teamsscorer_workbook_shows_pairs_and_published(tmp_path):
    from openpyxl import load_workbook

    out = tmp_path / "teams.xlsx"
    process_teams([TEAMSSCORER], [out])
    wb = load_workbook(out, read_only=True)
    try:
        pairs = [row for row in wb["Pairs"].iter_rows(values_only=True)]
        at = pairs.index(("Pair", "Team", "Boards", "Cross-IMPs"))
        assert pairs[at + 1] == ("10-1-2", "10", 24, 62.84)
        assert ("1-3-4", "1", 24, -58.15) in pairs and len(pairs) == at + 21
        words = {row[0]: row[1] for row in wb["Conventions"].iter_rows(values_only=True) if len(row) > 1 and row[0]}
        assert words["VP scale"] == "EBU 20-VP (whole VPs)"
        assert words["Published numbers"].endswith("cross-IMPs 480/480, pair IMPs 19/19, masterpoint awards 10/10")
    finally:
        wb.close()
