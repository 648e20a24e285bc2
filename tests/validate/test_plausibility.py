"""Warnings for what is only suspicious (validate/plausibility.py): leads, double dummy, the field."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.core.notation import lead_cards
from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session, check_inputs
from bridgeproc.validate.plausibility import check_plausibility, field_warnings
from tests.conftest import examples

# Board 1, dealer N, none vul. North: SAKQJ HAKQ DAK CAKQJ -> 7NT is cold for N/S; East/West hold little.
DEAL = "N:AKQJ.AKQ.AK.AKQJ T987.JT9.QJT.T98 6543.876.987.765 2.5432.65432.432"
HEAD = "Board,NS,EW,Contract,Declarer,Result,Lead\n"


def _pbn(tmp_path, deal: str = DEAL) -> str:
    path = tmp_path / "hands.pbn"
    path.write_text(f'[Event "Plausibility"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n',
                    encoding="utf-8")
    return str(path)


def _warnings(tmp_path, rows: str, dd: bool = False) -> list[tuple[str, str, str]]:
    travellers = tmp_path / "travellers.csv"
    travellers.write_text(HEAD + rows, encoding="utf-8")
    session = build_session([_pbn(tmp_path), str(travellers)], Options(dd=dd))
    notes = session.notes if session.notes is not None else pd.DataFrame(columns=["line", "column", "message"])
    return [(n.line, n.column, n.message) for n in notes.itertuples()
            if "lead" in n.message or "double dummy" in n.message or "every other table" in n.message]


@pytest.mark.parametrize("lead, expected", [
    ("HT", []),  # East (declarer North's left) holds HT
    ("♥10", []),
    ("t h", []),  # rank first, lower case, a space: still East's HT
    ("SA", [("2", "lead", "board 1, NS 1 v EW 2: the lead SA is not in East's hand (declarer North's left); North "
                          "holds it: check the lead and the declarer")]),
    ("ZZ", [("2", "lead", "board 1, NS 1 v EW 2: the lead ZZ is not a card; write the suit and rank (SA, ♥10, DT)")]),
    ("S1", [("2", "lead", "board 1, NS 1 v EW 2: the lead S1 is not a card; write the suit and rank (SA, ♥10, DT)")]),
    ("", []),
])
def test_the_lead_is_checked_against_the_leaders_hand(tmp_path, lead, expected):
    assert _warnings(tmp_path, f"1,1,2,3NT,N,=,{lead}\n") == expected


def test_leads_are_written_in_one_spelling(tmp_path):
    travellers = tmp_path / "travellers.csv"
    travellers.write_text(HEAD + "1,1,2,3NT,N,=,♥10\n1,2,3,3NT,N,=,th\n1,3,4,3NT,N,=,ZZ\n", encoding="utf-8")
    session = build_session([_pbn(tmp_path), str(travellers)], Options(dd=False))
    assert session.results["lead"].tolist() == ["HT", "HT", "ZZ"]  # not a card: kept as typed, with a warning


def test_far_from_double_dummy_is_a_warning_not_a_refusal(tmp_path):
    """7NT= by East, who takes 0 tricks in notrumps double dummy (North holds 13 top tricks)."""
    rows = "1,1,2,7NT,E,=,S6\n1,2,3,3NT,N,+4,HT\n"
    got = _warnings(tmp_path, rows, dd=True)
    assert got == [("2", "result", "board 1, NS 1 v EW 2: 7NT by East took 13 tricks, 13 more than double dummy (0); "
                                    "check the result, declarer and board")]


@pytest.mark.parametrize("result, warned", [("+4", False), ("+1", False), ("=", True), ("-3", True)])
def test_the_double_dummy_margin_is_four_tricks(tmp_path, result, warned):
    """3NT by North, who takes 13 tricks double dummy: 10 (+1) is three fewer, 9 (=) four."""
    assert bool(_warnings(tmp_path, f"1,1,2,3NT,N,{result},HT\n", dd=True)) == warned


def test_a_hand_made_traveller_with_both_mistakes_is_scored_with_both_warnings(tmp_path):
    """The issue's example: a lead not in the leader's hand and a 7NT= that double dummy says goes
    down: scored (exit 0 from check), both warnings listed."""
    travellers = tmp_path / "travellers.csv"
    travellers.write_text(HEAD + "1,1,2,7NT,E,=,SA\n1,2,3,6NT,N,+1,HT\n", encoding="utf-8")
    session = build_session([_pbn(tmp_path), str(travellers)], Options(dd=True))
    assert session.results["score_ns"].tolist() == [-1520, 1020]
    messages = session.notes["message"].tolist()
    # North holds it, the other defender: East's partner West declared, the same side (a declarer-seat swap)
    assert any("the lead SA is in North's hand, not South's: West probably declared, not East" in m for m in messages)
    assert any("7NT by East took 13 tricks, 13 more than double dummy (0)" in m for m in messages)
    summary = check_inputs([_pbn(tmp_path), str(travellers)], Options(dd=False))
    assert summary.startswith("OK: 2 results") and "the lead SA is in North's hand, not South's" in summary


# --- the field check against a slow, obvious implementation --------------------------------

def _slow_outliers(frame: pd.DataFrame, margin: int, at_least: int) -> list[int]:
    out = []
    for i, row in frame.iterrows():
        ns = row.tricks if row.declarer in "NS" else 13 - row.tricks
        others = [(o.tricks if o.declarer in "NS" else 13 - o.tricks) for j, o in frame.iterrows()
                  if j != i and o.board == row.board and o.strain == row.strain]
        if len(others) >= at_least and all(abs(ns - x) >= margin for x in others):
            out.append(i)
    return out


@st.composite
def fields(draw):
    n = draw(st.integers(1, 14))
    return pd.DataFrame({
        "section": [""] * n,
        "board": draw(st.lists(st.integers(1, 2), min_size=n, max_size=n)),
        "ns": [str(i) for i in range(n)], "ew": [str(i + 20) for i in range(n)],
        "level": pd.array(draw(st.lists(st.integers(1, 7), min_size=n, max_size=n)), dtype="Int8"),
        "strain": pd.Categorical(draw(st.lists(st.sampled_from(["S", "NT"]), min_size=n, max_size=n))),
        "declarer": pd.Categorical(draw(st.lists(st.sampled_from(list("NESW")), min_size=n, max_size=n))),
        "tricks": pd.array(draw(st.lists(st.integers(0, 13), min_size=n, max_size=n)), dtype="Int8"),
        "adjusted": pd.Series([None] * n, dtype="string"),
        "source": "t.csv", "line": pd.array(range(2, n + 2), dtype="Int64"),
    })


@settings(max_examples=examples(150), deadline=None)
@given(fields(), st.integers(1, 4), st.integers(1, 4))
def test_field_outliers_agree_with_the_slow_count(frame, margin, at_least):
    got = sorted(int(r["line"]) - 2 for r in field_warnings(frame, margin, at_least))
    assert got == _slow_outliers(frame, margin, at_least)


def _slow_corroborated(frame: pd.DataFrame, played) -> list[int]:
    """Another played row of the same section, board, strain and declaring side within a trick."""
    side = ["NS" if d in "NS" else "EW" for d in frame["declarer"]]
    return [i for i in range(len(frame)) if played[i] and any(
        j != i and played[j] and (frame["section"][j], frame["board"][j], frame["strain"][j], side[j])
        == (frame["section"][i], frame["board"][i], frame["strain"][i], side[i])
        and abs(int(frame["tricks"][j]) - int(frame["tricks"][i])) <= 1 for j in range(len(frame)))]


@settings(max_examples=examples(150), deadline=None)
@given(fields(), st.data())
def test_a_result_the_field_shares_agrees_with_the_slow_pairing(frame, data):
    """The counted form (slots of tricks per field) against every pair of tables (the self-join it replaced)."""
    from bridgeproc.validate.plausibility import _corroborated

    played = np.array(data.draw(st.lists(st.booleans(), min_size=len(frame), max_size=len(frame))))
    got = np.flatnonzero(_corroborated(frame, played, frame["declarer"].astype("string"))).tolist()
    assert got == _slow_corroborated(frame, played)


def test_no_hand_record_and_no_leads_give_no_warnings():
    frame = pd.DataFrame({"section": [""], "board": [1], "ns": ["1"], "ew": ["2"],
                          "level": pd.array([3], dtype="Int8"), "strain": pd.Categorical(["NT"]),
                          "declarer": pd.Categorical(["N"]), "tricks": pd.array([9], dtype="Int8"),
                          "lead": pd.Series([None], dtype="string"), "adjusted": pd.Series([None], dtype="string"),
                          "source": "t.csv", "line": pd.array([2], dtype="Int64")})
    boards = pd.DataFrame({"board": np.array([], dtype="int64"), "deal": pd.Series([], dtype="string")})
    assert check_plausibility(frame, boards) is None


def test_lead_spellings():
    assert lead_cards(pd.Series(["♥A", "ha", "AH", "H10", "♦10", "10d", "♠ K", "ZZ", "S1", None])).fillna("-").tolist() == \
        ["HA", "HA", "HA", "HT", "DT", "DT", "SK", "-", "-", "-"]


@pytest.mark.parametrize("typed, card", [
    ("♠Т", "SA"), ("♦К", "DK"), ("♣Д", "CQ"), ("♦В", "DJ"),  # Russian туз, король, дама, валет
    ("♠D", "SQ"), ("♥B", "HJ"),  # German Dame, Bube (Dutch boer)
    ("♣R", "CK"), ("♠H", "SK"),  # French roi, Dutch heer
    ("♠V", "-"),  # French valet (J) or Dutch vrouw (Q): not guessed
    ("SD", "-"), ("HB", "-"),  # after a suit letter the local letters would be ambiguous
])
def test_lead_ranks_of_other_languages_after_a_suit_symbol(typed, card):
    assert lead_cards(pd.Series([typed])).fillna("-").tolist() == [card]


def test_a_result_the_field_shares_is_not_a_double_dummy_warning(tmp_path):
    """Four tricks below double dummy at two tables: the field shares it (a lead double dummy finds and
    the tables did not), so neither is flagged; alone, it is."""
    assert _warnings(tmp_path, "1,1,2,3NT,N,=,HT\n1,2,3,3NT,N,=,HT\n", dd=True) == []
    assert _warnings(tmp_path, "1,1,2,3NT,N,=,HT\n1,2,3,3NT,N,+4,HT\n", dd=True) == [
        ("2", "result", "board 1, NS 1 v EW 2: 3NT by North took 9 tricks, 4 fewer than double dummy (13); check "
                        "the result, declarer and board")]


@pytest.mark.slow  # the whole pipeline on real files: make test, not make quick
def test_a_file_full_of_lead_notes_is_told_in_a_few_lines(tmp_path):
    """The FFB file's 63 leads held by the wrong hand: 42 are in the other defender's hand (the declarer's
    partner written as declarer, harmless) and said once as such; the 21 others one group; the terminal
    shows a dozen lines, not one per lead (the Checks sheet still lists every one)."""
    from bridgeproc.errors import summarize_problems

    source = Path(__file__).resolve().parents[1] / "data" / "realdata" / "ffb-dn1-open2-s1-2022.pbn"
    session = build_session([str(source)], Options(dd=False))
    leads = session.notes[session.notes["column"] == "lead"]
    swaps = leads["message"].str.contains("(a declarer-seat swap: the same side, the score stands)", regex=False)
    assert (int(swaps.sum()), int((~swaps).sum())) == (42, 21)
    lines = summarize_problems(session.notes)
    assert lines[0] == ("Likely cause: 42 leads are in the other defender's hand: the declarer's partner was written "
                        "as declarer (North for South, East for West); the side and the score are right")
    assert "  ... and 39 more like these" in lines and "  ... and 18 more like these" in lines
    assert len(lines) <= 15


def test_a_session_of_two_sections_names_the_section_of_each_warning(tmp_path):
    """The section is named when the session has several, even when every warning is in one of them."""
    travellers = tmp_path / "travellers.csv"
    travellers.write_text("Section," + HEAD + "A,1,1,2,3NT,N,=,SA\nA,1,2,3,3NT,N,=,HT\nB,1,1,2,3NT,N,=,HT\n",
                          encoding="utf-8")
    session = build_session([_pbn(tmp_path), str(travellers)], Options(dd=False))
    leads = [n.message for n in session.notes.itertuples() if "lead" in n.message]
    assert leads == ["section A board 1, NS 1 v EW 2: the lead SA is not in East's hand (declarer North's left); "
                     "North holds it: check the lead and the declarer"]
