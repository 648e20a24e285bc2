"""The teams PBN export keeps every game's players, auction, play and double dummy, writes an
unplayed board as PBN allows, and reads back without loss by bridgeproc and by endplay (issue 16)."""
import openpyxl
import pytest

from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.pipeline.teams import process_teams
from bridgeproc.report.teams_files import NOT_PLAYED
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

endplay_pbn = pytest.importorskip("endplay.parsers.pbn")

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"
SEATS = ("North", "East", "South", "West")
#: Tags copied unchanged from each source game (the result tags are rewritten from the scoring).
KEPT = ("Event", "Site", "Date", "Board", *SEATS, "Dealer", "Vulnerable", "Deal", "Scoring", "Table",
        "DoubleDummyTricks", "OptimumScore", "Competition")


def _key(game) -> tuple:
    return (game.get("Board"), *(game.get(seat) for seat in SEATS))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ebl")
    out, book = folder / "ebl.pbn", folder / "ebl.xlsx"
    session = process_teams([EBL], [out, book])
    return session, out, book


@pytest.fixture(scope="module")
def source():
    return {_key(g): g for g in read_pbn(EBL).games}


def _rooms(path):
    return [g for g in read_pbn(path).games if g.get("HomeTeam")]


def test_every_game_read_back_by_bridgeproc(exported, source):
    _, out, _ = exported
    rooms = _rooms(out)
    assert len(source) == len(rooms) == 299
    assert {_key(g) for g in rooms} == set(source)
    assert sum(bool(g.get(seat)) for g in rooms for seat in SEATS) == 299 * 4


def test_auction_play_and_double_dummy_token_for_token(exported, source):
    _, out, _ = exported
    auctions = plays = 0
    for game in _rooms(out):
        given = source[_key(game)]
        assert [(n, game.get(n)) for n in KEPT] == [(n, given.get(n)) for n in KEPT]
        for name in ("Auction", "Play"):
            tag, was = game.tag(name), given.tag(name)
            assert (tag is None) == (was is None)
            if tag is not None:
                assert (tag.value, tag.tokens) == (was.value, was.tokens)
                assert [n.value for n in tag.notes or ()] == [n.value for n in was.notes or ()]
        auctions += game.tag("Auction") is not None
        plays += game.tag("Play") is not None
        table, was_table = game.tables("OptimumResultTable"), given.tables("OptimumResultTable")
        assert [(t.value, t.rows) for t in table] == [(t.value, t.rows) for t in was_table]
    assert (auctions, plays) == (279, 278)  # board 11 passed out at one table: an Auction, no Play


def test_result_tags_from_the_scoring(exported, source):
    _, out, _ = exported
    rooms = _rooms(out)
    played = [g for g in rooms if g.get("Contract") != "?"]
    assert len(played) == 279
    for game in played:  # the contract, result, score and published ScoreIMP as in the input
        given = source[_key(game)]
        # (the contract in PBN's own spelling: the input's 5Dx is written 5DX)
        # (ScoreIMP as numbers: the input writes "NS 0 EW -0")
        assert [game.get(n).upper() for n in ("Contract", "Declarer", "Result", "Score")] == \
            [given.get(n).upper() for n in ("Contract", "Declarer", "Result", "Score")]
        imps = [float(x) for x in game.get("ScoreIMP").split()[1::2]]
        if game.get("Board") == "20" and "TURKEY" in (game.get("HomeTeam"), game.get("VisitTeam")):
            assert imps == [0, 0]  # in one room only: 0 IMPs by convention (the input says -1)
        else:
            assert imps == [float(x) for x in given.get("ScoreIMP").split()[1::2]]
    # without a Room tag the input's HomeTeam sits NS; the export names the match's home team and the room
    austria = [g for g in rooms if g.get("Board") == "11" and "AUSTRIA" in (g.get("HomeTeam"), g.get("VisitTeam"))]
    assert sorted((g.get("Room"), g.get("HomeTeam"), g.get("VisitTeam"), g.get("Round")) for g in austria) == [
        ("Closed", "AUSTRIA", "DENMARK", "1"), ("Open", "AUSTRIA", "DENMARK", "1")]


def test_unplayed_match_written_as_unknown_contract(exported):
    _, out, _ = exported
    text = out.read_text(encoding="utf-8")
    assert '"NP"' not in text and text.count(NOT_PLAYED) == 20
    unplayed = [g for g in _rooms(out) if g.get("Contract") == "?"]
    assert len(unplayed) == 20
    assert {(g.get("HomeTeam"), g.get("VisitTeam")) for g in unplayed} == {("WALES", "ITALY")}
    assert all(g.get("Declarer") == g.get("Result") == "?" and g.tag("Score") is None
               and g.tag("ScoreIMP") is None and g.get("Deal") for g in unplayed)


def test_rescored_from_the_export_as_from_the_input(exported):
    session, out, _ = exported
    again = process_teams([out])
    assert len(again.results) == 299
    mine = again.matches.set_index("match")[["status", "imps_home", "imps_away", "vp_home"]]
    first = session.matches.set_index("match")[["status", "imps_home", "imps_away", "vp_home"]]
    assert mine.sort_index().equals(first.sort_index())
    assert mine.loc["R1 WALES v ITALY", "status"] == "not played"
    assert again.standings[["team", "rank", "total"]].equals(session.standings[["team", "rank", "total"]])
    assert again.results["lead"].notna().sum() == 278


def test_endplay_reads_every_game_name_auction_and_play(exported):
    _, out, _ = exported
    with open(EBL, encoding="utf-8") as f:
        given = endplay_pbn.load(f)
    with open(out, encoding="utf-8") as f:
        boards = endplay_pbn.load(f)
    assert len(given) == 299 and len(boards) == 300  # the last game carries the match and total tables

    def view(board):
        # endplay keeps PBN escapes as written: a Note written 2, two backslashes, 3 in the input (the
        # text 2, backslash, 3) is written with one backslash by the export (none is needed before a digit)
        names = tuple(board.info.get(seat) for seat in SEATS)
        calls = [repr(c).replace(r"\\\\", r"\\") for c in board.auction]
        return (board.board_num, names), (calls, [repr(c) for c in board.play], str(board.deal))
    before = dict(map(view, given))
    after = dict(map(view, boards[:-1]))
    assert len(before) == 299 and after == before
    assert sum(bool(b.info.get(seat)) for b in boards for seat in SEATS) == 299 * 4
    assert (sum(bool(b.auction) for b in boards), sum(bool(b.play) for b in boards)) == (279, 278)
    unplayed = [b for b in boards[:-1] if b.contract is None]
    assert len(unplayed) == 20  # an unknown contract, not a passed-out board
    assert sum(str(b.contract) == "Pass" for b in boards) == sum(str(b.contract) == "Pass" for b in given) - 20


def test_leads_from_the_play_in_results_and_workbook(exported, source):
    session, _, book = exported
    r = session.results
    assert r["lead"].notna().sum() == 278
    first_cards = {_key(g): g.tag("Play").tokens[0] for g in source.values() if g.tag("Play") is not None}
    leads = {_key(g): lead for g, lead in zip(r["game"], r["lead"]) if g.tag("Play") is not None}
    assert leads == first_cards
    workbook = openpyxl.load_workbook(book, read_only=True)  # read-only keeps the file open until closed
    try:
        rows = list(workbook["Travellers"].iter_rows(values_only=True))
    finally:
        workbook.close()
    header = next(i for i, row in enumerate(rows) if row and "Lead" in row)
    at = rows[header].index("Lead")
    shown = [row[at] for row in rows[header + 1:] if row and len(row) > at and row[at] not in (None, "", "Lead")]
    assert len(shown) == 278
