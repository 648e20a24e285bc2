"""The one-line conventions summary of the workbook and the website heading: every value a convention
may take has its words (a Compscore or KoPS file's board-average cross-IMPs crashed the workbook)."""
from __future__ import annotations

import typing

import pytest
from click.testing import CliRunner

from bridgeproc.cli import cli
from bridgeproc.rank import Conventions
from bridgeproc.rank.conventions import CrossImp
from bridgeproc.report.workbook import conventions_summary
from tests.conftest import REALDATA


@pytest.mark.parametrize(("cross_imp", "words"), [
    ("sum", "Cross-IMPs, totals summed"),
    ("average", "Cross-IMPs, totals averaged per comparison"),
    ("average-n", "Cross-IMPs, totals averaged per result"),
    ("board-average", "Cross-IMPs, totals averaged per board, then summed"),
])
def test_every_cross_imp_total_has_its_words(cross_imp, words):
    line = conventions_summary(Conventions(method="cross-imp", cross_imp=cross_imp))
    assert line == f"Scoring: {words}; within sections"


def test_the_table_covers_every_cross_imp_value():
    assert {case for case in typing.get_args(CrossImp)} == {"sum", "average", "average-n", "board-average"}


@pytest.mark.slow
def test_a_compscore_cross_imp_file_scores_to_a_workbook_and_a_website(tmp_path):
    source = REALDATA / "aus-moonee-valley-bc-2026-02-02-crossimp-howell-compscore3.usebio.xml"
    for out in ("out.xlsx", "site"):
        result = CliRunner().invoke(cli, ["score", str(source), "--no-dd", "--no-archive", "-o",
                                           str(tmp_path / out) + ("/" if out == "site" else "")])
        assert result.exit_code == 0, result.output
        assert result.exception is None
    assert (tmp_path / "out.xlsx").stat().st_size > 0
    assert "averaged per board, then summed" in (tmp_path / "site" / "conventions.html").read_text(encoding="utf-8")

