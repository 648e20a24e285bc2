"""Simultaneous events (pipeline.sim): three tiny clubs (CSV, CSV with two sections, scored PBN)
on the same four boards, scored across the field and within each club."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bridgeproc.errors import ValidationError
from bridgeproc.model import Headings, Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.pipeline.sim import clubs_of, score_sim
from bridgeproc.pipeline.sim_write import write_sim
from bridgeproc.report.sim_folder import write_sim_folder

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from event import write_hand_record  # noqa: E402

HEADER = "Section,Board,NS,EW,Contract,Declarer,Result\n"
#: club -> rows (section, board, ns, ew, contract, declarer, result); boards 1-4, not vulnerable on 1.
OAK = [("", 1, 1, 1, "4S", "N", "="), ("", 1, 2, 2, "4S", "N", "+1"), ("", 2, 1, 1, "3NT", "S", "-1"),
       ("", 2, 2, 2, "2H", "E", "="), ("", 3, 1, 2, "1NT", "N", "="), ("", 3, 2, 1, "PASS", "", ""),
       ("", 4, 1, 2, "3C", "W", "+1"), ("", 4, 2, 1, "3C", "W", "=")]
ELM = [("A", 1, 1, 1, "4S", "N", "-1"), ("A", 1, 2, 2, "4S", "N", "="), ("A", 2, 1, 1, "3NT", "S", "="),
       ("A", 2, 2, 2, "3NT", "S", "-1"), ("B", 3, 1, 1, "1NT", "N", "+1"), ("B", 3, 2, 2, "2S", "E", "-1"),
       ("B", 4, 1, 1, "3C", "W", "="), ("B", 4, 2, 2, "5C", "W", "-2")]
PBN_ROWS = {1: [(1, 1, "4S", "N", 11), (2, 2, "3NT", "N", 9)], 2: [(1, 1, "3NT", "S", 9), (2, 2, "2H", "E", 8)],
            3: [(1, 2, "1NT", "N", 7), (2, 1, "1NT", "N", 6)], 4: [(1, 2, "3C", "W", 9), (2, 1, "4H", "S", 10)]}


def _csv(path: Path, rows) -> Path:
    path.write_text(HEADER + "".join(",".join(str(c) for c in r) + "\n" for r in rows), encoding="utf-8")
    return path


def _deals(hands: Path) -> dict[int, str]:
    text = hands.read_text(encoding="utf-8")
    return {int(b): d for b, d in re.findall(r'\[Board "(\d+)"\]\n(?:.*\n){2}\[Deal "([^"]+)"\]', text)}


def _pbn(path: Path, deals: dict[int, str], rows=PBN_ROWS) -> Path:
    dealers, vul = "NESW", ["None", "NS", "EW", "All"]
    lines = ["% PBN 2.1", ""]
    for board, results in rows.items():
        lines += ['[Event "Winter sim"]', f'[Board "{board}"]', f'[Dealer "{dealers[(board - 1) % 4]}"]',
                  f'[Vulnerable "{vul[(board - 1) % 4]}"]', f'[Deal "{deals[board]}"]',
                  '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\4L;Declarer\\1R;Result\\2R"]']
        lines += [f"{ns} {ew} {contract} {declarer} {tricks}" for ns, ew, contract, declarer, tricks in results]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture()
def event(tmp_path):
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    clubs = {"oak": [_csv(tmp_path / "oak.csv", OAK)], "elm": [_csv(tmp_path / "elm.csv", ELM)],
             "ash": [_pbn(tmp_path / "ash.pbn", _deals(hands))]}
    return hands, clubs


def _oracle_mp(scores: list[int]) -> list[float]:
    """2 per result beaten, 1 per tie, against every other result of the board (all boards equally played)."""
    return [2.0 * sum(o < s for o in scores) + sum(o == s for o in scores) - 1 for s in scores]


def test_field_matchpoints_are_every_result_against_every_other_of_its_board(event):
    hands, clubs = event
    sim = score_sim(clubs, hands)
    results = sim.results
    assert len(results) == 24 and sorted(results["club"].unique()) == ["ash", "elm", "oak"]
    assert sorted(results["section"].unique()) == ["ash", "elm/A", "elm/B", "oak"]
    for board, rows in results.groupby("board"):
        expected = _oracle_mp(rows["score_ns"].astype(int).tolist())
        assert rows["mp_ns"].tolist() == expected, board
        assert (rows["mp_ns"] + rows["mp_ew"]).eq(10.0).all()  # 6 results: top 10
    # board 1 by hand: 4S= +420 (oak 1), 4S+1 +450 (oak 2, ash 1), 4S-1 -50, 4S= +420 (elm), 3NT= +400 (ash 2)
    b1 = results[results["board"] == 1].set_index(["club", "ns"])["mp_ns"]
    assert b1.to_dict() == {("oak", "1"): 5.0, ("oak", "2"): 9.0, ("elm", "1"): 0.0, ("elm", "2"): 5.0,
                            ("ash", "1"): 9.0, ("ash", "2"): 2.0}


def test_club_points_equal_scoring_each_club_alone(event):
    hands, clubs = event
    sim = score_sim(clubs, hands)
    for club, files in clubs.items():
        alone = build_session([hands, *files], Options(dd=False))
        mine = sim.club_results(club)
        assert len(mine) == len(alone.results)
        for ours, theirs in (("club_mp_ns", "mp_ns"), ("club_mp_ew", "mp_ew"), ("club_pct_ns", "pct_ns")):
            assert np.allclose(mine[ours].to_numpy(), alone.results[theirs].to_numpy()), (club, ours)
        table = sim.club_standings[sim.club_standings["club"] == club]
        assert table["total"].tolist() == alone.standings["total"].tolist(), club
        assert table["pair"].tolist() == alone.standings["pair"].tolist(), club
        assert sim.numbering[club] == alone.numbering


def test_field_standings_rank_every_pair_of_the_field(event):
    hands, clubs = event
    sim = score_sim(clubs, hands)
    table = sim.field_standings
    per_club = table.groupby("club").size().to_dict()
    assert per_club == {"ash": 4, "elm": 8, "oak": 4}  # 2 NS and 2 EW pairs per section; elm has two
    assert set(table["group"]) == {"NS", "EW"}
    best = table[table["group"] == "NS"].iloc[0]
    mine = sim.results[(sim.results["club"] == best["club"]) & (sim.results["ns"] == best["pair"])
                       & (sim.results["club_section"] == best["club_section"])]
    assert best["total"] == mine["mp_ns"].sum() and best["rank"] == "1"


def test_frequencies_are_the_fields_and_count_the_club(event):
    hands, clubs = event
    sim = score_sim(clubs, hands)
    b1 = sim.frequencies[sim.frequencies["board"] == 1]
    assert b1["score_ns"].tolist() == [450, 420, 400, -50]
    assert b1["results"].tolist() == [2, 2, 1, 1]
    assert b1["points_ns"].tolist() == [9.0, 5.0, 2.0, 0.0]
    oak = sim.club_frequencies("oak")
    assert oak[oak["board"] == 1]["here"].tolist() == [1, 1, 0, 0]
    assert int(sim.frequencies["results"].sum()) == len(sim.results)  # nothing dropped


def test_outputs_per_club_and_for_the_field(event, tmp_path):
    hands, clubs = event
    sim = score_sim(clubs, hands)
    write_sim_folder(sim, tmp_path / "pool", workers=2, chunk=1)  # the writer itself, a club a task
    out = write_sim(sim, tmp_path / "out")  # published: staged, then swapped into place
    assert _files(tmp_path / "pool") == _files(out) - {".bridgeproc-results"}
    for club in clubs:
        folder = out / "clubs" / club
        results = pd.read_csv(folder / "results.csv")
        assert len(results) == 8 and {"mp_ns", "club_mp_ns"} <= set(results.columns)
        freq = pd.read_csv(folder / "frequencies.csv")
        assert int(freq["results"].sum()) == 24 and int(freq["here"].sum()) == 8
        page = (folder / "index.html").read_text(encoding="utf-8")
        assert "The field&#39;s frequencies" in page or "The field's frequencies" in page
    ranking = pd.read_csv(out / "ranking.csv")
    assert len(ranking) == 16
    assert 'href="clubs/oak/index.html"' in (out / "index.html").read_text(encoding="utf-8")
    (out / "logo.png").write_bytes(b"club's")
    write_sim(sim, out)  # a rerun replaces its own files and keeps the club's
    assert (out / "logo.png").read_bytes() == b"club's" and (out / "ranking.csv").exists()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "mine.txt").write_text("x")
    with pytest.raises(Exception, match="the folder holds files bridgeproc did not write"):
        write_sim(sim, tmp_path / "other")


def test_a_folder_an_older_sim_wrote_is_replaced_whole(event, tmp_path):
    """Before its outputs were published like every other run's, sim marked its folder .bridgeproc-sim
    and replaced all of it: such a folder is still bridgeproc's, every file of it."""
    hands, clubs = event
    old = tmp_path / "out"
    (old / "clubs" / "gone").mkdir(parents=True)
    (old / "clubs" / "gone" / "index.html").write_text("a club no longer in the event")
    (old / ".bridgeproc-sim").write_text("written by bridgeproc sim; a rerun replaces this folder\n")
    write_sim(score_sim(clubs, hands), old)
    assert not (old / "clubs" / "gone").exists() and not (old / ".bridgeproc-sim").exists()
    assert (old / ".bridgeproc-results").is_file() and (old / "clubs" / "oak" / "index.html").is_file()


def _files(folder):
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_workers_give_the_same_field(event):
    hands, clubs = event
    alone = score_sim(clubs, hands, workers=1)
    pooled = score_sim(clubs, hands, workers=2, chunk=1)
    pd.testing.assert_frame_equal(alone.results, pooled.results)
    pd.testing.assert_frame_equal(alone.field_standings, pooled.field_standings)


def test_two_clubs_dealing_a_board_differently_are_refused_naming_both(tmp_path):
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    deals = _deals(hands)
    other = dict(deals)
    write_hand_record(tmp_path / "other.pbn", 4, seed=9)
    other[2] = _deals(tmp_path / "other.pbn")[2]
    clubs = {"ash": [_pbn(tmp_path / "ash.pbn", deals)], "birch": [_pbn(tmp_path / "birch.pbn", other)]}
    with pytest.raises(ValidationError) as caught:
        score_sim(clubs, None)
    problems = caught.value.problems
    assert len(problems) == 1
    row = problems.iloc[0]
    assert row["source"].endswith("birch.pbn") and row["column"] == "deal"
    assert "board 2 is dealt differently in" in row["message"] and "ash.pbn" in row["message"]


def test_every_clubs_problems_are_listed_with_file_and_line(event, tmp_path):
    hands, clubs = event
    bad_oak = list(OAK)
    bad_oak[2] = ("", 2, 1, 1, "8NT", "S", "=")
    bad_elm = list(ELM)
    bad_elm[5] = ("B", 3, 2, 2, "2S", "", "-1")
    clubs = {"oak": [_csv(tmp_path / "oak.csv", bad_oak)], "elm": [_csv(tmp_path / "elm.csv", bad_elm)],
             "ash": clubs["ash"]}
    with pytest.raises(ValidationError) as caught:
        score_sim(clubs, hands)
    problems = caught.value.problems.sort_values("source")
    assert [(Path(s).name, line, column) for s, line, column in
            zip(problems["source"], problems["line"], problems["column"])] == [
        ("elm.csv", "7", "declarer"), ("oak.csv", "4", "contract")]


def test_clubs_of_stem_and_folder(tmp_path):
    (tmp_path / "oak").mkdir()
    a = _csv(tmp_path / "oak" / "travellers.csv", OAK)
    b = _csv(tmp_path / "elm.csv", ELM)
    assert clubs_of([tmp_path / "oak", b]) == {"oak": [a], "elm": [b]}
    assert clubs_of([a], "folder") == {"oak": [a]}


#: A 3-table Mitchell numbered per direction, board 4 arrow-switched (written by seat: the NS column
#: holds the EW pair that sat NS, marked Y): (board, NS seat, EW seat, contract, declarer, result, switched).
PINE = [(b, t, (t + b - 2) % 3 + 1, "2S", "N", r, "") for b, r in ((1, "="), (2, "+1"), (3, "-1")) for t in (1, 2, 3)]
PINE += [(4, (t + 2) % 3 + 1, t, "3C", "W", r, "Y") for t, r in ((1, "="), (2, "+1"), (3, "-2"))]


def test_an_arrow_switched_club_credits_the_switched_seat_to_the_pair_by_its_number(event, tmp_path):
    hands, clubs = event
    pine = tmp_path / "pine.csv"
    pine.write_text("Board,NS,EW,Contract,Declarer,Result,Switched\n"
                    + "".join(",".join(str(c) for c in row) + "\n" for row in PINE), encoding="utf-8")
    sim = score_sim({"oak": clubs["oak"], "pine": [pine]}, hands)
    assert sim.numbering["pine"] == "per-direction"
    alone = build_session([hands, pine], Options(dd=False))
    club = sim.club_standings[sim.club_standings["club"] == "pine"]
    assert list(zip(club["group"], club["pair"], club["boards"], club["total"])) == list(
        zip(alone.standings["group"], alone.standings["pair"], alone.standings["boards"], alone.standings["total"]))
    field = sim.field_standings[sim.field_standings["club"] == "pine"]
    # one row per pair, each with its four boards (before: EW 3 on board 4 sat NS and was marked NS 3)
    assert sorted(zip(field["group"], field["pair"], field["boards"])) == [
        ("EW", "1", 4), ("EW", "2", 4), ("EW", "3", 4), ("NS", "1", 4), ("NS", "2", 4), ("NS", "3", 4)]
    # each total is the field's MPs of the seats the pair sat in: by its number, switched or not
    results = sim.club_results("pine")
    switched = results["switched"].to_numpy(dtype=bool, na_value=False)
    for group, pair, total in zip(field["group"], field["pair"], field["total"]):
        own, other = ("ns", "ew") if group == "NS" else ("ew", "ns")
        straight = results[(results[own] == pair).to_numpy() & ~switched][f"mp_{own}"].sum()
        crossed = results[(results[other] == pair).to_numpy() & switched][f"mp_{other}"].sum()
        assert total == pytest.approx(straight + crossed), (group, pair)


from tests.conftest_pg import archive_url, postgres_server  # noqa: E402,F401  (fixtures)

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick


def test_score_from_the_archive_equals_scoring_the_files(event, archive_url):  # noqa: F811
    """Each club's session archived as the clubs' machines do (``score ... --archive --event``,
    each its own session id); the field read back from the archive scores as from the files."""
    from bridgeproc.archive import archive_session
    from bridgeproc.pipeline.sim import score_sim_from_archive

    hands, clubs = event
    for club, files in clubs.items():
        session = build_session([hands, *files], Options(headings=Headings(given={"site": club}), dd=False))
        archive_session(session, archive_url, event="Winter sim", session_id=f"winter-sim-{club}", date="2026-12-01")
    archived = score_sim_from_archive(archive_url, "Winter sim")
    direct = score_sim(clubs, hands)
    assert sorted(archived.clubs) == ["ash", "elm", "oak"]
    key = ["club", "section", "board", "ns", "ew"]
    ours = archived.results.sort_values(key).reset_index(drop=True)
    theirs = direct.results.sort_values(key).reset_index(drop=True)
    for column in ("mp_ns", "mp_ew", "club_mp_ns", "club_pct_ew"):
        assert np.allclose(ours[column].to_numpy(), theirs[column].to_numpy()), column
    assert sorted(archived.field_standings["total"]) == sorted(direct.field_standings["total"])
    with pytest.raises(Exception, match="no session of event 'Summer sim'"):
        score_sim_from_archive(archive_url, "Summer sim")
