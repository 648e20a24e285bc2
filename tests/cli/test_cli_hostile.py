"""Hostile command lines: files that cannot be right together exit 2 (usage) and write nothing;
an unwritable output folder or a read-only archive exits 1 named as the user gave it; the
read-only archive commands work on an archive the user may only read."""
import os
import shutil
import subprocess
import sys

import pytest

from bridgeproc.cli import cli
from bridgeproc.rank import PROFILES
from tests.conftest import ROOT, SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TRAVELLERS = SAMPLE / "club-evening-travellers.csv"
NAMES = SAMPLE / "club-evening-names.csv"
SID = "2026-11-24_tuesday-pairs"


@pytest.fixture
def files(tmp_path):
    """A private copy of the travellers and names, and links to them of each kind."""
    work = tmp_path / "in"
    work.mkdir()
    shutil.copy(TRAVELLERS, work / "t.csv")
    shutil.copy(NAMES, work / "names.csv")
    os.link(work / "t.csv", work / "hard.csv")
    os.symlink(work / "t.csv", work / "soft.csv")
    shutil.copy(TRAVELLERS, work / "t.doc")
    shutil.copy(TRAVELLERS, work / "noext")
    return work


def _listing(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


#: (command line with IN/ and OUT/ for the two folders, words of the message)
MISTAKES = [
    (["score", "IN/t.csv", "-o", "IN/t.csv"], "IN/t.csv: this run reads that file"),
    (["score", "IN/t.csv", "-o", "IN/hard.csv"], "IN/hard.csv: this run reads that file"),
    (["score", "IN/t.csv", "-o", "IN/soft.csv"], "IN/soft.csv: this run reads that file"),
    (["score", "IN/t.csv", "--names", "IN/names.csv", "-o", "IN/names.csv"], "IN/names.csv: this run reads that file"),
    (["score", "IN/t.csv", "IN/t.csv", "-o", "OUT/r.csv"], "IN/t.csv: given twice; give each file once"),
    (["score", "IN/t.csv", "IN/hard.csv", "-o", "OUT/r.csv"],
     "IN/hard.csv is the same file as IN/t.csv: given twice; give each file once"),
    (["score", "IN/t.csv", "IN/soft.csv", "-o", "OUT/r.csv"],
     "IN/soft.csv is the same file as IN/t.csv: given twice; give each file once"),
    (["score", "IN/t.csv", "IN/names.csv", "--names", "IN/names.csv", "-o", "OUT/r.csv"],
     "IN/names.csv: given twice, as an input and as a names list; give each file once"),
    (["score", "IN/t.doc", "-o", "OUT/r.csv"], "t.doc: cannot read .doc; give one of .xml, .bws, .csv"),
    (["score", "IN/noext", "-o", "OUT/r.csv"], "noext: cannot read files without an extension; give one of"),
    (["score", "IN/t.csv", "-o", "OUT/r.doc"], "OUT/r.doc: unknown output type; use one of .csv, .xlsx, .pbn, .xml, .html, a folder (name/)"),
    (["score", "IN/t.csv", "-o", "OUT/r.csv", "-o", "OUT/r.csv/x.pbn"], "r.csv: another output is inside it"),
    (["score", "IN/t.csv", "-o", "IN/t.csv/x.pbn"], "IN/t.csv/x.pbn: cannot write there, IN/t.csv is a file"),
    (["check", "IN/t.csv", "IN/hard.csv"], "IN/hard.csv is the same file as IN/t.csv: given twice"),
    (["check", "IN/t.csv", "IN/soft.csv"], "IN/soft.csv is the same file as IN/t.csv: given twice"),
    (["check", "IN/t.doc"], "t.doc: cannot read .doc"),
    (["conventions", "IN/t.csv", "IN/hard.csv"], "IN/hard.csv is the same file as IN/t.csv: given twice"),
    (["archive", "export", SID, "-o", "OUT/r.doc"], "OUT/r.doc: unknown output type"),
]


@pytest.mark.parametrize("command, words", MISTAKES, ids=[" ".join(c) for c, _ in MISTAKES])
def test_files_that_cannot_be_right_together_exit_2_and_write_nothing(runner, files, tmp_path, command, words):
    out = tmp_path / "out"
    out.mkdir()
    before, archive = _listing(files), tmp_path / "archive.sqlite"
    args = [a.replace("IN/", f"{files}/").replace("OUT/", f"{out}/") for a in command]
    result = runner.invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert words.replace("IN/", f"{files}/").replace("OUT/", f"{out}/") in result.output
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert _listing(out) == [] and _listing(files) == before and not archive.exists()
    assert (files / "t.csv").read_bytes() == TRAVELLERS.read_bytes()


def test_the_library_refuses_them_as_usage_errors(files, tmp_path):
    import bridgeproc
    from bridgeproc.errors import BridgeprocError, UsageError

    assert issubclass(UsageError, BridgeprocError)
    for inputs, outputs in [([files / "t.csv", files / "hard.csv"], []), ([files / "t.doc"], []),
                            ([files / "t.csv"], [files / "t.csv"]), ([files / "t.csv"], [tmp_path / "r.doc"])]:
        with pytest.raises(UsageError):
            bridgeproc.process_session(inputs, outputs)


def test_the_readme_exit_table_says_it():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Exit status and problems", 1)[1].split("```", 1)[0]
    rows = {line.split("|")[1].strip(): line.split("|")[2].strip() for line in section.splitlines()
            if line.startswith("| ") and line.split("|")[1].strip().isdigit()}
    assert set(rows) == {"0", "1", "2"}
    assert rows["1"].startswith("bad input data; or a file or an archive that cannot be read or written")
    assert rows["2"].startswith("bad command line, including files that cannot be right together: an output that "
                                "is one of the inputs, an input given twice (by any name: a symlink or a hard link")


def test_an_unwritable_folder_is_named_by_the_output_not_its_temporary_file(runner, tmp_path, monkeypatch):
    """Deterministic, as root too: the folder refuses the temporary file."""
    import tempfile

    def refuse(*args, dir=None, **kwargs):
        raise PermissionError(13, "Permission denied", os.path.join(dir, ".r.csv.1-abc.bridgeproc-tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    out = tmp_path / "pub" / "r.csv"
    out.parent.mkdir()
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "-o", str(out), "--no-archive"])
    assert result.exit_code == 1
    assert result.output == (f"Error: cannot write {out}: Permission denied (the folder {out.parent} cannot be "
                             "written); nothing was written\n")
    assert list(out.parent.iterdir()) == []


# --------------------------------------------------------------------------- as a user without rights


def _unprivileged(args, env, cwd):
    """Run ``python -m bridgeproc args`` as a user the file modes stop: as it is when not root;
    as root, without the capabilities that let root ignore them (setpriv)."""
    command = [sys.executable, "-m", "bridgeproc", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: file modes do not stop root, so a read-only archive "
                        "cannot be made here (the mode=ro tests in tests/archive still run)")
        command = [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", *command]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


@pytest.fixture
def readonly_archive(runner, tmp_path):
    """An archive of two versions in a folder, then the file and the folder made read-only."""
    folder = tmp_path / "club"
    folder.mkdir()
    archive = folder / "archive.sqlite"
    inputs = [str(TRAVELLERS), "--event", "Tuesday pairs", "--date", "2026-11-24", "--archive", str(archive)]
    assert runner.invoke(cli, ["score", *inputs, "-o", str(tmp_path / "v1.csv")]).exit_code == 0
    assert runner.invoke(cli, ["score", *inputs, "--names", str(NAMES), "-o", str(tmp_path / "v2.csv"),
                               "--comment", "names added"]).exit_code == 0
    from bridgeproc.archive.db import dispose_all

    dispose_all()
    archive.chmod(0o444)
    folder.chmod(0o555)
    yield archive
    folder.chmod(0o755)
    archive.chmod(0o644)


@pytest.mark.slow
def test_a_read_only_archive_answers_every_question_and_refuses_a_write(readonly_archive, tmp_path):
    env = {**os.environ, "BRIDGEPROC_ARCHIVE": str(readonly_archive), "XDG_CONFIG_HOME": str(tmp_path / "none")}
    before = readonly_archive.read_bytes()
    out = tmp_path / "mine"
    out.mkdir()
    for args, words in [(["archive", "list"], SID), (["archive", "show", SID], "version 2 of 2"),
                        (["archive", "history", "Anna Strand"], "Bjørn Sæther"), (["archive", "check", "--deep"], "archive OK"),
                        (["archive", "export", SID, "--version", "1", "-o", str(out / "v1.csv")], ""),
                        (["archive", "list", "--json"], '"incomplete":""')]:
        done = _unprivileged(args, env, tmp_path)
        assert done.returncode == 0, (args, done.stderr)
        assert words in done.stdout + done.stderr and "Traceback" not in done.stderr
    assert (out / "v1.csv").read_bytes() == (tmp_path / "v1.csv").read_bytes()
    written = _unprivileged(["score", str(TRAVELLERS), "--names", str(NAMES), "--event", "Tuesday pairs", "--date",
                             "2026-11-24", "--comment", "third", "-o", str(out / "r.csv")], env, tmp_path)
    assert written.returncode == 1 and "Traceback" not in written.stderr
    assert written.stderr == (f"Error: cannot write the archive {readonly_archive}: attempt to write a readonly database "
                              "(the file or its folder cannot be written); nothing was archived: give --no-archive to "
                              "write the outputs only, or --archive with an archive you can write\n")
    assert sorted(p.name for p in out.iterdir()) == ["v1.csv"]  # no r.csv: outputs and archive together or not at all
    assert readonly_archive.read_bytes() == before
    assert sorted(p.name for p in readonly_archive.parent.iterdir()) == ["archive.sqlite"]


@pytest.mark.slow
def test_an_unwritable_folder_for_real(tmp_path):
    folder = tmp_path / "pub"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = _unprivileged(["score", str(TRAVELLERS), "--no-archive", "-o", "pub/r.csv", "-o", "pub/new/r.xlsx"],
                             {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "none")}, tmp_path)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1
    assert done.stderr == "Error: cannot write pub/r.csv: Permission denied (the folder pub cannot be written); " \
                          "nothing was written\n"
    assert list(folder.iterdir()) == []


# --------------------------------------------------------------------------- check and --profile


def test_profile_help_lists_every_profile_of_the_registry():
    option = next(p for p in cli.commands["score"].params if p.name == "profile")
    assert option.help is not None
    listed = option.help.split("(", 1)[1].split(")", 1)[0].split(", ")
    assert listed == sorted(PROFILES) and len(listed) >= 3
    assert list(option.type.choices) == sorted(PROFILES)


def test_check_prints_the_reading_notes_as_score_does(runner, tmp_path):
    src = tmp_path / "t.csv"
    src.write_text("Board,NS,EW,Contract,Declarer,Result,Lead,Remarks\n1,1,2,4S,N,=,HK,late\n1,3,4,4S,N,-1,D2,\n")
    note = f"Note: {src.name}:1: column 'Remarks' not read: not a header bridgeproc knows"
    scored = runner.invoke(cli, ["score", str(src), "-o", str(tmp_path / "s.csv"), "--no-archive"])
    assert scored.exit_code == 0 and note in scored.output
    checked = runner.invoke(cli, ["check", str(src)])
    assert checked.exit_code == 0
    assert checked.output.splitlines()[0] == "OK: 2 results on 1 boards, 4 pair numbers"
    assert note in checked.output


#: Every whole-number option of score, on the command line and in the configuration file.
HUGE = "99999999999999999999"


@pytest.mark.parametrize("option", ["--expected", "--datum-drop", "--tables", "--mp-decimals"])
@pytest.mark.parametrize("where", ["command line", "bridgeproc.toml"])
def test_a_number_too_large_for_any_option_is_a_usage_error(runner, tmp_path, monkeypatch, option, where):
    """Issue 29: an integer option has an upper bound, so a huge number is refused with its range (exit 2),
    never an OverflowError traceback; nothing is written."""
    monkeypatch.chdir(tmp_path)
    args = [option, HUGE] if where == "command line" else []
    if where != "command line":
        (tmp_path / "bridgeproc.toml").write_text(f"[score]\n{option[2:]} = {HUGE}\n", encoding="utf-8")
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--no-archive", *args, "-o", "x.csv"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    expected = "is not 0 to 6 decimals or 'exact'" if option == "--mp-decimals" else "is not in the range 0<=x<=" \
        if option == "--datum-drop" else "is not in the range 1<=x<="
    assert f"{HUGE}" in result.output and expected in result.output, result.output
    assert not (tmp_path / "x.csv").exists()


@pytest.mark.parametrize("name", ["out.csv", "out.xlsx", "out.html"])
def test_an_existing_folder_named_like_a_file_output_is_a_usage_error(runner, tmp_path, name):
    """The first catalogue: ``-o`` naming an existing folder as a file is a mistake in the call (exit 2,
    found before any work), not a failed write (exit 1)."""
    (tmp_path / name).mkdir()
    result = runner.invoke(cli, ["score", str(TRAVELLERS), "--no-dd", "--no-archive", "-o", str(tmp_path / name)])
    assert result.exit_code == 2, result.output
    assert f"{name}: is a folder; give a file name for the .{name.split('.')[1]} output" in result.output
    assert list((tmp_path / name).iterdir()) == []
