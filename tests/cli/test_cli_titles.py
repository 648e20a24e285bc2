"""--event and --date title every output, also when the inputs (travellers alone) name no event."""
from __future__ import annotations

import openpyxl
import pytest

from bridgeproc.cli import cli
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick


def test_event_and_date_from_the_command_line_title_every_output(runner, tmp_path):
    outs = [tmp_path / "r.xlsx", tmp_path / "r.html", tmp_path / "r.pbn", tmp_path / "site"]
    done = runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), "--event", "Club Night",
                               "--date", "2026-12-01", "--no-archive", "--no-dd",
                               *[a for out in outs[:3] for a in ("-o", str(out))], "-o", f"{outs[3]}/"])
    assert done.exit_code == 0, done.output
    wb = openpyxl.load_workbook(outs[0])
    first = wb[wb.sheetnames[0]]
    assert first["A1"].value == "Club Night — Matchpoints, North-South" and first["A2"].value == "2026-12-01"
    assert "<title>Club Night" in outs[1].read_text(encoding="utf-8")
    assert "<title>Club Night" in (outs[3] / "index.html").read_text(encoding="utf-8")
    pbn = outs[2].read_text(encoding="utf-8")
    assert '[Event "Club Night"]' in pbn and '[Date "2026.12.01"]' in pbn  # PBN's own date form
