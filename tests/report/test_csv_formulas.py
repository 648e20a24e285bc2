"""No data CSV bridgeproc writes holds a live formula (issue 29): every text cell that starts like one
(``= + - @``, a tab, a carriage return, their full-width forms) is written with a leading ``'``; plain
numbers stay numbers. The sample evening is scored with every name, lead and the event's title made
hostile, and every CSV a command writes is read back with the csv module."""
from __future__ import annotations

import csv
import io
import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.cli import cli
from bridgeproc.report.csv_files import FORMULA, NUMBER, csv_text, safe_frame, safe_text
from tests.conftest import examples

#: What a cell must never start with unescaped.
PREFIXES = ["=", "+", "-", "@", "\t", "\r", "\uff1d", "-2+3+"]
HOSTILE = ["=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1:A9)", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
           "\t=1+2", "\r=1+2", "\uff1d1+2"]


def _live(cell: str) -> bool:
    """A cell a spreadsheet would run: a formula start that is not a plain number."""
    return bool(FORMULA.match(cell)) and not NUMBER.fullmatch(cell)


def _cells(text: str) -> list[str]:
    return [c for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for c in row]


@pytest.mark.parametrize("value", [*HOSTILE, *(p + "x" for p in PREFIXES)])
def test_a_formula_start_is_written_as_text(value):
    assert safe_text(value) == "'" + value
    frame = pd.DataFrame({"names": [value], "pair": ["1"]})
    [names, pair] = _cells(csv_text(frame))[2:]
    assert names == "'" + value and pair == "1"


@pytest.mark.parametrize("value", ["-110", "+1", "-0.5", "12", "4S", "Anna Berg", "", "'=already"])
def test_numbers_and_plain_text_are_left_as_they_are(value):
    assert safe_text(value) == value


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from([*"=+-@\t\r\uff1d1a ,\"'|"]), max_size=8), min_size=1, max_size=6))
def test_no_cell_of_any_text_column_is_live(texts):
    frame = pd.DataFrame({"text": pd.array(texts, dtype="string"), "obj": pd.Series(texts, dtype=object),
                          "cat": pd.Categorical(texts)})
    cells = _cells(csv_text(frame))[3:]
    assert [c for c in cells if _live(c)] == []
    # nothing else changes: a cell is the text as given, or "'" and the text as given
    safe = safe_frame(frame)
    for column in frame.columns:
        for before, after in zip(texts, safe[column].astype("string")):
            assert after == before or after == "'" + before


@pytest.fixture()
def hostile_evening(tmp_path):
    """The sample evening with every pair's names, every lead and the event's title hostile."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "sample_data"
    names = pd.read_csv(sample / "club-evening-names.csv", dtype=str)
    # a names list is a file a person typed: a carriage return in it is a line end, so none here
    typed = [h for h in HOSTILE if "\r" not in h]
    names["Names"] = [typed[i % len(typed)] + f" {i}" for i in range(len(names))]
    names.to_csv(tmp_path / "names.csv", index=False)
    return sample / "club-evening.pbn", sample / "club-evening-travellers.csv", tmp_path / "names.csv"


@pytest.mark.e2e
def test_every_csv_of_a_hostile_evening_holds_no_live_formula(runner, hostile_evening, tmp_path):
    hands, travellers, names = hostile_evening
    archive = tmp_path / "archive.sqlite"
    title = ["--event", "=HYPERLINK(\"http://x\",\"evil\")", "--date", "2026-11-24"]
    base = ["--no-dd", "--archive", str(archive)]
    result = runner.invoke(cli, ["score", str(hands), str(travellers), "--names", str(names), *base, *title,
                                 "-o", str(tmp_path / "scored.csv")])
    assert result.exit_code == 0, result.output
    outputs = {"score -o x.csv": (tmp_path / "scored.csv").read_text(encoding="utf-8")}
    piped = runner.invoke(cli, ["-q", "score", str(hands), str(travellers), "--names", str(names), "--no-dd",
                                "--no-archive", *title, "-o", "-"])
    assert piped.exit_code == 0, piped.output
    outputs["score -o -"] = piped.stdout if hasattr(piped, "stdout") else piped.output
    listed = runner.invoke(cli, ["-q", "archive", "list", "--csv", "--archive", str(archive)])
    session = next(csv.DictReader(io.StringIO(listed.output)))["session_id"].lstrip("'")
    for name, args in (("archive list --csv", ["archive", "list", "--csv"]),
                       ("archive show --csv", ["archive", "show", session, "--csv"]),
                       ("archive ladder --csv", ["archive", "ladder", "--csv"])):
        shown = runner.invoke(cli, ["-q", *args, "--archive", str(archive)])
        assert shown.exit_code == 0, (name, shown.output)
        outputs[name] = shown.output
    for name, args, out in (("archive ladder -o", ["archive", "ladder"], "ladder.csv"),
                            ("archive rescore -o", ["archive", "rescore", "--method", "cross-imp"], "rescore.csv"),
                            ("check -o", ["check", str(hands), str(travellers), "--names", str(names)], "check.csv")):
        extra = [] if name.startswith("check") else ["--archive", str(archive)]
        done = runner.invoke(cli, ["-q", *args, *extra, "-o", str(tmp_path / out)])
        assert done.exit_code in (0, 1), (name, done.output)
        outputs[name] = (tmp_path / out).read_text(encoding="utf-8-sig")
    hostile_seen = False
    for name, text in outputs.items():
        cells = _cells(text)
        assert [c for c in cells if _live(c)] == [], name
        hostile_seen |= any(c.startswith("'=HYPERLINK") or c.startswith("'@SUM") for c in cells)
    assert hostile_seen
    assert re.search(r"'=HYPERLINK", outputs["score -o x.csv"] + outputs["archive list --csv"])


def test_a_carriage_return_in_a_cell_is_quoted_so_the_row_stays_one_row():
    """The csv module leaves a lone CR unquoted; the one CSV writer and the simultaneous event's bulk
    writer quote the text then, so a reader sees one row."""
    from bridgeproc.report.sim import _csv_lines

    frame = pd.DataFrame({"club": ["Oslo\rBK", "=Bergen"], "pct": [51.5, 48.5]})
    for text in (csv_text(frame), "\n".join([_csv_lines(frame)[0], *_csv_lines(frame)[1]]) + "\n"):
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert rows == [["club", "pct"], ["Oslo\rBK", "51.5"], ["'=Bergen", "48.5"]], text
