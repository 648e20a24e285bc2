"""One run reads a traveller workbook once (it was parsed 6 times with a Names sheet)."""
import openpyxl
import pytest

from bridgeproc.pipeline.inputs import read_inputs
from tests.conftest import workbook

SHEETS = {
    "Results": [["Board", "NS", "EW", "Contract", "By", "Result"], [1, 1, 2, "4S", "N", "="], [1, 3, 4, "4S", "N", "-1"]],
    "Names": [["Pair", "Player 1", "Player 2"], [1, "Ann", "Bob"], [2, "Cy", "Di"], [3, "Ed", "Flo"], [4, "Gus", "Hal"]],
}


@pytest.fixture
def loads(monkeypatch):
    """The ``data_only`` flag of every openpyxl.load_workbook call."""
    calls = []
    real = openpyxl.load_workbook

    def counting(path, *args, **kwargs):
        calls.append(kwargs.get("data_only", False))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(openpyxl, "load_workbook", counting)
    return calls


def test_traveller_workbook_with_names_sheet_is_loaded_once(tmp_path, loads):
    path = workbook(tmp_path / "t.xlsx", SHEETS)
    inputs = read_inputs([path])
    assert loads == [True]  # no cell holds a formula: the saved values only, one read of the file
    raw, _, names = inputs.frames()
    assert raw["contract"].tolist() == ["4S", "4S"]
    assert names["names"].tolist() == ["Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal"]


def test_names_only_workbook_is_loaded_once(tmp_path, loads):
    path = workbook(tmp_path / "names.xlsx", {"Names": SHEETS["Names"]})
    inputs = read_inputs([path])
    assert loads == [True]
    assert not inputs.raws
    assert [n["pair"].tolist() for n in inputs.names] == [["1", "2", "3", "4"]]


def test_a_workbook_with_formulas_is_loaded_for_them_too(tmp_path, loads):
    """A home-made sheet adds up its MPs with formulas: the formulas are loaded too (a formula with no saved
    value in a column that is read is a problem naming its cell), still from one read of the file."""
    sheets = {"Results": [[*SHEETS["Results"][0], "MP"], *[[*row, "=1+1"] for row in SHEETS["Results"][1:]]]}
    inputs = read_inputs([workbook(tmp_path / "f.xlsx", sheets)])
    assert loads == [True, False]
    assert inputs.frames()[0]["contract"].tolist() == ["4S", "4S"]
