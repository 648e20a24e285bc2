import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from bridgeproc.errors import BridgeprocError

#: ``make quick`` sets BRIDGEPROC_TESTS=quick: the slow groups are deselected by marker
#: (see pyproject.toml) and property tests try a tenth of their examples.
QUICK = os.environ.get("BRIDGEPROC_TESTS") == "quick"


def examples(count: int) -> int:
    """Hypothesis examples for a property test: ``count`` in a full run, a tenth (at least 5) in a quick one."""
    return max(5, count // 10) if QUICK else count

#: The PostgreSQL fixtures (archive_url, postgres_server) for every test module.
pytest_plugins = ["tests.conftest_pg"]

ROOT = Path(__file__).resolve().parents[1]
#: The real event files, kept in the repository with their provenance (README.md) and
#: checksums (SHA256SUMS); ``make realdata`` copies new ones from the shared real-data folder.
REALDATA = ROOT / "tests" / "data" / "realdata"
SAMPLE = ROOT / "sample_data"

#: Real PBN files the readers do not yet take as their producers wrote them (issue 14: every
#: producer's files as they are really written). Tests over "every real PBN" mark these as
#: strict expected failures, so the day a reader handles one the test says so.
NOT_YET_READ = {
    "pbn-reference-errors_10.pbn": "the PBN standard's error file: refused on purpose (issue 14: report every "
                                   "deliberate error)",
    "pbn-reference-errors_20.pbn": "the PBN standard's error file: refused on purpose (issue 14)",
    "pbn-reference-errors_21.pbn": "the PBN standard's error file: refused on purpose (a bad OptimumScore)",
}
#: Real PBN files whose play records our checker refuses although the producer wrote them so.
PLAY_NOT_YET_READ: dict[str, str] = {}  # every real play record is read as its producer wrote it


def real_pbn_files(pending: dict[str, str] = NOT_YET_READ) -> list:
    """Every real PBN file as a pytest parameter, those in ``pending`` marked as strict xfail that only a
    refusal (``BridgeprocError``: the file's problems listed) satisfies: a crash fails the test."""
    return [pytest.param(path, id=path.name, marks=pytest.mark.xfail(reason=pending[path.name], strict=True,
                                                                     raises=BridgeprocError))
            if path.name in pending else pytest.param(path, id=path.name)
            for path in sorted(REALDATA.glob("*.pbn"))]


@pytest.fixture
def realdata():
    """The folder of real event files; a test that needs one never skips for want of it."""
    assert REALDATA.is_dir(), f"{REALDATA} is missing: the real files are part of the repository"
    return REALDATA


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture(autouse=True)
def _private_archive(tmp_path, monkeypatch):
    """Commands archive by default: keep every test's archive in its own temporary folder."""
    monkeypatch.setenv("BRIDGEPROC_ARCHIVE", str(tmp_path / "archive.sqlite"))
    # ... and no configuration file of the user's (or a bridgeproc.toml in the checkout) applies
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-user-config"))
    # ... and the journals of interrupted publishing runs are the test's own
    monkeypatch.setenv("BRIDGEPROC_STATE", str(tmp_path.parent / f"{tmp_path.name}.state"))
    monkeypatch.delenv("BRIDGEPROC_CONFIG", raising=False)


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
