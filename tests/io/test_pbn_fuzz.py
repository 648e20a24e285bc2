"""Random byte damage to real PBN files: the reader loads them or raises ParseError with a line."""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeproc.errors import ParseError
from bridgeproc.io.pbn.reader import parse_pbn
from bridgeproc.io.text import decode
from tests.conftest import NOT_YET_READ, REALDATA, examples

SOURCES = [p for p in sorted(REALDATA.glob("*.pbn")) if p.stat().st_size < 40_000 and p.name not in NOT_YET_READ] + [
    Path(__file__).parents[1] / "data" / "pbn" / "features.pbn"]
#: A slice of each file around its first results (keeps every example fast).
SAMPLES = {p.name: p.read_bytes()[:6000] for p in SOURCES}
LINE = re.compile(r"^[^\n]+:\d+: ", re.M)

_edit = st.tuples(
    st.sampled_from(["flip", "insert", "delete"]),
    st.floats(min_value=0, max_value=1, exclude_max=True),
    st.sampled_from([b'"', b"[", b"]", b"{", b"}", b";", b"%", b"\n", b"\r", b" ", b"-", b"\\", b"#", b"\x00",
                     b"\xff", b"\xc3", b"A", b"7", b"\t", "²".encode(), b"\x85"]),
)


def damage(data: bytes, edits) -> bytes:
    out = bytearray(data)
    for kind, where, byte in edits:
        if not out:
            out.extend(byte)
            continue
        at = int(where * len(out))
        if kind == "flip":
            out[at] = byte[0]
        elif kind == "insert":
            out[at:at] = byte
        else:
            del out[at:at + 1 + int(where * 7)]
    return bytes(out)


@settings(max_examples=examples(250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SAMPLES)), edits=st.lists(_edit, min_size=1, max_size=6))
def test_damaged_files_load_or_raise_parse_error_with_line(name, edits):
    data = damage(SAMPLES[name], edits)
    try:
        text = decode(data, name)
        pbn = parse_pbn(text, name)
    except ParseError as exc:
        if exc.line is None:  # decoding problems have no line; everything from the PBN reader has one
            assert "decode" in str(exc) or "UTF-16" in str(exc)
            return
        assert LINE.match(str(exc)), str(exc)
        assert isinstance(exc.line, int) and exc.line >= 1
        return
    assert len(pbn.games) >= 1
    assert list(pbn.results.columns[:9]) == ["section", "board", "ns", "ew", "contract", "declarer", "result",
                                              "lead", "score"]


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet=' \t\n[]{}";%#\\-ABNSEW0123456789:.²١\x85', max_size=200))
def test_arbitrary_text_never_crashes(text):
    try:
        parse_pbn(text, "x.pbn")
    except ParseError as exc:
        assert LINE.match(str(exc)), str(exc)
