"""Results taken from a game's Auction and Play where its tags are empty (validate/records.py)."""
from __future__ import annotations

import re

import pytest

from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.pipeline.inputs import read_inputs
from bridgeproc.validate.records import fill_from_records
from bridgeproc.validate.rules import check_games
from tests.conftest import REALDATA

HEAD = """[Event "Records"]
[Site "Club"]
[Date "2026.12.01"]
[Board "1"]
[West "W1"]
[North "N1"]
[East "E1"]
[South "S1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"]
"""
#: The play of tests/data/rules/good.pbn game 1: 3NT by North, East leads H2; North's side wins
#: tricks 1 (HA), 2 (CK by South), 3 (SK), 4 (CQ), 6 (DA), 7 (SA), 8 (H9): 7 tricks, counted by hand.
PLAY = """[Play "E"]
H2 H8 HQ HA
CT CA CK C2
SQ S2 S7 SK
C8 CQ CJ C4
HK C3 C9 C7
DK DJ D2 DA
DQ SA C6 C5
HJ H7 H3 H9
D4 DT D3 D9
H5 H4 HT H6
S5 SJ S3 ST
D8 D6 S6 D5
D7 S9 S4 S8
"""
AUCTION = """[Auction "N"]
1NT Pass 3NT Pass
Pass Pass
"""


def _pbn(tmp_path, text: str):
    path = tmp_path / "records.pbn"
    path.write_text(text, encoding="utf-8")
    return path


def _row(tmp_path, text: str) -> dict:
    inputs = read_inputs([_pbn(tmp_path, text)])
    raw = inputs.frames()[0]
    assert len(raw) == 1, raw
    return {**raw.iloc[0].to_dict(), "notes": [n["message"] for n in inputs.notes]}


CASES = [
    # (tags after the deal, expected contract, declarer, result, lead, words of the notes)
    ('[Declarer ""]\n[Contract ""]\n[Result "7"]\n' + AUCTION + PLAY, "3NT", "N", "7", "H2",
     ["contract read from the complete Auction", "declarer read from the complete Auction", "opening lead read"]),
    ('[Declarer "N"]\n[Contract "3NT"]\n[Result ""]\n' + AUCTION + PLAY, "3NT", "N", "7", "H2",
     ["declarer's tricks counted from the complete Play", "opening lead read"]),
    ('[Declarer "N"]\n[Contract "3NT"]\n[Result "7"]\n' + PLAY, "3NT", "N", "7", "H2", ["opening lead read"]),
    ('[Contract ""]\n[Result ""]\n[Auction "N"]\nPass Pass Pass Pass\n', "Pass", None, None, None,
     ["contract read from the complete Auction"]),
]


@pytest.mark.parametrize("tags, contract, declarer, result, lead, words", CASES)
def test_records_fill_the_empty_tags(tmp_path, tags, contract, declarer, result, lead, words):
    row = _row(tmp_path, HEAD + tags)
    got = {k: (None if row[k] is None or row[k] != row[k] else row[k]) for k in ("contract", "declarer", "result", "lead")}
    assert got == {"contract": contract, "declarer": declarer, "result": result, "lead": lead}
    for word in words:
        assert any(word in note for note in row["notes"]), (word, row["notes"])


def test_the_filled_game_is_scored_as_the_auction_and_play_say(tmp_path, runner):
    from bridgeproc.cli.main import cli
    path = _pbn(tmp_path, HEAD + '[Declarer ""]\n[Contract ""]\n[Result ""]\n' + AUCTION + PLAY)
    inputs = read_inputs([path])
    raw = inputs.frames()[0]
    # 3NT by North making 7 tricks, not vulnerable: two down, -100 to NS (Law 77)
    assert raw[["contract", "declarer", "result", "lead"]].iloc[0].tolist() == ["3NT", "N", "7", "H2"]
    result = runner.invoke(cli, ["check", str(path)])
    assert result.exit_code == 0, result.output


def test_written_tags_win_and_disagreements_are_problems(tmp_path):
    """Where the tags are written they are kept; check_games names the disagreement."""
    text = HEAD + '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n' + AUCTION + PLAY
    row = _row(tmp_path, text)
    assert row["result"] == "9"
    problems = check_games(read_pbn(_pbn(tmp_path, text)))
    assert problems["message"].tolist() == ["declarer's side won 7 tricks in the play record but the Result tag says 9"]


def test_an_auction_alone_is_a_bidding_problem_not_a_result(tmp_path):
    text = HEAD + '[Auction "N"]\n1NT Pass 3NT AP\n'
    inputs = read_inputs([_pbn(tmp_path, text)])
    assert len(inputs.frames()[0]) == 0


def test_a_table_with_neither_contract_nor_result_is_named_in_a_note(tmp_path):
    played = HEAD + '[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n'
    unplayed = HEAD.replace('[North "N1"]', '[North "N2"]') + '[Declarer ""]\n[Contract ""]\n[Result ""]\n'
    inputs = read_inputs([_pbn(tmp_path, played + "\n" + unplayed)])
    assert len(inputs.frames()[0]) == 1
    notes = [n for n in inputs.notes if "neither a contract nor a result" in n["message"]]
    assert [(n["line"], n["message"][:56]) for n in notes] == [("28", "1 game(s) have neither a contract nor a result (lines 28")]


def test_an_incomplete_auction_fills_nothing(tmp_path):
    text = HEAD + '[Declarer ""]\n[Contract ""]\n[Result "7"]\n[Auction "N"]\n1NT Pass 3NT Pass\n'
    pbn = read_pbn(_pbn(tmp_path, text))
    filled, notes = fill_from_records(pbn.results, pbn)
    assert filled["contract"].isna().all() and notes == []
    assert "auction" in " ".join(check_games(pbn)["message"]).lower()


# --- play records cut short without a claim mark (BBO via pbntools) ------------------------

SHORT = "\n".join(PLAY.splitlines()[:6]) + "\n"  # the Play tag and tricks 1-5: North's side won 4


@pytest.mark.parametrize("result, problems", [
    ("7", []),
    ("12", []),
    ("13", ["the Result tag says 13 tricks but after the claim at trick 6 declarer's side had won 4 of 5, so the "
            "result must be 4 to 12"]),
    ("", []),  # no Result: an unfinished table, an average with a note (tests/pipeline/test_unfinished_tables.py)
])
def test_a_short_play_with_a_result_is_a_claim(tmp_path, result, problems):
    text = HEAD + f'[Declarer "N"]\n[Contract "3NT"]\n[Result "{result}"]\n' + SHORT
    assert check_games(read_pbn(_pbn(tmp_path, text)))["message"].tolist() == problems


def test_unknown_cards_after_the_last_trick_are_a_claim(tmp_path):
    text = HEAD + '[Declarer "N"]\n[Contract "3NT"]\n[Result "8"]\n' + SHORT + "DK - - -\n- - - -\n"
    pbn = read_pbn(_pbn(tmp_path, text))
    assert check_games(pbn).empty
    inputs = read_inputs([_pbn(tmp_path, text)])
    assert any(re.match(r"1 play record\(s\) stop before trick 13 without '\*'", n["message"]) for n in inputs.notes)


# --- the real files -------------------------------------------------------------------------

def _first_cards(path) -> list[str]:
    """The first card after each [Play] tag, read from the text itself (the opening lead is the
    first column, the Play tag's seat)."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [lines[i + 1].split()[0] for i, line in enumerate(lines) if line.startswith("[Play ")]


@pytest.mark.e2e  # reads two whole real files
@pytest.mark.parametrize("name, leads", [
    ("ebl-2021-online-qual-open-r2-teams.pbn", 278),
    ("bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn", 572),
])
def test_every_opening_lead_of_the_real_files_is_read_from_the_play(name, leads):
    path = REALDATA / name
    raw = read_inputs([path]).frames()[0]
    got = raw["lead"].dropna().tolist()
    assert len(got) == leads
    assert sorted(got) == sorted(_first_cards(path))
    assert check_games(read_pbn(path)).empty
