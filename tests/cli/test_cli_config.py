"""The club's configuration file and what surrounds it on the command line: which value wins,
paths relative to the file that names them, refusals, ``bridgeproc config``, ``-o -``, help
and version, the double-dummy progress and verbosity, exit codes."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import bridgeproc
from bridgeproc.cli import cli
from bridgeproc.cli.common import commands_of
from bridgeproc.errors import SetupError
from tests.conftest import REALDATA, ROOT, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

PBN = SAMPLE / "club-evening.pbn"
TRAVELLERS = SAMPLE / "club-evening-travellers.csv"
NAMES = SAMPLE / "club-evening-names.csv"
RULES = ROOT / "tests" / "data" / "rules"
#: A clean, fast run of the sample: no solver, no archive.
FAST = ["--no-dd", "--no-archive"]


@pytest.fixture
def club(tmp_path, monkeypatch):
    """A working folder, a user configuration folder of the test's own, no $BRIDGEPROC_CONFIG.

    Returns a function that writes a configuration file: ``club("local", text)`` the working
    folder's bridgeproc.toml, ``club("user", text)`` the user's config.toml, ``club("env", text)``
    a file elsewhere that $BRIDGEPROC_CONFIG names. Each returns the file's path.
    """
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("BRIDGEPROC_CONFIG", raising=False)
    where = {"local": work / "bridgeproc.toml", "user": tmp_path / "xdg" / "bridgeproc" / "config.toml",
             "env": tmp_path / "elsewhere" / "club.toml"}

    def write(which: str, text: str) -> Path:
        path = where[which]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if which == "env":
            monkeypatch.setenv("BRIDGEPROC_CONFIG", str(path))
        return path.resolve()

    write.work = work
    write.where = where
    return write


def pbn_tags(path: Path, tag: str) -> set[str]:
    """Every value of ``[tag "..."]`` in a PBN file."""
    return set(re.findall(rf'^\[{tag} "(.*)"\]$', path.read_text(encoding="utf-8"), flags=re.M))


def config_rows(output: str) -> dict[str, tuple[str, str]]:
    """``bridgeproc config COMMAND`` output (one command's) as key -> (value, source)."""
    rows = {}
    for line in output.splitlines():
        found = re.fullmatch(r"  (\S+) = (.*?)\s+\((.*)\)", line)
        if found:
            rows[found[1]] = (found[2], found[3])
    return rows


def config_sections(output: str) -> dict[str, dict[str, tuple[str, str]]]:
    """``bridgeproc config`` output as command -> its rows."""
    return {name: config_rows(rows) for name, rows in re.findall(r"^(\S[^:\n]*):\n((?:  .*\n?)*)", output, flags=re.M)}


# --------------------------------------------------------------------------- precedence

PRECEDENCE = [
    # id, files written (which -> text), command-line options, the event in force, and the file
    # `bridgeproc config` names as its source (None: the command line's, which it cannot know)
    ("user file only", {"user": 'event = "User"\n'}, [], "User", "user"),
    ("working folder only", {"local": 'event = "Local"\n'}, [], "Local", "local"),
    ("both: the working folder wins", {"user": 'event = "User"\n', "local": 'event = "Local"\n'}, [], "Local",
     "local"),
    ("both and the option: the option wins", {"user": 'event = "User"\n', "local": 'event = "Local"\n'},
     ["--event", "Option"], "Option", None),
    ("[score] beats the top level of its file", {"local": 'event = "Top"\n[score]\nevent = "Table"\n'}, [],
     "Table", "[score] in local"),
    ("the working folder's top level beats the user's [score]",
     {"user": '[score]\nevent = "User table"\n', "local": 'event = "Local"\n'}, [], "Local", "local"),
    ("$BRIDGEPROC_CONFIG replaces both files",
     {"user": 'event = "User"\n', "local": 'event = "Local"\n', "env": 'event = "Env"\n'}, [], "Env", "env"),
    ("$BRIDGEPROC_CONFIG and the option: the option wins", {"env": 'event = "Env"\n'}, ["--event", "Option"],
     "Option", None),
]


@pytest.mark.parametrize(("files", "args", "expected", "source"), [case[1:] for case in PRECEDENCE],
                         ids=[case[0] for case in PRECEDENCE])
def test_precedence_of_the_files_and_the_command_line(runner, club, files, args, expected, source):
    written = {which: club(which, text) for which, text in files.items()}
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, *args, "-o", "out.pbn"])
    assert result.exit_code == 0, result.output
    assert pbn_tags(club.work / "out.pbn", "Event") == {expected}
    if source is not None:  # bridgeproc config names the same value and the file it came from
        shown = runner.invoke(cli, ["config", "score"])
        assert shown.exit_code == 0, shown.output
        table, _, which = source.rpartition(" in ")
        assert config_rows(shown.stdout)["event"] == (f'"{expected}"', f"{table} in {written[which]}" if table
                                                      else str(written[which]))


@pytest.mark.parametrize(("text", "args", "top"), [
    ("", [], 24),                                   # 13 results a board, 2 matchpoints per result beaten
    ('mp-scale = "1"\n', [], 12),
    ("mp-scale = 1\n", [], 12),                     # a TOML number is taken as the choice it spells
    ('mp-scale = "1"\n', ["--mp-scale", "2"], 24),
    ('profile = "acbl"\n', [], 12),                 # ACBL: 1 matchpoint per result beaten
    ('profile = "acbl"\n[score]\nmp-scale = "2"\n', [], 24),
], ids=["default", "config", "toml number", "option beats config", "profile", "option in [score] beats profile"])
def test_the_config_changes_the_scoring(runner, club, text, args, top):
    club("local", text)
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, *args, "-o", "out.csv"])
    assert result.exit_code == 0, result.output
    scored = pd.read_csv(club.work / "out.csv")
    assert (scored["mp_ns"] + scored["mp_ew"]).unique().tolist() == [top]


def test_the_archive_variable_beats_the_config_and_the_option_beats_both(runner, club, tmp_path, monkeypatch):
    club("user", 'archive = "club.sqlite"\n')
    in_config = tmp_path / "xdg" / "bridgeproc" / "club.sqlite"
    monkeypatch.delenv("BRIDGEPROC_ARCHIVE")
    assert runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "-o", "a.csv"]).exit_code == 0
    assert in_config.is_file()  # relative to the file that names it, not the working folder
    assert not (club.work / "club.sqlite").exists()

    stored = in_config.read_bytes()
    monkeypatch.setenv("BRIDGEPROC_ARCHIVE", str(tmp_path / "env.sqlite"))
    assert runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "-o", "b.csv"]).exit_code == 0
    assert (tmp_path / "env.sqlite").is_file()

    option = tmp_path / "option.sqlite"
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--archive", str(option), "-o", "c.csv"])
    assert result.exit_code == 0, result.output
    assert option.is_file()
    assert in_config.read_bytes() == stored  # neither later run touched the config's archive


# --------------------------------------------------------------------------- paths and outputs


@pytest.mark.parametrize("which", ["user", "env"])
def test_names_are_relative_to_the_config_file_and_outputs_to_the_working_folder(runner, club, which):
    config = club(which, 'names = "club-evening-names.csv"\noutput = ["results.pbn", "results.csv"]\n')
    (config.parent / "club-evening-names.csv").write_bytes(NAMES.read_bytes())
    result = runner.invoke(cli, ["score", str(PBN), str(TRAVELLERS), *FAST])
    assert result.exit_code == 0, result.output
    assert "wrote results.pbn, results.csv" in result.stderr
    assert sorted(p.name for p in club.work.iterdir()) == ["results.csv", "results.pbn"]
    text = (club.work / "results.pbn").read_text(encoding="utf-8")
    assert '"Anna Berg & Bjørn Lie"' in text and '"Carla Fossum & David Olsen"' in text


def test_a_names_list_missing_beside_the_config_is_refused(runner, club):
    config = club("user", 'names = "members.csv"\n')
    (club.work / "members.csv").write_bytes(NAMES.read_bytes())  # the working folder's does not count
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, "-o", "x.csv"])
    assert result.exit_code == 2
    assert str(config.parent / "members.csv") in result.output
    assert not (club.work / "x.csv").exists()


def test_an_option_beats_the_configs_outputs(runner, club):
    club("local", 'output = ["results.xlsx"]\n')
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, "-o", "mine.csv"])
    assert result.exit_code == 0, result.output
    assert not (club.work / "results.xlsx").exists() and (club.work / "mine.csv").is_file()


def test_no_output_anywhere_is_a_command_line_mistake(runner, club):
    club("local", 'profile = "ebu"\n')
    result = runner.invoke(cli, ["score", str(PBN), str(TRAVELLERS), *FAST])
    assert result.exit_code == 2
    assert "Error: give at least one -o OUTPUT (or output = [...] in bridgeproc.toml)" in result.output
    assert sorted(p.name for p in club.work.iterdir()) == ["bridgeproc.toml"]


def test_a_top_level_output_is_the_score_commands_only(runner, club, tmp_path):
    """The club's nightly results files: not what rubber, Chicago or teams write, nor where an
    archived session is exported (each has its own table for that)."""
    local = club("local", 'output = ["results.xlsx", "results.pbn"]\n[rubber]\noutput = "rubber.csv"\n')
    sheet = tmp_path / "rubber-sheet.csv"
    sheet.write_text("deal,declarer,contract,tricks\n1,EW,4S,11\n")
    result = runner.invoke(cli, ["rubber", str(sheet)])
    assert result.exit_code == 0, result.output
    chicago = runner.invoke(cli, ["chicago", str(RULES / "chicago.csv")])
    assert chicago.exit_code == 0, chicago.output
    assert sorted(p.name for p in club.work.iterdir()) == ["bridgeproc.toml", "rubber.csv"]
    shown = config_sections(runner.invoke(cli, ["config"]).stdout)
    assert {name for name, rows in shown.items() if "output" in rows} == {"score", "rubber"}
    assert shown["score"]["output"] == ('["results.xlsx", "results.pbn"]', str(local))
    assert shown["rubber"]["output"] == ('"rubber.csv"', f"[rubber] in {local}")


# --------------------------------------------------------------------------- refusals

REFUSED = [
    # id, file text, what the message says besides the file's path, and whether `bridgeproc config`
    # refuses the file too (not a value only the command it is for judges, as click parses it)
    ("misspelt key", 'profil = "ebu"\n', ["profil: unknown key"], True),
    ("unknown table", '[scoring]\nprofile = "ebu"\n',
     ["[scoring]: unknown table; a table is named after a command: [archive], [score], [check], [conventions], [archive.list]"], True),
    ("misspelt key in a table", '[score]\nprofil = "ebu"\n', ["[score] profil: the score command has no option --profil"],
     True),
    ("misspelt sub-command", '[archive.lst]\njson = true\n', ["[archive.lst]: unknown table"], True),
    ("option of no archive command", '[archive]\nnames = "names.csv"\n',
     ["[archive] names: no archive command has an option --names"], True),
    ("every unknown key at once", 'profil = "ebu"\nnmaes = "x.csv"\n[scor]\nx = 1\n',
     ["profil: unknown key", "nmaes: unknown key", "[scor]: unknown table"], True),
    ("TOML syntax", 'profile = "ebu\n', ["not a TOML file"], True),
    ("not UTF-8", 'club = "Sm\xf8rum"\n', ["not a TOML file"], True),
    ("text for a switch", 'no-dd = "yes"\n', ["no-dd is a switch: write no-dd = true or false"], True),
    ("text for a two-way switch", 'within-sections = "yes"\n', ["within-sections is a switch"], True),
    ("a list for one value", 'profile = ["ebu"]\n', ["profile takes one value, not a list"], True),
    ("a number for a file", "names = 3\n", ["names must be a file name"], True),
    ("a table for a value", "[score.profile]\nx = 1\n", ["[score] profile is a table"], True),
    ("a choice no option has", 'profile = "ebux"\n', ["bridgeproc.toml: profile: 'ebux' is not one of"], False),
    ("a bad value in a table", '[score]\ntables = "x"\n', ["[score] tables: 'x' is not a valid integer"], False),
]


@pytest.mark.parametrize(("text", "said", "config_too"), [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_a_wrong_config_exits_2_naming_the_file_and_the_key(runner, club, text, said, config_too):
    path = club.where["local"]
    path.write_bytes(text.encode("latin-1"))
    runs = [["score", str(PBN), str(TRAVELLERS), *FAST, "-o", "out.csv"], *([["config"]] if config_too else [])]
    for args in runs:
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, result.output
        assert isinstance(result.exception, SystemExit)  # a message, not a traceback
        assert "Traceback" not in result.output
        assert result.output.startswith(f"Error: {path.resolve()}: ")  # the file is at fault, not the command line
        for words in said:
            assert words in result.output
    assert not (club.work / "out.csv").exists()
    help_anyway = runner.invoke(cli, ["score", "-h"])  # help does not depend on the file
    assert help_anyway.exit_code == 0 and "--profile" in help_anyway.stdout


def test_a_missing_bridgeproc_config_file_exits_2(runner, club, tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGEPROC_CONFIG", str(tmp_path / "nowhere.toml"))
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, "-o", "out.csv"])
    assert result.exit_code == 2
    assert f"{tmp_path / 'nowhere.toml'}: cannot read the configuration file" in result.output


def test_a_check_table_is_the_check_commands_and_archive_check_has_its_own(runner, club):
    club("local", '[check]\ntrust = "score"\n[archive.check]\ndeep = true\n')
    shown = runner.invoke(cli, ["config"])
    assert shown.exit_code == 0, shown.output
    sections = config_sections(shown.stdout)
    assert sections["check"] == {"trust": ('"score"', f"[check] in {club.where['local'].resolve()}")}
    assert sections["archive check"]["deep"] == ("true", f"[archive.check] in {club.where['local'].resolve()}")
    assert "trust" not in sections["archive check"]
    assert runner.invoke(cli, ["check", str(PBN), str(TRAVELLERS)]).exit_code == 0


@pytest.mark.parametrize(("text", "start"), [
    ("csv = true\n", r"session_id,event,"),
    ("[archive]\njson = true\n", r'\[\n {\n  "session_id":'),  # a group's table: every archive command
    ("[archive.list]\njson = true\n", r'\[\n {\n  "session_id":'),
    ("csv = false\n", r" +session_id +event "),
], ids=["csv", "json in [archive]", "json in [archive.list]", "off"])
def test_a_format_switch_in_the_config(runner, club, text, start):
    assert runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "-o", "x.csv"]).exit_code == 0
    club("local", text)
    listed = runner.invoke(cli, ["archive", "list"])
    assert listed.exit_code == 0, listed.output
    assert re.match(start, listed.stdout)


# --------------------------------------------------------------------------- bridgeproc config


def test_config_shows_each_value_and_where_it_came_from(runner, club, monkeypatch):
    user = club("user", 'names = "members.csv"\nmp-scale = "1"\n')
    local = club("local", 'profile = "ebu"\nwithin-sections = true\n[score]\nmp-scale = "2"\nclub = "Winchester"\n')
    result = runner.invoke(cli, ["config", "score"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        f"Configuration files looked for: {club.where['user']}, then ./bridgeproc.toml",
        f"Read (later wins): {user}, {local}",
    ]
    assert config_rows(result.stdout) == {
        "names": (f'"{user.parent / "members.csv"}"', str(user)),
        "profile": ('"ebu"', str(local)),
        "mp-scale": ('"2"', f"[score] in {local}"),
        "within-sections": ("true", str(local)),
        "club": ('"Winchester"', f"[score] in {local}"),
        "archive": (f'"{os.environ["BRIDGEPROC_ARCHIVE"]}"', "$BRIDGEPROC_ARCHIVE"),
    }
    assert "\ncheck:\n" not in result.stdout  # only the command asked for

    monkeypatch.delenv("BRIDGEPROC_ARCHIVE")
    club("local", 'archive = "club.sqlite"\n')
    assert config_rows(runner.invoke(cli, ["config", "score"]).stdout)["archive"] == (
        f'"{local.parent / "club.sqlite"}"', str(local))


def test_config_all_lists_the_built_in_defaults(runner, club):
    club("local", 'trust = "score"\n')
    rows = config_rows(runner.invoke(cli, ["config", "score", "--all"]).stdout)
    assert rows["trust"] == ('"score"', str(club.where["local"].resolve()))
    assert rows["result-style"] == ('"auto"', "default")
    assert rows["no-dd"] == ("false", "default")
    assert rows["across-field"][1] == "default"


def test_config_of_a_sub_command_and_of_no_such_command(runner, club):
    club("local", 'archive = "club.sqlite"\n')
    for args in (["config", "archive", "list"], ["config", "archive list"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
        assert "\narchive list:\n" in result.stdout and "\narchive show:\n" not in result.stdout
    grouped = runner.invoke(cli, ["config", "archive"])
    assert grouped.exit_code == 0 and "\narchive list:\n" in grouped.stdout and "\nscore:\n" not in grouped.stdout
    wrong = runner.invoke(cli, ["config", "scroe"])
    assert wrong.exit_code == 2 and "no command 'scroe'" in wrong.output


# --------------------------------------------------------------------------- -o -


def test_dash_o_dash_writes_exactly_the_scored_csv_on_standard_output(runner, club):
    both = runner.invoke(cli, ["score", str(PBN), str(TRAVELLERS), *FAST, "-o", "-", "-o", "x.csv"])
    assert both.exit_code == 0, both.output
    written = (club.work / "x.csv").read_bytes()
    assert written.startswith(b"section,board,ns,ew,contract,declarer,tricks,lead,score_ns,mp_ns,")
    assert both.stdout_bytes == written
    assert both.stderr == "338 results, 26 boards; wrote standard output, x.csv\n"

    alone = runner.invoke(cli, ["score", str(PBN), str(TRAVELLERS), *FAST, "-o", "-"])
    assert alone.exit_code == 0, alone.output
    assert alone.stdout_bytes == written
    assert sorted(p.name for p in club.work.iterdir()) == ["x.csv"]  # and no file named -


@pytest.mark.parametrize("args", [["-o", "-", "-o", "-"], ["-o", "-", "-o", "out.xlsx", "-o", "-"]])
def test_standard_output_twice_is_a_command_line_mistake(runner, club, args):
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, *args])
    assert result.exit_code == 2
    assert "standard output (-) is given twice" in result.output
    assert result.stdout == ""


def test_a_failed_run_writes_nothing_on_standard_output(runner, club):
    result = runner.invoke(cli, ["score", str(PBN), str(SAMPLE / "with-problems" / "club-evening-travellers.csv"),
                                 *FAST, "-o", "-"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("Error: 6 problem(s) in the input:\n")


# --------------------------------------------------------------------------- help and version


@pytest.mark.parametrize("name", ["", *(name for name, _ in commands_of(cli)), "archive"])
@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help_for_the_group_and_every_command(runner, club, name, flag):
    result = runner.invoke(cli, [*name.split(), flag], prog_name="bridgeproc")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Usage: bridgeproc {name}".rstrip() + " ")
    assert "-h, --help" in result.stdout


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(runner, club, flag):
    result = runner.invoke(cli, [flag])
    assert result.exit_code == 0
    assert result.stdout == f"bridgeproc, version {bridgeproc.__version__}\n"


def test_score_help_lists_its_options_by_section(runner, club):
    text = runner.invoke(cli, ["score", "--help"]).stdout
    titles = re.findall(r"^(\S[^:\n]*):$", text, flags=re.M)
    assert titles == ["Inputs", "Checks", "Method and conventions", "Outputs", "Archive", "Other options"]
    body = {title: part for title, part in zip(titles, re.split(r"^\S[^:\n]*:$", text, flags=re.M)[1:])}
    for title, options in {"Inputs": ["--names", "--encoding", "--result-style"], "Checks": ["--trust", "--tables"],
                           "Method and conventions": ["--profile", "--mp-scale", "--across-field / --within-sections"],
                           "Outputs": ["-o, --output", "--no-dd", "--club"],
                           "Archive": ["--archive", "--no-archive", "--replace", "--event"],
                           "Other options": ["-q, --quiet", "-v, --verbose", "-h, --help"]}.items():
        for option in options:
            assert option in body[title], (title, option)


# --------------------------------------------------------------------------- progress and verbosity


@pytest.fixture(scope="module")
def unsolved(tmp_path_factory):
    """Three boards of the sample without double-dummy tables, board 3 dealt as board 1 (two
    distinct deals to solve), and their travellers."""
    folder = tmp_path_factory.mktemp("unsolved")
    text = PBN.read_text(encoding="utf-8")
    assert "DoubleDummyTricks" not in text and "OptimumResultTable" not in text  # the sample is unsolved
    comments, *games = re.split(r"\n\n(?=\[Event )", text.strip())
    assert comments.startswith("% PBN") and len(games) == 26
    games = games[:3]
    deal_1 = re.search(r'^\[Deal ".*"\]$', games[0], flags=re.M)[0]
    games[2] = re.sub(r'^\[Deal ".*"\]$', deal_1, games[2], flags=re.M)
    (folder / "hands.pbn").write_text(comments + "\n\n" + "\n\n".join(games) + "\n", encoding="utf-8")
    header_row, *rows = TRAVELLERS.read_text().splitlines()
    kept = [row for row in rows if row.split(",")[0] in {"1", "2", "3"}]
    (folder / "travellers.csv").write_text("\n".join([header_row, *kept]) + "\n")
    return folder


def _run(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m bridgeproc score`` with standard error a pipe (so not a terminal)."""
    env = {k: v for k, v in os.environ.items() if k != "BRIDGEPROC_CONFIG"}
    env["XDG_CONFIG_HOME"] = str(folder / "xdg")
    return subprocess.run([sys.executable, "-m", "bridgeproc", "score", "hands.pbn", "travellers.csv",
                           "--no-archive", "-o", "out.pbn", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_progress_off_a_terminal_is_one_line_at_the_start_and_one_at_the_end(unsolved):
    done = _run(unsolved)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0] == "Double dummy: solving 2 deal(s)"
    assert re.fullmatch(r"Double dummy: 2 of 2 deal\(s\) solved in \d+\.\d s", lines[1])
    # board 3 is dealt as board 1 here, so its leads are not in the leaders' hands: warnings, before the last line
    *notes, last = lines[2:]
    assert last == "39 results, 3 boards; wrote out.pbn"
    assert notes and all(": board 3, " in n or n.startswith(("Note:   ... and", "Note: (grouped by cause", "Note: Likely cause:"))
                         for n in notes)
    assert len(pbn_tags(unsolved / "out.pbn", "DoubleDummyTricks")) == 2


@pytest.mark.slow
def test_quiet_prints_nothing_and_verbose_prints_each_stage(unsolved):
    quiet = _run(unsolved, "-q")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout == ""
    verbose = _run(unsolved, "-v")
    assert verbose.returncode == 0, verbose.stderr
    stages = [line for line in verbose.stderr.splitlines() if re.fullmatch(r"[a-z ]+: \d+\.\d\d s", line)]
    assert [stage.split(":")[0] for stage in stages] == ["read", "checked", "scored and ranked", "double dummy and par",
                                                         "written"]
    assert verbose.stderr.count("Double dummy: solving 2 deal(s)") == 1


@pytest.mark.parametrize("where", [["-q", "score"], ["score", "-q"]])
def test_quiet_on_the_group_or_the_command(runner, club, where):
    result = runner.invoke(cli, [*where, str(PBN), str(TRAVELLERS), *FAST, "-o", "x.csv"])
    assert result.exit_code == 0
    assert result.output == ""
    assert (club.work / "x.csv").is_file()


def test_verbose_in_process_names_the_stages(runner, club):
    result = runner.invoke(cli, ["-v", "score", str(TRAVELLERS), *FAST, "-o", "x.csv"])
    assert result.exit_code == 0
    assert re.fullmatch(r"read: \d+\.\d\d s\nchecked: \d+\.\d\d s\nscored and ranked: \d+\.\d\d s\n"
                        r"written: \d+\.\d\d s\n338 results, 26 boards; wrote x.csv\n", result.stderr)


# --------------------------------------------------------------------------- exit codes


def test_bad_data_exits_1(runner, club):
    result = runner.invoke(cli, ["score", str(PBN), str(SAMPLE / "with-problems" / "club-evening-travellers.csv"),
                                 *FAST, "-o", "x.csv"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: 6 problem(s) in the input:\n") and "Usage:" not in result.output
    assert not (club.work / "x.csv").exists()


@pytest.mark.parametrize("args", [["--profile", "nope"], ["--bogus"], ["--tables", "0"], ["--date", "24/11/2026"]])
def test_a_bad_option_exits_2(runner, club, args):
    result = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, *args, "-o", "x.csv"], prog_name="bridgeproc")
    assert result.exit_code == 2
    assert result.output.startswith("Usage: bridgeproc score [OPTIONS] INPUTS...\n")
    assert not (club.work / "x.csv").exists()


def test_a_bws_without_its_reader_is_a_setup_problem(runner, club, monkeypatch):
    monkeypatch.setitem(sys.modules, "access_parser", None)  # import fails as if not installed
    result = runner.invoke(cli, ["score", str(REALDATA / "bridgemate-sample.bws"), *FAST, "-o", "x.csv"])
    assert result.exit_code == 2
    assert result.output == ("Error: the package access-parser, needed for reading Bridgemate .bws files, is not "
                             "installed; install it with: pip install access-parser\n")


def test_an_archive_setup_problem_exits_2_and_writes_nothing(runner, club, monkeypatch, tmp_path):
    def no_driver(*args, **kwargs):
        raise SetupError("a PostgreSQL archive needs the package psycopg, which is not installed")

    monkeypatch.setattr("bridgeproc.archive.archive_session", no_driver)
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "-o", "x.csv", "-o", "-"])
    assert result.exit_code == 2
    assert result.output == "Error: a PostgreSQL archive needs the package psycopg, which is not installed\n"
    assert not (club.work / "x.csv").exists()


def test_check_never_archives(runner, club, tmp_path, monkeypatch):
    archive = tmp_path / "never" / "archive.sqlite"
    monkeypatch.setenv("BRIDGEPROC_ARCHIVE", str(archive))
    club("local", f'archive = "{archive.as_posix()}"\n')
    result = runner.invoke(cli, ["check", str(PBN), str(TRAVELLERS)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip()
    assert not archive.exists() and not archive.parent.exists()


def test_a_datum_drop_typed_beats_the_share_in_the_file_and_both_in_the_file_is_a_file_mistake(runner, club):
    club("local", "datum-drop-share = 0.1\n")
    typed = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, "--method", "butler", "--datum-drop", "2",
                                "-o", "x.csv"])
    assert typed.exit_code == 0, typed.output
    club("local", "datum-drop-share = 0.1\ndatum-drop = 2\n")
    both = runner.invoke(cli, ["score", str(TRAVELLERS), *FAST, "-o", "y.csv"])
    assert both.exit_code == 2
    assert both.output == ("Error: the configuration file gives both datum-drop and datum-drop-share; keep one "
                           "(bridgeproc config score shows where each is)\n")


@pytest.mark.parametrize("command", [["teams", str(REALDATA / "fin-salo-joukkue-2013-09-15-teams-vp.pbn")],
                                     ["archive", "export", "some-session"]])
def test_only_score_writes_to_standard_output(runner, club, command):
    result = runner.invoke(cli, [*command, "-o", "-"])
    assert result.exit_code == 2
    assert "this command cannot write to standard output (-); give a file name" in result.output


def test_a_vp_table_named_in_the_user_file_is_found_beside_it(club):
    from bridgeproc.pipeline.config import read_config

    user = club("user", '[teams]\nvp-scale = "club-vp.csv"\n')
    other = club("local", '[teams]\nvp-scale = "WBF2013"\n')
    config = read_config(paths=[user, other])
    values = {(s.source, s.key): s.value for s in config.settings}
    assert values[(user, "vp-scale")] == str(user.parent / "club-vp.csv")
    assert values[(other, "vp-scale")] == "WBF2013"  # built in, not a file


@pytest.mark.parametrize("where", ["environment", "file"])
def test_config_never_prints_a_database_password(runner, club, monkeypatch, where):
    """Issue 29: ``bridgeproc config`` masks the password of an archive URL, as every other message does."""
    url = "postgresql://director:s3cr%40t@db.example.org:5432/club"
    if where == "environment":
        monkeypatch.setenv("BRIDGEPROC_ARCHIVE", url)
    else:
        monkeypatch.delenv("BRIDGEPROC_ARCHIVE")
        club("user", f'archive = "{url}"\n')
    result = runner.invoke(cli, ["config", "score"])
    assert result.exit_code == 0, result.output
    assert "s3cr" not in result.output
    assert "postgresql://director:***@db.example.org:5432/club" in result.output


def test_an_unreadable_user_configuration_folder_is_one_line_not_a_traceback(runner, club, tmp_path, monkeypatch):
    """The folder cannot be looked into (its owner took the permission away). This machine runs the
    tests as root, who may read anything, so the system's refusal is simulated where Python meets it."""
    user = tmp_path / "xdg" / "bridgeproc" / "config.toml"
    real_is_file, real_resolve = Path.is_file, Path.resolve

    def refused(real):
        def call(self, *args, **kwargs):
            if self == user or user in [self, *self.parents] or self.parent == user.parent:
                raise PermissionError(13, "Permission denied", str(self))
            return real(self, *args, **kwargs)
        return call

    monkeypatch.setattr(Path, "is_file", refused(real_is_file))
    monkeypatch.setattr(Path, "resolve", refused(real_resolve))
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: (_ for _ in ()).throw(PermissionError(
        13, "Permission denied", str(path))) if Path(path) == user else real_stat(path, *a, **k))
    result = runner.invoke(cli, ["score", str(PBN), str(TRAVELLERS), *FAST, "-o", str(tmp_path / "r.csv")])
    assert (result.exit_code, type(result.exception)) == (2, SystemExit), result.exception  # as any config fault
    assert "Traceback" not in result.output
    assert f"{user}: cannot read the configuration file" in result.output and "Permission denied" in result.output
    assert not (tmp_path / "r.csv").exists()
