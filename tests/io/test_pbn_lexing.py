"""PBN import format: comments, escapes, inheritance, encodings, sections and table cells."""
from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.reader import parse_pbn, read_pbn
from bridgeproc.io.pbn.tables import _cells_slow, parse_columns, split_rows
from tests.conftest import REALDATA, examples

FEATURES = Path(__file__).parents[1] / "data" / "pbn" / "features.pbn"
DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


@pytest.fixture(scope="module")
def features():
    return read_pbn(FEATURES)


def test_games_split_at_blank_lines_not_inside_braces(features):
    assert [g.line for g in features.games] == [5, 29, 39]
    assert [g.get("Board") for g in features.games] == ["1", "2", "3"]
    assert features.games[0].comments == [
        " a comment line before the first game", " comment after a tag",
        " A commentary that spans lines,\n\nincluding an empty one: it does not end the game. "]


def test_escapes_in_values_and_header_lines(features):
    first = features.games[0]
    assert first.get("Event") == 'Spring "Pairs" Cup'
    assert first.get("Site") == "Club \\ House"
    assert features.escapes == ["% PBN 2.1", "% EXPORT", "%Creator: hand-made test file for bridgeproc"]
    assert features.version == "2.1"
    assert features.meta == {"Event": 'Spring "Pairs" Cup', "Site": "Club \\ House", "Date": "2026.04.01",
                             "Scoring": "MatchPoints;MP1"}


def test_inheritance_hash_and_double_hash(features):
    # "##text" in game 1 lasts: game 2 copies it with "#", game 3 gets it without the tag
    assert [g.get("Event") for g in features.games] == ['Spring "Pairs" Cup'] * 3
    inherited = features.games[2].tag("Event")
    assert inherited.inherited and inherited.line == 39


def test_hash_copies_previous_game_only():
    text = '[Board "1"]\n[Site "A"]\n\n[Board "2"]\n[Site "#"]\n\n[Board "3"]\n[Site "B"]\n\n[Board "4"]\n'
    assert [g.get("Site") for g in parse_pbn(text).games] == ["A", "A", "B", None]


@pytest.mark.parametrize("written, vul", [
    ("None", "None"), ("Love", "None"), ("-", "None"), ("none", "None"), ("NS", "NS"), ("ns", "NS"),
    ("EW", "EW"), ("ew", "EW"), ("All", "All"), ("Both", "All"), ("BOTH", "All"), ("all", "All"), ("", "EW"),
    ("?", "EW"),
])
def test_vulnerable_values(written, vul):
    pbn = parse_pbn(f'[Board "3"]\n[Vulnerable "{written}"]\n[Deal "{DEAL}"]\n')
    assert pbn.boards["vul"].tolist() == [vul]
    assert pbn.boards["dealer"].tolist() == ["S"]  # board 3, no Dealer tag


@pytest.mark.parametrize("deal", [
    "W:KQT2.AT.J6542.85 .63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4",
    "N:- - - -",
    "S:AKQJT98765432... - .AKQJT98765432.. -",
    "e:A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85 .63.AKQ987.A9732",
])
def test_deals_with_any_first_seat_and_unknown_hands(deal):
    pbn = parse_pbn(f'[Board "1"]\n[Deal "{deal}"]\n')
    assert pbn.boards["deal"].tolist() == [deal]


def test_auction_and_play_tokens(features):
    auction = features.games[0].tag("Auction")
    assert auction.value == "N"
    assert auction.tokens == ["-", "1D", "!", "Pass", "=1=", "1S", "X", "$4", "AP"]
    assert auction.token_lines == [17] * 6 + [18] * 3
    assert [(n.value, n.line) for n in auction.notes] == [("1:weak", 19)]
    play = features.games[0].tag("Play")
    assert (play.value, play.tokens) == ("S", ["SA", "S3", "SQ", "S2", "HK", "-", "-", "-", "+"])


def test_table_columns_and_cells(features):
    table = features.games[0].tag("ScoreTable")
    assert [c.spec() for c in table.columns] == [
        "+Rank\\3R", "PairId_NS\\2R", "PairId_EW\\2R", "Names_NS\\20L", "Contract\\4L", "Declarer\\1R",
        "Result\\2R", "Score_NS\\5R", "Score_EW\\5R", "MP_NS"]
    assert (table.columns[0].order, table.columns[0].width, table.columns[0].align) == ("+", 3, "R")
    assert table.rows == [
        ["1", "1", "2", "Ann Lee;Bo Ek", "3NT", "S", "9", "400", "-", "4"],
        ["2", "3", "4", "Cy Ho - Di Wu", "2S", "E", "8", "-", "110", "2"],
        ["3", "5", "6", "?", "-", "-", "-", "60%", "40%", "^2.4"]]
    assert table.row_lines == [25, 26, 27]


def test_results_from_tables_and_tags(features):
    res = features.results[["board", "ns", "ew", "contract", "declarer", "result", "score", "names_ns", "mp_ns"]]
    assert res.astype(object).where(res.notna(), None).values.tolist() == [
        ["1", "1", "2", "3NT", "S", "9", "400", "Ann Lee;Bo Ek", "4"],
        ["1", "3", "4", "2S", "E", "8", "-110", "Cy Ho - Di Wu", "2"],
        ["1", "5", "6", "60%/40%", None, None, "60%", "?", "^2.4"],
        ["2", None, None, "4HX", "W", "8", "-500", None, None]]
    assert features.results["line"].tolist() == [25, 26, 27, 34]


def test_double_dummy_partial_table(features):
    board = features.boards.set_index("board").loc[3]
    assert (board["dd_N_NT"], board["dd_S_S"]) == (0, 13)
    assert board[["dd_E_C", "dd_W_NT"]].isna().all()


def _variants():
    text = FEATURES.read_text(encoding="utf-8")
    return {
        "utf-8": text.encode("utf-8"),
        "utf-8 BOM": codecs.BOM_UTF8 + text.encode("utf-8"),
        "latin-1": text.replace("Cup", "Coupe é").encode("latin-1"),
        "CRLF": text.replace("\n", "\r\n").encode("utf-8"),
        "CR": text.replace("\n", "\r").encode("utf-8"),
    }


@pytest.mark.parametrize("name", list(_variants()))
def test_encodings_and_line_ends(name, tmp_path, features):
    path = tmp_path / "copy.pbn"
    path.write_bytes(_variants()[name])
    pbn = read_pbn(path)
    assert [g.line for g in pbn.games] == [5, 29, 39]
    assert pbn.results.drop(columns="source").equals(features.results.drop(columns="source"))
    event = 'Spring "Pairs" Coupe é' if name == "latin-1" else 'Spring "Pairs" Cup'
    assert pbn.meta["Event"] == event


def test_layout_free_import_format():
    """Tags and sections on shared lines, comments between calls: the general path."""
    text = ('[Event "x"] [Board "1"] ; two tags on a line\n'
            '[Deal "' + DEAL + '"] [Auction "N"] 1S {opening} Pass\n'
            '2S Pass ; raise\nPass Pass\n'
            '[TotalScoreTable "Rank;Names"] 1 "A B"\n2 "C D"\n')
    pbn = parse_pbn(text)
    game = pbn.games[0]
    assert [t.name for t in game.tags] == ["Event", "Board", "Deal", "Auction", "TotalScoreTable"]
    assert game.tag("Auction").tokens == ["1S", "Pass", "2S", "Pass", "Pass", "Pass"]
    assert game.tag("Auction").token_lines == [2, 2, 3, 3, 4, 4]
    assert pbn.totals[["rank", "names", "line"]].values.tolist() == [["1", "A B", 5], ["2", "C D", 6]]
    assert game.comments == [" two tags on a line", "opening", " raise"]


def test_duplicate_tags_are_never_silently_resolved():
    """Issue 15: two values of one tag are an error naming both lines; a ScoreTable's game does not read
    its Score tags (a note, as in ffb-dn1-open2-s5 board 1); the same value twice is a note."""
    with pytest.raises(ParseError) as caught:
        parse_pbn('[Board "1"]\n[Score "EW 110"]\n[Score "NS -150"]\n[Contract "4S"]\n[Declarer "N"]\n')
    assert caught.value.problems == [(3, "tag Score is given twice in one game: 'EW 110' at line 2 and "  # type: ignore[attr-defined]
                                         "'NS -150' here; keep one (a missing blank line between two games?)")]
    table = '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]\n1 2 4S N 10\n'
    pbn = parse_pbn('[Board "1"]\n[Score "EW 110"]\n[Score "NS -150"]\n' + table)
    game = pbn.games[0]
    assert [t.value for t in game.tags if t.name == "Score"] == ["EW 110", "NS -150"]
    assert (3, "tag Score is given twice: 'EW 110' at line 2 and 'NS -150' here; neither is read (the ScoreTable "
               "gives the results)") in pbn.notes
    same = parse_pbn('[Board "1"]\n[Site "Club"]\n[Site "Club"]\n[Contract "4S"]\n[Declarer "N"]\n')
    assert (3, "tag Site is given again with the same value 'Club' (first at line 2); read once") in same.notes


@pytest.mark.parametrize("value, names", [
    ("Rank\\2R;+PairId;-Names\\30L", ["Rank", "PairId", "Names"]),
    ("Declarer;Denomination\\2R;Result\\2R", ["Declarer", "Denomination", "Result"]),
    (" A ; B\\3 ", ["A", "B"]),
])
def test_column_specifiers(value, names):
    columns, problems = parse_columns(value)
    assert [c.name for c in columns] == names and problems == ()


# -- the fast path for table rows gives exactly the cells of the quote-aware regex -------------

_bare = st.text(alphabet="AKQJT98765-+.?^%NSEWabc", min_size=1, max_size=6)
_quoted = st.text(alphabet="ab -;{}\t", min_size=0, max_size=8).map(lambda s: f'"{s}"')
_row = st.lists(st.one_of(_bare, _quoted), min_size=1, max_size=6)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(_row, st.sampled_from([" ", "  ", "\t"])), min_size=1, max_size=5))
def test_fast_rows_equal_regex_rows(rows):
    lines = [sep.join(cells) for cells, sep in rows]
    ncols = len(rows[0][0])
    got, got_lines, problems = split_rows("\n".join(lines), 10, ncols, "TotalScoreTable")
    if isinstance(got, str):  # the fast path keeps the checked text
        got = [line.split() for line in got.split("\n")]
    expected = []
    for line in lines:
        cells, problem, _ = _cells_slow(line)
        if problem is None and len(cells) == ncols:
            expected.append(cells)
    assert got == expected
    assert len(got_lines) == len(got)


@pytest.mark.parametrize("name", ["ffb-dn1-open2-s1-2022.pbn", "ebl-2021-online-qual-open-r2-teams.pbn",
                                  "fin-salo-joukkue-2013-09-15-teams-vp.pbn", "features.pbn"])
def test_general_path_reads_what_the_fast_path_reads(name, monkeypatch):
    path = FEATURES if name == "features.pbn" else REALDATA / name
    fast = read_pbn(path)
    from bridgeproc.io.pbn import lexer as pbn_lexer
    monkeypatch.setattr(pbn_lexer._Lexer, "fast_game", lambda self, chunk, line: False)
    slow = read_pbn(path)
    for a, b in zip(fast.games, slow.games, strict=True):
        assert [(t.name, t.value, t.line, t.tokens, t.token_lines, t.rows, t.row_lines) for t in a.tags] == \
            [(t.name, t.value, t.line, t.tokens, t.token_lines, t.rows, t.row_lines) for t in b.tags]
        assert a.line == b.line
    for frame in ("boards", "results", "totals", "matches"):
        assert getattr(fast, frame).equals(getattr(slow, frame))
    assert fast.escapes == slow.escapes


def test_text_with_a_byte_order_mark():
    assert parse_pbn('\ufeff% PBN 2.1\n[Event "x"]\n[Board "1"]\n').games[0].get("Event") == "x"


def test_table_columns_named_like_frame_columns():
    pbn = parse_pbn('[Board "1"]\n[ScoreTable "PairId_NS;PairId_EW;Contract;Score;Line"]\n1 2 3NT 400 7\n')
    assert pbn.results[["ns", "ew", "contract", "score", "line_", "line"]].values.tolist() == [
        ["1", "2", "3NT", "400", "7", 3]]
