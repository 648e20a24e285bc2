"""Hostile PBN texts (issue 15: nothing lost in silence), each with its exact outcome: accepted with
its notes (and the auction checker's problems), or refused with every problem and its line."""
from __future__ import annotations

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.reader import parse_pbn
from bridgeproc.validate.rules import check_games

DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
DEAL2 = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
#: A five-tag game, lines 1-5.
G = f'[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'

CATALOGUE = [
    ('second deal', G + f'[Deal "{DEAL2}"]\n',
     'refused', [(6, "tag Deal is given twice in one game: 'N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85' at line 5 and 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765' here; keep one (a missing blank line between two games?)")]),
    ('board then board', '[Event "Club"]\n[Board "2"]\n[Deal "%s"]\n[Board "27"]\n' % DEAL,
     'refused', [(4, "tag Board is given twice in one game: '2' at line 2 and '27' here; keep one (a missing blank line between two games?)")]),
    ('merged games', G + f'[Event "Club"]\n[Board "2"]\n[Dealer "E"]\n[Vulnerable "NS"]\n[Deal "{DEAL2}"]\n',
     'refused', [(7, "tag Board is given twice in one game: '1' at line 2 and '2' here; keep one (a missing blank line between two games?)"), (8, "tag Dealer is given twice in one game: 'N' at line 3 and 'E' here; keep one (a missing blank line between two games?)"), (9, "tag Vulnerable is given twice in one game: 'None' at line 4 and 'NS' here; keep one (a missing blank line between two games?)"), (10, "tag Deal is given twice in one game: 'N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85' at line 5 and 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765' here; keep one (a missing blank line between two games?)")]),
    ('same board twice', '[Event "Club"]\n[Board "1"]\n[Board "1"]\n[Deal "%s"]\n' % DEAL,
     'accepted', [(3, "tag Board is given again with the same value '1' (first at line 2); read once")]),
    ('only event', '[Event "Club night"]\n',
     'refused', [(1, "no boards: the file's 1 game(s) hold only Event tags, no Board, Deal, result or table; export the hand record or the results as PBN")]),
    ('only events', '[Event "A"]\n[Site "B"]\n\n[Event "C"]\n',
     'refused', [(1, "no boards: the file's 2 game(s) hold only Event, Site tags, no Board, Deal, result or table; export the hand record or the results as PBN")]),
    ('board without deal', '[Event "Club"]\n[Board "7"]\n[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n',
     'accepted', [(2, 'board 7 has no Deal tag: no hand record for it (its results are scored without the cards)')]),
    ('unknown tag', G + '[MyClubTag "x"]\n',
     'accepted', [(6, "tag MyClubTag is not a PBN tag: a producer's own, kept as information")]),
    ('unknown tag twice', G + '[MyClubTag "x"]\n\n' + G.replace('"1"', '"2"').replace(DEAL, DEAL2) + '[MyClubTag "y"]\n',
     'accepted', [(6, "tag MyClubTag is not a PBN tag (2 games): a producer's own, kept as information")]),
    ('row comment', G + '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]\n1 2 4S N 10 ; good\n',
     'accepted', [(7, "a ';' comment at the end of a table row: PBN allows no comment inside a row; it is ignored")]),
    ('percent in row', G + '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result"]\n1 2 4S N %\n',
     'refused', [(7, "unexpected '%' in a table row; quote values that contain '%'")]),
    ('bad scoring', G + '[Scoring "MP;;"]\n',
     'refused', [(6, "bad Scoring value 'MP;;'; write scoring names separated by ';', e.g. MP, IMP;Cross or IMP;Butler-2;Mean")]),
    ('vul vs rubber', '[Board "1"]\n[Vulnerable "None"]\n[ScoreRubberHistory "NS 0 0 / 100 0 EW 0 0 / 0 0"]\n',
     'refused', [(3, "Vulnerable 'None' disagrees with ScoreRubberHistory 'NS 0 0 / 100 0 EW 0 0 / 0 0' (which makes it NS); lines 2 and 3: correct one of them")]),
    ('call after plus', G + '[Auction "N"]\n1S Pass + Pass\n',
     'refused', [(7, "'Pass' after '+' (line 7): '+' means the Auction continues later, so it is the section's last token")]),
    ('card after plus', G + '[Declarer "S"]\n[Contract "4H"]\n[Play "W"]\nSK H3 S4 S3\n+ - - -\nC5 C2 C6 CK\n',
     'refused', [(11, "'C5' after '+' (line 10): '+' means the Play continues later, so it is the last card played")]),
    ('two plus in play', G + '[Declarer "S"]\n[Contract "4H"]\n[Play "W"]\nSK H3 S4 S3\n+ + - -\n',
     'refused', [(10, "'+' after '+' (line 10): '+' means the Play continues later, so it is the last card played")]),
    ('insufficient marked sufficient', G + '[Auction "N"]\n1S ^I 2S AP\n',
     'accepted', [(7, '^I marks 2S by East as an accepted insufficient bid, but it is not one (sufficient after 1S); remove the ^I')]),
    ('double mark', G + '[Declarer "S"]\n[Contract "4H"]\n[Play "W"]\n^R ^L SK H3 S4 S3\n*\n',
     'refused', [(9, 'two irregularity marks (^R ^L) before one card: mark a card ^R (revoke) or ^L (lead out of turn), once')]),
    ('long line', G + '{' + "x" * 300 + '}\n',
     'accepted', [(6, 'line of 302 characters: PBN lines hold at most 254 and the line end (read as it is)')]),
    ('many long lines', G + "".join('{' + "x" * 300 + '}\n' for _ in range(23)),
     'accepted', [(6 + k, 'line of 302 characters: PBN lines hold at most 254 and the line end (read as it is)')
                  for k in range(20)] + [(26, 'and 3 more lines over 254 characters from here on')]),
    ('note without number', G + '[Auction "N"]\n1S AP\n[Note "weak"]\n',
     'accepted', [(8, 'Note \'weak\' has no number: write [Note "n:text"] (n from 1 to 32)')]),
    ('unused note', G + '[Auction "N"]\n1S AP\n[Note "1:weak"]\n',
     'accepted', [(8, 'Note 1 is not referenced (no =1= in the auction or play)')]),
    ('inherited deal', G + '\n[Event "Club"]\n[Board "1"]\n[Deal "#"]\n',
     'accepted', [(9, 'tag Deal is "#": a game\'s own Deal copied from the previous game (PBN\'s verifier refuses this inheritance); write it')]),
    ('uneven hands', '[Board "1"]\n[Deal "N:AKQJT.T98.765.43 98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n',
     'refused', [(2, "bad Deal: the East hand has 12 cards; every hand needs 13 (or '-' if unknown)")]),
    ('no cards', '[Board "1"]\n[Deal "N:- - - -"]\n',
     'accepted', [(2, "the Deal has no cards (every hand '-'): no hand record")]),
    ('bad score', G + '[Score "NS 4x0"]\n',
     'refused', [(6, "bad Score value 'NS 4x0'; write a whole number, or the side and its score: NS 420, NS -100 EW 100")]),
    ('1N call', G + '[Auction "N"]\n1N AP\n',
     'accepted', [(7, 'call 1N is written 1NT in PBN; read as 1NT')]),
]


@pytest.mark.parametrize("text, outcome, reports", [c[1:] for c in CATALOGUE], ids=[c[0] for c in CATALOGUE])
def test_hostile_text_outcome(text, outcome, reports):
    try:
        pbn = parse_pbn(text, "club.pbn")
    except ParseError as exc:
        assert outcome == "refused"
        assert exc.problems == reports  # type: ignore[attr-defined]
        assert str(exc).startswith(f"club.pbn:{reports[0][0]}: {reports[0][1]}")
        return
    assert outcome == "accepted"
    assert pbn.notes + [(int(r.line), r.message) for r in check_games(pbn).itertuples()] == reports


def test_catalogue_is_large():
    assert len(CATALOGUE) >= 20
