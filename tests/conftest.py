import os
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
SAMPLE = ROOT / "sample_data"


def pytest_sessionstart(session):
    """CI lays shared/ beside the checkout: without it the real-data tests would skip, so stop."""
    if os.environ.get("CI") and not REALDATA.is_dir():
        pytest.exit(f"CI run without the real event files at {REALDATA}", returncode=3)


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture(autouse=True)
def _private_archive(tmp_path, monkeypatch):
    """Commands archive by default: keep every test's archive in its own temporary folder."""
    monkeypatch.setenv("BRIDGEPROC_ARCHIVE", str(tmp_path / "archive.sqlite"))


def workbook(path, sheets: dict, merges: dict | None = None):
    """Write an .xlsx with the given sheets (title -> rows) and merged ranges, for reader tests."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in rows:
            ws.append(row)
        for cells in (merges or {}).get(title, []):
            ws.merge_cells(cells)
    wb.save(path)
    return path
