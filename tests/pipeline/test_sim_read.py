"""A simultaneous event's clubs read and checked a chunk at a time (pipeline.sim_read): the chunk's
CSV files built into one frame and checked in one call must give exactly what each club's files
give alone: the same results, and for a club with a problem exactly its own file, line and message."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bridgeproc.core.pairs import numbering_by_group, pair_numbering
from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.model import ArchiveOptions, Options, ReadOptions
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.sim import score_sim
from bridgeproc.pipeline.sim_read import _csv_rows, _rows_frame, read_clubs
from tests.pipeline.test_sim import ELM, HEADER, OAK, PINE, _csv, write_hand_record

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

#: Five more clubs on boards 1-4, each its own variation of OAK (scores differ, so do the fields).
VARIANTS = {f"club{i}": [(s, b, ns, ew, c, d, r if i % 2 else ("=" if r != "=" else "+1") if c != "PASS" else "")
                         for s, b, ns, ew, c, d, r in OAK] for i in range(5)}


def _event(tmp_path: Path, rows: dict[str, list]) -> tuple[Path, dict[str, list[Path]]]:
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    return hands, {club: [_csv(tmp_path / f"{club}.csv", r)] for club, r in rows.items()}


def _alone_problems(hands: Path, path: Path) -> list[tuple[str, str, str, str]]:
    """What ``bridgeproc check`` lists for the club's file alone (name, line, column, message)."""
    with pytest.raises(ValidationError) as caught:
        build_session([hands, path], Options(dd=False))
    p = caught.value.problems
    return sorted(zip(p["source"].map(lambda s: Path(s).name), p["line"].astype(str), p["column"].astype(str),
                      p["message"]))


def _sim_problems(hands: Path, clubs: dict[str, list[Path]], **kw) -> list[tuple[str, str, str, str]]:
    with pytest.raises(ValidationError) as caught:
        score_sim(clubs, hands, **kw)
    p = caught.value.problems
    return sorted(zip(p["source"].map(lambda s: Path(s).name), p["line"].astype(str), p["column"].astype(str),
                      p["message"]))


BAD_ROWS = [  # (what, row index in OAK, the row written instead)
    ("not a contract", 2, ("", 2, 1, 1, "8NT", "S", "=")),
    ("no declarer", 5, ("", 3, 2, 1, "2S", "", "-1")),
    ("pair plays itself", 0, ("", 1, 1, 2, "4S", "N", "=")),
    ("result beyond 13 tricks", 1, ("", 1, 2, 2, "4S", "N", "+4")),
]


@pytest.mark.parametrize("what,at,row", BAD_ROWS, ids=[b[0] for b in BAD_ROWS])
@pytest.mark.parametrize("chunk", [1, 3, 50])
def test_a_chunk_with_one_bad_club_lists_exactly_that_clubs_file_and_line(tmp_path, what, at, row, chunk):
    rows = dict(VARIANTS)
    bad = list(OAK)
    bad[at] = row
    rows["club2"] = bad
    hands, clubs = _event(tmp_path, rows)
    expected = _alone_problems(hands, clubs["club2"][0])
    assert expected and all(name == "club2.csv" for name, *_ in expected)
    assert _sim_problems(hands, clubs, workers=1, chunk=chunk) == expected


def test_two_bad_clubs_in_one_chunk_each_list_their_own(tmp_path):
    rows = dict(VARIANTS)
    rows["club1"] = [*OAK[:2], ("", 2, 1, 1, "8NT", "S", "="), *OAK[3:]]
    rows["club3"] = [*ELM[:5], ("B", 3, 2, 2, "2S", "", "-1"), *ELM[6:]]
    hands, clubs = _event(tmp_path, rows)
    expected = sorted(_alone_problems(hands, clubs["club1"][0]) + _alone_problems(hands, clubs["club3"][0]))
    assert [(n, line, c) for n, line, c, _ in expected] == [("club1.csv", "4", "contract"), ("club3.csv", "7", "declarer")]
    assert _sim_problems(hands, clubs, workers=1) == expected


def test_a_file_that_is_no_traveller_is_refused_as_read_inputs_refuses_it(tmp_path):
    hands, clubs = _event(tmp_path, dict(VARIANTS))
    broken = tmp_path / "club4.csv"
    broken.write_text("Title of the evening\nBoard,Pair,Score\n1,2,420\n", encoding="utf-8")
    with pytest.raises(ValidationError) as caught:
        score_sim(clubs, hands, workers=1)
    problems = caught.value.problems
    assert len(problems) == 1
    row = problems.iloc[0]
    assert row["source"] == str(broken) and row["line"] == "2"
    assert row["message"].startswith("missing column ns, ew, contract in header Board, Pair, Score")


def test_clubs_of_different_columns_in_one_chunk_score_as_each_alone(tmp_path):
    """A run of files with other columns (a Lead column, columns in another order, a column not
    read) is a frame of its own; every club still scores as its own files alone, and its note stays."""
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    clubs = {"oak": [_csv(tmp_path / "oak.csv", OAK)], "elm": [_csv(tmp_path / "elm.csv", ELM)]}
    birch = tmp_path / "birch.csv"
    birch.write_text("NS,EW,Board,Result,Declarer,Contract,Lead,Remarks\n" + "".join(
        f"{ns},{ew},{b},{r},{d},{c},SA,late\n" for _, b, ns, ew, c, d, r in OAK), encoding="utf-8")
    clubs = {"oak": clubs["oak"], "birch": [birch], "elm": clubs["elm"], "ash": [_csv(tmp_path / "ash.csv", OAK)]}
    sim = score_sim(clubs, hands, workers=1)
    assert list(sim.clubs) == ["oak", "birch", "elm", "ash"]
    assert list(pd.unique(sim.results["club"])) == ["oak", "birch", "elm", "ash"]
    for club, files in clubs.items():
        alone = build_session([hands, *files], Options(dd=False))
        mine = sim.club_results(club)
        assert mine["line"].tolist() == alone.results["line"].tolist(), club
        assert np.allclose(mine["club_mp_ns"].to_numpy(), alone.results["mp_ns"].to_numpy()), club
    assert sim.results.loc[sim.results["club"] == "birch", "lead"].eq("SA").all()
    notes = sim.notes
    assert notes is not None and list(notes["source"]) == [str(birch)]
    assert "'Remarks' not read" in notes["message"].iloc[0]


def test_a_club_numbered_by_section_letter_is_checked_alone_among_plain_clubs(tmp_path):
    hands, clubs = _event(tmp_path, {"oak": OAK, "elm": ELM})
    lettered = tmp_path / "yew.csv"
    lettered.write_text(HEADER.replace("Section,", "") + "".join(
        f"{b},A{ns},A{ew},{c},{d},{r}\n" for _, b, ns, ew, c, d, r in OAK), encoding="utf-8")
    pine = tmp_path / "pine.csv"
    pine.write_text("Board,NS,EW,Contract,Declarer,Result,Switched\n"
                    + "".join(",".join(str(c) for c in row) + "\n" for row in PINE), encoding="utf-8")
    clubs = {"oak": clubs["oak"], "yew": [lettered], "pine": [pine], "elm": clubs["elm"]}
    sim = score_sim(clubs, hands, workers=1)
    for club, files in clubs.items():
        alone = build_session([hands, *files], Options(dd=False))
        assert sim.numbering[club] == alone.numbering, club
        table = sim.club_standings[sim.club_standings["club"] == club]
        assert table["pair"].tolist() == alone.standings["pair"].tolist(), club
        assert table["total"].tolist() == alone.standings["total"].tolist(), club
    assert sim.numbering["pine"] == "per-direction"
    assert set(sim.club_results("yew")["ns"]) == {"1", "2"}  # A1, A2 read with the club's section


def test_a_chunk_comes_back_as_one_frame_in_the_clubs_order(tmp_path):
    hands, clubs = _event(tmp_path, {**VARIANTS, "elm": ELM})
    options = Options(archive=ArchiveOptions(store=False), dd=False)
    out = read_clubs([(club, files) for club, files in clubs.items()], options, None)
    assert len(out.results) == 1 and not out.problems
    assert list(pd.unique(out.results[0]["club"])) == list(clubs)
    assert out.results[0].index.equals(pd.RangeIndex(len(out.results[0])))


def test_rows_frame_equals_each_files_frame_concatenated(tmp_path):
    texts = {"a.csv": "Board,NS,EW,Contract,Declarer,Result\n1,1,2,4S,N,=\n2,3,4,3NT,S,-1\n",
             "b.csv": "Title\nNS,EW,Board,Declarer,Contract,Result\n\n5,6,1,N,2H,+1\n7,8,1,E\n"}
    frames, rows = [], []
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        frame = parse_travellers_csv(text, name)
        frames.append(frame.assign(source=pd.array([str(path)] * len(frame), dtype="string")))
        read = _csv_rows([path], Options())
        assert read is not None and read.source == str(path)
        rows.append(read)
    by_name = [pd.DataFrame({c: f[c] for c in frames[0].columns}) for f in frames]
    pd.testing.assert_frame_equal(_rows_frame(rows), pd.concat(by_name, ignore_index=True))
    assert _rows_frame(rows)["line"].tolist() == [2, 3, 4, 5]


def test_csv_rows_leaves_other_files_and_refused_files_to_read_inputs(tmp_path):
    good = _csv(tmp_path / "oak.csv", OAK)
    names = tmp_path / "names.csv"
    names.write_text("Pair,Names\n1,Ann & Bo\n", encoding="utf-8")
    assert _csv_rows([good], Options()) is not None
    assert _csv_rows([names], Options()) is None  # a names list, or a refused file: read_inputs says which
    assert _csv_rows([good, names], Options()) is None
    assert _csv_rows([good], Options(read=ReadOptions(encoding="cp1252"))) is None
    assert _csv_rows([tmp_path / "oak.pbn"], Options()) is None


NUMBERING_CASES = [  # (what, rows (section, board, ns, ew) of each group)
    ("mitchell: NS 1 and EW 1 are two pairs", [("A", 1, "1", "1"), ("A", 1, "2", "2"), ("A", 2, "1", "2"), ("A", 2, "2", "1")]),
    ("howell: one numbering for all", [("", 1, "1", "2"), ("", 1, "3", "4"), ("", 2, "2", "3"), ("", 2, "4", "1")]),
    ("two sections with shared numbers", [("A", 1, "1", "1"), ("B", 1, "1", "1"), ("A", 2, "2", "2"), ("B", 2, "2", "2")]),
    ("a missing pair cell", [("", 1, "1", None), ("", 1, "2", "2"), ("", 2, "1", "1")]),
]


def test_numbering_by_group_agrees_with_pair_numbering_group_by_group():
    section, board, ns, ew, group = [], [], [], [], []
    for g, (_, rows) in enumerate(NUMBERING_CASES):
        for s, b, n, e in rows:
            section.append(s)
            board.append(b)
            ns.append(n)
            ew.append(e)
            group.append(g)
    got = numbering_by_group(pd.Series(section, dtype="string"), np.array(board), pd.Series(ns, dtype="string"),
                             pd.Series(ew, dtype="string"), np.array(group))
    expected = []
    for _, rows in NUMBERING_CASES:
        frame = pd.DataFrame(rows, columns=["section", "board", "ns", "ew"]).astype(
            {"section": "string", "ns": "string", "ew": "string"})
        expected.append(pair_numbering(frame) == "per-direction")
    assert got.tolist() == expected == [True, False, True, True]  # a number in both directions on a board: two pairs


def test_the_pool_gives_exactly_what_one_process_gives(tmp_path):
    """Chunks of two clubs in two processes, the clubs' scoring in the pool while the field is scored
    here: every frame equal to one process's, for plain, sectioned, per-direction and noted clubs."""
    hands, clubs = _event(tmp_path, {**VARIANTS, "elm": ELM})
    pine = tmp_path / "pine.csv"
    pine.write_text("Board,NS,EW,Contract,Declarer,Result,Switched\n"
                    + "".join(",".join(str(c) for c in row) + "\n" for row in PINE), encoding="utf-8")
    birch = tmp_path / "birch.csv"
    birch.write_text(HEADER.rstrip("\n") + ",Remarks\n" + "".join(",".join(str(c) for c in r) + ",late\n"
                                                                for r in ELM), encoding="utf-8")
    clubs = {**clubs, "pine": [pine], "birch": [birch]}
    alone = score_sim(clubs, hands, workers=1)
    pooled = score_sim(clubs, hands, workers=2, chunk=2)
    # the results' columns are every chunk's in order of appearance, and ``switched`` is False for a
    # club checked with pine, missing for one whose chunk has no such column (as before the split)
    switched = [r["switched"].fillna(False).astype(bool).tolist() for r in (alone.results, pooled.results)]
    assert switched[0] == switched[1] and sum(switched[0]) == 3
    pd.testing.assert_frame_equal(alone.results.drop(columns="switched"), pooled.results.drop(columns="switched"),
                                  check_exact=True, check_like=True)
    for name in ("field_standings", "club_standings", "frequencies", "notes"):
        pd.testing.assert_frame_equal(getattr(alone, name), getattr(pooled, name), check_exact=True)
    assert alone.numbering == pooled.numbering and alone.clubs == pooled.clubs == tuple(clubs)
    assert len(pooled.results) == 8 * 7 + 12 and len(pooled.notes) == 1
