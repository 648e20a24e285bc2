"""parse_pbn and the garbage collector: small files leave it alone, large ones pause it and put it back."""
import gc

import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn import reader
from bridgeproc.io.pbn.reader import parse_pbn

GAME = ('[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
        '[Deal "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"]\n')
#: 1.2 MB of comment lines: a text large enough for the pause (reader.GC_PAUSE_FROM, 1 MB), one game.
PAD = ("% " + "x" * 97 + "\n") * 12_000


@pytest.fixture
def collecting(monkeypatch):
    """gc.isenabled() as seen inside each parse (when the lexer runs)."""
    seen = []
    lex = reader.lex

    def spying(*args, **kwargs):
        seen.append(gc.isenabled())
        return lex(*args, **kwargs)

    monkeypatch.setattr(reader, "lex", spying)
    assert gc.isenabled()
    return seen


def test_small_file_leaves_the_collector_on(collecting):
    assert parse_pbn(GAME, "club.pbn").boards["board"].tolist() == [1]
    assert collecting == [True]
    assert gc.isenabled()


def test_large_file_pauses_the_collector_and_switches_it_back_on(collecting):
    text = GAME + PAD
    assert parse_pbn(text, "big.pbn").boards["board"].tolist() == [1]
    with pytest.raises(ParseError, match="no closing"):
        parse_pbn(text + '[Board "2"\n', "broken.pbn")
    assert collecting == [False, False]
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off(collecting):
    gc.disable()
    try:
        parse_pbn(GAME + PAD, "big.pbn")
        parse_pbn(GAME, "club.pbn")
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert collecting == [False, False]
