"""The published standings of a session ranked section by section are compared pair by pair within each
section: pair 1 of section A is not pair 1 of section B (a bridgeproc PBN read back with its travellers
once found 'other conventions' and searched for them, in every run of a large event)."""
from __future__ import annotations

import pytest

from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs

pytestmark = pytest.mark.e2e  # scores and reads back a PBN

#: Two sections, the same pair numbers in each, different results: per section the places differ.
TRAVELLERS = """Section,Board,NS,EW,Contract,Declarer,Result
A,1,1,1,4S,N,=
A,1,2,2,4S,N,-1
A,2,1,2,3NT,S,+1
A,2,2,1,3NT,S,=
B,1,1,1,4S,N,-2
B,1,2,2,4S,N,+1
B,2,1,2,3NT,S,-1
B,2,2,1,3NT,S,+2
"""


def test_bridgeprocs_own_totals_of_two_sections_are_reproduced_with_no_search(tmp_path):
    travellers = tmp_path / "travellers.csv"
    travellers.write_text(TRAVELLERS, encoding="utf-8")
    first = build_session([travellers], Options(dd=False))
    assert sorted(first.standings["group"]) == ["A EW", "A EW", "A NS", "A NS", "B EW", "B EW", "B NS", "B NS"]
    scored = tmp_path / "scored.pbn"
    write_outputs(first, [scored])
    again = build_session([scored, travellers], Options(dd=False))
    assert again.conventions == first.conventions
    assert again.origin == "Conventions: bridgeproc's defaults, reproducing totals 8/8, percentages 8/8, places 8/8", again.origin
