"""Standings on whole columns against a slow, obvious implementation (hypothesis), and NS 1 / EW 1
of a one-winner Mitchell numbered per direction told apart in every output (issue 17)."""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.write import write_outputs
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.rank.methods import ranking_method
from bridgeproc.schema import SWITCHED_COLUMNS
from tests.conftest import examples

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from event import write_hand_record  # noqa: E402

SCORES = [-620, -200, -110, -50, 90, 110, 120, 140, 420, 450, 620]


def _value(row: pd.Series, column: str) -> float:
    value = row[column]
    return math.nan if pd.isna(value) else float(value)


def slow_standings(scored: pd.DataFrame, conv: Conventions) -> list[tuple]:
    """(group, rank, pair, boards, total, pct) row by row with plain Python: each seat's points go to
    the pair whose number sits there (an arrow-switched row's NS seat holds the EW pair), keyed by
    section, number and (per direction) the number's direction; ranked by percentage or total."""
    method = ranking_method(conv.method)
    per_direction = conv.pair_numbering == "per-direction"
    sections = sorted({"" if pd.isna(r["section"]) else r["section"] for _, r in scored.iterrows()
                       if not (pd.isna(r["ns"]) and pd.isna(r["ew"]))})
    several = len(sections) > 1 and not conv.across_field
    pairs: dict[tuple, dict] = {}
    for _, row in scored.iterrows():
        switched = "switched" in scored and bool(row["switched"])
        section = "" if pd.isna(row["section"]) else row["section"]
        for seat, column in enumerate(method.points):
            pair = row["ew" if seat else "ns"]
            points = _value(row, column)
            if pd.isna(pair) or math.isnan(points):
                continue
            direction = ("EW", "NS")[seat] if switched else ("NS", "EW")[seat]
            base = "ALL" if conv.winners == "one" else direction
            group = f"{section} {base}" if several else base
            who = pairs.setdefault((group, section, str(pair).casefold(), direction if per_direction else ""), {
                "group": group, "section": section, "pair": str(pair), "direction": direction, "base": base,
                "boards": set(), "total": 0.0, "top": 0.0, "pct_points": 0.0, "pct_rows": []})
            who["boards"].add(int(row["board"]))
            who["total"] += points
            if method.percentages:
                who["top"] += _value(row, "top")
                who["pct_points"] += points
                who["pct_rows"].append(_value(row, ("pct_ns", "pct_ew")[seat]))
    out = []
    for who in pairs.values():
        pct = math.nan
        if method.percentages:  # boards of top 0 weigh nothing; with only those, the mean of their percentages
            pct = (who["pct_points"] / who["top"] * 100.0 if who["top"] > 0
                   else float(np.nanmean(who["pct_rows"])) if not np.isnan(who["pct_rows"]).all() else math.nan)
        value = round(pct if method.percentages else who["total"], 6)
        same_label = [o for o in pairs.values() if o["group"] == who["group"] and o["pair"] == who["pair"]
                      and (not per_direction or o["direction"] == who["direction"])]
        label = who["section"] + who["pair"] if len(same_label) > 1 else who["pair"]
        number = int(label) if label.isdigit() else None
        out.append({**who, "label": label, "number": number, "pct": pct, "value": value})
    # numbered per direction, a group where two pairs still share a label (NS 1, EW 1 ranked
    # together) shows every pair with its direction
    for who in out:
        group = [o for o in out if o["group"] == who["group"]]
        who["direction_shown"] = per_direction and len({o["label"] for o in group}) < len(group)
    for who in out:
        if who["direction_shown"]:
            who["label"] = f"{who['direction']} {who['label']}"
    for who in out:
        rivals = [o["value"] for o in out if o["group"] == who["group"]]
        better = sum(v > who["value"] for v in rivals)
        who["rank"] = f"{better + 1}{'=' if rivals.count(who['value']) > 1 else ''}"
    out.sort(key=lambda o: (o["group"], -o["value"], (0, o["number"]) if o["number"] is not None else (1, 0),
                            o["label"]))
    return [(o["group"], o["rank"], o["label"], len(o["boards"]), o["total"], o["pct"]) for o in out]


@st.composite
def mitchells(draw):
    """A Mitchell of 2-4 tables per section over 1-4 boards, written by seat: on an arrow-switched row
    the NS column holds the EW pair; now and then an A+/A- or a side with no pair."""
    rows = []
    sections = draw(st.sampled_from([[""], ["A"], ["A", "B"]]))
    for section in sections:
        tables = draw(st.integers(2, 4))
        for board in range(1, draw(st.integers(1, 4)) + 1):
            switched = draw(st.booleans())
            for table in range(1, tables + 1):
                ns, ew = str(table), str((table + board - 2) % tables + 1)
                code = draw(st.sampled_from([None] * 12 + ["A+/A-"]))
                score = None if code else draw(st.sampled_from(SCORES))
                if draw(st.integers(0, 30)) == 0:
                    ns = None
                rows.append((section, board, ew if switched else ns, ns if switched else ew, code, score, switched))
    return pd.DataFrame({
        "section": pd.array([r[0] for r in rows], dtype="string"),
        "board": np.array([r[1] for r in rows], dtype="int64"),
        "ns": pd.array([r[2] for r in rows], dtype="string"),
        "ew": pd.array([r[3] for r in rows], dtype="string"),
        "adjusted": pd.array([r[4] for r in rows], dtype="string"),
        "score_ns": pd.array([r[5] for r in rows], dtype="Int64"),
        "switched": pd.array([r[6] for r in rows], dtype=SWITCHED_COLUMNS["switched"]),
    })


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results=mitchells(), method=st.sampled_from(["mp", "cross-imp", "butler"]),
       winners=st.sampled_from(["one", "two"]), numbering=st.sampled_from(["shared", "per-direction"]),
       across_field=st.booleans())
def test_standings_match_the_slow_implementation(results, method, winners, numbering, across_field):
    conv = Conventions(method=method, winners=winners, pair_numbering=numbering, across_field=across_field)
    scored = rank_results(results, conv)
    table = standings(scored, conv)
    expected = slow_standings(scored, conv)
    got = list(table[["group", "rank", "pair", "boards", "total", "pct"]].itertuples(index=False, name=None))
    assert [r[:4] for r in got] == [r[:4] for r in expected]
    for (*_, total, pct), (*_, want_total, want_pct) in zip(got, expected):
        assert math.isclose(total, want_total, rel_tol=1e-9, abs_tol=1e-9)
        assert (math.isnan(pct) and math.isnan(want_pct)) or math.isclose(pct, want_pct, rel_tol=1e-9)
    assert not table.duplicated(["group", "pair"]).any()


# --- one winner, numbered per direction ---------------------------------------------------

#: A 3-table Mitchell over 3 boards: (board, NS, EW, contract, declarer, result). Board 1 is not
#: vulnerable, board 2 NS, board 3 EW (write_hand_record's cycle).
MITCHELL = [(1, 1, 1, "4S", "N", "="), (1, 2, 2, "4S", "N", "+1"), (1, 3, 3, "4S", "N", "-1"),
            (2, 1, 2, "3NT", "S", "="), (2, 2, 3, "3NT", "S", "-1"), (2, 3, 1, "2H", "E", "="),
            (3, 1, 3, "1NT", "N", "="), (3, 2, 1, "1NT", "N", "+1"), (3, 3, 2, "2S", "E", "=")]
# NS MPs (top 4): board 1 +450 4, +420 2, -50 0; board 2 +600 4, -100 2, -110 0; board 3 +120 4, +90 2, -110 0
# NS 1 2+4+2, NS 2 4+2+4, NS 3 0; EW 1 2+0+4... by board: EW 1 2, 4, 0; EW 2 0, 0, 4; EW 3 4, 2, 2
RANKED = [("ALL", "1", "NS 2", "Ann & Bob", 3, 10.0, 250 / 3), ("ALL", "2=", "NS 1", "Cy & Di", 3, 8.0, 200 / 3),
          ("ALL", "2=", "EW 3", "Ed & Flo", 3, 8.0, 200 / 3), ("ALL", "4", "EW 1", "Gus & Hal", 3, 6.0, 50.0),
          ("ALL", "5", "EW 2", "Ian & Jo", 3, 4.0, 100 / 3), ("ALL", "6", "NS 3", "Kim & Lu", 3, 0.0, 0.0)]
NAMES = [("2", "NS", "Ann & Bob"), ("1", "NS", "Cy & Di"), ("3", "EW", "Ed & Flo"), ("1", "EW", "Gus & Hal"),
         ("2", "EW", "Ian & Jo"), ("3", "NS", "Kim & Lu")]
ONE_WINNER = Options(ranking=ConventionChoice(changes={"winners": "one", "pair_numbering": "per-direction"}), dd=False)


@pytest.fixture()
def mitchell(tmp_path):
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 3)
    travellers = tmp_path / "travellers.csv"
    travellers.write_text("Board,NS,EW,Contract,Declarer,Result\n"
                          + "".join(",".join(map(str, row)) + "\n" for row in MITCHELL), encoding="utf-8")
    names = tmp_path / "names.csv"
    names.write_text("Pair,Direction,Names\n" + "".join(f"{p},{d},{n}\n" for p, d, n in NAMES), encoding="utf-8")
    return hands, travellers, names


def _rows(table: pd.DataFrame) -> list[tuple]:
    return list(table[["group", "rank", "pair", "names", "boards", "total", "pct"]].itertuples(index=False, name=None))


def _ranking_sheet(path: Path) -> list[tuple]:
    sheet = openpyxl.load_workbook(path)["Ranking"]
    rows = [r for r in sheet.iter_rows(values_only=True) if any(v is not None for v in r)]
    header = next(i for i, r in enumerate(rows) if r[:2] == ("Rank", "Pair"))
    return [r[:5] for r in rows[header + 1:]]


def test_one_winner_mitchell_numbered_per_direction_shows_ns_1_and_ew_1_apart(mitchell, tmp_path):
    hands, travellers, names = mitchell
    session = build_session([hands, travellers, names], ONE_WINNER)
    assert session.numbering == "per-direction"
    got = _rows(session.standings)
    assert [r[:5] for r in got] == [r[:5] for r in RANKED]
    assert [r[5] for r in got] == [r[5] for r in RANKED]
    assert np.allclose([r[6] for r in got], [r[6] for r in RANKED])
    out = tmp_path / "out"
    out.mkdir()
    write_outputs(session, [out / "results.xlsx", out / "results.csv"])
    assert _ranking_sheet(out / "results.xlsx") == [
        (1, "NS 2", "Ann & Bob", 3, 10), (2, "NS 1", "Cy & Di", 3, 8), (2, "EW 3", "Ed & Flo", 3, 8),
        (4, "EW 1", "Gus & Hal", 3, 6), (5, "EW 2", "Ian & Jo", 3, 4), (6, "NS 3", "Kim & Lu", 3, 0)]
    # the scored CSV read back (with the names) ranks the same pairs the same way
    again = build_session([hands, out / "results.csv", names], ONE_WINNER)
    assert _rows(again.standings) == got


def test_two_winners_of_the_same_mitchell_keep_the_plain_numbers(mitchell):
    hands, travellers, names = mitchell
    session = build_session([hands, travellers, names], Options(dd=False))
    table = session.standings
    assert session.numbering == "per-direction" and sorted(set(table["group"])) == ["EW", "NS"]
    assert list(zip(table["group"], table["pair"], table["total"])) == [
        ("EW", "3", 8.0), ("EW", "1", 6.0), ("EW", "2", 4.0), ("NS", "2", 10.0), ("NS", "1", 8.0), ("NS", "3", 0.0)]


@pytest.mark.parametrize(("sections", "expected"), [
    # one section: NS 1 and EW 1 told apart by direction only
    (["", ""], {"NS 1", "EW 1", "NS 2", "EW 2"}),
    # two sections ranked together across the field: the section, then the direction
    (["A", "B"], {"NS A1", "EW A1", "NS A2", "EW A2", "NS B1", "EW B1", "NS B2", "EW B2"}),
])
def test_one_winner_labels_carry_section_and_direction(sections, expected):
    rows = [(s, b, ns, ew, score) for s in sorted(set(sections)) for b, ns, ew, score in
            [(1, "1", "1", 420), (1, "2", "2", 450), (2, "1", "2", -50), (2, "2", "1", 100)]]
    results = pd.DataFrame({"section": pd.array([r[0] for r in rows], dtype="string"),
                            "board": np.array([r[1] for r in rows], dtype="int64"),
                            "ns": pd.array([r[2] for r in rows], dtype="string"),
                            "ew": pd.array([r[3] for r in rows], dtype="string"),
                            "adjusted": pd.array([None] * len(rows), dtype="string"),
                            "score_ns": pd.array([r[4] for r in rows], dtype="Int64")})
    conv = Conventions(winners="one", pair_numbering="per-direction", across_field=True)
    table = standings(results, conv)
    assert set(table["pair"]) == expected and len(table) == len(expected)
    assert set(table["group"]) == {"ALL"}
