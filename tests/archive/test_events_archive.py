"""Events in the archive: an event recorded as its sessions at their versions, in order."""
import dataclasses

import pytest

from bridgeproc.archive import ArchiveError, archive_session
from bridgeproc.archive.events import archive_event, event_sessions
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.archive.teams import archive_teams
from bridgeproc.pipeline.teams import process_teams
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

HEATS = ["2026-11-03_club-heat-a", "2026-11-10_club-heat-b", "2026-11-17_club-heat-c"]


def _heats(url):
    for k, (day, name) in enumerate([("2026-11-03", "Club heat A"), ("2026-11-10", "Club heat B"),
                                     ("2026-11-17", "Club heat C")]):
        archive_session(synthetic_session(tables=3, boards=4, seed=40 + k, event=name, date=day), url)


def test_an_event_is_its_sessions_at_their_versions_in_order(archive_url):
    _heats(archive_url)
    order = [HEATS[2], HEATS[0], HEATS[1]]
    assert archive_event(archive_url, "Autumn simultaneous", order, rule="sum") == 1
    got = event_sessions(archive_url, "Autumn simultaneous")
    assert got.values.tolist() == [
        [HEATS[2], 1, "Club heat C", "2026-11-17", "pairs", "sum"],
        [HEATS[0], 1, "Club heat A", "2026-11-03", "pairs", "sum"],
        [HEATS[1], 1, "Club heat B", "2026-11-10", "pairs", "sum"]]
    # a correction of a heat afterwards: the event keeps the version it was recorded with ...
    heat = synthetic_session(tables=3, boards=4, seed=40, event="Club heat A", date="2026-11-03")
    results = heat.results.copy()
    results.loc[0, "lead"] = "D7"
    assert archive_session(dataclasses.replace(heat, results=results), archive_url).version == 2
    assert event_sessions(archive_url, "Autumn simultaneous")["version"].tolist() == [1, 1, 1]
    # ... until it is recorded again: the same event, now with version 2 (and two heats only)
    assert archive_event(archive_url, "Autumn simultaneous", [HEATS[0], HEATS[1]], rule="average") == 1
    again = event_sessions(archive_url, "Autumn simultaneous")
    assert again[["session_id", "version", "rule"]].values.tolist() == [[HEATS[0], 2, "average"],
                                                                       [HEATS[1], 1, "average"]]
    assert archive_event(archive_url, "Winter league", [HEATS[1]]) == 2
    assert event_sessions(archive_url, "Winter league")["rule"].isna().tolist() == [True]


def test_a_teams_session_in_an_event(archive_url):
    teams = archive_teams(process_teams([REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"]), archive_url)
    archive_event(archive_url, "EBL online qualifier", [teams.session_id], rule="vp")
    got = event_sessions(archive_url, "EBL online qualifier")
    assert got[["session_id", "version", "kind"]].values.tolist() == [[teams.session_id, 1, "teams"]]


@pytest.mark.parametrize("name, sessions, message", [
    ("", HEATS, "an event needs a name"),
    ("   ", HEATS, "an event needs a name"),
    ("Autumn", [], "event 'Autumn': no sessions given"),
    ("Autumn", [HEATS[0], HEATS[1], HEATS[0]], f"event 'Autumn': session {HEATS[0]} given more than once; give each once"),
    ("Autumn", [HEATS[0], "2026-11-24_club-heat-d", "nope"],
     "event 'Autumn': no session '2026-11-24_club-heat-d' in the archive; no session 'nope' in the archive; "
     "`bridgeproc archive list` shows the sessions"),
])
def test_a_wrong_event_is_refused_with_every_problem(tmp_path, name, sessions, message):
    url = tmp_path / "archive.sqlite"
    _heats(url)
    with pytest.raises(ArchiveError) as caught:
        archive_event(url, name, sessions)
    assert str(caught.value) == message
    with pytest.raises(ArchiveError, match=r"^no event 'Autumn' in the archive; the events are: none yet$"):
        event_sessions(url, "Autumn")


def test_a_session_without_a_complete_version_cannot_be_in_an_event(tmp_path):
    url = tmp_path / "archive.sqlite"
    archive_session(synthetic_session(tables=3, boards=4, seed=7, event="Club heat A", date="2026-11-03"), url,
                    complete=False)
    with pytest.raises(ArchiveError, match=f"session '{HEATS[0]}' has no complete version yet"):
        archive_event(url, "Autumn", [HEATS[0]])


def test_an_unknown_event_lists_the_known_ones(tmp_path):
    url = tmp_path / "archive.sqlite"
    _heats(url)
    archive_event(url, "Winter league", [HEATS[0]])
    archive_event(url, "Autumn simultaneous", [HEATS[1]])
    with pytest.raises(ArchiveError) as caught:
        event_sessions(url, "Spring")
    assert str(caught.value) == "no event 'Spring' in the archive; the events are: 'Autumn simultaneous', 'Winter league'"
