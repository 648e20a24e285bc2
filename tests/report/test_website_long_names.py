"""A 300-character section name does not fail the website with "File name too long" (issue 29): a page's
file name is cut to a slug of at most 80 characters ending in a digest of the whole name."""
from __future__ import annotations

import pandas as pd
import pytest

from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from bridgeproc.report.web.boards import MAX_SLUG, slug
from tests.conftest import SAMPLE


@pytest.mark.parametrize("text, expected", [("Section A · NS 3", "section-a-ns-3"), ("", "x"), ("Ø", "x"),
                                            ("a" * 80, "a" * 80)])
def test_short_slugs_are_as_before(text, expected):
    assert slug(text) == expected


def test_a_long_slug_is_cut_and_two_long_names_stay_apart():
    one, other = slug("S" * 300 + " NS"), slug("S" * 300 + " EW")
    assert len(one) == len(other) == MAX_SLUG and one != other
    assert one.startswith("s" * 60)


@pytest.mark.e2e
def test_the_website_of_a_section_with_a_300_character_name(tmp_path):
    travellers = pd.read_csv(SAMPLE / "club-evening-travellers.csv", dtype=str)
    travellers.insert(0, "Section", "S" * 300)
    travellers.to_csv(tmp_path / "t.csv", index=False)
    session = build_session([tmp_path / "t.csv"], Options(dd=False))
    write_outputs(session, [f"{tmp_path}/site/"])
    names = [p.name for p in (tmp_path / "site").rglob("*")]
    assert "index.html" in names and max(map(len, names)) <= MAX_SLUG + len(".html")
