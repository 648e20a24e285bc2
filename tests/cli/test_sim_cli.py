"""The ``sim`` command: thin over pipeline.sim (exit 0 with the folder written, 1 with every problem)."""
from __future__ import annotations

from click.testing import CliRunner

from bridgeproc.cli import cli
from tests.pipeline.test_sim import ELM, OAK, _csv, write_hand_record


def test_sim_writes_the_field_and_a_folder_per_club(tmp_path):
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    files = [str(_csv(tmp_path / "oak.csv", OAK)), str(_csv(tmp_path / "elm.csv", ELM))]
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["sim", "--hand-record", str(hands), *files, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 clubs, 16 results, 12 pairs ranked across the field" in result.output
    assert (out / "clubs" / "oak" / "index.html").exists() and (out / "ranking.csv").exists()


def test_sim_refuses_bad_input_with_file_and_line_and_exit_1(tmp_path):
    hands = tmp_path / "hands.pbn"
    write_hand_record(hands, 4)
    bad = list(OAK)
    bad[0] = ("", 1, 1, 1, "8NT", "N", "=")
    files = [str(_csv(tmp_path / "oak.csv", bad)), str(_csv(tmp_path / "elm.csv", ELM))]
    result = CliRunner().invoke(cli, ["sim", "--hand-record", str(hands), *files, "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "oak.csv:2: contract: '8NT' is not a contract" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "out").exists()


def test_sim_without_clubs_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["sim", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
