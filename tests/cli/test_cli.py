"""The command line: exit codes, messages, and that failures write nothing."""
import subprocess
import sys

import pandas as pd
import pytest

import bridgeproc
from bridgeproc import process_session
from bridgeproc.cli import cli
from tests.conftest import SAMPLE

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

HEADER = "Board,NS,EW,Contract,Declarer,Result,Lead\n"


def test_score_writes_the_scored_table(runner, tmp_path):
    src = tmp_path / "t.csv"
    src.write_text(HEADER + "1,1,2,4S,N,=,HK\n1,3,4,4SX,N,-2,D2\n2,1,2,PASS,,,\n2,3,4,1NT,S,7,\n3,1,2,AVE+,,,\n3,3,4,3C,W,10,\n")
    out = tmp_path / "scored.csv"
    result = runner.invoke(cli, ["score", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out, dtype=str, keep_default_na=False)
    assert list(table.columns) == ["section", "board", "ns", "ew", "contract", "declarer", "tricks", "lead", "score_ns",
                                   "mp_ns", "mp_ew", "pct_ns", "pct_ew"]
    # Board 3: the AVE+ row gets 60 % of the top (2); the one real result is Neuberg-factored
    # from a top of 0 to the full top: (0 + 1) x 2/1 - 1 = 1.
    assert table.drop(columns=["section", "ns", "ew"]).values.tolist() == [
        ["1", "4S", "N", "10", "HK", "420", "2.0", "0.0", "100.0", "0.0"],
        ["1", "4SX", "N", "8", "D2", "-300", "0.0", "2.0", "0.0", "100.0"],
        ["2", "PASS", "", "", "", "0", "0.0", "2.0", "0.0", "100.0"],
        ["2", "1NT", "S", "7", "", "90", "2.0", "0.0", "100.0", "0.0"],
        ["3", "A+/A-", "", "", "", "", "1.2", "0.8", "60.0", "40.0"],
        ["3", "3C", "W", "10", "", "-130", "1.0", "1.0", "50.0", "50.0"],
    ]


def test_bad_input_lists_every_problem_and_writes_nothing(runner, tmp_path):
    src = tmp_path / "bad.csv"
    src.write_text(HEADER + "1,1,2,8NT,N,=,\n1,3,4,4S,,=,\nx,5,6,4S,N,14,\n2,1,2,4S,N,-11,\n")
    out = tmp_path / "scored.csv"
    out.write_text("previous run\n")
    result = runner.invoke(cli, ["score", str(src), "-o", str(out)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert lines[0] == "Error: 5 problem(s) in the input:"
    assert lines[1:] == [
        "bad.csv:2: contract: '8NT' is not a contract; write e.g. 4S, 3NTX, 2HXX, PASS, or an artificial score (AVE, AVE+, AVE-, A+/A-, A60/40, 60%, NP)",
        "bad.csv:3: declarer: no declarer for a played contract; write N, E, S or W",
        "bad.csv:4: board: 'x' is not a board number; write a whole number from 1 up",
        "bad.csv:4: result: 4S with result 14 means 14 tricks, which is impossible (0-13); correct the contract or the result",
        "bad.csv:5: result: 4S with result -11 means -1 tricks, which is impossible (0-13); correct the contract or the result",
    ]
    assert out.read_text() == "previous run\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv", "scored.csv"]  # no temporary left behind


def test_bad_command_line_exits_2(runner, tmp_path):
    assert runner.invoke(cli, ["score"]).exit_code == 2
    assert runner.invoke(cli, ["score", str(tmp_path / "missing.csv"), "-o", "x.csv"]).exit_code == 2
    assert runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), "-o", "x.csv", "--result-style", "odd"]).exit_code == 2


@pytest.mark.parametrize("args", [
    ["-o", "x.doc"], ["-o", "d.csv", "-o", "d.csv"], ["--encoding", "nosuch", "-o", "d.csv"],
    ["--imp-ave-plus", "nan", "-o", "d.csv"],
])
def test_command_line_mistakes_exit_2_before_reading(runner, tmp_path, args):
    args = [str(tmp_path / a) if a.endswith((".doc", ".csv")) else a for a in args]
    result = runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), *args])
    assert result.exit_code == 2, result.output
    assert list(tmp_path.iterdir()) == []


def test_library_refuses_unknown_output_types_as_bad_input(tmp_path):
    with pytest.raises(bridgeproc.BridgeprocError, match="unknown output type"):
        process_session([SAMPLE / "club-evening-travellers.csv"], [tmp_path / "x.doc"])


@pytest.mark.parametrize("command", [
    ["score", "IN", "--names", "NAMES", "--no-archive", "-o", "NAMES"],
    ["score", "IN", "--archive", "OUT.xml", "-o", "OUT.xml"],
])
def test_outputs_never_replace_what_the_run_reads(runner, tmp_path, command):
    names = tmp_path / "names.csv"
    names.write_bytes((SAMPLE / "club-evening-names.csv").read_bytes())
    swap = {"IN": str(SAMPLE / "club-evening-travellers.csv"), "NAMES": str(names), "OUT.xml": str(tmp_path / "out.xml")}
    result = runner.invoke(cli, [swap.get(a, a) for a in command])
    assert result.exit_code == 2 and "this run reads that file" in result.output  # a command-line mistake
    assert names.read_bytes() == (SAMPLE / "club-evening-names.csv").read_bytes()
    assert not (tmp_path / "out.xml").exists()


def test_other_commands_write_all_or_nothing(runner, tmp_path):
    from tests.conftest import REALDATA

    sheet = tmp_path / "r.csv"
    sheet.write_text("deal,declarer,contract,tricks\n1,EW,4S,11\n")
    for command in (["rubber", str(sheet), "-o", str(tmp_path / "new" / "a.csv"), "-o", "/proc/nope/b.csv"],
                    ["teams", str(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"),
                     "-o", str(tmp_path / "t" / "a.xlsx"), "-o", "/proc/nope/x.csv"]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 1 and "nothing was written" in result.output, result.output
    assert runner.invoke(cli, ["rubber", str(sheet), "-o", str(sheet)]).exit_code == 2  # -o names the input
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_cli_and_library_agree(runner, tmp_path):
    out = tmp_path / "cli.csv"
    assert runner.invoke(cli, ["score", str(SAMPLE / "club-evening-travellers.csv"), "-o", str(out)]).exit_code == 0
    session = process_session([SAMPLE / "club-evening-travellers.csv"])
    from_cli = pd.read_csv(out)
    assert len(from_cli) == len(session.results) == 338
    assert from_cli["score_ns"].tolist() == session.results["score_ns"].astype(int).tolist()


@pytest.mark.slow
def test_python_dash_m_runs(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bridgeproc", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "bridgeproc, version 0.1.0"


def test_pbn_alone_is_rescored_with_its_published_names_and_across_field(runner, tmp_path):
    from tests.conftest import REALDATA

    out = tmp_path / "swe.csv"
    result = runner.invoke(cli, ["score", str(REALDATA / "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn"),
                                 "-o", str(out), "--no-dd", "--no-archive"])
    assert result.exit_code == 0, result.output
    session = process_session([REALDATA / "swe-bridgefestival-orebro-2011-silver1-crossimp.pbn"],
                              options=__import__("bridgeproc").Options(dd=False))
    assert session.conventions.across_field is True     # one ScoreTable per board over all sections
    top = session.standings.iloc[0]
    assert (top["pair"], top["names"], top["total"]) == ("523", "Aron Thorfinsson - Gumundur Snorrason", 2261)


def test_outputs_are_all_or_nothing(runner, tmp_path):
    src = SAMPLE / "club-evening-travellers.csv"
    bad_archive = runner.invoke(cli, ["score", str(src), "-o", str(tmp_path / "a.csv"), "-o", str(tmp_path / "a.xlsx"),
                                      "--archive", "foo://bar"])
    assert bad_archive.exit_code == 1 and "not an archive URL" in bad_archive.output
    nested = runner.invoke(cli, ["score", str(src), "-o", str(tmp_path / "a.csv"), "-o", str(tmp_path / "a.csv" / "b.pbn")])
    assert nested.exit_code == 2 and "another output is inside it" in nested.output
    (tmp_path / "t.csv").write_bytes(src.read_bytes())
    same = runner.invoke(cli, ["score", str(tmp_path / "t.csv"), "-o", str(tmp_path / "t.csv")])
    assert same.exit_code == 2 and "this run reads that file" in same.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]
    assert (tmp_path / "t.csv").read_bytes() == src.read_bytes()


def test_two_hand_records_that_disagree_are_a_problem(runner, tmp_path):
    text = (SAMPLE / "club-evening.pbn").read_text(encoding="utf-8")
    first = text.split('[Deal "')[1].split('"')[0]
    hands = first[2:].split()
    swapped = first[:2] + " ".join([hands[1], hands[0], hands[2], hands[3]])
    (tmp_path / "other.pbn").write_text(text.replace(first, swapped, 1), encoding="utf-8")
    result = runner.invoke(cli, ["check", str(SAMPLE / "club-evening.pbn"), str(tmp_path / "other.pbn"),
                                 str(SAMPLE / "club-evening-travellers.csv")])
    assert result.exit_code == 1
    assert "other.pbn:15: deal: board 1 is dealt differently in club-evening.pbn (line 15); give one hand record" in result.output


def test_our_own_pbn_rescores_to_the_same_numbers(runner, tmp_path):
    """Sections scored apart, 1 MP per beat, a not-played row: all survive PBN out and back in."""
    src = tmp_path / "sections.csv"
    src.write_text("Section,Board,NS,EW,Contract,Declarer,Result\n"
                   "A,1,1,2,4S,N,=\nA,1,3,4,4S,N,-1\nA,2,1,2,3NT,S,+1\nA,2,3,4,NP,,\n"
                   "B,1,1,2,4S,N,+1\nB,1,3,4,2S,N,+2\nB,2,1,2,3NT,S,=\nB,2,3,4,3NT,S,-1\n")
    first, again = tmp_path / "first.csv", tmp_path / "again.csv"
    args = ["--no-archive", "--mp-scale", "1"]
    assert runner.invoke(cli, ["score", str(src), "-o", str(tmp_path / "out.pbn"), "-o", str(first), *args]).exit_code == 0
    result = runner.invoke(cli, ["score", str(tmp_path / "out.pbn"), "-o", str(again), "--no-archive"])
    assert result.exit_code == 0, result.output
    key = ["section", "board", "ns", "ew"]
    before = pd.read_csv(first, dtype=str).sort_values(key).reset_index(drop=True)
    after = pd.read_csv(again, dtype=str).sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(before, after)
    assert before.loc[(before["section"] == "B") & (before["board"] == "1"), "mp_ns"].tolist() == ["1.0", "0.0"]


def test_fouled_groups_survive_csv_and_pbn_and_individual_xml_is_refused(runner, tmp_path):
    from tests.conftest import REALDATA

    lines = (SAMPLE / "club-evening-travellers.csv").read_text().splitlines()
    fouled = [lines[0] + ",Fouled"] + [line + (",F" if i <= 3 else ",") for i, line in enumerate(lines[1:], 1)]
    (tmp_path / "f.csv").write_text("\n".join(fouled) + "\n")
    first = tmp_path / "o.csv"
    args = ["--no-archive", "--no-dd"]
    assert runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(tmp_path / "f.csv"),
                               "-o", str(first), "-o", str(tmp_path / "o.pbn"), *args]).exit_code == 0
    key = ["section", "board", "ns", "ew"]
    before = pd.read_csv(first, dtype=str).sort_values(key).reset_index(drop=True)
    assert before["fouled"].notna().sum() == 3
    for again_from in ("o.pbn", "o.csv"):
        again = tmp_path / f"again-{again_from}.csv"
        assert runner.invoke(cli, ["score", str(tmp_path / again_from), "-o", str(again), *args]).exit_code == 0
        after = pd.read_csv(again, dtype=str).sort_values(key).reset_index(drop=True)
        assert after["mp_ns"].tolist() == before["mp_ns"].tolist()
    individual = runner.invoke(cli, ["score", str(REALDATA / "nor-nesodden-bk-2022-10-04-hostsingel-individual.pbn"),
                                     "-o", str(tmp_path / "i.xml"), "-o", str(tmp_path / "i.csv"), *args])
    assert individual.exit_code == 1 and "individual event is not supported" in individual.output
    assert not (tmp_path / "i.csv").exists()


def test_rescoring_a_pbn_notes_where_its_published_numbers_differ(runner, tmp_path):
    from tests.conftest import REALDATA

    source = REALDATA / "nor-ostfold-follo-2022-05-08-km-par.pbn"
    # the director's own options win over the file: uncentred, every published MP_NS differs
    plain = runner.invoke(cli, ["score", str(source), "-o", str(tmp_path / "a.csv"), "--no-archive", "--no-dd",
                                "--no-centred"])
    assert "252 of 252 published MP_NS differ from bridgeproc's" in plain.output
    assert "Conventions: as given (--no-centred), the closest found, reproducing MP_NS 0/252, MP_EW 0/252, totals 0/8, " \
           "percentages 4/8, places 8/8" in plain.output
    # with no options the file's producer (Ruter i Norge) centres them: only board 37, which realdata/README
    # calls unexplained, is left, and the note says what the search tried
    found = runner.invoke(cli, ["score", str(source), "-o", str(tmp_path / "b.csv"), "--no-archive", "--no-dd"])
    assert "2 of 252 published MP_NS differ" in found.output
    assert "none of the" in found.output and "sets of conventions tried reproduces them all" in found.output
    assert "Conventions: Ruter i Norge's" in found.output
    same = runner.invoke(cli, ["score", str(REALDATA / "ruter7-klubbkveld-butler-2012.pbn"), "-o", str(tmp_path / "c.csv"),
                               "--no-archive", "--no-dd"])
    assert same.exit_code == 0 and "published" not in same.output
