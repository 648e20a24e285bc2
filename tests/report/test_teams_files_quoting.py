"""The teams PBN writer escapes tag values and table cells, so its file reads back (bug: a quote in a team name)."""
from dataclasses import replace

from bridgeproc.io.pbn import read_pbn
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.report.teams_files import write_pbn

HOME, AWAY = 'The "Aces"', "Back\\Slash\\"


def test_team_names_with_quotes_and_backslashes_read_back(tmp_path):
    sheet = tmp_path / "teams.csv"
    sheet.write_text("Round,Board,Room,Home,Away,Contract,Declarer,Result\n"
                     '1,1,Open,"The ""Aces""",Back\\Slash\\,4S,N,=\n'
                     '1,1,Closed,"The ""Aces""",Back\\Slash\\,4S,N,-1\n', encoding="utf-8")
    session = replace(process_teams([sheet]), meta={"event": 'Club "Cup"', "site": "C:\\", "date": "2024.01.01"})
    assert session.standings["team"].tolist() == [HOME, AWAY]
    out = tmp_path / "teams.pbn"
    write_pbn(session, out)

    pbn = read_pbn(out)
    rooms = [g for g in pbn.games if g.get("Room")]
    assert [(g.get("HomeTeam"), g.get("VisitTeam"), g.get("Room")) for g in rooms] == [
        (HOME, AWAY, "Open"), (HOME, AWAY, "Closed")]
    assert {(g.get("Event"), g.get("Site")) for g in pbn.games} == {('Club "Cup"', "C:\\")}
    assert pbn.totals["teamid"].tolist() == [HOME, AWAY]
    assert pbn.matches[["teamid_home", "teamid_away"]].values.tolist() == [[HOME, AWAY]]

    again = process_teams([out])
    assert again.standings["team"].tolist() == [HOME, AWAY]
    assert again.matches["vp_home"].tolist() == session.matches["vp_home"].tolist()
