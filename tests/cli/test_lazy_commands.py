"""The commands loaded when asked for (cli.main.LAZY_COMMANDS): each module registers exactly the commands
the table names, a score or check run loads none of them, and each still runs when asked for by name."""
from __future__ import annotations

import subprocess
import sys

import click

from bridgeproc.cli import cli
from bridgeproc.cli.main import LAZY_COMMANDS
from tests.conftest import ROOT

SAMPLE = ROOT / "sample_data"


def test_the_table_names_every_command_each_module_defines():
    cli.load_all()
    assert set(cli.commands) == {"score", "check", "conventions"} | set(LAZY_COMMANDS)
    for name, module in LAZY_COMMANDS.items():
        command = cli.commands[name]
        callback = command.callback if not isinstance(command, click.Group) else next(
            iter(command.commands.values())).callback
        assert callback is not None and callback.__module__ == f"bridgeproc.cli.{module}", name


def test_a_score_run_loads_no_other_command_and_each_loads_when_asked_for(tmp_path):
    """In a fresh interpreter: ``check`` and ``score`` leave every other command's module unloaded; then
    ``swiss --help`` and ``archive list --help`` load theirs and run."""
    inputs = [str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")]
    code = f"""
import sys
from bridgeproc.cli import cli

def run(args):
    try:
        cli(args, standalone_mode=False)
    except SystemExit as done:
        assert not done.code, done.code

run(["-q", "check", *{inputs!r}])
run(["-q", "score", *{inputs!r}, "--no-dd", "--no-archive", "-o", {str(tmp_path / "x.csv")!r}])
print(sorted(m for m in sys.modules if m.startswith("bridgeproc.cli.") and m.rsplit(".", 1)[1] in {set(LAZY_COMMANDS.values())!r}))
run(["swiss", "--help"])
run(["archive", "list", "--help"])
print(sorted(m for m in sys.modules if m.startswith("bridgeproc.cli.") and m.rsplit(".", 1)[1] in {set(LAZY_COMMANDS.values())!r}))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0] == "[]", done.stdout
    assert lines[-1] == "['bridgeproc.cli.archive', 'bridgeproc.cli.swiss']", done.stdout
    assert (tmp_path / "x.csv").exists()


def test_the_commands_are_listed_in_one_order_whichever_loaded_first():
    """``bridgeproc config`` and a configuration file's tables list the commands in the declared order, not
    in the order their modules happened to load (a fresh interpreter that loads ``config`` first)."""
    expected = ["score", "check", "conventions", *LAZY_COMMANDS]
    code = ("import bridgeproc.cli.config\nimport bridgeproc.cli.swiss\nfrom bridgeproc.cli import cli\n"
            "cli.load_all()\nprint(list(cli.commands))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(expected)
    assert expected[3:] == ["archive", "config", "event", "movement", "rubber", "chicago", "teams", "sim", "swiss"]
