"""Point-a-board as EBUScoreTeams publishes it (2 / 1 / 0 per board, totals twice bridgeproc's 1 / ½ / 0):
the TeamsScorer file's boards with their match scores rewritten as board-a-match points, computed here
from the file's own scores (each board: the home team's NS score at one table minus the other table's
NS score; won 2, tied 1, lost 0), not by bridgeproc."""
import re
import xml.etree.ElementTree as ET

import pytest

from bridgeproc.pipeline.teams import process_teams
from bridgeproc.teams import options_from_text
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

SOURCE = REALDATA / "eng-usebio-sample-2015-10-22-teams-vp-teamsscorer.usebio.xml"


def _bam_points(win: float) -> tuple[list[tuple[float, float]], dict[str, float]]:
    """Each MATCH's (home, away) points in file order, and each team's total."""
    root = ET.parse(SOURCE).getroot()
    matches, totals = [], {}
    for match in root.iter("MATCH"):
        home = away = 0.0
        for board in match.iter("BOARD"):
            score = {line.findtext("DIRECTION"): int(line.findtext("SCORE")) for line in board.iter("TRAVELLER_LINE")}
            net = score["NS"] - score["EW"]
            home += win if net > 0 else win / 2 if net == 0 else 0.0
            away += win if net < 0 else win / 2 if net == 0 else 0.0
        matches.append((home, away))
        for team, points in ((match.findtext("TEAM"), home), (match.findtext("OPPOSING_TEAM"), away)):
            totals[team] = totals.get(team, 0.0) + points
    return matches, totals


def _rewritten(tmp_path, method: str | None, win: float = 2.0):
    text = SOURCE.read_text(encoding="utf-8")
    points, totals = _bam_points(win)
    scores = iter(points)

    def match_score(m: re.Match) -> str:
        home, away = next(scores)
        return f"<TEAM_SCORE>{home:g}</TEAM_SCORE>\n            <OPPOSING_TEAM_SCORE>{away:g}</OPPOSING_TEAM_SCORE>"

    text = re.sub(r"<TEAM_SCORE>[^<]*</TEAM_SCORE>\s*<OPPOSING_TEAM_SCORE>[^<]*</OPPOSING_TEAM_SCORE>", match_score, text)
    text = re.sub(r'(<TEAM TEAM_ID = "(\d+)"[^>]*>\s*<TOTAL_SCORE>)[^<]*',
                  lambda m: f"{m.group(1)}{totals[m.group(2)]:g}", text)
    text = re.sub(r"<PLACE>[^<]*</PLACE>", "", text)
    method_tag = f"<MATCH_SCORING_METHOD>{method}</MATCH_SCORING_METHOD>" if method else ""
    text = re.sub(r"<MATCH_SCORING_METHOD>[^<]*</MATCH_SCORING_METHOD>", method_tag, text)
    path = tmp_path / "pab.usebio.xml"
    path.write_text(text, encoding="utf-8")
    return path, totals


@pytest.mark.parametrize("method", ["BAM", "POINT_A_BOARD", None])
def test_point_a_board_two_one_nothing_reproduced(tmp_path, method):
    path, totals = _rewritten(tmp_path, method)
    session = process_teams([path])
    assert (session.options.scoring, session.options.bam_win) == ("bam", 2.0)
    # the file's places and awards are still those of its VP ranking: 2 of its 4 awarded teams place otherwise
    assert session.origin.endswith("reproducing board IMPs 120/120, board-a-match points 80/80, totals 10/10, "
                                   "cross-IMPs 480/480, pair IMPs 19/19, masterpoint awards 8/10")
    table = session.standings.set_index("team")["total"]
    assert table.to_dict() == totals
    half = process_teams([path], options=options_from_text(scoring="bam", bam_points="1"))
    assert (half.standings.set_index("team")["total"] * 2).to_dict() == totals


def test_one_half_nothing_recognised(tmp_path):
    path, totals = _rewritten(tmp_path, None, win=1.0)
    session = process_teams([path])
    assert (session.options.scoring, session.options.bam_win) == ("bam", 1.0)
    assert "board-a-match points 80/80" in session.origin
    assert session.standings.set_index("team")["total"].to_dict() == totals


def test_director_scoring_wins_over_the_file(tmp_path):
    path, _ = _rewritten(tmp_path, "BAM")
    session = process_teams([path], options=options_from_text(scoring="imps"))
    assert session.options.scoring == "imps" and "scoring" not in session.options.found
