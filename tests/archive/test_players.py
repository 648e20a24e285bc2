"""Player identity in the archive: name keys, member ids per seat, who is taken as one player."""
import unicodedata

import pandas as pd
import pytest

from bridgeproc.archive.players import identify, name_key, player_key, seat_ids, split_names


@pytest.mark.parametrize(("written", "key"), [
    ("Strand, Anna", "anna strand"),
    ("anna strand", "anna strand"),
    ("Anna  Strand", "anna strand"),
    ("  ANNA STRAND ", "anna strand"),
    ("Strand,Anna", "anna strand"),
    ("Anna Marie Strand", "anna marie strand"),
    ("Åse Berg", "berg åse"),  # å is a letter of its own, not a folded a
    ("Ase Berg", "ase berg"),
    (unicodedata.normalize("NFD", "Åse Berg"), "berg åse"),  # decomposed Å is the same letter
    ("Bjørn Sæther", "bjørn sæther"),
    ("", ""),
])
def test_name_key(written, key):
    assert name_key(written) == key


@pytest.mark.parametrize(("written", "key"), [
    ("Åse Berg", "ase berg"), ("Éric Dubois", "dubois eric"), ("Bjørn Sæther", "bjørn sæther"),  # ø, æ: no accent
])
def test_name_key_folding_accents(written, key):
    assert name_key(written, fold_accents=True) == key


def test_the_stored_player_key_is_unchanged():
    """Archives written before keep matching: the ``players`` table's key is as it always was."""
    assert player_key("Strand,  Anna") == "strand, anna"
    assert split_names("Strand, Anna & Sæther, Bjørn") == ["Strand, Anna", "Sæther, Bjørn"]


@pytest.mark.parametrize(("ids", "seat", "players", "expected"), [
    ("964263 & 1066307", 0, 2, "964263"),
    ("964263 & 1066307", 1, 2, "1066307"),
    ("964263&1066307", 1, 2, "1066307"),
    ("964263", 0, 2, None),  # one id for two players: whose is unknown
    ("964263", 0, 1, "964263"),  # an individual event
    ("ab12 & cd34", 1, 2, "CD34"),
    ("", 0, 2, None),
    (None, 1, 2, None),
    ("1 & 2 & 3", 0, 2, None),
])
def test_seat_ids(ids, seat, players, expected):
    got = seat_ids(pd.Series([ids], dtype="string"), pd.Series([seat]), pd.Series([players]))
    assert (None if pd.isna(got.iloc[0]) else got.iloc[0]) == expected


def _who(names, ids):
    return identify(pd.Series(names, dtype="string"), pd.Series(ids, dtype="string"))


def test_names_written_three_ways_are_one_player_and_the_merge_is_listed():
    who = _who(["Strand, Anna", "anna strand", "Anna  Strand", "Bjørn Sæther"], [None] * 4)
    assert who.key.tolist() == ["name:anna strand"] * 3 + ["name:bjørn sæther"]
    assert who.name.tolist() == ["Anna Strand"] * 3 + ["Bjørn Sæther"]  # the latest spelling on a tie
    assert who.matches == ["'Strand, Anna', 'anna strand' and 'Anna  Strand' taken as one player (the same name)"]


def test_member_id_beats_name():
    who = _who(["Anna Strand", "Anna Strand", "Anna Lindqvist", "Anna Strand"], ["100", "200", "100", None])
    assert who.key.tolist() == ["id:100", "id:200", "id:100", "name:anna strand"]
    assert who.matches == [
        "'Anna Strand' and 'Anna Lindqvist' taken as one player (member id 100)",
        "'Anna Strand' are 2 players by member id (100, 200); 1 row(s) without a member id kept apart",
    ]


def test_a_name_without_an_id_takes_the_only_id_it_has():
    who = _who(["Anna Strand", "strand, anna", "Åse Berg", "Ase Berg"], ["100", None, "7", None])
    assert who.key.tolist() == ["id:100", "id:100", "id:7", "name:ase berg"]  # Ase is not Åse
    assert who.member_id.tolist()[:3] == ["100", "100", "7"]
    assert who.matches == ["'Anna Strand' and 'strand, anna' taken as one player "
                           "(member id 100, the only member id their name has)"]


def test_accents_folded_on_request():
    who = identify(pd.Series(["Åse Berg", "Ase Berg"], dtype="string"), pd.Series([None, None], dtype="string"),
                   fold_accents=True)
    assert who.key.nunique() == 1


def test_a_row_without_a_name_has_no_identity():
    who = _who([None, "  "], [None, None])
    assert who.key.isna().all()
