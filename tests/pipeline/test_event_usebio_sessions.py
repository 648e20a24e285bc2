"""``bridgeproc event`` on one USEBIO file of several sessions (issue 17 follow-up): the Finnish championship's
two sessions written by bridgeproc's event USEBIO writer and read back as the event's sessions give the event
ranking of the two PBN files, number for number; ``FILE.xml#N`` is one session; the event's published
standings are compared with ours; a file of several sessions given to ``score`` is refused with the fix."""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

from bridgeproc.cli import cli
from bridgeproc.errors import ParseError, UsageError, ValidationError
from bridgeproc.io.usebio.sessions import parse_usebio_sessions, read_usebio_session, split_session
from bridgeproc.model import Options
from bridgeproc.pipeline.event import build_event, expand_sessions, write_event
from bridgeproc.pipeline.run import build_session
from tests.conftest import REALDATA

pytestmark = pytest.mark.slow  # scores a real USEBIO file of two sessions in every test: left out of make quick

S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"
OPTIONS = Options(dd=False)
RANKING = ["group", "rank", "pair", "names", "sessions", "boards", "total", "pct", "session_boards", "session_total",
           "session_pct", "session_rank"]


@lru_cache(maxsize=None)
def from_pbn():
    return build_event([S1, S2], OPTIONS)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The two sessions as one USEBIO file (EVENT/PARTICIPANTS, then SESSION 1 and SESSION 2)."""
    path = tmp_path_factory.mktemp("sessions") / "sm-2014.xml"
    write_event(from_pbn(), [path], archive=False)
    return path


@lru_cache(maxsize=None)
def from_usebio(path: str):
    return build_event([path], OPTIONS)


def edited(written, tmp_path, old: str, new: str, name: str = "edited.xml", count: int = 1):
    text = written.read_text(encoding="utf-8")
    assert text.count(old) >= count
    path = tmp_path / name
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def test_the_file_is_read_as_its_two_sessions(written):
    event = from_usebio(str(written))
    assert event.labels == ("sm-2014.xml#1", "sm-2014.xml#2")
    assert [len(s.results) for s in event.sessions] == [1188, 702]  # 18 tables x 66 boards, 18 x 39
    assert [sorted(set(s.boards["board"])) for s in event.sessions] == [list(range(1, 67)), list(range(67, 106))]
    assert [len(s.names) for s in event.sessions] == [36, 36]
    assert event.meta["event"] == "SM-parikilpailu"


def test_the_event_ranking_is_the_two_pbn_files(written):
    ours, theirs = from_usebio(str(written)).ranking.standings, from_pbn().ranking.standings
    assert len(ours) == len(theirs) == 36
    pd.testing.assert_frame_equal(ours[RANKING].reset_index(drop=True), theirs[RANKING].reset_index(drop=True))
    first = ours.iloc[0]
    assert (first["pair"], first["rank"], first["total"], round(first["pct"], 2)) == ("2", "1", 2084.375, 58.39)
    for mine, pbn in zip(from_usebio(str(written)).sessions, from_pbn().sessions):
        pd.testing.assert_frame_equal(mine.standings[["rank", "pair", "total", "pct"]].reset_index(drop=True),
                                      pbn.standings[["rank", "pair", "total", "pct"]].reset_index(drop=True))


def test_the_published_standings_agree_so_no_note_names_them(written):
    notes = from_usebio(str(written)).notes
    assert notes is not None  # the leads Ruter's file records wrong, as from the PBN files
    assert set(notes["column"]) == {"lead", "result"} and set(notes["source"]) == {"sm-2014.xml"}
    assert len(notes) == 144


def test_session_2_alone(written):
    event = build_event([f"{written}#2"], OPTIONS)
    assert event.labels == ("sm-2014.xml#2",)
    table = event.ranking.standings
    session_2 = from_pbn().sessions[1].standings
    assert table["pair"].tolist() == session_2["pair"].tolist()
    assert table["rank"].tolist() == session_2["rank"].tolist()
    np.testing.assert_array_equal(table["total"], session_2["total"])
    np.testing.assert_allclose(table["pct"], session_2["pct"], atol=1e-9, rtol=0)  # the event's sum of one session
    assert table.iloc[0][["pair", "rank", "total", "boards"]].tolist() == ["31", "1", 826.0, 39]
    session = build_session([f"{written}#2"], OPTIONS)
    assert session.standings["pair"].tolist() == session_2["pair"].tolist() and len(session.results) == 702


def test_the_sessions_named_one_by_one_are_the_file(written):
    assert expand_sessions([[str(written)]]) == [[f"{written}#1"], [f"{written}#2"]]
    event = build_event([f"{written}#1", f"{written}#2"], OPTIONS)
    np.testing.assert_array_equal(event.ranking.standings["total"], from_pbn().ranking.standings["total"])


@pytest.mark.parametrize("suffix, message", [
    ("#0", "sm-2014.xml#0: sessions are numbered from 1; sm-2014.xml holds 2 sessions: give sm-2014.xml#1 or "
           "sm-2014.xml#2"),
    ("#3", "sm-2014.xml#3: there is no session 3; sm-2014.xml holds 2 sessions: give sm-2014.xml#1 or sm-2014.xml#2"),
    ("#two", "sm-2014.xml#two: after # comes a session number; sm-2014.xml holds 2 sessions: give sm-2014.xml#1 or "
             "sm-2014.xml#2"),
])
def test_a_session_the_file_does_not_hold_is_refused(written, suffix, message):
    with pytest.raises(ParseError) as caught:
        read_usebio_session(f"{written}{suffix}")
    assert str(caught.value) == message
    with pytest.raises(ValidationError) as refused:
        build_event([f"{written}{suffix}"], OPTIONS)
    problems = refused.value.problems
    assert problems[["source", "message"]].values.tolist() == [[f"sm-2014.xml{suffix}", message.split(": ", 1)[1]]]


def test_a_session_with_no_boards_is_refused_with_its_line(written, tmp_path):
    text = written.read_text(encoding="utf-8")
    start = text.index('<SESSION SESSION_ID="2">')
    line = text[:start].count("\n") + 1
    end = text.index("</SESSION>", start)
    emptied = re.sub(r"\s*<BOARD[ >].*?</BOARD>", "", text[start:end], flags=re.DOTALL)  # its PARTICIPANTS kept
    assert "<BOARD" not in emptied and "<PAIR>" in emptied
    path = tmp_path / "no-boards.xml"
    path.write_text(text[:start] + emptied + text[end:], encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        build_event([path], OPTIONS)
    assert caught.value.problems[["source", "line", "message"]].astype(str).values.tolist() == [[
        "no-boards.xml", str(line), "<SESSION> 2 of 2 has no <BOARD> results: the session holds nothing to score; "
        "export it with its travellers, or leave it out (name the others as no-boards.xml#N)"]]
    assert line == 14133
    one = build_event([f"{path}#1"], OPTIONS)  # the other session still reads
    assert len(one.ranking.standings) == 36


def test_a_result_line_outside_every_session_is_refused(written, tmp_path):
    line = ("<BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE><NS_PAIR_NUMBER>1</NS_PAIR_NUMBER>"
            "<EW_PAIR_NUMBER>2</EW_PAIR_NUMBER><CONTRACT>4S</CONTRACT><PLAYED_BY>N</PLAYED_BY><TRICKS>10</TRICKS>"
            "</TRAVELLER_LINE></BOARD>\n")
    path = edited(written, tmp_path, '<SESSION SESSION_ID="1">', line + '<SESSION SESSION_ID="1">', "outside.xml")
    with pytest.raises(ValidationError) as caught:
        parse_usebio_sessions(path.read_bytes(), "outside.xml")
    assert caught.value.problems[["source", "line", "message"]].astype(str).values.tolist() == [[
        "outside.xml", "451", "<TRAVELLER_LINE> is in none of the file's 2 <SESSION> elements: its session is "
        "unknown; move it into its <SESSION>, or export the file again"]]


def test_an_edited_published_event_total_is_a_note(written, tmp_path):
    path = edited(written, tmp_path, "<TOTAL_SCORE>2084.38</TOTAL_SCORE>", "<TOTAL_SCORE>2090.5</TOTAL_SCORE>")
    text = path.read_text(encoding="utf-8")
    line = text[:text.rindex("<PAIR>", 0, text.index("2090.5"))].count("\n") + 1  # the pair's element
    event = build_event([path], OPTIONS)
    notes = event.notes[event.notes["column"].isin(["total", "percentage", "place"])]
    assert notes[["source", "line", "column", "value", "message"]].astype(str).values.tolist() == [[
        "edited.xml", str(line), "total", "2090.5",
        "the event's standings (<EVENT> <PARTICIPANTS>): 1 of 36 published totals differ from bridgeproc's (pair 2: "
        "here 2090.5, ours 2084.38); the file was scored with other conventions: see --mp-top, --sitout, "
        "--factoring, --mp-decimals, --centred (or --rule: this event is ranked by sum)"]]
    np.testing.assert_array_equal(event.ranking.standings["total"], from_pbn().ranking.standings["total"])


def test_the_event_standings_are_not_compared_with_another_event(written):
    event = build_event([f"{written}#2"], OPTIONS)
    notes = event.notes[event.notes["column"] == "total"]
    assert notes["message"].tolist() == [
        "the event's standings the file publishes (<EVENT> <PARTICIPANTS>) are not compared with ours: this event "
        "is not the file's sessions, all of them in file order"]


def test_the_file_with_other_files_in_one_session_is_a_usage_error(written):
    names = REALDATA.parent.parent.parent / "sample_data" / "club-evening-names.csv"
    with pytest.raises(UsageError) as caught:
        build_event([f"{written},{names}"], OPTIONS)
    assert str(caught.value) == ("sm-2014.xml holds 2 sessions: give it on its own (each of its sessions is one of "
                                 "the event's), or name one session, sm-2014.xml#1 ... sm-2014.xml#2, with the files "
                                 "that go with it")


@pytest.mark.parametrize("sessions", [["{x}", "{x}#1"], ["{x}#2", "{x}#2"]])
def test_a_session_given_twice_is_a_usage_error(written, sessions):
    with pytest.raises(UsageError, match="given twice; give each file once"):
        build_event([s.format(x=written) for s in sessions], OPTIONS)


@pytest.mark.parametrize("path, split", [
    ("a.xml#2", ("a.xml", "2")), ("dir/A.XML#10", ("dir/A.XML", "10")), ("a.xml", ("a.xml", None)),
    ("a.pbn#2", ("a.pbn#2", None)), ("a#2.xml", ("a#2.xml", None)), ("a.xml#", ("a.xml", "")),
])
def test_how_a_session_of_a_file_is_named(path, split):
    assert split_session(path) == split


def test_score_refuses_a_file_of_several_sessions(written, runner, tmp_path):
    result = runner.invoke(cli, ["score", str(written), "-o", str(tmp_path / "s.csv"), "--no-dd", "--no-archive"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert ("sm-2014.xml:14133: the file holds 2 sessions (<SESSION> on lines 451, 14133) and one session is scored "
            "at a time: give `bridgeproc event sm-2014.xml` to rank the event over its sessions, or sm-2014.xml#N "
            "(e.g. `bridgeproc event sm-2014.xml#2`) for one session") in result.output
    assert not (tmp_path / "s.csv").exists()


def test_a_file_of_one_session_reads_whole(written, tmp_path):
    """A session written alone (report.usebio: one SESSION) is read by score as before, and as #1."""
    alone = tmp_path / "s2.xml"
    write_event(build_event([S2], OPTIONS), [alone], archive=False)
    whole, first = read_usebio_session(alone), read_usebio_session(f"{alone}#1")
    pd.testing.assert_frame_equal(whole.results, first.results)
    assert len(whole.results) == 702 and len(whole.totals) == 72  # the event's and the session's standings
    with pytest.raises(ParseError, match=r"s2.xml#2: there is no session 2; s2.xml holds 1 session: give s2.xml#1$"):
        read_usebio_session(f"{alone}#2")


def test_the_command(written, runner, tmp_path):
    out, pbn_out = tmp_path / "xml.csv", tmp_path / "pbn.csv"
    result = runner.invoke(cli, ["event", str(written), "-o", str(out), "--no-dd", "--no-archive"])
    assert result.exit_code == 0, result.output
    assert "36 pairs ranked over 2 sessions (105 boards, rule sum)" in result.output
    assert runner.invoke(cli, ["event", str(S1), str(S2), "-o", str(pbn_out), "--no-dd", "--no-archive"]).exit_code == 0
    pd.testing.assert_frame_equal(pd.read_csv(out, dtype=str), pd.read_csv(pbn_out, dtype=str))
    assert "FILE.xml#N" in runner.invoke(cli, ["event", "--help"]).output


def test_score_takes_one_session_of_the_file(written, runner, tmp_path):
    out = tmp_path / "s2.csv"
    result = runner.invoke(cli, ["score", f"{written}#2", "-o", str(out), "--no-dd", "--no-archive"])
    assert result.exit_code == 0, result.output
    assert "702 results, 39 boards" in result.output
    alone = runner.invoke(cli, ["score", str(S2), "-o", str(tmp_path / "pbn.csv"), "--no-dd", "--no-archive"])
    assert alone.exit_code == 0, alone.output
    missing = runner.invoke(cli, ["score", f"{tmp_path / 'none.xml'}#2", "-o", str(out), "--no-dd", "--no-archive"])
    assert missing.exit_code == 2 and "does not exist" in missing.output
