"""Producers' files scored as their programs did (issue 14; tests/data/realdata/README.md).

* The three Compscore3 USEBIO exports, read and scored by the pipeline with no options:
  the file's ``EVENT_TYPE`` picks the method, its ``PROGRAM_NAME`` the ``compscore``
  profile, and every number the README says was re-derived is reproduced (board values,
  Butler datums, totals, percentages, places), so the run has no published-difference note.
* The pbntools PBNs of KoPS, JFR Pary and BBO, against the producers' own web pages in the
  ``*-travellers.tar.gz`` beside them (parsed here, test data only): KoPS with
  ``cross_imp="board-average"`` (212 of 216 board values, 5 of 9 totals: board 22 is
  unexplained), JFR with the defaults (432 of 432 percentages), BBO with ``factoring="none"``
  (the ``bbo`` profile; 573 of 573 NS percentages).
"""
from __future__ import annotations

import html
import re
import tarfile
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

from bridgeproc.io.usebio import read_usebio
from bridgeproc.model import ConventionChoice, Options
from bridgeproc.pipeline.run import build_session, load_results
from bridgeproc.rank import Conventions, profile, rank_results, standings
from tests.conftest import REALDATA

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

BUTLER = "aus-sunshine-coast-bc-2026-03-09-butler-howell-compscore3.usebio.xml"
MP = "aus-nsbc-lindfield-2022-07-27-mp-howell-compscore3.usebio.xml"
CROSS = "aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml"
KOPS = "pol-chorzow-2013-08-07-imp-kops-pbntools.pbn"
JFR = "pol-warsaw-2012-08-02-barometer-jfrpary-pbntools.pbn"
BBO = "bbo-acbl-1607-speedball-2013-08-10-pbntools.pbn"


@lru_cache(maxsize=None)
def _session(name: str):
    return build_session([REALDATA / name], Options(dd=False))


def _published(name: str) -> pd.DataFrame:
    """The file's published per-line numbers (as numbers), keyed by line."""
    raw = read_usebio(REALDATA / name).results
    numbers = {c: pd.to_numeric(raw[c], errors="coerce") for c in ("mp_ns", "mp_ew", "imp_ns", "imp_ew", "butlerdatum")
               if c in raw}
    return pd.DataFrame({"line": raw["line"], **numbers})


def _merged(name: str) -> pd.DataFrame:
    return _session(name).results.merge(_published(name), on="line", suffixes=("", "_pub"), validate="1:1")


def _close(ours: pd.Series, theirs: pd.Series, tolerance: float) -> np.ndarray:
    return np.isclose(ours.to_numpy(dtype=float, na_value=np.nan), theirs.to_numpy(dtype=float, na_value=np.nan),
                      atol=tolerance, rtol=0)


@pytest.mark.parametrize("name, method, cross_imp, mp_top", [
    (BUTLER, "butler", "board-average", "board"),
    (MP, "mp", "board-average", "board"),
    (CROSS, "cross-imp", "board-average", "board"),
])
def test_compscore_files_pick_the_method_from_event_type_and_the_compscore_profile(realdata, name, method, cross_imp,
                                                                                   mp_top):
    session = _session(name)
    assert session.meta["program"] == "Compscore3"
    assert session.conventions.method == method
    assert (session.conventions.cross_imp, session.conventions.mp_top, session.conventions.sitout) == (
        cross_imp, mp_top, "most")


@pytest.mark.parametrize("name, columns, count", [
    (BUTLER, [("butler_ns", "imp_ns"), ("butler_ew", "imp_ew")], 280),
    (MP, [("mp_ns", "mp_ns"), ("mp_ew", "mp_ew")], 322),
    (CROSS, [("ximp_ns", "imp_ns"), ("ximp_ew", "imp_ew")], 216),
])
def test_compscore_board_values_all_reproduced(realdata, name, columns, count):
    merged = _merged(name)
    compared = 0
    for ours, theirs in columns:
        theirs = f"{theirs}_pub" if theirs == ours else theirs
        ok = _close(merged[ours], merged[theirs], 0.0051)
        assert ok.all(), merged.loc[~ok, ["board", "ns", "ew", "score_ns", ours, theirs]].head(10)
        compared += len(ok)
    assert compared == count


def test_compscore_butler_datums_all_reproduced(realdata):
    merged = _merged(BUTLER).drop_duplicates(subset=["board"])
    assert len(merged) == 35
    assert (merged["datum"].astype("float64") == merged["butlerdatum"]).all()


def test_compscore_lindfield_board_tops_and_factoring(realdata):
    merged = _merged(MP)
    board12 = merged[merged["board"] == 12]
    assert len(board12) == 5 and (board12["top"] == 8).all()  # each board on its own top, not factored
    board26 = merged[merged["board"] == 26].set_index("ns")
    assert board26.loc["2", "mp_ns"] == pytest.approx(2.6)  # Neuberg around the A5050: (2 + 1) x 6/5 - 1
    assert board26.loc["5", "mp_ns"] == pytest.approx(5.0)


@pytest.mark.parametrize("name, percentages", [(BUTLER, False), (MP, True), (CROSS, False)])
def test_compscore_totals_percentages_and_places_all_reproduced(realdata, name, percentages):
    session = _session(name)
    published = read_usebio(REALDATA / name).totals
    joined = session.standings.merge(published[["pair", "place", "percentage", "total"]], on="pair",
                                     suffixes=("", "_pub"), validate="1:1")
    assert len(joined) == len(published) == {BUTLER: 8, MP: 12, CROSS: 9}[name]
    assert _close(joined["total"], pd.to_numeric(joined["total_pub"]), 0.0051).all(), joined
    if percentages:
        assert _close(joined["pct"], pd.to_numeric(joined["percentage"]), 0.0051).all(), joined
    assert (joined["rank"].str.rstrip("=") == joined["place"]).all(), joined
    notes = session.notes
    assert notes is None or not notes["message"].str.contains("differ from bridgeproc").any(), notes


def test_lindfield_pairs_with_fewer_boards_are_scaled_to_the_most(realdata):
    table = _session(MP).standings.set_index("pair")
    assert table.loc[["1", "3"], "boards"].tolist() == [26, 26]
    assert table.loc["1", "total"] == pytest.approx(128.77, abs=0.005)  # x 27/26
    assert table.loc["1", "pct"] == pytest.approx(47.69, abs=0.005)  # over the 26 boards played


def test_moonee_valley_pass_outs_with_a_seat_are_read_with_a_note(realdata):
    session = _session(CROSS)
    board17 = session.results[session.results["board"] == 17]
    passed = board17[board17["level"] == 0]
    assert len(passed) == 2 and passed["declarer"].isna().all() and (passed["score_ns"] == 0).all()
    notes = session.notes
    assert notes is not None
    assert notes["message"].str.contains("2 passed-out line(s) carry a PLAYED_BY seat", regex=False).sum() == 1


def test_other_conventions_on_a_compscore_file_give_one_note_per_kind(realdata):
    session = build_session([REALDATA / MP], Options(ranking=ConventionChoice(profile=Conventions()), dd=False))
    messages = session.notes["message"]
    assert messages.str.contains("5 of 161 published MP_NS differ from bridgeproc's").sum() == 1
    assert messages.str.contains("5 of 161 published MP_EW differ from bridgeproc's").sum() == 1
    assert messages.str.contains("2 of 12 published totals differ").sum() == 1
    ranking = messages[~messages.str.contains("the lead|every other table|^Masterpoints:")]  # warnings on the results (31 leads), the awards
    assert ranking.str.contains("--mp-top").all() and len(ranking) == 3
    butler = build_session([REALDATA / BUTLER], Options(ranking=ConventionChoice(changes={"datum_drop": 0}), dd=False))
    kinds = butler.notes["column"].tolist()
    assert kinds.count("butlerdatum") == 1 and kinds.count("imp_ns") == 1 and kinds.count("total") == 1
    assert butler.notes["message"].str.contains("of 35 published datums differ", regex=False).any()


# --------------------------------------------------------------------------- pbntools pages


def _pages(name: str, encoding: str) -> dict[str, str]:
    with tarfile.open(REALDATA / name) as tar:
        return {m.name.rsplit("/", 1)[-1]: tar.extractfile(m).read().decode(encoding)  # type: ignore[union-attr]
                for m in tar.getmembers() if m.isfile()}


def _cells(row: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def _para(results: pd.DataFrame) -> pd.DataFrame:
    """The pair numbers of ``Para-N - Para-N`` sides."""
    return results.assign(ns_no=results["ns"].str.extract(r"Para-(\d+)")[0],
                          ew_no=results["ew"].str.extract(r"Para-(\d+)")[0])


def _kops_pages() -> tuple[pd.DataFrame, dict[str, float]]:
    rows, totals = [], {}
    for name, text in _pages("pol-chorzow-2013-08-07-imp-kops-travellers.tar.gz", "iso-8859-2").items():
        board = re.fullmatch(r"p(\d+)\.html", name)
        for tr in re.findall(r"<tr class=(?:niep|parz)>(.*?)</tr>", text, re.S):
            cells = _cells(tr)
            if board and len(cells) >= 10 and cells[8]:  # the "sędzia średnia" row has no points
                rows.append({"board": int(board.group(1)), "ns_no": cells[0], "ew_no": cells[1],
                             "pub_ns": float(cells[8]), "pub_ew": float(cells[9])})
            elif name == "wyn.html":
                totals[cells[1]] = float(cells[7])
    return pd.DataFrame(rows), totals


@pytest.mark.parametrize("how", ["conventions", "pipeline"])
def test_kops_averaged_cross_imps_match_212_of_216_board_values_and_5_of_9_totals(realdata, how):
    pages, totals = _kops_pages()
    assert len(pages) == 108 and len(totals) == 9
    if how == "conventions":
        conventions = Conventions(method="cross-imp", cross_imp="board-average")
        ranked = rank_results(load_results([REALDATA / KOPS]), conventions)
        table = standings(ranked, conventions)
    else:
        session = build_session([REALDATA / KOPS], Options(ranking=ConventionChoice(changes={"cross_imp": "board-average"}), dd=False))
        ranked, table = session.results, session.standings
    merged = _para(ranked).merge(pages, on=["board", "ns_no", "ew_no"], validate="1:1")
    ok_ns, ok_ew = _close(merged["ximp_ns"], merged["pub_ns"], 0.051), _close(merged["ximp_ew"], merged["pub_ew"], 0.051)
    assert len(merged) == 108 and ok_ns.sum() + ok_ew.sum() == 212
    # the 4 left are board 22's rows 1-10 and 5-9 (420 v -1660 counted as 17 IMPs by KoPS)
    wrong = merged.loc[~(ok_ns & ok_ew), ["board", "ns_no", "ew_no"]].values.tolist()
    assert wrong == [[22, "1", "10"], [22, "5", "9"]]
    assert merged.loc[merged["board"] == 1, "ximp_ns"].tolist() == [0, 0, 0, 0]
    ours = dict(zip(table["pair"].str.extract(r"Para-(\d+)")[0], table["total"]))
    right = {pair for pair, total in totals.items() if ours[pair] == pytest.approx(total, abs=0.0051)}
    assert right == {"8", "4", "2", "3", "7"}
    assert {pair: round(ours[pair], 2) for pair in ("1", "5", "9", "10")} == {
        "1": 19.67, "5": 41.0, "9": -76.0, "10": -68.33}  # the README's WBF-table figures


def test_jfr_barometer_all_432_percentages(realdata):
    rows = []
    for name, text in _pages("pol-warsaw-2012-08-02-barometer-jfrpary-travellers.tar.gz", "utf-8").items():
        board = re.search(r"wb120802(\d{3})\.html$", name)
        for tr in re.findall(r"<tr>(.*?)</tr>", text, re.S) if board else []:
            cells = _cells(tr)
            if 'class="nor"' in tr and cells[3] != "TD":  # the director's row against the phantom pair
                rows.append({"board": int(board.group(1)), "ns_no": cells[1], "ew_no": cells[2],
                             "pub_ns": float(cells[-2]), "pub_ew": float(cells[-1])})
    pages = pd.DataFrame(rows)
    ranked = rank_results(load_results([REALDATA / JFR]), Conventions())
    merged = _para(ranked).merge(pages, on=["board", "ns_no", "ew_no"], validate="1:1")
    assert len(merged) == 216
    ok = np.concatenate([_close(merged["pct_ns"], merged["pub_ns"], 0.0051),
                         _close(merged["pct_ew"], merged["pub_ew"], 0.0051)])
    assert ok.sum() == 432


def _bbo_pages() -> pd.DataFrame:
    pages = _pages("bbo-acbl-1607-speedball-2013-08-10-travellers.tar.gz", "utf-8")
    index = next(text for name, text in pages.items() if "tourney=" in name)
    boards = {tid: int(b) for tid, b in re.findall(r'traveller=([\d-]+)\.html">Board (\d+) traveller', index)}
    rows = []
    for name, text in pages.items():
        tid = re.search(r"traveller=([\d-]+)\.html$", name)
        for tr in re.findall(r'<tr class="tourney">(.*?)</tr>', text, re.S) if tid else []:
            # the LIN record names every seat (South, West, North, East); the page's cells may leave some out
            south, west, north, east = re.search(r"pn\|([^|]*)\|", tr).group(1).lower().split(",")  # type: ignore[union-attr]
            result = re.search(r'<td class="result">(.*?)</td>', tr, re.S).group(1)  # type: ignore[union-attr]
            pct = re.findall(r'<td class="score">([^<]*)</td>', tr)[-1]
            rows.append({"board": boards[tid.group(1)], "n": north, "s": south, "e": east, "w": west,  # type: ignore[union-attr]
                         "artificial": result.startswith("A"), "pub_pct": float(pct.rstrip("%"))})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("conventions", [Conventions(factoring="none"), profile("bbo")], ids=["factoring-none", "bbo"])
def test_bbo_all_573_ns_percentages_over_the_real_results_unfactored(realdata, conventions):
    pages = _bbo_pages()
    assert len(pages) == 576 and pages["artificial"].sum() == 3
    ranked = rank_results(load_results([REALDATA / BBO]), conventions)
    ns = ranked["ns"].str.lower().str.split(" - ", n=1, regex=False)
    ew = ranked["ew"].str.lower().str.split(" - ", n=1, regex=False)
    ranked = ranked.assign(n=ns.str[0], s=ns.str[1], e=ew.str[0], w=ew.str[1])
    merged = ranked.merge(pages[~pages["artificial"]], on=["board", "n", "s", "e", "w"], validate="1:1")
    assert len(merged) == 573
    assert _close(merged["pct_ns"], merged["pub_pct"], 0.0051).sum() == 573
