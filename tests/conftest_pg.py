"""A throw-away PostgreSQL cluster for the archive tests (imported by tests/test_archive*.py).

``postgres_server`` (session scope) runs ``initdb`` into a temporary directory,
starts the server on a free port of 127.0.0.1 only and stops it at the end.
When no server binary is installed the tests that need it are skipped with a
message saying so. As root, the server runs as the ``postgres`` user (or
``nobody``): PostgreSQL refuses to run as root.
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile

import pytest

_counter = itertools.count()


def find_pg_bin() -> str | None:
    """Directory holding initdb and pg_ctl: PATH first, then Debian's /usr/lib/postgresql/<ver>/bin."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(found))
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(candidates[-1]) if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run_as() -> pwd.struct_passwd | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    pytest.skip("PostgreSQL tests: running as root and no unprivileged user (postgres/nobody) to run the server")


@pytest.fixture(scope="session")
def postgres_server():
    """Base URL ``postgresql+psycopg://postgres@127.0.0.1:<port>/`` of a fresh cluster."""
    bindir = find_pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); "
                    "the archive tests ran on SQLite only")
    pytest.importorskip("psycopg", reason="psycopg 3 is not installed: pip install 'bridgeproc[postgres]'")
    user = _run_as()
    base = tempfile.mkdtemp(prefix="bridgeproc-pg-")
    kwargs: dict = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    if user is not None:
        os.chown(base, user.pw_uid, user.pw_gid)
        kwargs.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd=base)
    data, log, port = os.path.join(base, "data"), os.path.join(base, "server.log"), _free_port()
    options = (f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
               "-c full_page_writes=off -c max_connections=200")
    try:
        subprocess.run([os.path.join(bindir, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
                        "--locale=C", "--no-sync"], **kwargs)
        subprocess.run([os.path.join(bindir, "pg_ctl"), "-D", data, "-l", log, "-w", "-t", "60", "-o", options,
                        "start"], **kwargs)
    except subprocess.CalledProcessError as error:
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"could not start PostgreSQL from {bindir}: {error.stderr or error.stdout}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/"
    finally:
        from bridgeproc.archive.db import dispose_all

        dispose_all()
        subprocess.run([os.path.join(bindir, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"],
                       **{**kwargs, "check": False})
        shutil.rmtree(base, ignore_errors=True)


def fresh_database(base_url: str) -> str:
    """Create an empty database on the test server; its URL."""
    import psycopg

    name = f"archive_{os.getpid()}_{next(_counter)}"
    plain = base_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain + "postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return base_url + name


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def archive_url(request, tmp_path):
    """An empty archive: an SQLite file, then a database on the test PostgreSQL server."""
    from bridgeproc.archive.db import dispose_all

    if request.param == "sqlite":
        url = str(tmp_path / "archive.sqlite")
    else:
        url = fresh_database(request.getfixturevalue("postgres_server"))
    yield url
    dispose_all()
