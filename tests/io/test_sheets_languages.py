"""Traveller sheets in the languages clubs write them in (issue 14): headers, and no column lost silently."""
import collections
from pathlib import Path

import pandas as pd
import pytest

from bridgeproc.errors import ParseError
from bridgeproc.io.sheets import read_travellers
from bridgeproc.io.sheets.travellers import (
    HEADER_ALIASES,
    canonical_header,
    header_key,
    parse_travellers_csv,
    published_method,
)
from bridgeproc.pipeline.run import build_session, load_results
from tests.conftest import workbook

DATA = Path(__file__).parent.parent / "data" / "travellers"


def test_no_header_spelling_means_two_columns():
    columns = collections.defaultdict(set)
    for column, aliases in HEADER_ALIASES.items():
        for alias in aliases:
            columns[header_key(alias)].add(column)
    assert {key: names for key, names in columns.items() if len(names) > 1} == {}


@pytest.mark.parametrize(("header", "column"), [
    # Russian
    ("Сдача", "board"), ("№ сдачи", "board"), ("С-Ю", "ns"), ("Пара С-Ю", "ns"), ("З-В", "ew"), ("В-З", "ew"),
    ("Контракт", "contract"), ("Разыгрывающий", "declarer"), ("Разыгр.", "declarer"), ("Взятки", "tricks"),
    ("Результат", "result"), ("Заход", "lead"), ("Счёт", "score"), ("Счет", "score"), ("Счёт С-Ю", "score"),
    ("Счёт З-В", "score_ew"), ("Стол", "table"), ("Тур", "round"),
    # German
    ("Brett", "board"), ("Brett-Nr.", "board"), ("Spieler", "declarer"), ("Alleinspieler", "declarer"),
    ("Kontrakt", "contract"), ("Stiche", "tricks"), ("Ausspiel", "lead"), ("Ergebnis", "result"),
    ("Paar NS", "ns"), ("Paar OW", "ew"), ("Punkte NS", "score"), ("Punkte OW", "score_ew"),
    # French
    ("Donne", "board"), ("Étui", "board"), ("Contrat", "contract"), ("Déclarant", "declarer"), ("Plis", "tricks"),
    ("Entame", "lead"), ("Résultat", "result"), ("Marque NS", "score"), ("Marque EO", "score_ew"), ("EO", "ew"),
    # Dutch
    ("Spel", "board"), ("NZ", "ns"), ("OW", "ew"), ("Leider", "declarer"), ("Slagen", "tricks"),
    ("Uitkomst", "lead"), ("Resultaat", "result"), ("Tafel", "table"), ("Ronde", "round"),
    # Swedish, Norwegian, Danish
    ("Bricka", "board"), ("Giv", "board"), ("Spill", "board"), ("Spil", "board"), ("ÖV", "ew"), ("ØV", "ew"),
    ("Spelförare", "declarer"), ("Spillefører", "declarer"), ("Spilfører", "declarer"), ("Stick", "tricks"),
    ("Stikk", "tricks"), ("Stik", "tricks"), ("Utspel", "lead"), ("Utspill", "lead"), ("Udspil", "lead"),
    ("Bord", "table"),
])
def test_header_spellings(header, column):
    assert canonical_header(header) == column
    assert canonical_header(header.upper()) == column


def test_unknown_columns_are_named_in_a_note():
    notes: list[dict] = []
    frame = parse_travellers_csv("Board,NS,EW,Contract,Declarer,Result,Remarks,%\n1,1,2,4S,N,=,late,50\n", "t.csv",
                                 notes)
    assert list(frame["contract"]) == ["4S"]
    [note] = notes
    assert note["source"] == "t.csv" and note["line"] == "1"
    assert "'Remarks', '%' not read" in note["message"] and "Declarer" in note["message"]


def test_published_numbers_beside_the_results_are_read_for_the_comparison():
    """bridgeproc's scored CSV and its workbook's Travellers sheet carry the board values: read, named as the
    PBN and USEBIO readers name them, and the method they say (issue 26: every output reads back)."""
    frame = parse_travellers_csv("Board,NS,EW,Contract,Declarer,Result,MP NS,MP EW,% NS,% EW\n"
                                 "1,1,2,4S,N,=,4,0,100,0\n", "t.csv")
    raw, scoring = published_method(frame)
    assert raw[["mp_ns", "mp_ew", "pct_ns", "pct_ew"]].iloc[0].tolist() == ["4", "0", "100", "0"]
    assert scoring == "MatchPoints"
    frame = parse_travellers_csv("board,ns,ew,contract,declarer,tricks,butler_ns,butler_ew,datum\n"
                                 "1,1,2,4S,N,10,5.0,-5.0,-90\n", "t.csv")
    raw, scoring = published_method(frame)
    assert raw[["imp_ns", "imp_ew", "butlerdatum"]].iloc[0].tolist() == ["5.0", "-5.0", "-90"]
    assert scoring == "IMP;Butler"
    both = parse_travellers_csv("Board,NS,EW,Contract,Declarer,Result,X-IMP NS,Butler NS\n1,1,2,4S,N,=,1,2\n", "t")
    raw, scoring = published_method(both)
    assert scoring is None and "imp_ns" not in raw  # two methods' numbers: neither is compared


def test_a_known_header_gives_no_note():
    notes: list[dict] = []
    parse_travellers_csv("Board,NS,EW,Contract,Declarer,Result\n1,1,2,4S,N,=\n", "t.csv", notes)
    assert notes == []


def test_a_missing_declarer_column_is_one_error_naming_the_spellings():
    # "Wer" is no German header bridgeproc knows: every row would otherwise fail "no declarer"
    with pytest.raises(ParseError) as info:
        parse_travellers_csv("Brett;NS;OW;Kontrakt;Wer;Stiche\n1;1;2;4S;N;10\n1;3;4;3SA;S;9\n", "t.csv")
    message = str(info.value)
    assert "t.csv:1" in message and "missing column declarer" in message and "not recognised: 'Wer'" in message
    assert "Alleinspieler" in message and "Spieler" in message


def test_a_missing_result_column_is_one_error():
    with pytest.raises(ParseError, match=r"missing column result .*not recognised: 'Stich'.*Stiche"):
        parse_travellers_csv("Brett;NS;OW;Kontrakt;Spieler;Stich\n1;1;2;4S;N;10\n", "t.csv")


@pytest.mark.parametrize("text", [
    "Board,NS,EW,Contract\n1,1,2,4SN=\n1,3,4,PASS\n",          # declarer and result in the contract cell
    "Board,NS,EW,Contract,Score\n1,1,2,4SN,420\n",             # the result follows from the written score
    "Board,NS,EW,Contract\n1,1,2,PASS\n1,3,4,AVE+\n",           # nothing was played
])
def test_columns_the_contract_cells_make_up_for_are_not_required(text):
    assert len(parse_travellers_csv(text, "t.csv"))


def test_russian_club_csv():
    results = load_results([DATA / "russian_club.csv"])
    assert len(results) == 12
    by_line = results.set_index("line")
    assert by_line.loc[3, ["level", "strain", "doubled", "declarer", "tricks"]].tolist() == [3, "NT", 0, "N", 9]
    assert by_line.loc[4, ["strain", "doubled", "declarer"]].tolist() == ["NT", 1, "S"]      # 3БКк
    assert by_line.loc[5, ["strain", "doubled", "declarer"]].tolist() == ["S", 1, "E"]       # 4Пк by В
    assert by_line.loc[6, "level"] == 0                                                    # пас
    assert by_line.loc[8, "score_ns"] == -100                                              # –100, en dash
    assert by_line.loc[9, ["strain", "doubled", "declarer"]].tolist() == ["D", 1, "W"]       # 5Бх by З
    assert by_line.loc[10, ["doubled", "score_ns"]].tolist() == [2, 1080]                  # 4Чхх
    assert results["lead"].iloc[0] == "SA"  # ♠Т: Т is туз, the ace (leads are written in one spelling)
    notes = build_session([DATA / "russian_club.csv"]).notes
    [message] = notes["message"].tolist()
    assert "'МП С-Ю', 'МП З-В' not read" in message


GERMAN = [
    ["Clubturnier BC Musterstadt, Dienstag 11.03.2025"],
    [],
    ["Brett", "Paar NS", "Paar OW", "Kontrakt", "Spieler", "Ausspiel", "Stiche", "Punkte NS", "Punkte OW", "Top NS"],
    [1, 1, 5, "3SA", "N", "♠5", 10, 430, None, 4],
    [None, 2, 6, "4♠", "S", "♥K", 10, 420, None, 2],
    [None, 3, 7, "4♠ X", "O", "♦A", 9, 100, None, 0],
    [2, 1, 6, "2♥", "W", "♣3", 8, None, 110, 1],
    [None, 2, 7, "3SA", "N", "♠D", 8, "–100", None, 3],
    [None, 3, 5, "Passe", None, None, None, 0, None, 2],
]


def test_german_workbook(tmp_path):
    path = workbook(tmp_path / "clubturnier.xlsx", {"Ergebnisse": GERMAN}, {"Ergebnisse": ["A4:A6", "A7:A9"]})
    notes: list[dict] = []
    raw = read_travellers(path, notes=notes)
    assert raw["board"].tolist() == ["1", "1", "1", "2", "2", "2"]
    [note] = notes
    assert note["source"] == "clubturnier.xlsx!Ergebnisse" and "'Top NS' not read" in note["message"]
    results = load_results([path])
    assert results["declarer"].astype("string").tolist() == ["N", "S", "E", "W", "N", pd.NA]
    assert results["score_ns"].tolist() == [430, 420, 100, -110, -100, 0]
    assert results[["strain", "doubled"]].astype("string").values.tolist()[:3] == [["NT", "0"], ["S", "0"], ["S", "1"]]
    assert results["level"].tolist()[-1] == 0
