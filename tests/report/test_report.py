"""The workbook, read back with openpyxl and compared with the session's frames."""
import re
import shutil
import subprocess

import openpyxl
import pytest

from bridgeproc import process_session
from bridgeproc.model import Options, ReadOptions
from bridgeproc.rank.conventions import CONVENTION_LABELS
from tests.conftest import SAMPLE

INPUTS = [SAMPLE / "club-evening.pbn", SAMPLE / "club-evening-travellers.csv"]
OPTIONS = Options(read=ReadOptions(names=(str(SAMPLE / "club-evening-names.csv"),)), dd=False)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    path = tmp_path_factory.mktemp("wb") / "results.xlsx"
    session = process_session(INPUTS, [path], OPTIONS)
    return session, openpyxl.load_workbook(path)


def _rows(ws, first_row=1):
    return [list(r) for r in ws.iter_rows(min_row=first_row, values_only=True)]


def test_sheet_names(written):
    _, wb = written
    assert wb.sheetnames == ["Ranking NS", "Ranking EW", "Travellers", "Score cards", "Hand records", "Conventions"]


@pytest.mark.parametrize("group", ["NS", "EW"])
def test_ranking_sheet_equals_standings(written, group):
    session, wb = written
    rows = _rows(wb[f"Ranking {group}"])
    header_at = next(i for i, r in enumerate(rows) if r[0] == "Rank")
    assert rows[0][0] == f"Tuesday Pairs — Matchpoints, {'North-South' if group == 'NS' else 'East-West'}"
    assert any("2 per result beaten" in (r[0] or "") for r in rows[:header_at])
    body = [r[:6] for r in rows[header_at + 1:] if r[0] is not None]
    expected = session.standings[session.standings["group"] == group]
    assert len(body) == len(expected) == 13
    # ranks and pair numbers are numbers (Excel sorts 1, 2 ... 10); a tie is the number shown with "="
    assert all(isinstance(r[0], int) and isinstance(r[1], int) for r in body)
    assert [str(r[0]) for r in body] == [rank.rstrip("=") for rank in expected["rank"]]
    assert [str(r[1]) for r in body] == expected["pair"].tolist()
    ws = wb[f"Ranking {group}"]
    shown = [f"{c.value}=" if c.number_format == '0"="' else str(c.value)
             for c in ws["A"][header_at + 1:] if isinstance(c.value, int)]
    assert shown == expected["rank"].tolist()
    assert [r[2] for r in body] == expected["names"].tolist()
    assert [r[3] for r in body] == expected["boards"].tolist()
    # the numbers as every output shows them: rounded once to two decimals (core.shown)
    assert [r[4] for r in body] == pytest.approx(expected["total"].round(2).tolist(), abs=1e-9)
    assert [r[5] for r in body] == pytest.approx(expected["pct"].round(2).tolist(), abs=1e-9)
    assert all(" & " in name for name in expected["names"])


def test_travellers_hold_every_result_with_its_matchpoints(written):
    session, wb = written
    rows = _rows(wb["Travellers"])
    assert rows[0] == ["NS", "EW", "Contract", "By", "Lead", "Tricks", "NS +", "EW +", "MP NS", "MP EW", "% NS", "% EW"]
    titles = [r[0] for r in rows if isinstance(r[0], str) and r[0].startswith("Board ")]
    assert titles[0] == "Board 1 · Dealer N · Vul None · top 24"
    assert len(titles) == 26
    body = [r for r in rows[1:] if r[1] is not None and not str(r[0]).startswith("Board")]
    assert len(body) == len(session.results) == 338
    results = session.results
    by_pair = {(str(ns), str(ew), int(b)): (s, mp) for ns, ew, b, s, mp in
               zip(results["ns"], results["ew"], results["board"], results["score_ns"], results["mp_ns"])}
    board = 0
    for row in rows[1:]:
        if isinstance(row[0], str) and row[0].startswith("Board "):
            board = int(row[0].split()[1])
            continue
        if row[1] is None:
            continue
        score, mp = by_pair[(str(row[0]), str(row[1]), board)]  # pair numbers are numbers in the sheet
        assert (row[6] or 0) - (row[7] or 0) == score
        assert row[8] == pytest.approx(mp)


def test_score_cards_run_to_the_ranking_total(written):
    session, wb = written
    rows = _rows(wb["Score cards"])
    totals = {}
    current = None
    for row in rows[1:]:
        if isinstance(row[0], str) and row[0].startswith("Pair "):
            current = row[0].split()[1] + " " + row[0].split()[2].strip("()")
            continue
        if current and row[0] is not None:
            totals[current] = row[8]
    assert len(totals) == 26
    expected = {f"{p} {g}": t for p, g, t in zip(session.standings["pair"], session.standings["group"], session.standings["total"])}
    assert totals == pytest.approx(expected)


def test_hand_record_diagram_shows_the_deal(written):
    session, wb = written
    rows = _rows(wb["Hand records"])
    deal = session.boards.set_index("board").loc[1, "deal"]
    north = deal.split(":")[1].split()[0].split(".")  # board 1: dealer N first
    assert rows[0][0] == "Board 1"
    assert rows[1][3] == "♠ " + north[0].replace("T", "10")
    assert rows[2][3] == "♥ " + north[1].replace("T", "10")


def test_conventions_sheet_lists_every_convention(written):
    session, wb = written
    rows = _rows(wb["Conventions"])
    listed = {r[0]: r[1] for r in rows[3:] if r[0]}
    assert rows[2][:3] == ["Convention", "Value", "Meaning"]
    # every convention, in the words the website uses (not the option names)
    assert set(listed) == {CONVENTION_LABELS[name] for name in session.conventions.describe()}
    assert listed["Matchpoints for each result beaten"] == "2" and listed["Boards played fewer times"] == "neuberg"
    assert listed["Boards compared across all sections"] == "no"


def _rgb(cell):
    rgb = getattr(cell.font.color, "rgb", None)
    return rgb if isinstance(rgb, str) else ""


def test_red_suits_are_red(written):
    _, wb = written
    ws = wb["Travellers"]
    red = black = 0
    for row in ws.iter_rows(min_row=2):
        value = row[2].value
        if isinstance(value, str) and ("♥" in value or "♦" in value):
            assert _rgb(row[2]).endswith("C00000")
            red += 1
        elif isinstance(value, str) and ("♠" in value or "♣" in value):
            assert not _rgb(row[2]).endswith("C00000")
            black += 1
    assert red > 50 and black > 50


def test_a_failed_run_leaves_no_workbook(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("Board,NS,EW,Contract,Declarer,Result\n1,1,2,9NT,N,=\n")
    out = tmp_path / "results.xlsx"
    with pytest.raises(ValueError):
        process_session([bad], [out], OPTIONS)
    assert not out.exists()


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_converts_the_workbook_to_pdf(written, tmp_path):
    session, _ = written
    path = tmp_path / "results.xlsx"
    process_session(INPUTS, [path], OPTIONS)
    done = subprocess.run(["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(path)],
                          capture_output=True, text=True, timeout=180)
    pdf = tmp_path / "results.pdf"
    assert pdf.exists(), done.stderr
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf.read_bytes()))
    assert pages >= 6
