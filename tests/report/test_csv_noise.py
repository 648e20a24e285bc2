"""No float noise in any CSV bridgeproc writes (issue 26): every data CSV (event, simultaneous event,
Swiss standings, ladder, the archive's export and listings) goes through one rounding rule, so none
holds ``0.19999999999999996``, ``44.050000000000004`` or ``-0``. The scored CSV of every real file and
the teams CSV are scanned in test_read_back_realdata and test_numbers_shown."""
from __future__ import annotations

import os
import re

import pytest

from bridgeproc.archive import archive_session
from bridgeproc.cli.main import cli
from tests.archive.test_ladder import SEASON
from tests.cli.test_swiss_cli import TRAVELLERS
from tests.conftest import REALDATA
from tests.pipeline.test_sim import ELM, OAK, _csv, write_hand_record

pytestmark = pytest.mark.slow  # scores real events: left out of make quick

#: A number with more decimals than any rule shows (noise), and a minus zero.
NOISE = re.compile(r"(?<![\w.])-?\d+\.\d{3,}(?![\w.])")
MINUS_ZERO = re.compile(r"(?<![\w.])-0(?:\.0+)?(?![\w.])")
S1, S2 = REALDATA / "fin-sm-parikilpailu-2014-s1.pbn", REALDATA / "fin-sm-parikilpailu-2014-s2.pbn"


def _clean(text: str, rows: int) -> None:
    assert len(text.splitlines()) > rows, text[:300]
    assert NOISE.findall(text) == []
    assert MINUS_ZERO.findall(text) == []


@pytest.mark.parametrize("rule", ["sum", "percent-average", "scaled"])
def test_the_event_csv(runner, tmp_path, rule):
    out = tmp_path / "event.csv"
    result = runner.invoke(cli, ["event", str(S1), str(S2), "-o", str(out), "--no-dd", "--rule", rule])
    assert result.exit_code == 0, result.output
    _clean(out.read_text(encoding="utf-8"), 30)


def test_the_simultaneous_event_csv(runner, tmp_path):
    files = [str(_csv(tmp_path / "oak.csv", OAK)), str(_csv(tmp_path / "elm.csv", ELM))]
    out = tmp_path / "sim"
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    result = runner.invoke(cli, ["sim", "--hand-record", str(hands), *files, "-o", str(out)])
    assert result.exit_code == 0, result.output
    for csv in out.rglob("*.csv"):
        _clean(csv.read_text(encoding="utf-8"), 2)


def test_the_swiss_standings_csv(runner, tmp_path):
    (tmp_path / "event.csv").write_text(TRAVELLERS)
    out = tmp_path / "standings.csv"
    result = runner.invoke(cli, ["swiss", str(tmp_path / "event.csv"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    _clean(out.read_text(encoding="utf-8"), 3)


def test_the_ladder_and_archive_csvs(runner, tmp_path):
    for session in SEASON:
        archive_session(session, os.environ["BRIDGEPROC_ARCHIVE"])
    ladder = tmp_path / "ladder.csv"
    result = runner.invoke(cli, ["archive", "ladder", "--from", "2026-09-01", "--to", "2026-09-30", "-o", str(ladder)])
    assert result.exit_code == 0, result.output
    _clean(ladder.read_text(encoding="utf-8"), 3)
    listing = runner.invoke(cli, ["archive", "list", "--csv"])
    assert listing.exit_code == 0, listing.output
    _clean(listing.stdout, 3)
    first = listing.stdout.splitlines()[1].split(",")[0]
    shown = runner.invoke(cli, ["archive", "show", first, "--csv"])
    assert shown.exit_code == 0, shown.output
    _clean(shown.stdout, 3)
    exported = tmp_path / "again.csv"
    again = runner.invoke(cli, ["archive", "export", first, "-o", str(exported)])
    assert again.exit_code == 0, again.output
    _clean(exported.read_text(encoding="utf-8"), 3)
