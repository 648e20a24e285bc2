"""Game.copy and Tag.copy (what the scored PBN is written onto) are deepcopy's equal on every real PBN
file, and a copy changed leaves the game as read."""
from __future__ import annotations

import copy

import pytest

from bridgeproc.io.pbn.reader import read_pbn
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # reads every real PBN file

#: The PBN standard's files of errors are refused by the reader (tests/io/test_pbn_reference_errors.py).
FILES = sorted(p.name for p in REALDATA.glob("*.pbn") if not p.name.startswith("pbn-reference-errors"))
#: What a tag holds (instance attributes and the class-level defaults they override).
ATTRIBUTES = ("name", "value", "line", "inherited", "tokens", "token_lines", "columns", "row_span", "_row_lines",
              "cells", "_rows")


def _state(tag) -> dict:
    """Everything a tag holds, its notes' too, as plain values (rows made from the flat cells first)."""
    _ = tag.rows, tag.row_lines
    state = {k: getattr(tag, k) for k in ATTRIBUTES}
    state["notes"] = [_state(n) for n in tag.notes] if tag.notes is not None else None
    return state


@pytest.mark.parametrize("name", FILES)
def test_a_copy_holds_what_deepcopy_holds(name):
    pbn = read_pbn(REALDATA / name)
    for game in pbn.games:
        mine, deep = game.copy(), copy.deepcopy(game)
        extra = {k for t in game.tags for k in vars(t)} - set(ATTRIBUTES) - {"notes"}
        assert extra == set(), f"Tag.copy does not copy {extra}"
        assert [_state(t) for t in mine.tags] == [_state(t) for t in deep.tags]
        assert mine.line == deep.line and mine.comments == deep.comments


def test_changing_a_copy_leaves_the_game_as_read(tmp_path):
    path = tmp_path / "one.pbn"
    path.write_text('[Board "1"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
                    '[Auction "N"]\n1S Pass 2S Pass\nPass Pass\n'
                    '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Score_NS\\5R"]\n 1  2 2S    110\n 3  4 3S    140\n',
                    encoding="utf-8")
    game = read_pbn(path).games[0]
    before = [_state(t) for t in game.tags]
    other = game.copy()
    table = other.tag("ScoreTable")
    table.rows[0][3] = "-50"
    table.value = "changed"
    other.tag("Auction").tokens.append("X")
    other.tags.append(other.tags[0].copy())
    assert [_state(t) for t in game.tags] == before
