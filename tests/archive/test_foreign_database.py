"""bridgeproc never writes into another program's database (issue 29): an SQLite file that holds tables
and no archive is refused by every command, and its bytes stay as they were (not even its journal mode
changes); an empty file or a new one becomes an archive as before."""
from __future__ import annotations

import hashlib
import sqlite3

import pytest

from bridgeproc.cli import cli
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick


@pytest.fixture
def other(tmp_path):
    path = tmp_path / "members.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE members (id INTEGER, name TEXT)")
        conn.execute("INSERT INTO members VALUES (1, 'Anna Berg')")
    conn.close()
    return path


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("command", [
    ["archive", "list"], ["archive", "ladder"], ["archive", "check"],
    ["score", str(SAMPLE / "club-evening-travellers.csv"), "--no-dd", "-o", "{out}"],
])
def test_another_programs_database_is_refused_and_left_as_it_was(runner, other, tmp_path, command):
    before = _digest(other)
    args = [a.replace("{out}", str(tmp_path / "x.csv")) for a in command]
    result = runner.invoke(cli, [*args, "--archive", str(other)])
    assert result.exit_code == 1, result.output
    assert "not a bridgeproc archive, it holds another program's tables (members)" in result.output
    assert "Traceback" not in result.output
    assert _digest(other) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["members.sqlite"]


def test_an_empty_file_becomes_an_archive(runner, tmp_path):
    empty = tmp_path / "new.sqlite"
    empty.touch()
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), "--no-dd", "--archive",
                                 str(empty), "-o", str(tmp_path / "x.csv")])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(empty) as conn:
        assert ("archive_info",) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    conn.close()


@pytest.mark.postgres
@pytest.mark.parametrize("command", [["archive", "list"], ["archive", "check"]])
def test_another_programs_postgresql_database_is_refused_and_gets_no_table(runner, postgres_server, command):
    """On a server the refusal is made inside the schema transaction: the database keeps its own tables
    and nothing else (``archive list`` used to create 18)."""
    psycopg = pytest.importorskip("psycopg")
    from bridgeproc.archive.db import dispose_all
    from tests.conftest_pg import fresh_database

    url = fresh_database(postgres_server)
    plain = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("CREATE TABLE members (id INTEGER, name TEXT)")
    result = runner.invoke(cli, [*command, "--archive", url])
    dispose_all()
    assert result.exit_code == 1, result.output
    assert "not a bridgeproc archive, it holds another program's tables (members)" in result.output
    assert "Traceback" not in result.output
    with psycopg.connect(plain) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1")]
    assert tables == ["members"]
