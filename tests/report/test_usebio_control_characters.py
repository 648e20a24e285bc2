"""A control character typed in a lead or a name does not make the USEBIO output unreadable (issue 29):
XML 1.0 cannot hold one, so it is written as U+FFFD, as the workbook shows it, and the file reads back."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pandas as pd
import pytest

from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # scores the sample evening and reads its USEBIO back


def test_a_bell_in_a_lead_is_shown_as_the_replacement_character(tmp_path):
    """(A names list's control characters are read as spaces, with a note, by the names reader.)"""
    travellers = pd.read_csv(SAMPLE / "club-evening-travellers.csv", dtype=str, keep_default_na=False)
    travellers.loc[0, "Lead"] = "SK\x07"
    travellers.to_csv(tmp_path / "travellers.csv", index=False)
    session = build_session([SAMPLE / "club-evening.pbn", tmp_path / "travellers.csv"], Options(dd=False))
    out = tmp_path / "scored.xml"
    write_outputs(session, [out])
    text = out.read_text(encoding="utf-8")
    assert "\x07" not in text
    tree = ET.fromstring(text.split("\n", 2)[2])  # after the declaration and the DOCTYPE
    leads = [e.text for e in tree.iter("LEAD")]
    assert leads.count("SK\ufffd") == 1
    again = build_session([out], Options(dd=False))
    assert len(again.results) == len(session.results)
