"""Generated sessions with the odd cases read back from every output (issue 26: every output reads back).

Hypothesis builds a traveller sheet and a names list as a director types them, with artificial,
split and weighted scores, passed-out boards, fouled boards, arrow switches, one or two sections,
and player names holding quotes, commas, ``%``, ``;``, braces, tabs, markup, formulas and non-Latin
letters. The session is written to the scored PBN, USEBIO, CSV and workbook, and each is read back by
bridgeproc alone: the same results (by section, board and pairs), board values to the written
precision, places and names. The CSV and the workbook carry pair numbers, not names: they are read
with the names list, as a director gives them. USEBIO 1.2 has no element for a fouled board's group
nor for an arrow switch: sessions with either are not written to it here (a note says so on reading).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeproc.model import Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from tests.conftest import examples

NAMES = ['O"Brien & Ann', "Smith, J & Lee", "50% & Bo", "a;b & c", "{x} & y", "Ærø & Ωμέγα", "张伟 & 李娜",
         "=SUM(A1) & Eve", "Tab\tby & Zed", "<b>Bo</b> & Al", "Anna Strand & Bjørn Sæther"]
PLAYED = [("4S", "N", "10"), ("4S", "N", "9"), ("3NT", "S", "9"), ("3NT", "S", "10"), ("2H", "E", "8"),
          ("4SX", "N", "8"), ("1NT", "W", "7"), ("PASS", "", ""), ("5DXX", "S", "11"), ("6NT", "N", "13")]
ODD = ["AVE", "AVE+", "A+/A-", "A60/40", "NP", "W 50% 4S=N; 50% 4S-1N", "A+/A+", "A-/A"]


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


@st.composite
def sessions(draw) -> tuple[str, str, bool]:
    """(travellers CSV, names CSV, whether USEBIO can carry it)."""
    sections = draw(st.sampled_from([[""], ["A", "B"]]))
    tables = draw(st.integers(3, 4))
    boards = draw(st.integers(2, 3))
    rows = ["Section,Board,NS,EW,Contract,Declarer,Result,Fouled,Switched"]
    names = ["Pair,Names"]
    usebio = True
    for section in sections:
        for pair in range(1, 2 * tables + 1):
            names.append(f"{section}{pair},{_quoted(draw(st.sampled_from(NAMES)))}")
        for board in range(1, boards + 1):
            fouled = draw(st.booleans()) and draw(st.booleans())
            for table in range(1, tables + 1):
                if draw(st.integers(0, 6)) == 0:
                    contract, declarer, result = draw(st.sampled_from(ODD)), "", ""
                else:
                    contract, declarer, result = draw(st.sampled_from(PLAYED))
                switched = "Y" if draw(st.integers(0, 9)) == 0 else ""
                group = "F" if fouled and table == 1 else ""
                usebio &= not (group or switched)
                rows.append(f"{section},{board},{table},{table + tables},{_quoted(contract)},{declarer},{result},"
                            f"{group},{switched}")
    return "\n".join(rows) + "\n", "\n".join(names) + "\n", usebio


def _keyed(results: pd.DataFrame) -> pd.DataFrame:
    score = results["adjusted"].astype("string").fillna(results["score_ns"].astype("string"))
    frame = pd.DataFrame({"section": results["section"].astype("string").fillna(""),
                          "board": results["board"].astype("int64"), "ns": results["ns"].astype("string"),
                          "ew": results["ew"].astype("string"), "score": score.fillna(""),
                          "mp": pd.to_numeric(results["mp_ns"], errors="coerce")})
    return frame.sort_values(["section", "board", "ns", "ew", "score"], kind="stable").reset_index(drop=True)


def _ranking(session) -> list[tuple]:
    table = session.standings
    return sorted(zip(table["group"].astype(str), table["rank"].astype(str), table["pair"].astype(str),
                      table["names"].fillna("").astype(str)))


@pytest.mark.slow
@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sessions())
def test_a_generated_session_reads_back_from_every_output(tmp_path_factory, drawn):
    travellers, names, usebio = drawn
    folder = tmp_path_factory.mktemp("session")
    (folder / "travellers.csv").write_text(travellers, encoding="utf-8")
    (folder / "names.csv").write_text(names, encoding="utf-8")
    listed = (str(folder / "names.csv"),)
    source = build_session([str(folder / "travellers.csv")], Options(read=ReadOptions(names=listed), dd=False))
    ours = _keyed(source.results)
    for ext in ("pbn", "xml", "csv", "xlsx") if usebio else ("pbn", "csv", "xlsx"):
        out = folder / f"scored.{ext}"
        write_outputs(source, [out])
        again = build_session([str(out)], Options(read=ReadOptions(names=listed if ext in ("csv", "xlsx") else ()), dd=False))
        theirs = _keyed(again.results)
        assert theirs[["section", "board", "ns", "ew", "score"]].equals(
            ours[["section", "board", "ns", "ew", "score"]]), ext
        assert np.allclose(theirs["mp"], ours["mp"], atol=0.005 + 1e-9, rtol=0, equal_nan=True), ext
        assert _ranking(again) == _ranking(source), ext
