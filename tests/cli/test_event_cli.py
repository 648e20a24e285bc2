"""``bridgeproc event``: sessions in, the event ranking out; mistakes exit 2, refused data exits 1."""
from __future__ import annotations

import pandas as pd

from bridgeproc.cli import cli
from tests.conftest import REALDATA

S1, S2 = str(REALDATA / "fin-sm-parikilpailu-2014-s1.pbn"), str(REALDATA / "fin-sm-parikilpailu-2014-s2.pbn")
FFB = str(REALDATA / "ffb-dn1-open2-s1-2022.pbn")  # a board's top is 42, the Finnish 34


def test_the_finnish_championship(runner, tmp_path):
    out = tmp_path / "event.csv"
    result = runner.invoke(cli, ["event", S1, S2, "-o", str(out), "-o", str(tmp_path / "event.pbn"), "--no-dd",
                                 "--mp-decimals", "1"])
    assert result.exit_code == 0, result.output
    assert "36 pairs ranked over 2 sessions (105 boards, rule sum)" in result.output
    table = pd.read_csv(out, dtype={"pair": str})
    assert table.loc[0, ["rank", "pair", "total", "session_total", "session_rank"]].tolist() == [1, "2", 2084.4,
                                                                                                  805.0, "3"]
    assert (tmp_path / "event.pbn").is_file()


def test_sum_of_different_tops_is_refused_with_the_fix(runner, tmp_path):
    result = runner.invoke(cli, ["event", S1, FFB, "-o", str(tmp_path / "e.csv"), "--no-dd"])
    assert result.exit_code == 1
    assert "top is 42 here but 34" in result.output and "--rule scaled" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "e.csv").exists()


def test_scaled_combines_them(runner, tmp_path):
    result = runner.invoke(cli, ["event", S1, FFB, "-o", str(tmp_path / "e.csv"), "--no-dd", "--rule", "scaled",
                                 "--missing", "zero"])
    assert result.exit_code == 0, result.output


def test_command_line_mistakes_exit_2(runner, tmp_path):
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.html")]).exit_code == 2
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.csv"), "--rule", "best"]).exit_code == 2
    assert runner.invoke(cli, ["event", S1, S2, "-o", str(tmp_path / "e.csv"), "--carry-over", "2"]).exit_code == 2
    same = runner.invoke(cli, ["event", S1, S1, "-o", str(tmp_path / "e.csv"), "--no-dd"])
    assert same.exit_code == 2 and "given twice" in same.output
    reads = runner.invoke(cli, ["event", S1, S2, "-o", S1, "--no-dd"])
    assert reads.exit_code == 2
