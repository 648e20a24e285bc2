"""Every convention is declared once, in its Conventions field (issue 27): the checks, the help, the
words, the command-line option and the search for a file's conventions are all made from it."""
from __future__ import annotations

import dataclasses

import pytest

from bridgeproc.cli import cli
from bridgeproc.cli.main import convention_overrides
from bridgeproc.rank.conventions import (
    CONVENTION_HELP,
    CONVENTION_LABELS,
    DECLARED,
    SEARCH_FIELDS,
    SEARCH_SPACE,
    Conventions,
    convention_words,
)
from bridgeproc.rank.reproduce import option_flags


def test_every_field_is_declared_with_its_words():
    names = [f.name for f in dataclasses.fields(Conventions)]
    assert list(DECLARED) == names == list(CONVENTION_HELP) == list(CONVENTION_LABELS)
    assert all(d.help and d.label for d in DECLARED.values())
    assert convention_words("winners", "two") == "North-South and East-West apart"


def test_the_search_is_made_from_the_declarations():
    assert SEARCH_FIELDS["butler"] == ("datum_drop", "datum_round", "imp_ave_plus", "across_field", "sitout",
                                       "imp_per_board", "winners")
    for name, values in SEARCH_SPACE.items():
        assert values[0] == getattr(Conventions(), name), name  # bridgeproc's default is tried first


@pytest.mark.parametrize(("changes", "message"), [
    ({"mp_scale": 3}, "mp_scale=3; expected one of 2, 1"),
    ({"datum_drop": -1}, "datum_drop=-1; expected 0 to 10,000"),
    ({"datum_drop": 10_001}, "datum_drop=10001; expected 0 to 10,000"),
    ({"datum_drop_share": 0.5}, "datum_drop_share=0.5; expected a share below 0.5, e.g. 0.1"),
    ({"mp_decimals": 7}, "mp_decimals=7; expected 0 to 6 decimals"),
    ({"expected": 0}, "expected=0; expected a number of results from 1 to 100,000"),
    ({"expected": 10**20}, "expected=100000000000000000000; expected a number of results from 1 to 100,000"),
    ({"imp_ave_plus": 25.0}, "imp_ave_plus=25.0; expected 0 to 24 IMPs"),
])
def test_the_checks_come_from_the_declarations(changes, message):
    with pytest.raises(ValueError, match=message):
        Conventions(**changes)


def test_every_declared_flag_is_an_option_of_score_and_sets_its_field(runner):
    help_text = runner.invoke(cli, ["score", "--help"]).output
    flagged = {name: d for name, d in DECLARED.items() if d.flag}
    assert len(flagged) == 22
    for name, declared in flagged.items():
        for flag in str(declared.flag).split("/"):
            assert flag in help_text, flag
        value = {"choice": declared.choices[-1] if declared.choices else None, "int": 2, "float": 0.25,
                 "switch": True, "decimals": 1, "text": {"strata": "400,50"}.get(name, "ebu-club")}[declared.kind]
        given = str(value) if declared.kind == "choice" else value
        assert convention_overrides({name: given}) == {name: value}, name
        # and the option the Conventions line names for it is the one the command line has (the pair
        # numbering is decided per session from the movement, not named on the Conventions line)
        if not declared.checks:
            assert option_flags(Conventions(**{name: value}))[0].split()[0] in help_text, name


def test_a_convention_the_checks_need_is_an_option_of_every_command_that_checks(runner):
    """--pair-numbering is declared once, in its Conventions field: score, check, conventions and event
    have it (once each), and check decides the numbering as score does."""
    checked = [name for name, d in DECLARED.items() if d.checks]
    assert checked == ["pair_numbering"]
    for command in (["score"], ["check"], ["conventions"], ["event"]):
        text = runner.invoke(cli, [*command, "--help"]).output
        assert text.count("--pair-numbering") == 1, command
        words = " ".join(text.split())
        assert "per-direction Mitchell" in words and "auto, from the movement" in words, command
