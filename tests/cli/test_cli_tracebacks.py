"""Inputs that used to end in a traceback (issue 29, class 14) end in one line saying what is wrong:
a configuration or corrections file nested thousands deep, an archive whose schema_version is not a
number."""
from __future__ import annotations

import sqlite3

import openpyxl
import pytest

from bridgeproc.cli import cli
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TRAVELLERS = SAMPLE / "club-evening-travellers.csv"
DEEP = "[" * 3000 + "]" * 3000


def _clean(result, code: int, words: str) -> None:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, RecursionError)
    assert words in result.output, result.output


def test_a_configuration_file_nested_too_deeply(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bridgeproc.toml").write_text(f"x = {DEEP}\n", encoding="utf-8")
    _clean(runner.invoke(cli, ["config"]), 2, "its values are nested too deeply")


def test_a_corrections_file_nested_too_deeply(runner, tmp_path):
    deep = tmp_path / "corrections.toml"
    deep.write_text(f"[[correction]]\nx = {DEEP}\n", encoding="utf-8")
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--no-archive", "--corrections", str(deep),
                                 "-o", str(tmp_path / "x.csv")])
    _clean(result, 1, "corrections.toml: not a corrections file: its values are nested too deeply")
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("command", [["archive", "list"], ["score", str(TRAVELLERS), "--no-dd", "-o", "{out}"]])
def test_an_archive_whose_schema_version_is_not_a_number(runner, tmp_path, command):
    archive = tmp_path / "archive.sqlite"
    made = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--archive", str(archive), "-o",
                               str(tmp_path / "first.csv")])
    assert made.exit_code == 0, made.output
    with sqlite3.connect(archive) as conn:
        conn.execute("UPDATE archive_info SET value = 'two' WHERE key = 'schema_version'")
    conn.close()
    from bridgeproc.archive.db import dispose_all

    dispose_all()  # a fresh process would open the archive anew
    args = [a.replace("{out}", str(tmp_path / "x.csv")) for a in command]
    _clean(runner.invoke(cli, [*args, "--archive", str(archive)]), 1, "its schema_version 'two' is not a number")
    assert not (tmp_path / "x.csv").exists()


def test_a_name_holding_a_character_xml_cannot_hold_is_written_everywhere(runner, tmp_path):
    """U+FFFE is valid UTF-8 but no XML holds it (lxml refused the workbook with a traceback): every
    output is written, the workbook and the USEBIO file with U+FFFD in its place, the workbook saying so."""
    names = (SAMPLE / "club-evening-names.csv").read_text(encoding="utf-8").replace("Anna", "An\ufffena", 1)
    (tmp_path / "names.csv").write_text(names, encoding="utf-8")
    outputs = [tmp_path / n for n in ("results.xlsx", "results.csv", "results.pbn", "results.xml", "site")]
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(TRAVELLERS), "--names",
                                 str(tmp_path / "names.csv"), "--no-dd", "--no-archive",
                                 *[a for o in outputs for a in ("-o", str(o) + ("/" if o.name == "site" else ""))]])
    _clean(result, 0, "wrote")
    book = openpyxl.load_workbook(outputs[0])
    shown = {c for row in book["Ranking NS"].iter_rows(values_only=True) for c in row if isinstance(c, str)}
    assert any("An\ufffdna" in c for c in shown) and not any("\ufffe" in c for c in shown)
    said = [r[0] for r in book["Conventions"].iter_rows(values_only=True) if r and r[0] and "XML cannot hold" in r[0]]
    assert said and all("An\\ufffena Berg" in s for s in said)  # the Ranking and the Score cards
    assert "An\ufffdna" in outputs[3].read_text(encoding="utf-8")
    assert all(o.exists() for o in outputs)
