"""What producers and the PBN standard really write, read liberally (issue 14): each quirk on its real file."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.game_rows import declarer_tricks
from bridgeproc.io.pbn.reader import parse_pbn, read_pbn
from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from tests.conftest import REALDATA


def test_bridgewebs_pass_out_with_a_declarer_is_a_pass_out():
    pbn = read_pbn(REALDATA / "winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn")
    passed = pbn.results[pbn.results["contract"] == "PASS"]
    assert list(passed["line"]) == [1034, 1037, 1038, 1039]
    assert passed["declarer"].isna().all() and passed["result"].isna().all()
    assert [line for line, message in pbn.notes if "passed out" in message] == [1034, 1037, 1038, 1039]
    assert len(pbn.results) == 240


def test_bridgewebs_unplayed_rows_and_star_doubles():
    pbn = read_pbn(REALDATA / "usa-westwood-dbc-2019-06-25-silver-points-bridgewebs.pbn")
    res = pbn.results
    unplayed = res[res["contract"] == "NP"]
    assert list(unplayed["board"]) == ["12", "23", "24", "25", "26"] and set(unplayed["ns"]) == {"12"}
    assert unplayed["declarer"].isna().all()
    assert (res["contract"] == "PASS").sum() == 3 and res.loc[res["contract"] == "PASS", "declarer"].isna().all()
    assert len(res) - len(unplayed) == 379
    raw = (REALDATA / "usa-westwood-dbc-2019-06-25-silver-points-bridgewebs.pbn").read_text(encoding="ascii")
    stars = sum(1 for line in raw.split("\n") if not line.startswith("[") and "* " in line)
    assert res["contract"].str.endswith("*").sum() == stars == 22  # doubled as BridgeWebs writes it (4H*)
    # DoubleDummyTricks is a producer's tag bridgeproc knows (io.pbn.tags.KNOWN_TAGS): no note for it
    assert sorted(line for line, _ in pbn.notes) == [553, 558, 608, 1173, 1224, 1274, 1325, 1626]


def test_bridgewebs_files_score(tmp_path):
    for name, results in (("winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn", 240),
                          ("usa-westwood-dbc-2019-06-25-silver-points-bridgewebs.pbn", 384)):
        session = build_session([REALDATA / name], Options(dd=False))
        assert len(session.results) == results
        assert session.notes is not None and session.notes["message"].str.contains("BridgeWebs").any()


@pytest.mark.parametrize("value, declarer, tricks", [
    ("9", "S", "9"), ("NS 9", "S", "9"), ("NS 9", "E", "4"), ("EW 4", "N", "9"), ("EW 4", "W", "4"),
    ("NS 9 EW 4", "E", "4"), ("EW 4 NS 9", "N", "9"), ("^10", "S", "10"), ("^NS 11", "^N", "11"),
])
def test_result_tag_forms(value, declarer, tricks):
    assert declarer_tricks(value, declarer) == (tricks, None)


def test_result_tag_whose_sides_do_not_add_up():
    assert declarer_tricks("NS 9 EW 5", "N")[1] == "Result 'NS 9 EW 5' gives 14 tricks, not 13; the two sides' tricks add up to 13"


def test_pbn21_result_form_on_the_real_file():
    pbn = read_pbn(REALDATA / "pbn-reference-correct_21.pbn")
    assert pbn.results[["board", "contract", "declarer", "result", "score"]].values.tolist() == \
        [["16", "5CX", "N", "11", "550"]]
    assert pbn.notes == []


def test_comment_lines_inside_tables_and_inherited_headers():
    pbn = read_pbn(REALDATA / "pbn-reference-correct_20.pbn")
    action = pbn.games[31].tag("ActionTable")
    assert action.row_count == 5 and action.row_lines == [409, 410, 411, 412, 413]  # after a ';' line
    assert len(pbn.totals) == 12  # two TotalScoreTables, each after a { comment } line
    copied = pbn.games[45].tag("ScoreTable")
    assert copied.value == pbn.games[44].tag("ScoreTable").value and len(copied.columns) == 5


def test_tag_over_several_lines_and_two_tags_on_a_line():
    pbn = read_pbn(REALDATA / "pbn-reference-correct_10.pbn")
    assert [(t.name, t.value, t.line) for t in pbn.games[21].tags] == [("Event", "use new lines", 283)]
    assert [(t.name, t.value) for t in pbn.games[22].tags] == [("Event", "my event"), ("Date", "1998.03.21")]
    text = '[Board "1"]\n[\n Contract\n   "3NT" ] [Declarer "N"]\n[Result "9"]\n'
    assert parse_pbn(text).results[["contract", "declarer", "result"]].values.tolist() == [["3NT", "N", "9"]]


def test_several_events_one_board_number_are_not_a_conflict():
    pbn = read_pbn(REALDATA / "pbn-reference-correct_10.pbn")
    # game 2 (another event) has a partial deal that agrees with game 1: one board, each event its section;
    # game 4 is board 13 with no Deal tag: a board without its cards
    assert pbn.boards["board"].tolist() == [1, 13] and pbn.boards.iloc[0]["deal"].startswith("N:.63.AKQ987")
    assert pd.isna(pbn.boards.iloc[1]["deal"])
    assert pbn.results["section"].tolist() == ["International Amsterdam Airport Schiphol Bridgetournament",
                                               "2 International Amsterdam Airport Schiphol Bridgetournament"]
    assert pbn.results["result"].tolist() == ["9", "9"]  # "NS 9 EW 4", declarer South


def test_same_board_dealt_differently_in_one_event_is_a_problem():
    deal1 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    deal2 = "N:T98.765.432.AKQJ AKQJ.T98.765.432 765.432.AKQJ.T98 432.AKQJ.T98.765"
    rotated = "E:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432"
    ok = parse_pbn(f'[Event "e"]\n[Board "1"]\n[Deal "{deal1}"]\n\n[Event "e"]\n[Board "1"]\n[Deal "{rotated}"]\n')
    assert len(ok.boards) == 1
    with pytest.raises(ParseError, match="board 1 has a different Deal than at line 3"):
        parse_pbn(f'[Event "e"]\n[Board "1"]\n[Deal "{deal1}"]\n\n[Event "e"]\n[Board "1"]\n[Deal "{deal2}"]\n')
    other_event = parse_pbn(f'[Event "e"]\n[Board "1"]\n[Deal "{deal1}"]\n\n[Event "f"]\n[Board "1"]\n[Deal "{deal2}"]\n')
    assert other_event.boards["deal"].tolist() == [deal1]


@pytest.mark.parametrize("name", ["pbn-reference-correct_10.pbn", "pbn-reference-correct_20.pbn",
                                  "pbn-reference-correct_21.pbn"])
def test_correct_reference_files_score_without_a_problem(name):
    session = build_session([REALDATA / name], Options(dd=False))
    assert len(session.results) >= 1


def test_optimum_score_is_validated():
    with pytest.raises(ParseError) as caught:
        read_pbn(REALDATA / "pbn-reference-errors_21.pbn")
    assert caught.value.problems == [  # type: ignore[attr-defined]
        (7, "no boards: the file's 2 game(s) hold only OptimumScore tags, no Board, Deal, result or table; export "
            "the hand record or the results as PBN"),
        (7, "bad OptimumScore value '100'; write the side and its score, e.g. NS 420 or EW -300"),
        (11, "bad OptimumScore value 'EW'; write the side and its score, e.g. NS 420 or EW -300")]


def test_errors_10_tag_values_reported_with_their_lines():
    with pytest.raises(ParseError) as caught:
        read_pbn(REALDATA / "pbn-reference-errors_10.pbn")
    lines = {line for line, _ in caught.value.problems}  # type: ignore[attr-defined]
    # no quotes (11, 15), tab (19), Round (23, 27), Date (31, 35), Dealer (39), Vulnerable (43),
    # deals (47-71), Declarer (79), Contract (83, 87), Result (91), bad characters (95)
    assert {11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 59, 63, 71, 79, 83, 87, 91, 95} <= lines
