"""Member numbers in a names list reach USEBIO's NATIONAL_ID_NUMBER (what a federation needs to credit players)."""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest

from bridgeproc.io.sheets.names import read_names
from bridgeproc.model import Headings, Options, ReadOptions
from bridgeproc.pipeline.write import process_session
from tests.conftest import SAMPLE


@pytest.mark.parametrize("header, cells, ids", [
    (["Pair", "Names", "MemberID1", "MemberID2"], ["1", "Ann & Bo", "964263", "1066307"], "964263 & 1066307"),
    (["Pair", "Player 1", "Player 2", "Member IDs"], ["1", "Ann", "Bo", "964263 & 1066307"], "964263 & 1066307"),
    (["Pair", "Names", "EBU", "EBU"], ["1", "Ann & Bo", "123", ""], "123"),
    (["Pair", "Names"], ["1", "Ann & Bo"], None),  # no id column: no ids column
])
def test_member_id_columns(tmp_path, header, cells, ids):
    path = tmp_path / "names.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([header, cells])
    names = read_names(path)
    assert (names["ids"].iloc[0] if "ids" in names else None) == ids


def test_member_ids_are_written_to_usebio(tmp_path):
    rows = list(csv.reader((SAMPLE / "club-evening-names.csv").read_text(encoding="utf-8").splitlines()))
    rows[0] += ["MemberID1", "MemberID2"]
    for i, row in enumerate(rows[1:], start=1):
        row += [str(100000 + 2 * i), str(100001 + 2 * i)]
    names = tmp_path / "names.csv"
    with names.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    out = tmp_path / "results.xml"
    process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"], [out],
                    Options(read=ReadOptions(names=(str(names),)), dd=False))
    players = ET.parse(out).getroot().findall(".//PARTICIPANTS/PAIR/PLAYER")
    numbers = [p.findtext("NATIONAL_ID_NUMBER") for p in players]
    assert len(numbers) == 52 and sorted(numbers) == sorted(str(n) for n in range(100002, 100002 + 52))


@pytest.mark.parametrize("header, cells, clubs", [
    (["Pair", "Names", "Club ID 1", "Club ID 2"], ["1", "Ann & Bo", "4680", "299"], "4680 & 299"),
    (["Pair", "Names", "Club IDs"], ["1", "Ann & Bo", "4680 & 4680"], "4680 & 4680"),
    (["Pair", "Names", "Club"], ["1", "Ann & Bo", "Sunshine Coast"], None),  # a club's name is not its number
])
def test_club_id_columns(tmp_path, header, cells, clubs):
    path = tmp_path / "names.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([header, cells])
    names = read_names(path)
    assert (names["club_ids"].iloc[0] if "club_ids" in names else None) == clubs


def test_club_ids_and_the_clubs_number_are_written_to_usebio(tmp_path):
    rows = list(csv.reader((SAMPLE / "club-evening-names.csv").read_text(encoding="utf-8").splitlines()))
    rows[0] += ["MemberID1", "MemberID2", "ClubID1", "ClubID2"]
    for i, row in enumerate(rows[1:], start=1):
        row += [str(100000 + 2 * i), str(100001 + 2 * i), "4680", "299" if i % 2 else "4680"]
    names = tmp_path / "names.csv"
    with names.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    out = tmp_path / "results.xml"
    process_session([SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"], [out],
                    Options(read=ReadOptions(names=(str(names),)), headings=Headings(defaults={"club_id": "4680"}), dd=False))
    root = ET.parse(out).getroot()
    assert root.findtext("CLUB/CLUB_ID_NUMBER") == "4680"
    players = root.findall(".//PARTICIPANTS/PAIR/PLAYER")
    pairs = {(p.findtext("NATIONAL_ID_NUMBER"), p.findtext("CLUB_ID_NUMBER")) for p in players}
    assert len(pairs) == 52
    assert sum(club == "299" for _, club in pairs) == 13  # the second player of each odd row


def test_compscore_club_ids_survive_a_round_trip(tmp_path):
    """Compscore's file: the club's number and every player's club number are written again."""
    from bridgeproc.pipeline.run import build_session
    from bridgeproc.report.usebio import write_usebio
    from tests.conftest import REALDATA

    source = REALDATA / "aus-sunshine-coast-bc-2026-03-09-butler-howell-compscore3.usebio.xml"
    write_usebio(build_session([source], Options(dd=False)), tmp_path / "again.xml")
    again, theirs = ET.parse(tmp_path / "again.xml").getroot(), ET.parse(source).getroot()
    assert again.findtext("CLUB/CLUB_ID_NUMBER") == theirs.findtext("CLUB/CLUB_ID_NUMBER") == "4680"
    def clubs(root):
        return sorted((p.findtext("PLAYER_NAME"), p.findtext("CLUB_ID_NUMBER")) for p in root.iter("PLAYER"))
    assert clubs(again) == clubs(theirs) and len(clubs(theirs)) == 16
