"""Member numbers in a names list reach USEBIO's NATIONAL_ID_NUMBER (what a federation needs to credit players)."""
from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import pytest

from bridgeproc.io.sheets.names import read_names
from bridgeproc.model import Options
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
                    Options(names=(str(names),), dd=False))
    players = ET.parse(out).getroot().findall(".//PARTICIPANTS/PAIR/PLAYER")
    numbers = [p.findtext("NATIONAL_ID_NUMBER") for p in players]
    assert len(numbers) == 52 and sorted(numbers) == sorted(str(n) for n in range(100002, 100002 + 52))
