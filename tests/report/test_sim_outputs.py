"""A simultaneous event's club folders written from the field's parts (formatted once) are the files the
club alone gives (report.sim.write_club, cell by cell): the same bytes, for every club."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.pipeline.sim import score_sim
from bridgeproc.rank.frequencies import frequencies_of
from bridgeproc.report.sim import field_parts, write_club, write_club_part
from bridgeproc.report.web.boards import number_text
from bridgeproc.report.web.sim_site import numbers_text
from tests.conftest import examples
from tests.pipeline.test_sim import event  # noqa: F401  (the fixture: three tiny clubs on four boards)

FILES = ("results.csv", "ranking.csv", "frequencies.csv", "index.html")


def test_club_parts_write_what_each_club_alone_writes(event, tmp_path):  # noqa: F811
    hands, clubs = event
    sim = score_sim(clubs, hands)
    method = sim.conventions.method
    parts = field_parts(sim.results, sim.frequencies, method, sim.club_standings)
    rankings = dict(tuple(sim.club_standings.groupby("club", sort=False)))
    for club in sim.clubs:
        alone, cut = tmp_path / "alone" / club, tmp_path / "cut" / club
        mine = sim.results[sim.results["club"] == club].reset_index(drop=True)
        write_club(alone, club, mine, frequencies_of(sim.results, sim.frequencies, club), rankings[club], sim.meta,
                   method)
        write_club_part(cut, parts.club(club, rankings[club]), parts, sim.meta, method)
        for name in FILES:
            assert (cut / name).read_bytes() == (alone / name).read_bytes(), (club, name)


def test_hostile_text_is_escaped_in_the_rows(event, tmp_path):  # noqa: F811
    hands, clubs = event
    sim = score_sim(clubs, hands)
    hostile = sim.results.assign(lead=pd.array(["<b>&'\"x</b>"] * len(sim.results), dtype="string"))
    parts = field_parts(hostile, sim.frequencies, sim.conventions.method, sim.club_standings)
    row = parts.traveller[0]
    assert "<b>" not in row and "&lt;b&gt;&amp;&#39;&#34;x&lt;/b&gt;" in row


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False), st.integers(-10**6, 10**6)),
                max_size=30))
def test_numbers_text_is_number_text_on_a_column(values):
    column = pd.Series([np.nan if v is None else v for v in values], dtype="float64")
    assert numbers_text(column).tolist() == [number_text(v) for v in column]


@pytest.mark.parametrize("value, text", [(0.0, "0"), (-0.001, "0"), (12.5, "12.5"), (41.666, "41.67"), (3.0, "3")])
def test_numbers_text_cases(value, text):
    assert numbers_text(pd.Series([value])).tolist() == [text]


def test_the_fields_files_from_its_parts_are_the_ones_written_alone(event, tmp_path):  # noqa: F811
    from bridgeproc.report.sim import write_field

    hands, clubs = event
    sim = score_sim(clubs, hands)
    method = sim.conventions.method
    names = {club: club for club in sim.clubs}
    parts = field_parts(sim.results, sim.frequencies, method, sim.club_standings)
    write_field(tmp_path / "alone", sim.results, sim.field_standings, sim.meta, method, names)
    write_field(tmp_path / "cut", sim.results, sim.field_standings, sim.meta, method, names, parts)
    for name in ("results.csv", "ranking.csv", "index.html"):
        assert (tmp_path / "cut" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes(), name
