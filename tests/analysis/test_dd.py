"""Double-dummy tables and par against the values published in real PBN files.

The files are read here with small regexes, independently of bridgeproc's PBN
reader. Solving all 350 distinct deals of the 11 files that carry double-dummy
tags takes over a minute on two cores, so by default the BridgeComposer hand
record is solved in full (15 boards) and every other file on a deterministic
sample of 6 distinct deals (evenly spaced in file order; every game with such a
deal is checked); set BRIDGEPROC_DD_FULL=1 to solve them all. Par is checked on
every game of every file anyway, from the file's own double-dummy table (that
needs no solving).

Two published par scores differ from DDS's, on purpose (see KNOWN_PAR_DIFFERENCES).
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import endplay.dds
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeproc.analysis import dd as ddmod
from bridgeproc.analysis.dd import (
    DD_COLUMNS,
    DDError,
    DDUnavailableError,
    clear_cache,
    dd_tables,
    decode_dd_hex,
    encode_dd_hex,
    normalize_deal,
    parse_optimum_result_table,
)
from bridgeproc.analysis.par import par, parse_optimum_score
from bridgeproc.errors import SetupError
from tests.conftest import NOT_YET_READ, QUICK, REALDATA

pytestmark = pytest.mark.dd

FULL = os.environ.get("BRIDGEPROC_DD_FULL") == "1"
SAMPLE = 6

# --------------------------------------------------------------------------- the files, by regex

TAG = r'^\[{}\s+"([^"]*)"\]'
ORT_SECTION = re.compile(r'^\[OptimumResultTable\s+"[^"]*"\][^\n]*\n((?:[^\[\n%][^\n]*\n?)*)', re.M)
ORT_ROW = re.compile(r"^\s*([NESW])\s+(NT|[SHDC])\s+(\d+)\s*$", re.M)
HEX_SEATS, HEX_STRAINS = "NSEW", ("NT", "S", "H", "D", "C")


def tag(game: str, name: str) -> str | None:
    m = re.search(TAG.format(name), game, re.M)
    return m.group(1) if m else None


def read_games(path: Path) -> list[dict]:
    text = path.read_bytes().decode("latin-1").replace("\r\n", "\n")
    games = []
    for i, game in enumerate(re.split(r"\n[ \t]*\n", text)):
        deal = tag(game, "Deal")
        if not deal or not (tag(game, "Board") or "").isdigit():
            continue  # the PBN standard's test files have games without a Board (import format)
        ort = ORT_SECTION.search(game)
        games.append({
            "id": f"{path.stem}#{i}-bd{tag(game, 'Board')}",
            "board": int(tag(game, "Board")),
            "deal": deal,
            "dealer": tag(game, "Dealer"),
            "vul": tag(game, "Vulnerable"),
            "hex": tag(game, "DoubleDummyTricks"),
            "ort": ORT_ROW.findall(ort.group(1)) if ort else None,
            "optimum": tag(game, "OptimumScore"),
        })
    return games


def hex_table(hex20: str) -> dict[str, int]:
    """The test's own reading of DoubleDummyTricks: seats N S E W, strains NT S H D C."""
    cells = [f"dd_{seat}_{strain}" for seat in HEX_SEATS for strain in HEX_STRAINS]
    return {cell: int(ch, 16) for cell, ch in zip(cells, hex20)}


def ort_table(rows: list[tuple[str, str, str]]) -> dict[str, int]:
    return {f"dd_{seat}_{strain}": int(tricks) for seat, strain, tricks in rows}


def ns_optimum(text: str) -> int:
    """The test's own reading of the OptimumScore forms in these files: 'NS n' or 'EW n'."""
    side, score = re.fullmatch(r"(NS|EW) ([+-]?\d+)", text).groups()
    return int(score) if side == "NS" else -int(score)


def sample(name: str, games: list[dict]) -> list[dict]:
    deals = list(dict.fromkeys(g["deal"] for g in games))
    if not FULL and name != HAND_RECORD and len(deals) > SAMPLE:
        deals = [deals[round(i * (len(deals) - 1) / (SAMPLE - 1))] for i in range(SAMPLE)]
    chosen = set(deals)
    return [g for g in games if g["deal"] in chosen]


HAND_RECORD = "bkp-cz-2022-10-19-handrecord-bridgecomposer.pbn"
#: Producers that write every double-dummy count below 7 as 1 (realdata/README.md): their
#: tables are checked by :func:`test_ones_stand_for_any_count_below_seven`, not copied.
ONES_BELOW_SEVEN = ("winchester-bc-2026-07-09-thursday-pairs-bridgewebs.pbn",
                    "lexington-2016-01-28-handrecord-dealmasterpro.pbn")
#: Every published table (a quick run deselects this module: only the hand record is read then).
ALL_GAMES = {
    path.name: games
    for path in sorted(REALDATA.glob("*.pbn"))
    if path.name not in (*NOT_YET_READ, *ONES_BELOW_SEVEN) and (not QUICK or path.name == HAND_RECORD)
    if (games := [g for g in read_games(path) if g["hex"] or g["ort"] or g["optimum"]])
}
SOLVED_GAMES = [g for name, games in ALL_GAMES.items() for g in sample(name, games)]
PAR_GAMES = [g for games in ALL_GAMES.values() for g in games if (g["hex"] or g["ort"]) and g["optimum"]]


def frame(games: list[dict]) -> pd.DataFrame:
    return pd.DataFrame({
        "board": pd.array([g["board"] for g in games], dtype="int64"),
        "dealer": pd.array([g["dealer"] for g in games], dtype="string"),
        "vul": pd.array([g["vul"] for g in games], dtype="string"),
        "deal": pd.array([g["deal"] for g in games], dtype="string"),
    }, index=[g["id"] for g in games])


@pytest.fixture(scope="module")
def solved() -> pd.DataFrame:
    """Every sampled game, solved in one dd_tables call (with a private cache), then par."""
    return par(dd_tables(frame(SOLVED_GAMES), cache={}))


@pytest.fixture(scope="module")
def par_from_files() -> pd.DataFrame:
    """Every game with a published table, par computed from that table (nothing solved)."""
    tables = [hex_table(g["hex"]) if g["hex"] else ort_table(g["ort"]) for g in PAR_GAMES]
    boards = frame(PAR_GAMES).assign(**{c: pd.array([t[c] for t in tables], dtype="Int8") for c in DD_COLUMNS})
    return par(boards)


def test_realdata_files_found():
    assert HAND_RECORD in ALL_GAMES and len(ALL_GAMES[HAND_RECORD]) == 15
    # files with OptimumResultTable / DoubleDummyTricks / OptimumScore that are right
    assert len(ALL_GAMES) == 13
    # the hand record is never sampled: all 15 boards are solved
    assert sum(g["id"].startswith(HAND_RECORD[:-4]) for g in SOLVED_GAMES) == 15
    assert all(g["hex"] or g["ort"] for g in SOLVED_GAMES)


@pytest.mark.parametrize("game", SOLVED_GAMES, ids=lambda g: g["id"])
def test_dd_table_matches_file(solved, game):
    row = solved.loc[game["id"]]
    computed = {c: int(row[c]) for c in DD_COLUMNS}
    assert game["hex"] or game["ort"]
    if game["hex"]:
        assert computed == hex_table(game["hex"])
        assert encode_dd_hex(row) == game["hex"].lower()
    if game["ort"]:
        assert len(game["ort"]) == 20
        assert computed == ort_table(game["ort"])


@pytest.mark.parametrize("name", ONES_BELOW_SEVEN)
def test_ones_stand_for_any_count_below_seven(name):
    """BridgeWebs and Dealmaster Pro write 0-6 tricks as 1: solved tables agree with every
    count of 7 or more, and each 1 stands for a true count below 7."""
    games = [g for g in read_games(REALDATA / name) if g["hex"] or g["ort"]]
    solved = dd_tables(frame(games), cache={})
    ones = right = 0
    for game in games:
        published = hex_table(game["hex"]) if game["hex"] else ort_table(game["ort"])
        for column, tricks in published.items():
            true = int(solved.loc[game["id"], column])
            if tricks >= 7:
                assert true == tricks, (game["id"], column)
            else:
                assert tricks == 1 and true < 7, (game["id"], column)
            ones += true != tricks
            right += true == tricks
    assert ones > 0 and right > 0
    if name.startswith("winchester"):
        assert (right, ones) == (280, 320)  # realdata/README.md: 280 of the 600 digits are right


#: Games whose published OptimumScore is not DDS's dealer-aware par: (file stem, board)
#: -> (published, DDS). Ruter 2011 (this file, also OptimumContract "4HX E 8" and
#: "5HX W 9") lets the sacrificing side's *weaker* declarer play the sacrifice; DDS lets
#: the stronger one (W makes 9 hearts on board 4, E 10 on board 30; either partner
#: can bid the suit first). Every other file, including later Ruter exports (e.g.
#: nor-ostfold-follo-2022-05-08 board 31, W 4SX-2 where E makes 2 fewer), agrees with DDS.
KNOWN_PAR_DIFFERENCES = {
    ("swe-bridgefestival-orebro-2011-silver1-crossimp", 4): (500, 200),
    ("swe-bridgefestival-orebro-2011-silver1-crossimp", 30): (300, 100),
}


def expected_par(game: dict) -> int:
    published = ns_optimum(game["optimum"])
    known = KNOWN_PAR_DIFFERENCES.get((game["id"].split("#")[0], game["board"]))
    if known:
        assert published == known[0]
        return known[1]
    return published


@pytest.mark.parametrize("game", [g for g in SOLVED_GAMES if g["optimum"]], ids=lambda g: g["id"])
def test_par_of_solved_table_matches_optimum_score(solved, game):
    assert solved.loc[game["id"], "par_score"] == expected_par(game)


@pytest.mark.parametrize("game", PAR_GAMES, ids=lambda g: g["id"])
def test_par_of_published_table_matches_optimum_score(par_from_files, game):
    row = par_from_files.loc[game["id"]]
    assert row["par_score"] == expected_par(game)
    assert parse_optimum_score(game["optimum"]) == ns_optimum(game["optimum"])
    assert parse_optimum_score(row["par_optimum_score"]) == row["par_score"]


def test_known_par_differences_are_weaker_declarer_sacrifices(par_from_files):
    stem = "swe-bridgefestival-orebro-2011-silver1-crossimp"
    rows = par_from_files[par_from_files.index.str.startswith(stem + "#")].set_index("board")
    assert rows.loc[4, "par_contracts"] == "W 4HX-1" and rows.loc[30, "par_contracts"] == "E 5HX-1"
    assert (rows.loc[4, "dd_E_H"], rows.loc[30, "dd_W_H"]) == (8, 9)  # file's 4HX E 8 and 5HX W 9


@pytest.mark.parametrize("game", [g for g in PAR_GAMES if g["hex"] and g["ort"]], ids=lambda g: g["id"])
def test_hex_and_result_table_readers_agree_with_file(game):
    assert decode_dd_hex(game["hex"]) == hex_table(game["hex"]) == ort_table(game["ort"])
    assert parse_optimum_result_table([" ".join(r) for r in game["ort"]]) == ort_table(game["ort"])


# --------------------------------------------------------------------------- hex and tables


def test_decode_reference_example():
    # bridge-scoring-reference.md 4.6
    table = decode_dd_hex("d8ddad8dda0500105001")
    assert [table[f"dd_N_{s}"] for s in ("NT", "S", "H", "D", "C")] == [13, 8, 13, 13, 10]
    assert [table[f"dd_E_{s}"] for s in ("NT", "S", "H", "D", "C")] == [0, 5, 0, 0, 1]
    assert table["dd_S_H"] == 13 and table["dd_W_C"] == 1


@given(st.lists(st.integers(0, 13), min_size=20, max_size=20))
def test_hex_round_trip_from_tricks(tricks):
    text = encode_dd_hex(tricks)
    assert len(text) == 20
    assert decode_dd_hex(text) == dict(zip(DD_COLUMNS, tricks))
    assert [decode_dd_hex(text)[c] for c in DD_COLUMNS] == tricks


@given(st.text(alphabet="0123456789abcdABCD", min_size=20, max_size=20))
def test_hex_round_trip_from_text(text):
    assert encode_dd_hex(decode_dd_hex(text)) == text.lower()


@pytest.mark.parametrize("bad", ["", "d8ddad8dda050010500", "d8ddad8dda05001050011", "e8ddad8dda0500105001",
                                 "x8ddad8dda0500105001", "d8dd d8dda0500105001"])
def test_decode_rejects_bad_hex(bad):
    with pytest.raises(DDError, match="20 hex digits"):
        decode_dd_hex(bad)


def test_encode_rejects_bad_tricks():
    with pytest.raises(DDError):
        encode_dd_hex([14] + [0] * 19)
    with pytest.raises(DDError):
        encode_dd_hex([0] * 19)


def test_result_table_any_order_and_errors():
    rows = [f"{seat} {strain} {i % 14}" for i, (seat, strain) in
            enumerate((s, t) for s in "WSEN" for t in ("C", "D", "H", "S", "N"))]
    table = parse_optimum_result_table("\n".join(rows))
    assert table["dd_W_C"] == 0 and table["dd_W_NT"] == 4 and table["dd_N_NT"] == 19 % 14
    assert list(table) == list(DD_COLUMNS)
    with pytest.raises(DDError, match="lacks"):
        parse_optimum_result_table(rows[:-1])
    with pytest.raises(DDError, match="twice"):
        parse_optimum_result_table(rows + rows[:1])
    with pytest.raises(DDError, match="expected"):
        parse_optimum_result_table(["N NT thirteen"])


@pytest.mark.parametrize("text, ns", [
    ("NS 450", 450), ("EW 620", -620), ("NS +90", 90), ("NS -100", -100), ("EW -300", 300),
    ("NS 7N; +1520", 1520), ("EW 4S; -620", -620), ("NS 450 EW -450", 450), ("NS 0", 0),
])
def test_parse_optimum_score(text, ns):
    assert parse_optimum_score(text) == ns


@pytest.mark.parametrize("bad", ["", "450", "par"])
def test_parse_optimum_score_rejects(bad):
    with pytest.raises(DDError):
        parse_optimum_score(bad)


# --------------------------------------------------------------------------- solving, cache, gaps

HR = ALL_GAMES[HAND_RECORD]


def rotate(deal: str, first: str) -> str:
    """The same deal written from another first seat, ranks reversed in each suit."""
    seats = "NESW"
    start, hands = deal[0], deal[2:].split()
    by_seat = {seats[(seats.index(start) + i) % 4]: h for i, h in enumerate(hands)}
    order = [seats[(seats.index(first) + i) % 4] for i in range(4)]
    return first + ":" + " ".join(".".join(s[::-1] for s in by_seat[s].split(".")) for s in order)


@pytest.fixture
def counting(monkeypatch):
    """Count the deals handed to endplay's calc_all_tables (still really solving them)."""
    calls: list[int] = []
    real = endplay.dds.calc_all_tables

    def spy(deals, *args, **kwargs):
        deals = list(deals)
        calls.append(len(deals))
        return real(deals, *args, **kwargs)

    monkeypatch.setattr(endplay.dds, "calc_all_tables", spy)
    return calls


def forbid_endplay(monkeypatch):
    """Make endplay unimportable: any attempt to solve raises DDUnavailableError."""
    monkeypatch.setitem(sys.modules, "endplay", None)


def test_normalize_deal_any_first_seat():
    deal = HR[0]["deal"]
    assert normalize_deal(deal) == normalize_deal(rotate(deal, "W")) == normalize_deal(rotate(deal, "S"))
    assert normalize_deal(deal).startswith("N:")


def test_cache_reuse_across_calls(monkeypatch, counting):
    boards = frame(HR[:2])
    cache: dict = {}
    first = dd_tables(boards, cache=cache)
    assert counting == [2] and len(cache) == 2
    forbid_endplay(monkeypatch)
    again = dd_tables(boards.assign(deal=[rotate(d, "E") for d in boards["deal"]]), cache=cache)
    pd.testing.assert_frame_equal(first[list(DD_COLUMNS)], again[list(DD_COLUMNS)])


def test_default_cache_and_clear(monkeypatch, counting):
    clear_cache()
    boards = frame(HR[2:3])
    dd_tables(boards)
    dd_tables(boards)
    assert counting == [1]
    clear_cache()
    dd_tables(boards)
    assert counting == [1, 1]
    clear_cache()


def test_repeated_deal_solved_once_per_call(counting):
    game = HR[3]
    boards = frame([game, game | {"id": "x", "deal": rotate(game["deal"], "S")}, game | {"id": "y"}])
    out = dd_tables(boards, cache={})
    assert counting == [1]
    assert out[list(DD_COLUMNS)].nunique().max() == 1
    assert {c: int(out.iloc[0][c]) for c in DD_COLUMNS} == hex_table(game["hex"])


def test_known_tables_are_reused(monkeypatch):
    forbid_endplay(monkeypatch)
    games = HR[:3]
    boards = frame(games).assign(**{c: pd.array([hex_table(g["hex"])[c] for g in games], dtype="Int8")
                                    for c in DD_COLUMNS})
    # a fourth board with the same deal as the first but no table: reused too
    extra = frame(games[:1]).set_axis(["again"])
    out = dd_tables(pd.concat([boards, extra]), cache={})
    assert [encode_dd_hex(out.loc[g["id"]]) for g in games] == [g["hex"] for g in games]
    assert encode_dd_hex(out.loc["again"]) == games[0]["hex"]


def test_given_table_kept_when_deal_is_incomplete(monkeypatch):
    forbid_endplay(monkeypatch)
    game = HR[0]
    table = hex_table(game["hex"])
    boards = frame([game]).assign(deal="N:- - - -", **{c: pd.array([table[c]], dtype="Int8") for c in DD_COLUMNS})
    out = dd_tables(boards, cache={})
    assert encode_dd_hex(out.iloc[0]) == game["hex"]


def test_hex_column_is_reused(monkeypatch):
    """io.pbn keeps the raw DoubleDummyTricks text in ``double_dummy_tricks``."""
    forbid_endplay(monkeypatch)
    games = HR[:3]
    boards = frame(games).assign(double_dummy_tricks=pd.array([g["hex"].upper() for g in games], dtype="string"))
    out = dd_tables(boards, cache={})
    assert [encode_dd_hex(out.loc[g["id"]]) for g in games] == [g["hex"] for g in games]


def test_malformed_hex_is_solved_instead(counting):
    game = HR[9]
    boards = frame([game]).assign(double_dummy_tricks="not hex", optimum_score=game["optimum"])
    out = par(dd_tables(boards, cache={}))
    assert counting == [1]
    assert encode_dd_hex(out.iloc[0]) == game["hex"]
    # par() leaves io.pbn's optimum_score (the tag as read) alone
    assert out["optimum_score"].iloc[0] == game["optimum"]
    assert out["par_score"].iloc[0] == parse_optimum_score(game["optimum"])


def test_empty_frame():
    out = par(dd_tables(frame([]), cache={}))
    assert out.empty and list(out.columns[-23:]) == [*DD_COLUMNS, "par_score", "par_contracts", "par_optimum_score"]
    assert str(out["dd_W_NT"].dtype) == "Int8" and str(out["par_contracts"].dtype) == "string"


@pytest.mark.parametrize("deal", [
    "N:- KT98753.K7.64.T5 Q642.T8.A852.A94 .AQJ964.J93.KQ32",
    "N:AJ.532.KQT7.J876 - - -",
    "", None, "N:AJ.532.KQT7.J87 KT98753.K7.64.T5 Q642.T8.A852.A94 .AQJ964.J93.KQ32",
    "N:AJ.532.KQT7.J876 AJ98753.K7.64.T5 Q642.T8.A852.A94 .AQJ964.J93.KQ32", "garbage",
])
def test_incomplete_deals_give_na(monkeypatch, deal):
    forbid_endplay(monkeypatch)
    boards = pd.DataFrame({"board": [16], "dealer": ["W"], "vul": ["EW"],
                           "deal": pd.array([deal], dtype="string")})
    out = par(dd_tables(boards, cache={}))
    assert out[list(DD_COLUMNS)].isna().all(axis=None)
    assert out["par_score"].isna().all() and out["par_contracts"].isna().all()
    assert str(out["dd_N_NT"].dtype) == "Int8" and str(out["par_score"].dtype) == "Int64"


def test_mixed_frame_keeps_order_and_does_not_mutate(counting):
    boards = pd.concat([frame(HR[4:5]), pd.DataFrame({"board": [99], "deal": ["N:- - - -"]}, index=["gap"]),
                        frame(HR[5:6])])
    before = boards.copy()
    out = dd_tables(boards, cache={})
    pd.testing.assert_frame_equal(boards, before)
    assert counting == [2]
    assert out.loc["gap", list(DD_COLUMNS)].isna().all()
    assert encode_dd_hex(out.loc[HR[5]["id"]]) == HR[5]["hex"]
    assert list(out.columns) == list(boards.columns) + list(DD_COLUMNS)


def test_batches_and_progress(monkeypatch, counting):
    monkeypatch.setattr(ddmod, "BATCH", 2)
    out = dd_tables(frame(HR[6:9]), cache={})  # nobody follows: the largest batches
    assert counting == [2, 1]
    monkeypatch.setattr(ddmod, "PROGRESS_BATCH", 2)
    seen = []
    counting.clear()
    again = dd_tables(frame(HR[9:14]), progress=lambda done, total: seen.append((done, total)), cache={})
    assert counting == [2, 2, 1]
    assert seen == [(0, 5), (2, 5), (4, 5), (5, 5)]  # the bar starts at once, then moves per batch
    assert [encode_dd_hex(out.loc[g["id"]]) for g in HR[6:9]] == [g["hex"] for g in HR[6:9]]
    assert [encode_dd_hex(again.loc[g["id"]]) for g in HR[9:14]] == [g["hex"] for g in HR[9:14]]


def test_progress_batches_are_small_enough_to_move():
    assert ddmod.PROGRESS_BATCH <= 8 <= ddmod.BATCH == 40


def test_par_derives_dealer_and_vul_from_board(par_from_files):
    game = HR[0]
    boards = par_from_files.loc[[game["id"]], ["board", "deal", *DD_COLUMNS]]
    out = par(boards)
    assert out["par_score"].iloc[0] == ns_optimum(game["optimum"])
    assert out["par_optimum_score"].iloc[0] == f"NS {ns_optimum(game['optimum'])}"


def test_par_contract_texts(par_from_files):
    texts = par_from_files["par_contracts"]
    assert texts.str.fullmatch(r"Pass|(?:(?:NS|EW|[NESW]) [1-7](?:NT|[SHDC])(?:X-\d+|\+\d+)?(?:, |$))+").all()
    assert par_from_files.loc[HR[1]["id"], "par_contracts"] == "EW 3NT+1"  # board 17, OptimumScore EW 430


def test_missing_endplay_gives_install_hint(monkeypatch):
    monkeypatch.setitem(sys.modules, "endplay", None)
    with pytest.raises(DDUnavailableError) as info:
        dd_tables(frame(HR[:1]), cache={})
    assert str(info.value) == ("the package endplay, needed for double-dummy tables and par, is not installed; "
                               "install it with: pip install endplay")
    assert isinstance(info.value, SetupError)
    # nothing to solve: no endplay needed
    assert dd_tables(frame(HR[:1]).assign(deal="N:- - - -"), cache={})["dd_N_S"].isna().all()


def test_a_solver_that_cannot_load_leaves_the_rest_written(monkeypatch, tmp_path):
    """The main job still writes everything, hand records without DD, and says what is missing."""
    from bridgeproc.model import Options
    from bridgeproc.pipeline.write import process_session
    from tests.conftest import SAMPLE

    forbid_endplay(monkeypatch)
    monkeypatch.setattr(ddmod, "_CACHE", {})
    out = tmp_path / "results.xlsx"
    session = process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"], [out],
                              Options())
    assert out.is_file() and len(session.results) == 338
    assert "dd_N_NT" not in session.boards.columns and "par_score" not in session.boards.columns
    notes = list(session.notes["message"])
    assert ("hand records written without double-dummy tables and par: the package endplay, needed for "
            "double-dummy tables and par, is not installed; install it with: pip install endplay") in notes


@pytest.mark.parametrize("text, expected", [
    ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",
     "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
    ("AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",  # no seat: North first
     "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"),
    ("e:jqka.t98.765.432 t98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765",  # lower case, ranks unsorted
     "N:432.AKQJ.T98.765 AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98"),
    ("N:AKQJ.T98.765.432 - 765.432.AKQJ.T98 432.AKQJ.T98.765", None),  # an unknown hand
    ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76", None),  # 12 cards
    ("N:AKQJ.T98.765.432 AKQJ.765.432.T98 765.432.AKQJ.T98 432.AKQJ.T98.765", None),  # spades twice
    ("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98", None),
    (None, None), (42, None),
])
def test_normalize_deal_table(text, expected):
    assert normalize_deal(text) == expected
