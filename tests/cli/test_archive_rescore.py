"""bridgeproc archive rescore: the archive's sessions re-scored under other conventions, beside the archived."""
from __future__ import annotations

import io

import pandas as pd
from click.testing import CliRunner

from bridgeproc.archive import archive_session, rescore_archive
from bridgeproc.archive.synthetic import synthetic_session
from bridgeproc.cli import cli
from bridgeproc.rank.conventions import Conventions


def _archive(tmp_path):
    url = tmp_path / "archive.sqlite"
    for seed in (1, 2):
        archive_session(synthetic_session(6, 12, seed=seed, event=f"Night {seed}", date=f"2026-10-0{seed}"), url)
    return url


def test_rescore_writes_the_what_if_beside_the_archived(tmp_path):
    url = _archive(tmp_path)
    out = tmp_path / "what-if.csv"
    result = CliRunner().invoke(cli, ["archive", "rescore", "--archive", str(url), "--method", "cross-imp",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "rescored 2 session(s) under --method cross-imp" in result.output
    written = pd.read_csv(out, dtype={"rank": str, "was_rank": str, "pair": str})
    expected = rescore_archive(url, Conventions(method="cross-imp")).table
    assert len(written) == len(expected) == 2 * 12  # two nights of 6 tables: 12 pairs each
    assert written["total"].round(6).tolist() == expected["total"].round(6).tolist()
    assert {"was_rank", "was_total", "was_pct"} <= set(written.columns)


def test_rescore_to_standard_output_and_unknown_session(tmp_path):
    url = _archive(tmp_path)
    runner = CliRunner()
    result = runner.invoke(cli, ["-q", "archive", "rescore", "--archive", str(url), "-o", "-"])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(io.StringIO(result.output))
    assert (table["total"].round(6) == table["was_total"].round(6)).all()  # the archived conventions: no change
    refused = runner.invoke(cli, ["archive", "rescore", "--archive", str(url), "nope"])
    assert refused.exit_code == 1 and "nope" in refused.output and "Traceback" not in refused.output


def test_an_output_rescore_cannot_write_is_refused_before_any_work(tmp_path):
    url = _archive(tmp_path)
    result = CliRunner().invoke(cli, ["archive", "rescore", "--archive", str(url), "-o", str(tmp_path / "w.xlsx")])
    assert result.exit_code == 2 and "w.xlsx: unknown output type; use one of .csv" in result.output, result.output
    assert "rescored" not in result.output and not (tmp_path / "w.xlsx").exists()
