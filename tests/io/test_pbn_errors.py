"""A catalogue of broken PBN input, each with the exact message the director sees."""
from __future__ import annotations

from pathlib import Path

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.reader import parse_pbn, read_pbn

DATA = Path(__file__).parents[1] / "data" / "pbn"
DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
ROW_HINT = 'quote values that contain spaces ("Jean Luc") and write - for an empty cell'


def game(*extra: str, deal: str = DEAL, vul: str = "None", board: str = "1", dealer: str = "N") -> str:
    """A five-tag game (lines 1-5) followed by ``extra`` lines (line 6 on)."""
    return "\n".join(['[Event "Club"]', f'[Board "{board}"]', f'[Dealer "{dealer}"]', f'[Vulnerable "{vul}"]',
                      f'[Deal "{deal}"]', *extra]) + "\n"


CATALOGUE = [
    ("empty file", "", 1, 'the file is empty; a PBN file holds games of [Tag "value"] lines'),
    ("only blank lines", "  \n\t\n\n", 1, 'the file is empty; a PBN file holds games of [Tag "value"] lines'),
    ("binary file", "\x00\x01\x02PBN", 1, "this is a binary file, not PBN text; export the results as PBN"),
    ("escape lines only", "% PBN 2.1\n% EXPORT\n", 1,
     'no games found: expected [Tag "value"] lines such as [Board "1"]'),
    ("tag without closing bracket", '[Event "Club"\n[Board "1"]\n', 1,
     "tag has no closing bracket ']'; write [Name \"value\"] on one line"),
    ("unbalanced quote in a tag", '[Board "1"]\n[Event "Club]\n', 2,
     'the value of tag Event has no closing quote; write [Event "value"] (a quote inside a value is written \\")'),
    ("unquoted tag value", '[Event Club]\n[Board "1"]\n', 1,
     'the value of tag Event is not in double quotes; write [Event "Club"]'),
    ("tag name not a name", '[1Event "Club"]\n[Board "1"]\n', 1,
     "bad tag name '1Event': a name starts with a letter; write [Name \"value\"]"),
    ("data after a plain tag", '[Board "1"]\nN:AKQ\n', 2,
     "expected [Tag \"value\"], got 'N:AKQ' outside a section; only Auction, Play and table tags are followed by "
     "data lines"),
    ("unterminated brace comment", '[Board "1"]\n{ a comment\n\nthat never ends\n', 2,
     "brace comment '{' is never closed; add the closing '}'"),
    ("stray closing bracket", game("]"), 6, "unexpected ']'; expected [Name \"value\"], a comment or section data"),
    ("deal hand of 12 cards", game(deal=DEAL[:-1]), 5,
     "bad Deal: the West hand has 12 cards; every hand needs 13 (or '-' if unknown)"),
    ("deal card 10 not T", game(deal=DEAL[:-1] + "10"), 5,
     "bad Deal: bad card '1' in the West hand's clubs: ranks are AKQJT98765432 (write T for the ten); "
     "bad card '0' in the West hand's clubs: ranks are AKQJT98765432 (write T for the ten)"),
    ("deal lower-case rank", game(deal=DEAL.replace("KQ5.T.", "KQ5.t.")), 5,
     "bad Deal: bad card 't' in the East hand's diamonds: ranks are AKQJT98765432 in upper case (write T)"),
    ("deal card dealt twice", game(deal=DEAL[:-1] + "A"), 5,
     "bad Deal: card CA is in both the North and the West hands; each card must be dealt once"),
    ("deal card twice in one hand", game(deal="N:AA.63.AKQ987.A973 " + DEAL.split(" ", 1)[1]), 5,
     "bad Deal: card SA appears twice in the North hand"),
    ("deal with 3 hands", game(deal=DEAL.rsplit(" ", 1)[0]), 5,
     "bad Deal: 3 hand(s) instead of 4; write 4 hands separated by spaces, clockwise from the first seat "
     "('-' for an unknown hand)"),
    ("deal without first seat", game(deal=DEAL[2:]), 5,
     f"bad Deal: {DEAL[2:]!r} must start with the first seat and a colon (N:, E:, S: or W:), "
     "e.g. N:AKQ.JT9.876.5432 ..."),
    ("deal hand without 4 suits", game(deal=DEAL.replace(".AKQ987.", ".AKQ987")), 5,
     "bad Deal: the North hand '.63.AKQ987A9732' has 3 suit(s); write spades.hearts.diamonds.clubs with 3 dots "
     "(leave a void empty) or '-' for an unknown hand"),
    ("bad Vulnerable", game(vul="Both sides"), 4,
     "bad Vulnerable value 'Both sides'; write None, NS, EW or All (also accepted: Love, -, Both)"),
    ("bad Dealer", game(dealer="X"), 3, "bad Dealer value 'X'; write N, E, S or W"),
    ("board not a number", game(board="one"), 2, "Board 'one' is not a board number; write a whole number from 1 up"),
    ("table row too short", game('[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 2 4S N"), 7,
     f"ScoreTable row has 4 cell(s) but the header has 5 column(s); {ROW_HINT}"),
    ("table row too long", game('[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]', "1 2 4S N 10",
                                '3 4 3NT S 9 "Jean Luc"'), 8,
     f"ScoreTable row has 6 cell(s) but the header has 5 column(s); {ROW_HINT}"),
    ("names with spaces not quoted", game('[TotalScoreTable "Rank;PairId;Names"]', '1 7 "Ann Lee - Bo Ek"',
                                          "2 3 Cy Ho - Di Wu"), 8,
     f"TotalScoreTable row has 7 cell(s) but the header has 3 column(s); {ROW_HINT}"),
    ("unbalanced quote in a row", game('[TotalScoreTable "Rank;PairId;Names"]', '1 7 "Ann Lee - Bo Ek'), 7,
     'unbalanced quote: a quoted value is not closed on this line; add the closing " (write \\" for a quote '
     "inside a value)"),
    ("bad column in a table header", game('[ScoreTable "PairId_NS;PairId EW;Contract"]', "1 2 4S"), 6,
     "bad column 'PairId EW' in the table header: write Name, Name\\width or Name\\widthL/R, separated by ';' "
     "(e.g. Contract\\4L;Score_NS\\5R)"),
    ("tag inside a table row", game('[TotalScoreTable "Rank;PairId"]', '1 7 [Event "x"]'), 7,
     'a tag inside a table row: start each [Name "value"] on its own line'),
    ("brace comment open in a row", game('[TotalScoreTable "Rank;PairId"]', "1 7 {note"), 7,
     "brace comment inside a table row is not closed on the same line; add '}'"),
    ("bad call in the auction", game('[Auction "N"]', "1S Pass 8NT Pass"), 7,
     "bad call '8NT' in the Auction: write Pass, X, XX, AP or a bid such as 1C or 3NT (notes as =1=, NAGs as $1)"),
    ("bad card in the play", game('[Play "E"]', "SA S2 SX S4"), 7,
     "bad card 'SX' in the Play: write suit then rank, e.g. SA, HT, D2, or - for an unknown card"),
    ("# in the first game", game().replace('[Event "Club"]', '[Event "#"]'), 1,
     'tag Event is "#" (copy from the previous game) but no previous game has it; write the value'),
    ("bad double-dummy row", game('[OptimumResultTable "Declarer;Denomination;Result"]', "N NT 14"), 7,
     "bad OptimumResultTable row 'N NT 14'; write seat, denomination and tricks (0-13), e.g. N NT 9"),
    ("same board, another deal", game() + "\n" + game(deal="E:" + DEAL[2:]), 11,
     "board 1 has a different Deal than at line 5; give each board its own number"),
]


@pytest.mark.parametrize("text, line, message", [c[1:] for c in CATALOGUE], ids=[c[0] for c in CATALOGUE])
def test_broken_input_message(text, line, message):
    with pytest.raises(ParseError) as caught:
        parse_pbn(text, "club.pbn")
    assert caught.value.line == line
    assert caught.value.message == message
    assert str(caught.value) == f"club.pbn:{line}: {message}"


def test_catalogue_is_large():
    assert len(CATALOGUE) >= 20


def test_several_problems_are_listed_together():
    text = (game(vul="Sometimes") + "\n" + game(deal="N:- - - AKQ...", board="2") + "\n"
            + game('[ScoreTable "PairId_NS;PairId_EW"]', "1 2 3", board="3"))
    with pytest.raises(ParseError) as caught:
        parse_pbn(text, "club.pbn")
    assert str(caught.value).split("\n") == [
        "club.pbn:4: bad Vulnerable value 'Sometimes'; write None, NS, EW or All (also accepted: Love, -, Both)",
        "club.pbn:11: bad Deal: the West hand has 3 cards; every hand needs 13 (or '-' if unknown)",
        f"club.pbn:19: ScoreTable row has 3 cell(s) but the header has 2 column(s); {ROW_HINT}",
    ]
    assert caught.value.problems[0] == (4, "bad Vulnerable value 'Sometimes'; write None, NS, EW or All "
                                           "(also accepted: Love, -, Both)")


def test_broken_file_names_file_and_lines():
    with pytest.raises(ParseError) as caught:
        read_pbn(DATA / "broken_deal_and_table.pbn")
    assert str(caught.value).split("\n") == [
        "broken_deal_and_table.pbn:7: bad Deal: the West hand has 12 cards; every hand needs 13 (or '-' if unknown)",
        "broken_deal_and_table.pbn:12: bad Vulnerable value 'Sometimes'; write None, NS, EW or All "
        "(also accepted: Love, -, Both)",
        f"broken_deal_and_table.pbn:16: ScoreTable row has 4 cell(s) but the header has 5 column(s); {ROW_HINT}",
    ]


def test_binary_and_undecodable_files(tmp_path):
    binary = tmp_path / "deals.bws"
    binary.write_bytes(b"\x00\x01Standard Jet DB\x00" * 10)
    with pytest.raises(ParseError, match=r"^deals.bws:1: this is a binary file"):
        read_pbn(binary)
    latin = tmp_path / "latin.pbn"
    latin.write_bytes('[Event "Séance"]\n[Board "1"]\n'.encode("latin-1"))
    with pytest.raises(ParseError, match=r"^latin.pbn:1: byte 0xe9 is not valid utf-8; re-save the file as utf-8, or leave out --encoding"):
        read_pbn(latin, encoding="utf-8")


def test_too_many_problems_stop_early():
    text = "".join(game(vul="bad", board=str(n)) + "\n" for n in range(1, 80))
    with pytest.raises(ParseError) as caught:
        parse_pbn(text)
    assert len(caught.value.problems) == 50
    assert str(caught.value).endswith("(and 29 more problems not shown; correct these first)")
