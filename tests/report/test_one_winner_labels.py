"""A one-winner ranking of a Mitchell numbered per direction labels its pairs ``NS 1`` / ``EW 1``: USEBIO
writes the number and its DIRECTION, and the website links each row to that pair's own score card."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from bridgeproc.io.usebio.reader import read_usebio
from bridgeproc.pipeline.run import build_session
from bridgeproc.report.usebio import labelled_pair, write_usebio
from bridgeproc.report.web.site import build_site
from tests.rank.test_standings_oracle import ONE_WINNER, mitchell  # noqa: F401  (the fixture)


def test_labels_read_as_direction_and_number():
    assert labelled_pair("NS 12") == ("NS", "12")
    assert labelled_pair("EW A3") == ("EW", "A3")
    assert labelled_pair("12") == (None, "12")
    assert labelled_pair("NSX 1") == (None, "NSX 1")


def test_usebio_writes_the_number_and_its_direction(mitchell, tmp_path):  # noqa: F811
    hands, travellers, names = mitchell
    session = build_session([hands, travellers, names], ONE_WINNER)
    assert set(session.standings["pair"]) == {"NS 1", "NS 2", "NS 3", "EW 1", "EW 2", "EW 3"}
    out = tmp_path / "results.xml"
    write_usebio(session, out)
    pairs = ET.parse(out).getroot().findall(".//PARTICIPANTS/PAIR")
    written = {(p.findtext("DIRECTION"), p.findtext("PAIR_NUMBER"), p.findtext("PLACE")) for p in pairs}
    expected = {(*labelled_pair(str(p)), str(r)) for p, r in zip(session.standings["pair"], session.standings["rank"])}
    assert written == expected
    back = read_usebio(out)
    assert sorted(zip(back.totals["direction"], back.totals["pair"])) == sorted((d, n) for d, n, _ in expected)


def test_website_rows_link_to_their_own_cards(mitchell):  # noqa: F811
    hands, travellers, names = mitchell
    site = build_site(build_session([hands, travellers, names], ONE_WINNER))
    rows = [row for ranking in site.rankings for row in ranking.rows]
    assert len(rows) == 6 and all(row.card for row in rows)
    assert len({row.card for row in rows}) == 6  # NS 1 and EW 1 each to its own card
