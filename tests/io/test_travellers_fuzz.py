"""Property: no traveller text, however broken, gives anything but a result or a BridgeprocError."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeproc.errors import BridgeprocError
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.validate.results import validate_results
from tests.conftest import examples

CELLS = st.sampled_from(["1", "2", "-1", "0", "3NT", "4S", "8NT", "4SX", "PASS", "AVE+", "N", "E", "X", "=", "+1",
                         "-11", "14", "10", "420", "-50", "420,0", "A3", "B3", "", " ", '"', '""', "x;y", "\t", "é",
                         "=SUM(A1)", "#REF!", "-", "12+14", "1.5"])
HEADERS = st.lists(st.sampled_from(["Board", "NS", "EW", "Contract", "Declarer", "Result", "Lead", "Score", "EW score",
                                    "Tricks", "Made", "Down", "Section", "Table", "Round", "Bd", "?", ""]),
                   min_size=1, max_size=9)


@st.composite
def travellers(draw):
    header = draw(HEADERS)
    rows = draw(st.lists(st.lists(CELLS, min_size=0, max_size=len(header) + 1), max_size=12))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    return "\n".join(delimiter.join(row) for row in [header, *rows]) + draw(st.sampled_from(["", "\n", "\r\n"]))


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(travellers(), st.sampled_from(["contract", "score"]))
def test_any_traveller_text_gives_results_or_a_bridgeproc_error(text, trust):
    try:
        checked = validate_results(parse_travellers_csv(text, "fuzz.csv"), trust=trust)
    except BridgeprocError as exc:
        assert str(exc)
        return
    assert checked.results["score_ns"].dtype == "Int64"


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=300))
def test_any_text_at_all(text):
    try:
        validate_results(parse_travellers_csv(text, "fuzz.csv"))
    except BridgeprocError:
        pass
