"""USEBIO XML: reading hand-made files of each layout, broken files, and write -> read round trips.

Round trips run on the sample evening and on real pairs files (realdata/README.md):
the session is written as USEBIO, read back, validated and compared result by result
(contract, declarer, tricks, lead, score) and pair by pair (place, percentage or total
as written); then re-scored through ``process_session`` with the same conventions, which
must give the same standings, through the session's own .xml reader and writer.
"""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.core.deal import parse_deal
from bridgeproc.errors import ParseError
from bridgeproc.io.usebio.reader import hand_text, parse_usebio, read_usebio
from bridgeproc.model import ConventionChoice, Options, ReadOptions
from bridgeproc.pipeline import write as session_module
from bridgeproc.pipeline.write import process_session
from bridgeproc.report.usebio import usebio_text, write_usebio  # noqa: F401
from bridgeproc.validate.results import validate_results
from tests.conftest import REALDATA

DATA = Path(__file__).parents[1] / "data" / "usebio"
SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"


@pytest.fixture
def wired():
    """The real wiring: process_session reads and writes .xml through bridgeproc.inputs/session."""
    assert ".xml" in session_module.WRITERS


def _values(frame: pd.DataFrame, column: str) -> list:
    return [None if pd.isna(v) else v for v in frame[column]]


# --------------------------------------------------------------------------- reading


def test_pairs_with_session_and_section_wrappers():
    u = read_usebio(DATA / "pairs_sections.xml")
    r = u.results
    assert _values(r, "section") == ["A"] * 4
    assert _values(r, "board") == ["1", "1", "2", "2"]
    assert _values(r, "ns") == ["1", "2", "1", "2"]
    assert _values(r, "ew") == ["1", "2", "2", "1"]
    assert _values(r, "contract") == ["4S", "3NTx", "Pass", "2H"]
    assert _values(r, "declarer") == ["N", "E", None, "S"]
    assert _values(r, "result") == ["10", "8", None, "7"]
    assert _values(r, "lead") == ["HA", "S4", None, "DK"]
    assert _values(r, "score") == ["420", "100", "0", "-100"]
    assert _values(r, "mp_ns") == ["2", "0", "2", "0"]
    assert list(r["line"]) == [60, 71, 90, 98]  # the TRAVELLER_LINE element lines
    assert set(r["source"]) == {"pairs_sections.xml"}
    assert _values(u.names, "names") == ["Ann North & Sam South", "Bob Bell & Cath Bell", "Eve East & Will West",
                                         "Dan Drew & Fay Frost"]
    assert _values(u.names, "direction") == ["NS", "NS", "EW", "EW"]
    assert _values(u.names, "ids")[0] == "1001 & 1002"
    assert _values(u.totals, "place") == ["1", "2", "1=", "1="]
    assert _values(u.totals, "percentage") == ["100.00", "0.00", "50.00", "50.00"]
    assert list(u.boards["board"]) == [1, 2]
    assert u.boards["deal"][0] == "N:AKQJ.T98.765.432 T98.AKQJ.432.765 765.432.AKQJ.T98 432.765.T98.AKQJ"
    assert list(u.boards["vul"].astype(str)) == ["None", "NS"]
    assert list(u.boards["dealer"].astype(str)) == ["N", "E"]
    assert u.meta == {"event": "Two-table Mitchell", "date": "2025.10.03", "club": "Hand-made Bridge Club",
                      "club_id": "999", "scoring": "MatchPoints", "event_type": "MP_PAIRS", "winner_type": "2",
                      "board_scoring_method": "MATCH_POINTS", "version": "1.2"}
    scored = validate_results(r, boards=u.boards).results
    assert list(scored["score_ns"]) == [420, 100, 0, -100]
    assert list(scored["tricks"].astype("Int64").fillna(-1)) == [10, 8, -1, 7]


def test_flat_layout_windows_1252_and_exporter_notations():
    u = read_usebio(DATA / "pairs_flat_cp1252.xml")
    r = u.results
    assert set(r["section"]) == {""}
    assert _values(r, "contract") == ["4 H", "PASS", "3NT*", "A60", "2S"]
    assert _values(r, "declarer") == ["W", None, "North", None, "E"]
    assert _values(r, "result") == ["=", None, "-1", None, "9"]
    # NS_SCORE is NS's; EW_SCORE 140 is NS -140; an artificial SCORE moved to the contract
    assert _values(r, "score") == ["-620", "0", "-200", None, "-140"]
    assert "session" not in r.columns and "mp_ns" not in r.columns
    assert _values(u.names, "names") == ["Bjørn Sæther & Åse Ødegård"]  # pair 2 has no names
    assert _values(u.totals, "percentage") == ["62.5", "50"]
    assert u.meta["date"] == "2024.03.07" and u.meta["winner_type"] == "1"
    assert u.boards.empty
    scored = validate_results(r).results
    assert _values(scored, "score_ns") == [-620, 0, -200, None, -140]
    assert _values(scored, "adjusted") == [None, None, None, "60/40", None]
    assert _values(scored, "tricks") == [10, None, 8, None, 9]


def test_teams_match_lines_take_pairs_from_the_match_and_direction():
    u = read_usebio(DATA / "teams.xml")
    r = u.results
    assert _values(r, "ns") == ["1", "2"] and _values(r, "ew") == ["2", "1"]
    assert _values(r, "imp_ns") == ["6", "6"]
    assert _values(r, "round") == ["1", "1"]
    assert _values(r, "team") == ["1", "1"] and _values(r, "opposing_team") == ["2", "2"]
    assert _values(u.names, "names") == ["Aces", "Bees"]
    assert _values(u.totals, "total") == ["6", "-6"]
    assert "scoring" not in u.meta  # a teams event is not ranked by a pairs method
    assert list(validate_results(r).results["score_ns"]) == [420, 170]


@pytest.mark.parametrize("name, expected", [
    ("bad_not_well_formed.xml", "bad_not_well_formed.xml:6: not well-formed XML (mismatched tag, column 7); "
                                "the file is damaged or not USEBIO: export it again from the scoring program"),
    ("bad_wrong_root.xml", "bad_wrong_root.xml:2: the root element is <RESULTS>, not <USEBIO>; this is not a "
                           "USEBIO results file (export the results as USEBIO XML)"),
    ("bad_no_event.xml", "bad_no_event.xml:2: <USEBIO> has no <EVENT>; the file holds no results"),
    ("bad_board_number.xml", "bad_board_number.xml:5: <BOARD_NUMBER> is '1a', not a whole number; correct it (e.g. 7)"),
    ("bad_percentage.xml", "bad_percentage.xml:5: <PERCENTAGE> is 'high', not a number; correct it (e.g. 55.25)"),
    ("bad_no_board_number.xml", "bad_no_board_number.xml:4: <BOARD> without a <BOARD_NUMBER> of 1 or more; "
                                "number every board"),
])
def test_broken_files_name_file_line_and_fix(name, expected):
    with pytest.raises(ParseError) as info:
        read_usebio(DATA / name)
    assert str(info.value) == expected


@pytest.mark.parametrize("data, expected", [
    (b"", "x.xml:1: not well-formed XML (no element found, column 1)"),
    (b"\x00\x01\x02binary", "x.xml:1: not well-formed XML"),
    (b"<USEBIO><EVENT/></USEBIO>", "x.xml:1: <EVENT> has no <BOARD> results and no <PARTICIPANTS>"),
    (b"<USEBIO><EVENT><BOARD><BOARD_NUMBER>1</BOARD_NUMBER><TRAVELLER_LINE/></BOARD></EVENT></USEBIO>",
     "x.xml:1: <TRAVELLER_LINE> without <NS_PAIR_NUMBER> and <EW_PAIR_NUMBER>"),
    (b"<USEBIO><EVENT><PARTICIPANTS><PAIR><PLACE>1</PLACE></PAIR></PARTICIPANTS></EVENT></USEBIO>",
     "x.xml:1: <PAIR> without <PAIR_NUMBER>"),
])
def test_more_broken_inputs(data, expected):
    with pytest.raises(ParseError) as info:
        parse_usebio(data, "x.xml")
    assert str(info.value).startswith(expected)


def test_every_truncation_is_a_parse_error_or_a_result():
    data = (DATA / "pairs_sections.xml").read_bytes()
    for end in range(0, len(data), 23):
        try:
            parse_usebio(data[:end], "cut.xml")
        except ParseError as exc:
            assert str(exc).startswith("cut.xml:")


def test_mutated_files_give_parse_errors_or_results_never_other_exceptions():
    rng = random.Random(8)
    data = (DATA / "pairs_sections.xml").read_bytes()
    pieces = [b"<", b">", b"</BOARD>", b"<BOARD_NUMBER>x</BOARD_NUMBER>", b"<HAND><DIRECTION>Up</DIRECTION></HAND>",
              b"<PERCENTAGE>1e</PERCENTAGE>", b"&amp;", b"&bogus;", b"\xff", b"<SESSION>", b"<MATCH>"]
    for _ in range(300):
        at, length = rng.randrange(len(data)), rng.randrange(0, 40)
        mutated = data[:at] + rng.choice(pieces + [b""]) + data[at + length:]
        try:
            parse_usebio(mutated, "m.xml")
        except ParseError as exc:
            assert str(exc).startswith("m.xml:")


def test_handset_hands_and_windows_1252_under_a_utf8_declaration():
    text = ('<?xml version="1.0" encoding="UTF-8"?>\n<USEBIO Version="1.2"><EVENT><PARTICIPANTS>\n'
            '<PAIR PAIR_NUMBER="7"><PLAYER><PLAYER_NAME>Bjørn Sæther</PLAYER_NAME></PLAYER></PAIR>\n'
            '</PARTICIPANTS></EVENT>\n<HANDSET><BOARD><BOARD_NUMBER>17</BOARD_NUMBER>\n'
            '<HAND><DIRECTION>North</DIRECTION><SPADES>AK</SPADES><HEARTS>-</HEARTS><DIAMONDS>Q 10 2</DIAMONDS>'
            '<CLUBS>J98765432</CLUBS></HAND></BOARD></HANDSET></USEBIO>\n')
    u = parse_usebio(text.encode("cp1252"), "old.xml")
    assert u.names[["pair", "names"]].values.tolist() == [["7", "Bjørn Sæther"]]
    assert u.boards[["board", "deal", "line"]].values.tolist() == [[17, "N:AK..QT2.J98765432 - - -", 5]]
    assert (str(u.boards["dealer"][0]), str(u.boards["vul"][0])) == ("N", "None")  # board 17 is like board 1


def test_hand_text_normalises_ranks():
    assert hand_text("A K 10 2") == "AKT2"
    assert hand_text("-") == "" and hand_text(None) == ""
    assert hand_text("qj9") == "QJ9"


# --------------------------------------------------------------------------- writing and round trips

RESULT_COLUMNS = ["section", "board", "ns", "ew", "level", "strain", "doubled", "declarer", "tricks", "lead",
                  "adjusted", "score_ns"]


def _sorted(results: pd.DataFrame) -> pd.DataFrame:
    table = results[RESULT_COLUMNS].astype("string").fillna("~").replace("", "~")  # an empty lead is no lead
    return table.sort_values(RESULT_COLUMNS[:4]).reset_index(drop=True)


def _standing_rows(standings: pd.DataFrame) -> list[tuple]:
    method = standings["method"].iloc[0]
    out = []
    for row in standings.itertuples(index=False):
        direction = str(row.group).rpartition(" ")[2]
        value = round(row.pct, 2) if method == "mp" else round(row.total, 2)
        out.append((str(row.pair).lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), direction if direction != "ALL" else None,
                    row.rank, value))
    return sorted(out, key=str)


def _written_rows(totals: pd.DataFrame, method: str) -> list[tuple]:
    column = "percentage" if method == "mp" else "total"
    return sorted([(p, None if pd.isna(d) else d, place, round(float(v), 2))
                   for p, d, place, v in zip(totals["pair"], totals["direction"], totals["place"], totals[column])],
                  key=str)


def _all(conventions) -> dict:
    return dataclasses.asdict(conventions)


def _round_trip(session, path: Path):
    write_usebio(session, path)
    usebio = read_usebio(path)
    boards = usebio.boards if len(usebio.boards) else None
    checked = validate_results(usebio.results, boards=boards, names=usebio.names if len(usebio.names) else None)
    pd.testing.assert_frame_equal(_sorted(checked.results), _sorted(session.results))
    assert _written_rows(usebio.totals, session.conventions.method) == _standing_rows(session.standings)
    return usebio


def test_sample_evening_round_trip(tmp_path, wired):
    options = Options(read=ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False)
    first = process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"],
                            [tmp_path / "evening.xml"], options)
    text = (tmp_path / "evening.xml").read_text(encoding="utf-8")
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE USEBIO SYSTEM '
                           '"http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n<USEBIO Version="1.2">')
    for element in ("<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>", "<WINNER_TYPE>2</WINNER_TYPE>",
                    "<DATE>24/11/2026</DATE>", "<PLAYER_NAME>Carla Aas</PLAYER_NAME>", "<NS_MATCH_POINTS>"):
        assert element in text
    usebio = _round_trip(first, tmp_path / "again.xml")
    assert usebio.boards["deal"].notna().all() and len(usebio.boards) == len(first.boards)
    # the same hands (our deal strings start with North; PBN's with the dealer)
    assert [parse_deal(d) for d in usebio.boards["deal"]] == [parse_deal(d) for d in first.boards.sort_values("board")["deal"]]
    # re-scored from the USEBIO file alone: the same standings, names included
    second = process_session([tmp_path / "evening.xml"], options=Options(ranking=ConventionChoice(changes=_all(first.conventions)), dd=False))
    columns = ["group", "rank", "pair", "names", "boards", "total", "pct"]
    pd.testing.assert_frame_equal(second.standings[columns], first.standings[columns])


REAL_PAIRS = {
    # file: conventions beyond the Scoring tag (as tests/test_rank_realdata.py uses them)
    "ffb-dn1-open2-s1-2022.pbn": {"mp_decimals": 1},
    "fin-sm-parikilpailu-2014-s1.pbn": {"mp_decimals": 1},
    "ruter7-klubbkveld-butler-2012.pbn": {},
    "fin-lounaisliiga-2013-09-25-cross2-imp.pbn": {"across_field": True},
    "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn": {"across_field": True, "imp_ave_plus": 1.5},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(REAL_PAIRS))
def test_real_pairs_files_round_trip(name, tmp_path, wired):
    first = process_session([REALDATA / name], options=Options(ranking=ConventionChoice(changes=REAL_PAIRS[name]), dd=False))
    usebio = _round_trip(first, tmp_path / "out.xml")
    method = {"mp": "MATCH_POINTS", "cross-imp": "CROSS_IMPS", "butler": "BUTLER"}[first.conventions.method]
    assert usebio.meta["board_scoring_method"] == method
    assert len(usebio.results) == len(first.results)
    points = {"mp": "mp_ns", "cross-imp": "imp_ns", "butler": "imp_ns"}[first.conventions.method]
    ours = {"mp": "mp_ns", "cross-imp": "ximp_ns", "butler": "butler_ns"}[first.conventions.method]
    written = pd.to_numeric(usebio.results[points]).round(2).tolist()
    assert sorted(written, key=str) == sorted(first.results[ours].round(2).fillna(float("nan")).tolist(), key=str)
    # USEBIO names the method only (CROSS_IMPS reads as IMP;Cross, a sum): the director
    # gives the rest as options, as here
    second = process_session([tmp_path / "out.xml"], options=Options(ranking=ConventionChoice(changes=_all(first.conventions)), dd=False))
    columns = ["group", "rank", "pair", "boards", "total", "pct"]
    pd.testing.assert_frame_equal(second.standings[columns], first.standings[columns])


def test_usebio_text_of_a_section_event_has_one_section_element_each():
    first = process_session([REALDATA / "fin-lounaisliiga-2013-09-25-cross2-imp.pbn"],
                            options=Options(ranking=ConventionChoice(changes={"across_field": True}), dd=False)) if REALDATA.is_dir() else None
    if first is None:
        pytest.skip("real event files not present")
    text = usebio_text(first)
    sections = sorted(set(first.results["section"]))
    for letter in sections:
        assert f'<SECTION SECTION_ID="{letter}">' in text
    # Compscore's names for the IMP points (what the results sites reading USEBIO look for)
    assert "<NS_CROSS_IMP_POINTS>" in text and "<NS_IMPS>" not in text and "<PERCENTAGE>" not in text


def test_write_is_atomic_and_leaves_no_file_on_error(tmp_path):
    target = tmp_path / "out.xml"
    target.write_text("old", encoding="utf-8")

    class Broken:
        results = None

    with pytest.raises((AttributeError, TypeError)):
        write_usebio(Broken(), target)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.xml"]
