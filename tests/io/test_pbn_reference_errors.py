"""The PBN standard's own error files: every deliberate error, as its ``%`` comment names it, is reported
on its line (issue 14). Tables written from the files' comments, not from our output."""
from __future__ import annotations

import re

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.lexer import lex
from bridgeproc.io.pbn.reader import parse_pbn
from bridgeproc.io.text import decode
from bridgeproc.validate.rules import check_game, check_games
from tests.conftest import REALDATA

#: A board after the file's end, so that a game alone still makes a hand record (lines unchanged).
ANCHOR = '\n\n[Board "99"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
_GAME = re.compile(r"^% =+ game (\d+) =+", re.M)


def reports(name: str, game: int) -> list[tuple[int, str]]:
    """Every problem and note for one game of a reference file, read alone (the other lines blank,
    so line numbers stay); a game that copies tags with '#' keeps the game before it.

    A game the reader refuses never reaches ``check_games``; its rules are checked on the games
    as lexed (``check_game``), which is what ``check`` shows once the reading problems are fixed."""
    text = decode((REALDATA / name).read_bytes(), name)
    lines = text.split("\n")
    starts = [text.count("\n", 0, m.start()) for m in _GAME.finditer(text)] + [len(lines)]
    first = game - 2 if game > 1 and '"#"' in "\n".join(lines[starts[game - 1]:starts[game]]) else game - 1
    kept = "\n".join(line if starts[first] <= i < starts[game] else "" for i, line in enumerate(lines)) + ANCHOR
    try:
        pbn = parse_pbn(kept, name)
    except ParseError as exc:
        try:
            games = lex(kept, name)[0]
        except ParseError:  # fatal at once (an unclosed brace comment): no games to check
            games = []
        later = [(int(row.line), row.message) for g in games for row in check_game(g, name).itertuples()]
        return exc.problems + exc.notes + later  # type: ignore[attr-defined]
    checked = [(int(row.line), row.message) for row in check_games(pbn).itertuples()]
    return pbn.notes + checked


# (game, line of the error, words the message holds), from each error's % comment in the file
ERRORS_10 = [
    (1, 7, "tag Wrong is not a PBN tag"),                 # New tag name
    (2, 11, "tag Event is not in double quotes"),         # No tag value
    (3, 15, "not in double quotes"),                      # Bad character
    (4, 19, "tab or control character"),                  # Bad character
    (5, 23, "bad Round value '&'"),                       # No integer tag value
    (6, 27, "bad Round value '-1'"),                      # No non-negative integer
    (7, 31, "bad Date value"),                            # Bad date character
    (8, 35, "bad Date value"),                            # Bad date format
    (9, 39, "bad Dealer value 'Black'"),                  # Bad side
    (10, 43, "bad Vulnerable value 'E'"),                 # Wrong tag value
    (11, 47, "bad card 'v'"),                             # Bad rank
    (12, 51, "card SK is in both"),                       # Double SK
    (13, 55, "West 14"),                                  # West has 14 cards
    (14, 59, "West hand has 12 cards"),                   # West has 12 cards
    (15, 63, "West hand has 12 cards"),
    (16, 67, "more than one space"),                      # Double space
    (17, 71, "West hand has 14 cards"),
    (18, 75, "the Deal has no cards"),                    # No cards
    (19, 79, "bad Declarer value 'White'"),
    (20, 83, "bad Contract value '5Hearts'"),
    (21, 87, "bad Contract value '5NoTrump'"),            # Bad trump
    (22, 91, "bad Result value 'C-2'"),                   # Bad result format
    (23, 95, "got 'bad' outside a section"),              # Characters do not obey syntax
    (24, 102, "no Dealer tag"),                           # No dealer
    (25, 108, "Play has no Deal tag"),                    # No deal
    (26, 114, "Play has no Declarer tag"),                # No declarer
    (27, 120, "Play has no Contract tag"),                # No contract
    (28, 127, "tag Site is given again"),                 # Tag exists already
    (28, 156, "the dealer is North"),                     # Dealer north must bid first
    (29, 165, "the dealer is North"),
    (30, 177, "bad call '1'"),                            # Bad trump
    (31, 186, "call 1N is written 1NT"),                  # Bad trump
    (32, 195, "East bids 1C after 1D"),                   # Bad call: 1C
    (33, 204, "South doubles 1D by North, a bid of its own side"),
    (34, 214, "West redoubles its own side's double"),
    (35, 223, "two suffixes on 1C"),                      # Double suffix
    (35, 226, "two suffixes on 1D"),
    (35, 229, "two NAGs (a suffix is a NAG"),             # Double nag
    (35, 232, "two NAGs (a suffix is a NAG"),
    (35, 235, "NAG $7 on 1NT annotates a card"),          # Bad nag
    (35, 238, "NAG $256 on 2C"),
    (35, 241, "bad call '$'"),                            # Bad number
    (35, 244, "bad call '='"),                            # Bad note
    (35, 247, "note reference =44= on 2S"),
    (35, 250, "two note references on 2NT"),              # Double note
    (35, 250, "note reference =1= has no [Note \"1:...\"] after the auction"),  # No note for =1=
    (35, 250, "note reference =2= has no [Note \"2:...\"] after the auction"),  # No note for =2=
    (36, 258, "the Declarer tag is 'N'"),                 # Bad declarer
    (37, 266, "the Declarer tag is 'W'"),
    (38, 274, "the Declarer tag is '^S': '^' names the irregular declarer"),  # Bad declarer: ^N
    (39, 283, "the Contract tag is '1D'"),                # Bad trump
    (40, 290, "the Contract tag is 'Pass'"),
    (41, 298, "the Contract tag is 'Pass'"),
    (42, 306, "the Contract tag is '1CX'"),               # Bad risk
    (43, 314, "the Contract tag is '1C'"),
    (44, 328, "South plays CA on a spade lead while holding S2 (revoke)"),
    (45, 340, "two suffixes on SK"),
    (45, 343, "two suffixes on HK"),
    (45, 346, "two NAGs"),
    (45, 349, "two NAGs"),
    (46, 361, "NAG $1 on SQ annotates a call"),           # Bad nag
    (46, 363, "NAG $256 on HQ"),
    (46, 366, "bad card '='"),                            # Bad note
    (46, 368, "bad card '$'"),                            # Bad number
    (47, 381, "note reference =44= on SJ"),               # Bad note
    (47, 384, "two note references on HJ"),               # Double note
    (47, 384, "note reference =1= has no [Note \"1:...\"] after the play"),  # No note for =1=
    (47, 384, "note reference =2= has no [Note \"2:...\"] after the play"),  # No note for =2=
    (47, 387, "East plays DA, already played"),           # Bad card
    (47, 390, "S2 is in South's column but West holds it"),
    (48, 405, "bad card 'S1'"),
    (48, 408, "bad card 'HHT'"),
    (48, 411, "bad card 'KT'"),
    (49, 423, "^R marks D7 by North as a revoke, but North holds no spade"),  # Bad Revokes
    (49, 429, "two irregularity marks (^R ^R)"),          # Double illegal
    (49, 432, "two irregularity marks (^R ^L)"),          # Bad illegal
    (49, 435, "two irregularity marks (^L ^R)"),
    (49, 438, "^L marks CK by South as a lead out of turn, but North's C2 is marked ^L already"),  # Double illegal
    (50, 450, "^L marks SK by West as a lead out of turn, but West is on lead"),  # Bad lead
    (51, 462, "^R marks SK by West as a revoke, but it leads the trick"),  # Bad revoke
    (52, 474, "^R marks H3 by North as a revoke, but North holds no spade"),  # Bad revoke
    (53, 486, "^R marks S4 by East as a revoke, but it follows the spade lead"),  # Bad revoke
    (54, 495, "passed-out board"),                        # No declarer
    (55, 504, "no declarer"),
    (56, 529, "Note '0: illegal note index': note numbers go from 1 to 32"),
    (56, 531, "Note '33: illegal note index'"),
    (56, 534, "Note 32 is not referenced"),               # Unused note [32]
    (57, 564, "=3= has no [Note"),                        # No note for =3=
    (57, 569, "Note 32 is not referenced"),
    (58, 601, "^I marks 1S by East as an accepted insufficient bid, but it is not one"),  # Sufficient
    (59, 636, "gives 11 tricks, not 13"),                 # sum differs from 13
    (59, 654, "two NAGs"),                                # Double nag
    (59, 663, "NAG $2 on S3 annotates a call"),           # Bad nag
    (59, 670, "NAG $2 on D3 annotates a call"),
    (60, 690, "the Result tag says 4 tricks"),            # Bad result
    *((62, line, f"tag {name} is \"#\"") for line, name in  # Bad inheritance: 7x
      ((772, "Dealer"), (773, "Vulnerable"), (774, "Deal"), (775, "Declarer"), (776, "Contract"),
       (777, "Auction"), (779, "Play"))),
    *((game, line, f"bad {name} value") for game, first in ((63, 784), (64, 791), (65, 798), (66, 805))
      for line, name in zip(range(first, first + 4), ("Score", "ScoreIMP", "ScorePercentage", "ScoreRubber"))),
    (67, 812, "bad ScorePercentage value '-10'"),
    (68, 817, "line of 255 characters"),                  # Line too long
    (68, 820, "line of 255 characters"),
    (69, 825, "line of 255 characters"),
    (69, 828, "tab or control character"),                # Bad character
    (71, 865, "'*' after '+' (line 865)"),                # % EXPORT: a claim after the continuation mark
    *((72, line, "has no number") for line in (875, 877, 879, 881, 883)),  # Bad number
    (73, 912, "bad card 'CS'"),                           # Bad rank
    (73, 914, "bad card 'DS'"),
    (74, 955, "tag Note has no closing quote"),           # non ISO 8859/1 character, line too long
    (74, 955, "line of 350 characters: PBN lines hold at most 254"),
    (74, 957, "tag Note has no closing quote"),           # missing quote
]
ERRORS_20 = [
    (1, 7, "bad Scoring value 'IMP;??'"),                 # New Scoring fields
    (2, 10, "bad Scoring value ';'"),
    (3, 15, "Vulnerable 'All' disagrees with ScoreRubberHistory"),
    (4, 19, "Vulnerable 'All' disagrees with ScoreRubberHistory"),
    (5, 23, "Vulnerable 'None' disagrees"),
    (6, 27, "Vulnerable 'None' disagrees"),
    (7, 40, "'+' after '+'"),                             # Double '+'
    (8, 53, "trick 4: West plays S7 after '+', which stands for South's card"),  # Card after '+'
    (9, 66, "'+' after '+'"),
    (10, 79, "'Pass' after '+'"),                         # Call after '+'
    (11, 92, "'6S' after '+' (line 91)"),
    (12, 97, "tag ActionTable has no closing quote"),     # Wrong syntax in width specifier
    (13, 100, "tag ActionTable has no closing quote"),
    (14, 103, "bad column 'Call\\\\L'"),
    (15, 108, "a ';' comment at the end of a table row"),  # No comment allowed in table elements
    (16, 113, "unexpected '%' in a table row"),           # Forbidden characters in table elements
    (17, 117, "a tag inside a table row"),
    (18, 121, "unexpected ']' in a table row"),
    (19, 125, "brace comment inside a table row"),
    (20, 129, "unexpected '}' in a table row"),
    (21, 143, "ActionTable row has 4 cell(s) but the header has 5"),  # Missing table elements
]
ERRORS_21 = [
    (1, 7, "bad OptimumScore value '100'"),               # Bad tag value
    (2, 11, "bad OptimumScore value 'EW'"),               # Bad number
]
CASES = [("pbn-reference-errors_10.pbn", *c) for c in ERRORS_10] + [
    ("pbn-reference-errors_20.pbn", *c) for c in ERRORS_20] + [("pbn-reference-errors_21.pbn", *c) for c in ERRORS_21]


@pytest.mark.parametrize("name, game, line, words", CASES, ids=[f"{c[0][14:-4]}-g{c[1]}-l{c[2]}" for c in CASES])
def test_deliberate_error_reported_on_its_line(name, game, line, words):
    found = reports(name, game)
    assert any(n == line and words in message for n, message in found), found


def test_every_error_file_is_refused():
    for name in ("pbn-reference-errors_10.pbn", "pbn-reference-errors_20.pbn", "pbn-reference-errors_21.pbn"):
        with pytest.raises(ParseError):
            parse_pbn(decode((REALDATA / name).read_bytes(), name), name)
