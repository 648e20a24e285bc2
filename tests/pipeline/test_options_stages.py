"""Options by stage (issue 27): each stage's type, the conventions given one by one checked when made, and the
stages each reaching their own part of a run."""
from __future__ import annotations

import pytest

from bridgeproc.model import ArchiveOptions, CheckOptions, ConventionChoice, Headings, Options, ReadOptions
from bridgeproc.model.options import ConventionChanges
from bridgeproc.rank import Conventions
from bridgeproc.rank.conventions import PROFILES


@pytest.mark.parametrize(("changes", "error"), [
    ({"factoring": "sometimes"}, "factoring='sometimes'; expected one of neuberg, average, none"),
    ({"mp_scale": 3}, "mp_scale=3; expected one of 2, 1"),
    ({"datum_drop": -1}, "datum_drop=-1; expected 0 to 10,000"),
    ({"fatoring": "none"}, "not a convention: fatoring"),
    ({"method": "mp", "neuberg": True, "across": 1}, "not a convention: across, neuberg"),
])
def test_a_convention_given_wrong_is_refused_when_the_options_are_made(changes, error):
    with pytest.raises(ValueError, match="^" + error.replace("(", r"\(").replace(")", r"\)") + "$"):
        ConventionChoice(changes=changes)  # type: ignore[arg-type]


def test_conventions_given_one_by_one_apply_over_the_chosen_ones():
    choice = ConventionChoice(changes={"mp_decimals": "exact", "factoring": "none", "winners": None})  # type: ignore[arg-type]
    assert dict(choice.changes) == {"mp_decimals": "exact", "factoring": "none"}  # None: not given
    applied = choice.changes.applied(Conventions(mp_decimals=1))
    assert (applied.mp_decimals, applied.factoring, applied.winners) == (None, "none", "auto")
    assert choice.chosen and not ConventionChoice().chosen and ConventionChoice(PROFILES["acbl"]).chosen
    assert choice.pair_numbering == "auto"
    assert ConventionChoice(changes={"pair_numbering": "per-direction"}).pair_numbering == "per-direction"  # type: ignore[arg-type]


def test_options_are_values_equal_when_their_stages_are():
    one = Options(ranking=ConventionChoice(changes={"factoring": "none"}), dd=False)  # type: ignore[arg-type]
    two = Options(ranking=ConventionChoice(changes=ConventionChanges({"factoring": "none"})), dd=False)
    assert one == two
    assert one != Options(ranking=ConventionChoice(changes={"factoring": "average"}), dd=False)  # type: ignore[arg-type]


def test_but_changes_fields_of_a_stage_and_keeps_the_others():
    options = Options(read=ReadOptions(encoding="cp1252"), archive=ArchiveOptions(store=True, url="club.db"),
                      headings=Headings(given={"event": "Pairs"}))
    changed = options.but(dd=False, archive={"store": False})
    assert changed.archive == ArchiveOptions(store=False, url="club.db")
    assert (changed.dd, changed.read, changed.headings, changed.check) == (False, options.read, options.headings,
                                                                          CheckOptions())
    assert options.archive.store and options.dd  # the original is untouched


def test_the_options_read_back_from_their_record_and_from_an_older_archive():
    from bridgeproc.rank.conventions import PROFILES

    options = Options(read=ReadOptions(names=("ns.csv", "ew.xlsx")), check=CheckOptions(trust="score"),
                      ranking=ConventionChoice(PROFILES["acbl"], {"mp_decimals": "exact"}),  # type: ignore[arg-type]
                      archive=ArchiveOptions(store=True, url="club.db", identity={"event": "Pairs"}),
                      headings=Headings(defaults={"site": "Oakfield"}), dd=False)
    import json
    assert Options.from_record(json.loads(json.dumps(options.record()))) == options
    # what archives stored before the split: one level, every field side by side
    flat = {"result_style": "auto", "check_scores": True, "trust": "score", "encoding": None, "arrow_switch": None,
            "conventions": None, "overrides": {"factoring": "none", "winners": None}, "names": ["ns.csv"],
            "dd": False, "tables": None, "movement_check": True, "archive": True, "archive_url": "club.db",
            "archive_as": {}, "replace": False, "meta": {"event": "Pairs"}, "meta_defaults": {}, "corrections": None,
            "a_field_no_longer_known": 1}
    assert Options.from_record(flat) == Options(
        read=ReadOptions(names=("ns.csv",)), check=CheckOptions(trust="score"),
        ranking=ConventionChoice(changes={"factoring": "none"}),  # type: ignore[arg-type]
        archive=ArchiveOptions(store=True, url="club.db"), headings=Headings(given={"event": "Pairs"}), dd=False)
    assert Options.from_record({}) == Options()
