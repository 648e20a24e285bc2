from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
SAMPLE = ROOT / "sample_data"


@pytest.fixture
def runner():
    return CliRunner()
